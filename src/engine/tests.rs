//! Unit tests of the engine's guards.

use super::*;
use crate::engine::LIMITS;

#[test]
fn a_smoother_holding_nan_recovers() {
    let mut s = Smoothed::new(f64::NAN, SMOOTHING_TIME, 48000.0);
    assert_eq!(s.next(0.5), 0.5);
    s.value = f64::INFINITY;
    assert!(s.next(1.0).is_finite());
}

/// A non-finite gain (bypassing `set_params`, which would clamp it) is caught by
/// the output guard: it sees the signal after the gain.
#[test]
fn the_output_guard_sees_the_gain() {
    let mut e = Engine::new(48000.0);
    e.note_on(60, 1.0, 0, None);
    e.params.gain_db = f64::NAN;
    e.output.poison_gain();
    let (mut out, mut right) = ([0.0f32; 256], [0.0f32; 256]);
    e.render(&mut out, &mut right);
    assert!(out.iter().all(|s| s.is_finite()), "{:?}", &out[..4]);
    assert!(right.iter().all(|s| s.is_finite()), "{:?}", &right[..4]);
    assert!(e.guard_events() > 0);
    // Once the gain is sane again the smoother recovers and sound comes back.
    e.set_params(&EngineParams::default());
    e.note_on(62, 1.0, 0, None);
    e.render(&mut out, &mut right);
    assert!(out.iter().any(|s| s.abs() > 1e-3));
}

#[test]
fn set_params_clamps_and_replaces_nan() {
    let mut e = Engine::new(48000.0);
    let bad = EngineParams {
        k: f64::NAN,
        mu: f64::INFINITY,
        t60: -1.0,
        gain_db: f64::NEG_INFINITY,
        voices: 0,
        release: f64::NAN,
        ..EngineParams::default()
    };
    e.set_params(&bad);
    let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
    let p = e.params();
    assert_eq!(p.k, EngineParams::default().k);
    assert_eq!((p.mu, p.t60, p.gain_db), (hi.mu, lo.t60, lo.gain_db));
    assert_eq!(p.voices, 1);
    assert_eq!(p.release, EngineParams::default().release);
}
