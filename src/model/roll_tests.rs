use super::*;
use crate::model::surface::{DX, Surface};

const FS: f64 = 48_000.0;

fn ball() -> Contact {
    // A 10 g ball, k 1e7, μ 0.5, α 1.5 (the default patch's expert contact).
    Contact::new(1e7, 0.5, 1.5, 0.01)
}

/// Rolls `seconds` at `speed` over a surface of RMS height `rough`: the state, the
/// surface under it at the end, and the mean force over the run.
fn roll(speed: f64, rough: f64, seconds: f64) -> (Rolling, f64, f64) {
    let mut surf = Surface::new(rough, 1.5, 0.01, 11, DX);
    let mut x = 0.0;
    let s0 = surf.under(x);
    let mut r = Rolling::new(ball(), 0.01 * 9.81, s0, FS);
    let n = (seconds * FS) as usize;
    let mut sum = 0.0;
    let mut s_prev = s0;
    for _ in 0..n {
        x += speed / FS;
        let s1 = surf.under(x);
        sum += r.sample(s_prev, s1);
        s_prev = s1;
    }
    (r, s_prev, sum / n as f64)
}

/// On a flat surface the ball rests at the static compression, the force is its
/// weight, and nothing drifts.
#[test]
fn at_rest_it_holds_its_weight() {
    let (r, s, f) = roll(0.5, 0.0, 0.2);
    let load = 0.01 * 9.81;
    assert!((f / load - 1.0).abs() < 1e-9, "{f}");
    let d = s - r.y;
    assert!((d / static_compression(&ball(), load) - 1.0).abs() < 1e-6);
    assert!(r.drift(s).abs() < 1e-12, "{}", r.drift(s));
}

/// Over a rough surface the balance `E + D − W` holds to the method's error, which
/// falls as the steps shorten, and the mean force is the weight (the ball neither
/// sinks nor rises).
#[test]
fn the_energy_balance_holds_while_rolling() {
    let (r, s, f) = roll(1.0, 5e-6, 0.5);
    let rel = r.drift(s).abs() / r.energy_scale();
    assert!(rel < 1e-3, "drift {rel:e} of {:e} J", r.energy_scale());
    assert!(r.energy_scale() > 0.0 && r.work.abs() > 0.0);
    assert!((f / (0.01 * 9.81) - 1.0).abs() < 0.05, "{f}");
}

/// Slowly it stays on the surface; fast over the same surface it flies off the bumps
/// and lands again, each landing dated inside its sample.
#[test]
fn fast_over_bumps_it_flies_and_lands() {
    let (slow, _, _) = roll(0.02, 5e-6, 0.5);
    let (fast, _, _) = roll(2.0, 5e-6, 0.5);
    assert_eq!(slow.landings, 0);
    assert!(fast.landings > 10, "{}", fast.landings);
    assert!(fast.last_landing.is_finite() && fast.last_landing.fract() != 0.0);
}

/// Bad values are safe: a load of NaN or a zero mass stays finite.
#[test]
fn steps_are_bounded() {
    let stiff = Contact::new(1e12, 10.0, 1.0, 1e-4);
    assert_eq!(steps_for(&stiff, 10.0, 22_050.0), MAX_STEPS);
    assert_eq!(steps_for(&ball(), 0.01 * 9.81, 48_000.0), 1);
    let r = Rolling::new(ball(), f64::NAN, 0.0, FS);
    assert_eq!(r.load(), 0.0);
}
