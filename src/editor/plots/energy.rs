//! The contact's Hamiltonian against eq (20); under load the load-aware balance.

use super::{ANALYTIC, BALANCE, SIM, against_speed, analytic_curve};
use crate::engine::ContactTrace;
use crate::model::Analytic;
use egui_plot::{HLine, Line, PlotPoints, Points};

/// `H/H₀` against `v/v_in`: the simulation over eq (20); under load the load-aware `H`
/// and `H + D` (D: the energy dissipated so far) over the balance `H + D = H₀`.
pub fn plot(ui: &mut egui::Ui, t: &ContactTrace, size: egui::Vec2) {
    let ok = t.len > 0 && t.v_in > 0.0;
    let h0 = if ok {
        Analytic::new(t.contact, t.v_in).h_0()
    } else {
        0.0
    };
    let title = if t.two_way {
        format!(
            "Energy of striker, contact and body's modes H/H₀ against v/v_in (two-way, H₀ {:.3e} J): falls by the contact's and the modes' damping",
            h0
        )
    } else if t.load {
        format!(
            "Energy under load: H = ½mv² + kx^(α+1)/(α+1) − mgx and H + D over H₀ = {:.3e} J; line: H + D = H₀",
            h0
        )
    } else {
        format!(
            "Hamiltonian H/H₀ against v/v_in (v_in {:.3} m/s, H₀ {:.3e} J); line: eq (20)",
            t.v_in, h0
        )
    };
    against_speed(ui, "energy", &title, "H / H₀", 1.05, size).show(ui, |pu| {
        if !ok {
            return;
        }
        let sim: PlotPoints = (0..t.len)
            .map(|i| [t.v[i] as f64 / t.v_in, t.h[i] as f64])
            .collect();
        if t.two_way {
            pu.hline(HLine::new("H₀", 1.0).color(ANALYTIC));
            pu.points(Points::new("simulated", sim).color(SIM).radius(1.6));
        } else if t.load {
            pu.hline(HLine::new("H + D = H₀", 1.0).color(ANALYTIC));
            let bal: PlotPoints = (0..t.len)
                .map(|i| [t.v[i] as f64 / t.v_in, (t.h[i] + t.d[i]) as f64])
                .collect();
            pu.points(
                Points::new("H + D (simulated)", bal)
                    .color(BALANCE)
                    .radius(1.6),
            );
            pu.points(Points::new("H (simulated)", sim).color(SIM).radius(1.6));
        } else {
            let an = Analytic::new(t.contact, t.v_in);
            let line: PlotPoints = analytic_curve(&an, |a, v| a.hamiltonian_of_v(v) / h0)
                .into_iter()
                .map(|(v, h)| [v / t.v_in, h])
                .collect();
            pu.line(Line::new("eq (20)", line).color(ANALYTIC).width(1.5));
            pu.points(Points::new("simulated", sim).color(SIM).radius(1.6));
        }
    });
}
