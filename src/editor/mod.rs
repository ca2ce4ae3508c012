//! The egui editor: a strike pad and a level meter to play, a preset browser, the
//! parameters in their groups, the physical values they set, and plots of the last
//! contact and the last note. Widgets live in their own modules.
//!
//! The audio thread hands data over lock-free: the contact trace and the note capture
//! through triple buffers, pad notes through an atomic ring, the level through an
//! atomic. The editor's
//! size is persisted with the plugin state ([`EditorSize`]); nice-plug-egui's own state
//! is not serialisable, so a fresh egui editor is built on each `spawn` from the
//! restored size.

pub mod browser;
pub mod capture;
pub mod meter;
pub mod pad;
pub mod plots;
pub mod readouts;
pub mod size;
pub mod tooltips;

pub use size::EditorSize;

use crate::engine::{ContactTrace, EngineParams};
use crate::params::ReboundParams;
use nice_plug::editor::dpi::{LogicalSize, NativeSize};
use nice_plug::editor::{HostMethods, SizeConstraints, SpawnedEditor};
use nice_plug::prelude::*;
use nice_plug_egui::widgets::ParamSlider;
use nice_plug_egui::{
    EguiEditor, EguiEditorHandle, EguiNiceSettings, NiceEguiApp, RepaintNotifier,
    create_egui_editor,
};
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::{Arc, Mutex};

/// What the audio thread shares with the editor.
pub struct EditorShared {
    /// The consumer end of the trace triple buffer (only the GUI thread locks this).
    pub trace: Mutex<triple_buffer::Output<ContactTrace>>,
    pub guard_events: AtomicU64,
    pub active_voices: AtomicU32,
    pub repaint: RepaintNotifier,
    /// Notes from the strike pad to the audio thread.
    pub pad: pad::PadQueue,
    /// The output peak, for the meter.
    pub meter: meter::PeakMeter,
    /// The consumer end of the last note's capture (only the GUI thread locks this).
    pub capture: Mutex<triple_buffer::Output<capture::Capture>>,
}

/// The plugin's editor: builds an egui editor at the persisted size on each spawn.
pub struct ReboundEditor {
    params: Arc<ReboundParams>,
    shared: Arc<EditorShared>,
}

impl ReboundEditor {
    pub fn new(params: Arc<ReboundParams>, shared: Arc<EditorShared>) -> Self {
        Self { params, shared }
    }

    fn build(&self) -> Option<EguiEditor<App>> {
        let settings = EguiNiceSettings::default()
            .with_tile("Rebound")
            .with_resize_hint(ResizeHint {
                can_resize: true,
                can_resize_horizontally: true,
                can_resize_vertically: true,
                preserve_aspect_ratio: false,
                aspect_ratio_width: 1,
                aspect_ratio_height: 1,
                size_constraints: SizeConstraints::Logical {
                    min_size: Some(LogicalSize::new(MIN_SIZE.0, MIN_SIZE.1)),
                    max_size: None,
                },
            });
        create_egui_editor(
            self.params.editor_size.state(),
            self.shared.repaint.clone(),
            settings,
            App::new(self.params.clone(), self.shared.clone()),
        )
    }
}

impl Editor for ReboundEditor {
    type Handle = EguiEditorHandle;

    fn spawn(
        &self,
        parent: Option<ParentWindowHandle>,
        wait_for_parent: bool,
        fallback_scale_factor: Option<f64>,
        gui_context: nice_plug::context::gui::GuiContext,
        host: Option<HostMethods>,
    ) -> Result<SpawnedEditor<Self::Handle>, Box<dyn std::error::Error>> {
        let editor = self.build().ok_or("could not build the egui editor")?;
        editor.spawn(
            parent,
            wait_for_parent,
            fallback_scale_factor,
            gui_context,
            host,
        )
    }

    fn size(&self) -> NativeSize<u32> {
        match self.build() {
            Some(e) => e.size(),
            None => {
                let (w, h) = self.params.editor_size.size();
                NativeSize::new(w, h)
            }
        }
    }

    fn resize_hint(&self) -> ResizeHint {
        self.build()
            .map_or(ResizeHint::default(), |e| e.resize_hint())
    }
}

/// Smallest editor size, logical pixels: every widget still fits.
pub const MIN_SIZE: (f32, f32) = (960.0, 640.0);

/// What the editor keeps between frames.
pub struct App {
    params: Arc<ReboundParams>,
    shared: Arc<EditorShared>,
    trace: Option<Box<ContactTrace>>,
    gui: Option<nice_plug::context::gui::GuiContext>,
    pad: pad::Pad,
    meter: meter::Ballistics,
    browser: browser::Browser,
    capture: Option<Box<capture::Capture>>,
    /// The capture the derived plots were computed from: `(seq, len)`.
    derived_from: (u64, usize),
    wave: Vec<[f64; 2]>,
    spectrum: Vec<[f64; 2]>,
    /// The physical readout and the parameters it was computed from.
    physical: Option<(EngineParams, String)>,
}

impl App {
    fn new(params: Arc<ReboundParams>, shared: Arc<EditorShared>) -> Self {
        Self {
            params,
            shared,
            trace: None,
            gui: None,
            pad: pad::Pad::default(),
            meter: meter::Ballistics::default(),
            browser: browser::Browser::default(),
            capture: None,
            derived_from: (0, 0),
            wave: Vec::new(),
            spectrum: Vec::new(),
            physical: None,
        }
    }

    /// Copies the newest trace and capture out of their triple buffers, and recomputes
    /// the waveform envelope and spectrum when the capture changed.
    fn pull(&mut self) {
        if let Ok(mut out) = self.shared.trace.lock() {
            let t = out.read();
            if t.seq > 0 {
                match self.trace.as_mut() {
                    Some(b) => (**b).clone_from(t),
                    None => self.trace = Some(Box::new(t.clone())),
                }
            }
        }
        if let Ok(mut out) = self.shared.capture.lock() {
            let c = out.read();
            if c.seq > 0 && (c.seq, c.len) != self.derived_from {
                self.derived_from = (c.seq, c.len);
                self.wave = plots::wave::envelope(c.recorded(), c.fs, plots::wave::WAVE_COLUMNS);
                let bins = crate::analysis::spectrum_db(c.recorded(), c.fs);
                self.spectrum =
                    plots::spectrum::reduce_log(&bins, plots::spectrum::SPECTRUM_POINTS);
                match self.capture.as_mut() {
                    Some(b) => (**b).clone_from(c),
                    None => self.capture = Some(Box::new(c.clone())),
                }
            }
        }
    }

    fn physical_line(&mut self) -> String {
        let p = self.params.engine_params();
        match &self.physical {
            Some((q, s)) if *q == p => s.clone(),
            _ => {
                let s = readouts::physical_text(&p);
                self.physical = Some((p, s.clone()));
                s
            }
        }
    }
}

impl NiceEguiApp for App {
    fn build(
        &mut self,
        _egui_ctx: egui::Context,
        nice_gui_ctx: nice_plug::context::gui::GuiContext,
        _frame: &mut nice_plug_egui::Frame,
    ) -> Result<(), nice_plug_egui::baseview::HandlerError> {
        self.gui = Some(nice_gui_ctx);
        Ok(())
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut nice_plug_egui::Frame) {
        self.pull();
        let dt = ui.input(|i| i.stable_dt);
        self.meter.update(self.shared.meter.take(), dt);
        // The meter falls between notes: keep drawing while it does.
        if self.meter.level_db > meter::METER_FLOOR_DB || self.meter.hold_db > meter::METER_FLOOR_DB
        {
            ui.ctx().request_repaint();
        }
        let Some(gui) = self.gui.clone() else { return };
        let setter = gui.param_setter();
        let p = self.params.clone();
        // Compact rows: all groups fit the default height without scrolling.
        ui.spacing_mut().item_spacing.y = 1.0;
        ui.spacing_mut().interact_size.y = 16.0;
        let physical = self.physical_line();
        egui::Panel::left("params")
            .resizable(false)
            .exact_size(GROUP_WIDTH + 14.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| param_groups(ui, &p, &setter));
            });
        egui::Panel::right("play")
            .resizable(false)
            .exact_size(PLAY_WIDTH)
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        self.pad
                            .ui(ui, &self.shared.pad, egui::vec2(PLAY_WIDTH - 64.0, 150.0));
                    });
                    self.meter.ui(ui, egui::vec2(22.0, 166.0));
                });
                ui.separator();
                self.browser.ui(ui, &p, &setter);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.monospace(physical)
                .on_hover_text(readouts::PHYSICAL_HELP);
            let empty = ContactTrace::default();
            let t = self.trace.as_deref().unwrap_or(&empty);
            readouts::readouts(ui, t, &self.shared);
            let empty_c = capture::Capture::default();
            let c = self.capture.as_deref().unwrap_or(&empty_c);
            let w = ((ui.available_width() - 12.0) / 2.0).max(160.0);
            let h = ((ui.available_height() - 80.0) / 3.0).clamp(80.0, 320.0);
            let size = egui::vec2(w, h);
            egui::Grid::new("plots").num_columns(2).show(ui, |ui| {
                ui.vertical(|ui| plots::energy::plot(ui, t, size));
                ui.vertical(|ui| plots::phase::plot(ui, t, size));
                ui.end_row();
                ui.vertical(|ui| plots::wave::plot(ui, c, &self.wave, size));
                ui.vertical(|ui| plots::spectrum::plot(ui, c, &self.spectrum, size));
                ui.end_row();
            });
            plots::drift::plot(ui, t, egui::vec2(2.0 * w + 8.0, h));
        });
    }

    fn editor_closed(&mut self) {
        self.gui = None;
    }
}

/// Width of a parameter group: label, slider and the widest value text
/// ("1.00e12 N/m^α"), so that every group frame lines up.
const GROUP_WIDTH: f32 = 390.0;
/// Width of the right column (pad, meter, presets).
const PLAY_WIDTH: f32 = 230.0;

/// The parameters in their groups, plain names, paper names on hover.
fn param_groups(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter) {
    group(ui, "Strike", |ui| {
        slider(ui, &p.v_min, "vmin", s);
        slider(ui, &p.v_max, "vmax", s);
        slider(ui, &p.velocity_curve, "vcurve", s);
        slider(ui, &p.mass, "mass", s);
    });
    group(ui, "Contact (latched at onset)", |ui| {
        slider(ui, &p.controls, "controls", s);
        if p.controls.value() == crate::params::ControlsChoice::Playable {
            slider(ui, &p.hardness, "hard", s);
            slider(ui, &p.restitution, "rest", s);
            slider(ui, &p.alpha, "alpha", s);
        } else {
            slider(ui, &p.stiffness, "k", s);
            slider(ui, &p.alpha, "alpha", s);
            slider(ui, &p.damping_mode, "dmode", s);
            slider(ui, &p.damping, "mu", s);
            slider(ui, &p.restitution, "rest", s);
        }
    });
    group(ui, "Integrator and correction", |ui| {
        slider(ui, &p.integrator, "method", s);
        slider(ui, &p.correction, "corr", s);
        slider(ui, &p.clamp_target, "clamp", s);
    });
    group(ui, "Bouncing", |ui| {
        slider(ui, &p.bouncing, "bounce", s);
        slider(ui, &p.gravity, "grav", s);
        slider(ui, &p.gravity_in_contact, "gcont", s);
    });
    group(ui, "Body", |ui| {
        slider(ui, &p.body, "body", s);
        slider(ui, &p.body_freq, "bfreq", s);
        slider(ui, &p.key_track, "ktrack", s);
        slider(ui, &p.t60, "t60", s);
        slider(ui, &p.brightness, "bright", s);
        slider(ui, &p.position, "pos", s);
        slider(ui, &p.mix, "mix", s);
        slider(ui, &p.note_off, "noteoff", s);
        slider(ui, &p.release, "release", s);
    });
    group(ui, "Output, variation, expression", |ui| {
        slider(ui, &p.gain, "gain", s);
        slider(ui, &p.width, "width", s);
        slider(ui, &p.voices, "voices", s);
        slider(ui, &p.humanize, "human", s);
        slider(ui, &p.seed, "seed", s);
        slider(ui, &p.mod_wheel, "mwheel", s);
        slider(ui, &p.mod_depth, "mwamt", s);
        slider(ui, &p.bend_range, "bend", s);
    });
}

fn group(ui: &mut egui::Ui, title: &str, body: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::symmetric(6, 1))
        .show(ui, |ui| {
            ui.set_width(GROUP_WIDTH - 14.0);
            ui.strong(title);
            body(ui);
        });
}

/// A labelled slider whose hover text is the spec's help and the paper's name.
fn slider<P: Param>(ui: &mut egui::Ui, param: &P, id: &str, setter: &ParamSetter) {
    let tip = tooltips::tooltip(id);
    ui.horizontal(|ui| {
        let label = ui.add_sized([105.0, 16.0], egui::Label::new(param.name()).truncate());
        let slider = ui.add(ParamSlider::for_param(param, setter).with_width(150.0));
        if !tip.is_empty() {
            label.on_hover_text(&tip);
            slider.on_hover_text(&tip);
        }
    });
}
