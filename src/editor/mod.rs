//! The egui editor, in two views under tabs ([`view`]): Play, for a sound designer (the
//! controls grouped by what they do to the sound, the last note's waveform and
//! spectrum), and Physics (the solver, the physical values the controls set, and plots
//! of the last contact). The strike pad, the level meter and the preset browser stay at
//! the right in both. Widgets live in their own modules.
//!
//! What the audio thread hands the editor, and the pad's notes back, is in
//! [`crate::handoff`]. The editor's size and view are persisted with the plugin state
//! (`crate::params::editor_state`); nice-plug-egui's own state is not serialisable, so
//! a fresh egui editor is built on each `spawn` from the restored size and view.

pub mod browser;
pub mod controls;
pub mod meter;
pub mod pad;
pub mod physics;
pub mod plots;
pub mod readouts;
pub mod recorded;
pub mod tooltips;
pub mod view;
pub mod widgets;

use crate::engine::{ContactTrace, EngineParams};
use crate::handoff::EditorShared;
use crate::handoff::capture;
use crate::params::ReboundParams;
use crate::params::editor_state::View;
use nice_plug::editor::dpi::{LogicalSize, NativeSize};
use nice_plug::editor::{HostMethods, SizeConstraints, SpawnedEditor};
use nice_plug::prelude::*;
use nice_plug_egui::{
    EguiEditor, EguiEditorHandle, EguiNiceSettings, NiceEguiApp, create_egui_editor,
};
use std::sync::Arc;

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
    /// The view shown (saved in the parameters' `editor-view` on each switch).
    view: View,
    trace: Option<Box<ContactTrace>>,
    gui: Option<nice_plug::context::gui::GuiContext>,
    pad: pad::Pad,
    meter: meter::Ballistics,
    browser: browser::Browser,
    /// The Recorded body's loader (Body group).
    recorded: recorded::RecordedPanel,
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
        let env = std::env::var(view::VIEW_ENV).ok();
        let view = view::opening_view(
            crate::params::editor_state::get(&params.editor_view),
            env.as_deref(),
        );
        Self {
            params,
            shared,
            view,
            trace: None,
            gui: None,
            pad: pad::Pad::default(),
            meter: meter::Ballistics::default(),
            browser: browser::Browser::default(),
            recorded: recorded::RecordedPanel::default(),
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
        // Compact rows: every group fits the default height without scrolling.
        ui.spacing_mut().item_spacing.y = 2.0;
        ui.spacing_mut().interact_size.y = 16.0;
        egui::Panel::top("tabs").show(ui, |ui| self.top_bar(ui));
        egui::Panel::right("play")
            .resizable(false)
            .exact_size(PLAY_WIDTH)
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        let w = PLAY_WIDTH - meter::METER_WIDTH - 24.0;
                        self.pad.ui(ui, &self.shared.pad, egui::vec2(w, PAD_HEIGHT));
                    });
                    self.meter
                        .ui(ui, egui::vec2(meter::METER_WIDTH, PAD_HEIGHT + 22.0));
                });
                ui.separator();
                self.browser.ui(ui, &p, &setter);
            });
        egui::CentralPanel::default().show(ui, |ui| match self.view {
            View::Play => self.play_view(ui, &p, &setter),
            View::Physics => physics::ui(self, ui, &p, &setter),
        });
    }

    fn editor_closed(&mut self) {
        self.gui = None;
    }
}

/// Width of the right column (pad, meter, presets).
const PLAY_WIDTH: f32 = 250.0;
/// Height of the strike pad.
const PAD_HEIGHT: f32 = 150.0;
/// The least height the Play view keeps for its waveform and spectrum.
const SOUND_PLOTS_MIN: f32 = 150.0;

impl App {
    /// The tabs and the preset the parameters hold.
    fn top_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if let Some(v) = view::tabs(ui, self.view) {
                self.view = v;
                crate::params::editor_state::set(&self.params.editor_view, v);
            }
            ui.separator();
            let (presets, loaded) = self.browser.loaded_now(&self.params);
            let text = browser::loaded_text(presets, loaded);
            // A user preset's long name gives way at a narrow window; hover shows it whole.
            ui.add(egui::Label::new(egui::RichText::new(&text).strong()).truncate())
                .on_hover_text(&text);
        });
    }

    /// The controls, then the last note's waveform and spectrum.
    fn play_view(&mut self, ui: &mut egui::Ui, p: &ReboundParams, setter: &ParamSetter) {
        let loader = &mut self.recorded;
        egui::ScrollArea::vertical()
            .id_salt("controls")
            .max_height((ui.available_height() - SOUND_PLOTS_MIN).max(120.0))
            .show(ui, |ui| controls::controls(ui, p, setter, loader));
        ui.add_space(4.0);
        let empty_c = capture::Capture::default();
        let c = self.capture.as_deref().unwrap_or(&empty_c);
        let w = ((ui.available_width() - 12.0) / 2.0).max(160.0);
        let h = (ui.available_height() - 40.0).clamp(70.0, 320.0);
        let size = egui::vec2(w, h);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| plots::wave::plot(ui, c, &self.wave, size));
            ui.vertical(|ui| plots::spectrum::plot(ui, c, &self.spectrum, size));
        });
    }
}
