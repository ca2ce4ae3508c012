//! The residual-energy drift of each bounce.

use super::{SIM, decade_scale, framed, times_ten, x_axis};
use crate::engine::ContactTrace;
use egui_plot::{Bar, BarChart};

/// Residual energy after each bounce against the exact chain, %; under load the model's
/// load-aware energy drift of each contact, %. Tiny values get a power-of-ten unit.
pub fn plot(ui: &mut egui::Ui, t: &ContactTrace, size: egui::Vec2) {
    let n = t.bounces;
    let m = t.drift_pct[..n]
        .iter()
        .fold(0.0f64, |m, d| m.max((*d as f64).abs()));
    let (scale, e) = decade_scale(m);
    let title = if t.drift_load {
        "Load-aware energy drift per bounce: max |H + D − H₀| / ΔH of the exact contact"
    } else {
        "Residual-energy drift per bounce against the exact chain (0 = exact)"
    };
    let y_label = format!("drift, {}%", times_ten(e));
    let mut p = framed(ui, "drift", title, x_axis("bounce"), &y_label, size)
        .include_x(0.0)
        .include_x(n.max(8) as f64 + 1.0)
        .include_y(0.0);
    if n == 0 {
        p = p.include_y(1.0);
    }
    p.show(ui, |pu| {
        if n == 0 {
            return;
        }
        let bars = t.drift_pct[..n]
            .iter()
            .enumerate()
            .map(|(i, d)| Bar::new(i as f64 + 1.0, *d as f64 / scale).width(0.6))
            .collect();
        pu.bar_chart(BarChart::new("drift", bars).color(SIM));
    });
}
