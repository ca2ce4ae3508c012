//! The plots, with axes, units and tick labels (egui_plot): the contact's energy against
//! eq (20) ([`energy`]), its phase portrait against eq (3) ([`phase`]), the per-bounce
//! drift ([`drift`]), the last note's waveform ([`wave`]) and spectrum
//! ([`spectrum`]), and a recorded body's partials ([`partials`]). Under gravity during contact (seed 001) neither eq (20) nor eq (3)
//! holds: the energy plot shows the load-aware balance instead, the phase portrait the
//! simulated points alone, and the drift plot the load-aware drift per contact.

pub mod drift;
pub mod energy;
pub mod partials;
pub mod phase;
pub mod spectrum;
pub mod wave;

use egui::Color32;
use egui_plot::{AxisHints, Corner, Legend, Plot};

pub const SIM: Color32 = Color32::from_rgb(255, 170, 60);
pub const ANALYTIC: Color32 = Color32::from_rgb(90, 180, 255);
pub const BALANCE: Color32 = Color32::from_rgb(120, 220, 120);
/// Points on an analytic curve.
pub const ANALYTIC_POINTS: usize = 160;

/// An x axis with its label, tick labels packed closer than egui_plot's default (the
/// plots are narrow).
pub fn x_axis<'a>(label: &str) -> AxisHints<'a> {
    AxisHints::new_x()
        .label(label.to_string())
        .label_spacing(28.0..=40.0)
}

/// Lines kept for a plot's title: it wraps within the plot's width, never cut.
pub const TITLE_LINES: f32 = 2.0;

/// The title above a plot `width` wide, wrapped in a band of [`TITLE_LINES`] lines so
/// that plots side by side line up.
pub fn title(ui: &mut egui::Ui, title: &str, width: f32) {
    let line = ui.text_style_height(&egui::TextStyle::Small);
    let band = egui::vec2(width, TITLE_LINES * line + 2.0);
    ui.allocate_ui_with_layout(band, egui::Layout::top_down(egui::Align::Min), |ui| {
        ui.set_min_size(band);
        ui.set_max_width(width);
        ui.add(egui::Label::new(egui::RichText::new(title).small()).wrap());
    });
}

/// A plot against `v / v_in` (the energy and phase portraits): the whole stroke, in
/// and out (`v / v_in` from −1 to 1), and `y` from 0 to `y_top`.
pub fn against_speed<'a>(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    y_label: &str,
    y_top: f64,
    size: egui::Vec2,
) -> Plot<'a> {
    framed(ui, id, title, x_axis("v / v_in"), y_label, size)
        .include_x(-1.0)
        .include_x(1.0)
        .include_y(0.0)
        .include_y(y_top)
}

/// A plot with labelled axes at a fixed view (no zoom or drag: the view follows the
/// data), a see-through legend, and its title above it ([`title`]).
pub fn framed<'a>(
    ui: &mut egui::Ui,
    id: &str,
    title: &str,
    x: AxisHints<'a>,
    y_label: &str,
    size: egui::Vec2,
) -> Plot<'a> {
    self::title(ui, title, size.x);
    Plot::new(id.to_string())
        .width(size.x)
        .height(size.y)
        .custom_x_axes(vec![x])
        .custom_y_axes(vec![
            AxisHints::new_y()
                .label(y_label.to_string())
                .label_spacing(16.0..=24.0),
        ])
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .legend(
            Legend::default()
                .position(Corner::RightBottom)
                .background_alpha(0.5)
                .text_style(egui::TextStyle::Small),
        )
}

/// `(v, value)` samples of an analytic curve over `[v_out, v_in]`.
pub fn analytic_curve(
    an: &crate::model::Analytic,
    f: impl Fn(&crate::model::Analytic, f64) -> f64,
) -> Vec<(f64, f64)> {
    let (a, b) = (an.v_out(), an.v_in);
    (0..=ANALYTIC_POINTS)
        .map(|i| {
            let v = a + (b - a) * i as f64 / ANALYTIC_POINTS as f64;
            (v, f(an, v))
        })
        .collect()
}

/// A power of ten that brings `max` (> 0) into 1–1000, for an axis unit such as
/// "10⁻⁶ %": `(scale, exponent)` with values shown as `value / scale`.
pub fn decade_scale(max: f64) -> (f64, i32) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 0);
    }
    let e = (max.log10().floor() as i32).div_euclid(3) * 3;
    (10f64.powi(e), e)
}

/// "×10^e " for an axis label (empty for e = 0).
pub fn times_ten(e: i32) -> String {
    if e == 0 {
        String::new()
    } else {
        format!("×10^{e} ")
    }
}
