//! The contact's phase portrait against eq (3); a two-way strike's striker over the
//! body's surface.

use super::{ANALYTIC, BALANCE, SIM, against_speed, analytic_curve, framed, x_axis};
use crate::engine::ContactTrace;
use crate::model::Analytic;
use egui_plot::{HLine, Line, LineStyle, PlotPoints, Points};

/// The lines of a two-way strike: the striker's `x_s`, the body's surface `w` under it
/// and the compression `δ = x_s − w`, each as `[time ms, µm]` from the onset (`None`
/// for a rigid-wall trace or an empty one).
pub fn surface_lines(t: &ContactTrace) -> Option<[Vec<[f64; 2]>; 3]> {
    if !t.two_way || t.len == 0 || t.fs.is_nan() || t.fs <= 0.0 {
        return None;
    }
    let at = |i: usize| (i * t.stride) as f64 / t.fs * 1e3;
    let line = |f: &dyn Fn(usize) -> f64| (0..t.len).map(|i| [at(i), f(i) * 1e6]).collect();
    Some([
        line(&|i| t.x[i] as f64),
        line(&|i| t.w[i] as f64),
        line(&|i| t.x[i] as f64 - t.w[i] as f64),
    ])
}

/// A two-way strike: the striker and the body's surface under it against time, and
/// the compression between them (the contact is where it is above 0).
fn plot_two_way(ui: &mut egui::Ui, t: &ContactTrace, size: egui::Vec2) {
    let lines = surface_lines(t);
    let title = "Striker x_s and the body's surface w under it (two-way), µm; dashed: \
                 δ = x_s − w, in contact above 0";
    framed(
        ui,
        "phase",
        title,
        x_axis("time from the onset, ms"),
        "µm",
        size,
    )
    .include_x(0.0)
    .include_y(0.0)
    .show(ui, |pu| {
        let Some([x_s, w, delta]) = lines else {
            return;
        };
        pu.line(
            Line::new("striker x_s", PlotPoints::from(x_s))
                .color(SIM)
                .width(1.5),
        );
        pu.line(
            Line::new("surface w", PlotPoints::from(w))
                .color(ANALYTIC)
                .width(1.5),
        );
        pu.line(
            Line::new("δ = x_s − w", PlotPoints::from(delta))
                .color(BALANCE)
                .style(LineStyle::dashed_loose()),
        );
    });
}

/// `x/x_max` against `v/v_in` over the analytic `x(v)` of eq (3); under load (no closed
/// form) the simulated points over their own largest `x`, with the rest position dashed;
/// a two-way strike as the striker over the moving surface ([`surface_lines`]).
pub fn plot(ui: &mut egui::Ui, t: &ContactTrace, size: egui::Vec2) {
    if t.two_way {
        return plot_two_way(ui, t, size);
    }
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
    against_speed(ui, "phase", &title, "x / x_max", 1.1, size).show(ui, |pu| {
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
