//! The Recorded body's loader, shown in the Body group when Body is Recorded: a path to
//! a recording of one strike (WAV or FLAC, fitted by `modal-fit` on a background
//! thread, so the editor keeps drawing) or to a body file, and the body's partials
//! drawn over the recording's spectrum ([`super::plots::partials`]).
//!
//! Loading registers the body and sets the session's (`ReboundParams::recorded_body`),
//! then moves Body, Body pitch and Decay through the host as one gesture each, so the
//! body sounds as recorded and the host records the change.

use super::plots::partials;
use crate::engine::recording;
use crate::model::body::{Recorded, recorded, register};
use crate::params::ReboundParams;
use nice_plug::prelude::*;
use std::path::Path;
use std::thread::JoinHandle;

/// A body loaded from a file, and what the plot draws of it.
pub struct Loaded {
    pub body: Recorded,
    /// Its index in the process's table.
    pub index: u16,
    /// The file's name, for the status line.
    pub source: String,
    /// The recording's spectrum from its onset, `[log10 f, dB]` (none for a body file).
    pub spectrum: Vec<[f64; 2]>,
}

/// The body in `path`: a body file (`.json`) as it is, or a recording fitted with
/// `rebound fit`'s defaults; registered. Errors are one sentence for the status line.
/// Takes a second or so for a long recording: not for the GUI thread.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let (body, spectrum) = if is_json {
        (recording::read_body_file(path)?, Vec::new())
    } else {
        let rec = modal_fit::read_audio(path).map_err(|e| e.to_string())?;
        let fit =
            modal_fit::fit(&rec, &modal_fit::FitOptions::default()).map_err(|e| e.to_string())?;
        let saved: Vec<recording::SavedPartial> = fit
            .modes
            .iter()
            .map(|m| recording::SavedPartial {
                freq_hz: m.freq_hz,
                t60_s: m.t60_s,
                amplitude: m.amplitude,
            })
            .collect();
        let body = recording::body_from_saved(&saved)?;
        (
            body,
            partials::recording_spectrum(&rec.channels, rec.fs, fit.onset_s),
        )
    };
    let index = register(&body)?;
    let source = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(Loaded {
        body,
        index,
        source,
        spectrum,
    })
}

/// The loader's state between frames.
#[derive(Default)]
pub struct RecordedPanel {
    path: String,
    job: Option<JoinHandle<Result<Loaded, String>>>,
    status: String,
    shown: Option<Loaded>,
}

impl RecordedPanel {
    /// The path field, the Load button, the status line and the partials' plot.
    pub fn ui(&mut self, ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter) {
        self.collect(p, s);
        let busy = self.job.is_some();
        ui.horizontal(|ui| {
            let field = egui::TextEdit::singleline(&mut self.path)
                .hint_text("a recording (.wav, .flac) or a body file (.json)")
                .desired_width((ui.available_width() - 60.0).max(80.0));
            let entered =
                ui.add(field).lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let clicked = ui
                .add_enabled(!busy, egui::Button::new("Load"))
                .on_hover_text("Fit the recording's partials (or read the body file) and play them")
                .clicked();
            if (clicked || entered) && !busy && !self.path.trim().is_empty() {
                let path = std::path::PathBuf::from(self.path.trim());
                self.status = format!("fitting {} …", path.display());
                self.job = Some(std::thread::spawn(move || load(&path)));
            }
        });
        if busy {
            ui.ctx().request_repaint();
        }
        let index = p.recorded_body.index();
        let spectrum = self
            .shown
            .as_ref()
            .filter(|l| l.index == index)
            .map_or(&[][..], |l| &l.spectrum[..]);
        if let Some(body) = recorded(index) {
            let status = if self.status.is_empty() {
                describe(
                    body,
                    if index == 0 {
                        "built in: a tapped wine glass"
                    } else {
                        "from the session"
                    },
                )
            } else {
                self.status.clone()
            };
            ui.label(status);
            let size = egui::vec2(ui.available_width(), partials::PLOT_HEIGHT);
            partials::plot(ui, body, spectrum, size);
        }
    }

    /// Takes a finished load: plays its body, or shows why it failed.
    fn collect(&mut self, p: &ReboundParams, s: &ParamSetter) {
        if !self.job.as_ref().is_some_and(JoinHandle::is_finished) {
            return;
        }
        let Some(job) = self.job.take() else { return };
        match job.join() {
            Ok(Ok(loaded)) => {
                play(&loaded, p, s);
                self.status = describe(&loaded.body, &loaded.source);
                self.shown = Some(loaded);
            }
            Ok(Err(e)) => self.status = format!("not loaded: {e}"),
            Err(_) => self.status = "not loaded: the fit failed".to_string(),
        }
    }
}

/// The status line for a body.
fn describe(body: &Recorded, source: &str) -> String {
    format!(
        "{} partials, the strongest at {:.1} Hz with T60 {:.2} s ({source})",
        body.count, body.f_ref, body.t60_ref
    )
}

/// Makes the session play `loaded`: its body, and Body, Body pitch and Decay through
/// the host at the body's reference partial (within their ranges).
fn play(loaded: &Loaded, p: &ReboundParams, s: &ParamSetter) {
    p.recorded_body.set_index(loaded.index);
    let mut q = p.engine_params();
    if recording::use_body(&mut q, &loaded.body, true).is_err() {
        return;
    }
    s.begin_set_parameter(&p.body.body);
    s.set_parameter(&p.body.body, q.body);
    s.end_set_parameter(&p.body.body);
    for (param, v) in [(&p.body.body_freq, q.body_freq), (&p.body.t60, q.t60)] {
        s.begin_set_parameter(param);
        s.set_parameter(param, v as f32);
        s.end_set_parameter(param);
    }
}
