//! The text readouts: the physical values the controls set (k, μ, τ, e, always shown)
//! and the last contact's report (scheme, errors, damping, bouncing, rest).

use super::EditorShared;
use crate::engine::{BounceMode, ContactTrace, EngineParams, LastContact, RestState};
use std::sync::atomic::Ordering;

/// The physical values as one line.
pub fn physical_text(p: &EngineParams) -> String {
    let ph = crate::engine::physical(p);
    format!(
        "k {:.3e} N/m^α | μ {:.3e} s/m | τ {:.3} ms at {:.2} m/s | e {:.3}",
        ph.k,
        ph.mu,
        ph.tau_ms,
        p.v_max.max(p.v_min),
        ph.e
    )
}

/// What the physical readout shows, in the paper's words.
pub const PHYSICAL_HELP: &str = "What the controls set, at the max strike speed: stiffness k \
     and damping μ of f = k x^α (1 + μ v) (eq 1), contact time τ (eq 9), restitution \
     e = −v_out/v_in (eq 7 / eq 19)";

pub fn readouts(ui: &mut egui::Ui, t: &ContactTrace, shared: &EditorShared) {
    ui.horizontal_wrapped(|ui| {
        if t.seq == 0 {
            ui.label("Play a note to see its contact.");
        } else if t.two_way {
            ui.monospace(two_way_text(t));
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

/// The readout of a two-way strike: its speed, its samples in contact, how far the
/// body's surface moved under the striker, and the energy left in striker, contact and
/// modes when it was over.
pub fn two_way_text(t: &ContactTrace) -> String {
    let n = t.len.min(t.w.len());
    let w_max = t.w[..n].iter().fold(0.0f64, |m, w| m.max(w.abs() as f64));
    let x_max = t.x[..n].iter().fold(0.0f64, |m, x| m.max(*x as f64));
    let h_end = if n > 0 { t.h[n - 1] as f64 } else { f64::NAN };
    format!(
        "two-way | v_in {:.3} m/s | contact {} samples | x_s max {:.3} µm | surface w max {:.3} µm | H/H₀ at the end {:.3}",
        t.v_in,
        t.samples,
        x_max * 1e6,
        w_max * 1e6,
        h_end
    )
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
