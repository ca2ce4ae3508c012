//! The voice's two-way strike: its budget and the modes' free decay.

use super::*;
use crate::engine::Controls;
use crate::engine::voice::{body_settings, latch_of, train_of};

/// The strike of `p` at its top speed on key 60: the step rule's count, and
/// whether the voice takes it.
fn taken(p: &EngineParams, fs: f64) -> (Option<u32>, bool) {
    let (latch, st, v) = (latch_of(p), body_settings(p, 60), p.v_max);
    let (modes, n) = strike_modes(&st, p.body_mass);
    let modes = StrikeModes::from_modes(modes[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
    let sys = Coupled {
        contact: latch.contact_at(v),
        modes,
    };
    let mut cache = ModesCache::EMPTY;
    let voice = TwoWay::new(p, &st, &latch, v, fs, train_of(p), &mut cache);
    (sys.substeps(v, 1.0 / fs), voice.is_some())
}

/// A contact the coupled rule takes (486 steps a sample) but the voice's budget does
/// not is refused (the rigid wall plays it); the default patch and the stiffest
/// Hardness on a 10 g body are taken.
#[test]
fn the_voice_refuses_a_strike_past_its_budget() {
    let stiff = EngineParams {
        controls: Controls::Expert,
        k: 1e8,
        alpha: 1.0,
        mass: 1e-4,
        v_max: 50.0,
        coupling: Coupling::TwoWay,
        body_mass: 1e-3,
        ..Default::default()
    };
    let (rule, voice) = taken(&stiff, 44_100.0);
    assert!(
        rule.is_some_and(|n| n > MAX_VOICE_SUBSTEPS) && !voice,
        "{rule:?}"
    );
    for p in [
        EngineParams {
            coupling: Coupling::TwoWay,
            ..Default::default()
        },
        EngineParams {
            hardness_ms: 0.02,
            body_mass: 0.01,
            ..stiff
        },
    ] {
        let p = EngineParams {
            controls: Controls::Playable,
            ..p
        };
        assert!(taken(&p, 44_100.0).1, "{p:?}");
    }
    // The rigid wall and a body of None never take the coupled path.
    let rigid = EngineParams::default();
    assert!(!taken(&rigid, 48_000.0).1);
    let none = EngineParams {
        body: BodyType::None,
        coupling: Coupling::TwoWay,
        ..Default::default()
    };
    assert!(!taken(&none, 48_000.0).1);
}

/// The closed-form free decay against many small steps of the exact solution's ODE
/// (RK4), for an underdamped, an overdamped and a critically damped mode.
#[test]
fn free_modes_follow_the_free_decay() {
    for (f, t60) in [
        (440.0, 1.0),
        (20.0, 0.01),
        (1.0, 1000f64.ln() / (2.0 * std::f64::consts::PI)),
    ] {
        let m = StrikeModes::from_modes([(f, t60, 1.0)]);
        let (o, sg) = (m.omega[0], m.sigma[0]);
        let mut s = State::onset(0.0);
        (s.w[0], s.u[0]) = (1e-3, 0.5);
        let mut exact = s;
        free_modes(&m, &mut exact, 0.01);
        let acc = |w: f64, u: f64| -o * o * w - 2.0 * sg * u;
        let (mut w, mut u) = (s.w[0], s.u[0]);
        let n = 100_000;
        let h = 0.01 / n as f64;
        for _ in 0..n {
            let (k1w, k1u) = (u, acc(w, u));
            let (k2w, k2u) = (u + 0.5 * h * k1u, acc(w + 0.5 * h * k1w, u + 0.5 * h * k1u));
            let (k3w, k3u) = (u + 0.5 * h * k2u, acc(w + 0.5 * h * k2w, u + 0.5 * h * k2u));
            let (k4w, k4u) = (u + h * k3u, acc(w + h * k3w, u + h * k3u));
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
            u += h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
        }
        let scale = 1e-3 + 0.5 / o;
        assert!(
            (exact.w[0] - w).abs() < 1e-9 * scale,
            "{f} Hz: w {} vs {w}",
            exact.w[0]
        );
        assert!(
            (exact.u[0] - u).abs() < 1e-9 * scale * o,
            "{f} Hz: u {} vs {u}",
            exact.u[0]
        );
    }
}
