//! The egui panel: the parameters in their groups and live plots of the last contact.
//!
//! The audio thread hands data over lock-free: the contact trace through a triple
//! buffer (written by the engine, read here), scalars through atomics. The editor's
//! size is persisted with the plugin state ([`EditorSize`]); nice-plug-egui's own state
//! is not serialisable, so a fresh egui editor is built on each `spawn` from the
//! restored size.

mod plots;
pub mod size;

pub use size::EditorSize;

use crate::engine::{BounceMode, ContactTrace, LastContact, RestState};
use crate::params::ReboundParams;
use nice_plug::editor::dpi::{LogicalSize, NativeSize};
use nice_plug::editor::{HostMethods, SizeConstraints, SpawnedEditor};
use nice_plug::prelude::*;
use nice_plug_egui::widgets::ParamSlider;
use nice_plug_egui::{
    EguiEditor, EguiEditorHandle, EguiNiceSettings, NiceEguiApp, RepaintNotifier,
    create_egui_editor,
};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What the audio thread shares with the editor.
pub struct EditorShared {
    /// The consumer end of the trace triple buffer (only the GUI thread locks this).
    pub trace: Mutex<triple_buffer::Output<ContactTrace>>,
    pub guard_events: AtomicU64,
    pub active_voices: AtomicU32,
    pub repaint: RepaintNotifier,
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
                    min_size: Some(LogicalSize::new(640.0, 480.0)),
                    max_size: None,
                },
            });
        create_egui_editor(
            self.params.editor_size.state(),
            self.shared.repaint.clone(),
            settings,
            App {
                params: self.params.clone(),
                shared: self.shared.clone(),
                trace: None,
                gui: None,
            },
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

pub struct App {
    params: Arc<ReboundParams>,
    shared: Arc<EditorShared>,
    trace: Option<Box<ContactTrace>>,
    gui: Option<nice_plug::context::gui::GuiContext>,
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
        if let Ok(mut out) = self.shared.trace.lock() {
            let t = out.read();
            if t.seq > 0 {
                match self.trace.as_mut() {
                    Some(b) => (**b).clone_from(t),
                    None => self.trace = Some(Box::new(t.clone())),
                }
            }
        }
        let Some(gui) = self.gui.clone() else { return };
        let setter = gui.param_setter();
        let p = self.params.clone();
        // Compact rows: all six groups fit the default height without scrolling.
        ui.spacing_mut().item_spacing.y = 1.0;
        ui.spacing_mut().interact_size.y = 16.0;
        ui.horizontal_top(|ui| {
            egui::ScrollArea::vertical()
                .max_width(GROUP_WIDTH + 16.0)
                .show(ui, |ui| {
                    ui.vertical(|ui| {
                        group(ui, "Strike", |ui| {
                            slider(ui, &p.v_min, &setter);
                            slider(ui, &p.v_max, &setter);
                            slider(ui, &p.velocity_curve, &setter);
                            slider(ui, &p.mass, &setter);
                        });
                        group(ui, "Contact (latched at onset)", |ui| {
                            slider(ui, &p.stiffness, &setter);
                            slider(ui, &p.alpha, &setter);
                            slider(ui, &p.damping_mode, &setter);
                            slider(ui, &p.damping, &setter);
                            slider(ui, &p.restitution, &setter);
                        });
                        group(ui, "Integrator and correction", |ui| {
                            slider(ui, &p.integrator, &setter);
                            slider(ui, &p.correction, &setter);
                            slider(ui, &p.clamp_target, &setter);
                        });
                        group(ui, "Bouncing", |ui| {
                            slider(ui, &p.bouncing, &setter);
                            slider(ui, &p.gravity, &setter);
                            slider(ui, &p.gravity_in_contact, &setter);
                        });
                        group(ui, "Body", |ui| {
                            slider(ui, &p.body, &setter);
                            slider(ui, &p.body_freq, &setter);
                            slider(ui, &p.key_track, &setter);
                            slider(ui, &p.t60, &setter);
                            slider(ui, &p.brightness, &setter);
                            slider(ui, &p.position, &setter);
                            slider(ui, &p.mix, &setter);
                            slider(ui, &p.note_off, &setter);
                            slider(ui, &p.release, &setter);
                        });
                        group(ui, "Output", |ui| {
                            slider(ui, &p.gain, &setter);
                            slider(ui, &p.voices, &setter);
                        });
                    });
                });
            ui.separator();
            ui.vertical(|ui| {
                let w = (ui.available_width() - 8.0).max(200.0);
                let h = ((ui.available_height() - 190.0) / 3.0).clamp(80.0, 260.0);
                let size = egui::vec2(w, h);
                let empty = ContactTrace::default();
                let t = self.trace.as_deref().unwrap_or(&empty);
                readouts(ui, t, &self.shared);
                plots::hamiltonian(ui, t, size);
                plots::phase(ui, t, size);
                plots::drift(ui, t, size);
            });
        });
    }

    fn editor_closed(&mut self) {
        self.gui = None;
    }
}

/// Width of a parameter group: label, slider and the widest value text
/// ("1.00e12 N/m^α"), so that every group frame lines up.
const GROUP_WIDTH: f32 = 390.0;

fn group(ui: &mut egui::Ui, title: &str, body: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::symmetric(6, 1))
        .show(ui, |ui| {
            ui.set_width(GROUP_WIDTH - 14.0);
            ui.strong(title);
            body(ui);
        });
}

fn slider<P: Param>(ui: &mut egui::Ui, param: &P, setter: &ParamSetter) {
    ui.horizontal(|ui| {
        ui.add_sized([105.0, 16.0], egui::Label::new(param.name()).truncate());
        ui.add(ParamSlider::for_param(param, setter).with_width(150.0));
    });
}

fn readouts(ui: &mut egui::Ui, t: &ContactTrace, shared: &EditorShared) {
    ui.horizontal_wrapped(|ui| {
        if t.seq == 0 {
            ui.label("Play a note to see its contact.");
        } else {
            let dev = if t.load { "%drift(H+D)" } else { "%dev(H)" };
            ui.monospace(format!(
                "{} + {} | v_in {:.3} m/s | contact {} samples | {dev} {:.3e} | %err(v_out) {} | Newton {:.2} (max {})",
                t.scheme.method.name(),
                t.scheme.correction.name(),
                t.v_in,
                t.samples,
                t.dev_h_pct,
                signed_pct(t.err_vout_pct),
                t.newton_mean,
                t.newton_max
            ));
            if t.runaway {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 90, 90),
                    "RUNAWAY: the contact went wild and was ended with the analytic v_out",
                );
            }
        }
        ui.monospace(format!(
            "voices {} | guard events {}",
            shared.active_voices.load(Ordering::Relaxed),
            shared.guard_events.load(Ordering::Relaxed)
        ));
    });
    if t.seq > 0 {
        ui.monospace(damping_text(&t.last));
        ui.monospace(format!(
            "{} | {}",
            bounce_text(t.bounce, t.gravity, &t.last),
            rest_text(t.rest)
        ));
    }
}

/// A signed percentage; an exact result (−0.0) shows as +0, an undefined one as n/a.
fn signed_pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:+.3e}", v + 0.0)
    } else {
        "n/a".into()
    }
}

/// The last contact's damping: its mode, the μ it used, and the restitution obtained
/// (`−v_out/v_in`) against the exact one.
fn damping_text(l: &LastContact) -> String {
    let mode = match l.restitution {
        Some(e) => format!(
            "damping from restitution e {e:.3} → μ = {:.6}/v_in = {:.4e} s/m",
            l.mu * l.v_in,
            l.mu
        ),
        None => format!("damping from μ {:.4e} s/m", l.mu),
    };
    if l.impact == 0 {
        return format!("{mode} | no contact ended yet");
    }
    format!(
        "{mode} | impact #{}: e = −v_out/v_in {:.6} (exact {:.6})",
        l.impact, l.e, l.e_exact
    )
}

/// The bouncing of the last note, with the load-aware drift of its last contact.
fn bounce_text(mode: BounceMode, g: f64, l: &LastContact) -> String {
    match mode {
        BounceMode::Off => "bouncing off".into(),
        BounceMode::FlightOnly => format!("bouncing: flight only, g {g:.2} m/s²"),
        BounceMode::InContact if l.load_drift_pct.is_finite() => format!(
            "bouncing: gravity in contact, g {g:.2} m/s² | load drift {:.3e} % of ΔH",
            l.load_drift_pct
        ),
        BounceMode::InContact => format!("bouncing: gravity in contact, g {g:.2} m/s²"),
    }
}

fn rest_text(r: RestState) -> String {
    match r {
        RestState::Single => "single impact".into(),
        RestState::Bouncing => "bouncing".into(),
        RestState::Sticking => "sticking (settling on the wall)".into(),
        RestState::Resting { x_rest } => {
            format!("resting at x_rest = (mg/k)^(1/α) = {:.3} µm", x_rest * 1e6)
        }
        RestState::Ended => "ended (bounces under a sample)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readout_texts() {
        let l = LastContact {
            impact: 3,
            v_in: 1.0,
            e: 0.3,
            e_exact: 0.3,
            mu: 3.087082,
            restitution: Some(0.3),
            load_drift_pct: f64::NAN,
        };
        let d = damping_text(&l);
        assert!(
            d.contains("restitution e 0.300") && d.contains("3.087082/v_in"),
            "{d}"
        );
        assert!(d.contains("#3") && d.contains("0.300000"), "{d}");
        let mu = damping_text(&LastContact {
            restitution: None,
            mu: 0.5,
            ..l
        });
        assert!(mu.starts_with("damping from μ 5.0000e-1"), "{mu}");
        assert_eq!(bounce_text(BounceMode::Off, 9.81, &l), "bouncing off");
        assert!(bounce_text(BounceMode::FlightOnly, 9.81, &l).contains("flight only"));
        let drift = LastContact {
            load_drift_pct: 1.5,
            ..l
        };
        let b = bounce_text(BounceMode::InContact, 9.81, &drift);
        assert!(b.contains("in contact") && b.contains("1.500e0 %"), "{b}");
        assert_eq!(
            rest_text(RestState::Resting { x_rest: 4.5826e-6 }),
            "resting at x_rest = (mg/k)^(1/α) = 4.583 µm"
        );
        assert!(rest_text(RestState::Sticking).starts_with("sticking"));
        assert_eq!(signed_pct(-0.0), "+0.000e0");
        assert_eq!(signed_pct(f64::NAN), "n/a");
    }
}
