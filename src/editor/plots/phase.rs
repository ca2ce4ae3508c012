//! The contact's phase portrait against eq (3).

use super::{ANALYTIC, SIM, analytic_curve, framed, x_axis};
use crate::engine::ContactTrace;
use crate::model::Analytic;
use egui_plot::{HLine, Line, LineStyle, PlotPoints, Points};

/// `x/x_max` against `v/v_in` over the analytic `x(v)` of eq (3); under load (no closed
/// form) the simulated points over their own largest `x`, with the rest position dashed.
pub fn plot(ui: &mut egui::Ui, t: &ContactTrace, size: egui::Vec2) {
    let ok = t.len > 0 && t.v_in > 0.0;
    let c = t.contact;
    let (xm, x_rest) = if !ok {
        (1.0, 0.0)
    } else if t.load {
        let m = t.x[..t.len].iter().fold(0.0f64, |m, x| m.max(*x as f64));
        let x_rest = crate::model::load::x_rest(c.k, c.alpha, c.mass, t.load_g);
        (m.max(x_rest).max(f64::MIN_POSITIVE), x_rest)
    } else {
        (Analytic::new(c, t.v_in).x_max().max(f64::MIN_POSITIVE), 0.0)
    };
    let title = if t.load {
        format!(
            "Phase portrait under load (x_max {:.3} µm; dashed: x_rest)",
            xm * 1e6
        )
    } else {
        format!(
            "Phase portrait x/x_max against v/v_in (x_max {:.3} µm); line: eq (3)",
            xm * 1e6
        )
    };
    framed(ui, "phase", &title, x_axis("v / v_in"), "x / x_max", size)
        .include_x(-1.0)
        .include_x(1.0)
        .include_y(0.0)
        .include_y(1.1)
        .show(ui, |pu| {
            if !ok {
                return;
            }
            if t.load {
                pu.hline(
                    HLine::new("x_rest = (mg/k)^(1/α)", x_rest / xm)
                        .color(ANALYTIC)
                        .style(LineStyle::dashed_loose()),
                );
            } else {
                let an = Analytic::new(c, t.v_in);
                let line: PlotPoints = analytic_curve(&an, |a, v| a.x_of_v(v) / xm)
                    .into_iter()
                    .map(|(v, x)| [v / t.v_in, x])
                    .collect();
                pu.line(Line::new("eq (3)", line).color(ANALYTIC).width(1.5));
            }
            let sim: PlotPoints = (0..t.len)
                .map(|i| [t.v[i] as f64 / t.v_in, t.x[i] as f64 / xm])
                .collect();
            pu.points(Points::new("simulated", sim).color(SIM).radius(1.6));
        });
}
