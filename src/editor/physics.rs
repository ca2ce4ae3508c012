//! The Physics view: the solver's settings, the physical values the controls set, the
//! last contact's report, and its plots (energy against eq (20), phase portrait against
//! eq (3), drift per bounce) with the last note's waveform and spectrum.

use super::{App, capture, controls, plots, readouts};
use crate::engine::ContactTrace;
use crate::params::ReboundParams;
use nice_plug::prelude::*;

/// Room under the plots' grid for the drift plot's axis labels and the titles.
const PLOT_CHROME: f32 = 150.0;

/// The view's content, in the central panel.
pub fn ui(app: &mut App, ui: &mut egui::Ui, p: &ReboundParams, setter: &ParamSetter) {
    controls::solver(ui, p, setter);
    let physical = app.physical_line();
    ui.add(egui::Label::new(egui::RichText::new(physical).monospace()).wrap())
        .on_hover_text(readouts::PHYSICAL_HELP);
    let empty = ContactTrace::default();
    let t = app.trace.as_deref().unwrap_or(&empty);
    readouts::readouts(ui, t, &app.shared);
    ui.add_space(4.0);
    let empty_c = capture::Capture::default();
    let c = app.capture.as_deref().unwrap_or(&empty_c);
    let w = ((ui.available_width() - 12.0) / 2.0).max(160.0);
    let h = ((ui.available_height() - PLOT_CHROME) / 3.0).clamp(70.0, 320.0);
    let size = egui::vec2(w, h);
    egui::Grid::new("plots").num_columns(2).show(ui, |ui| {
        ui.vertical(|ui| plots::energy::plot(ui, t, size));
        ui.vertical(|ui| plots::phase::plot(ui, t, size));
        ui.end_row();
        ui.vertical(|ui| plots::wave::plot(ui, c, &app.wave, size));
        ui.vertical(|ui| plots::spectrum::plot(ui, c, &app.spectrum, size));
        ui.end_row();
    });
    plots::drift::plot(ui, t, egui::vec2(2.0 * w + 8.0, h));
}
