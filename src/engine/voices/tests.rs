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

/// A key played again after its voice has ended is given the slot that last played
/// it, whose level calibration is still good: a melody costs cache lookups, not
/// probes (with the first free slot instead, every change of key played one).
#[test]
fn a_key_played_again_finds_its_calibration() {
    let mut e = Engine::new(48000.0);
    e.set_params(&EngineParams {
        t60: 0.05,
        ..Default::default()
    });
    let (mut l, mut r) = ([0.0f32; 512], [0.0f32; 512]);
    // The patch's glide is over first (a key played during it is calibrated for
    // where the glide was).
    for _ in 0..20 {
        e.render(&mut l, &mut r);
    }
    let mut play = |e: &mut Engine, key: u8| {
        e.note_on(key, 1.0, 0, None);
        for _ in 0..2000 {
            e.render(&mut l, &mut r);
            if e.active_voices() == 0 {
                return;
            }
        }
        panic!("key {key} still sounds");
    };
    for key in [60, 62, 64] {
        play(&mut e, key);
    }
    let first = e.calibrations();
    assert_eq!(first, 3);
    for key in [60, 62, 64, 62, 60] {
        play(&mut e, key);
    }
    assert_eq!(e.calibrations(), first);
}

/// A glide lands exactly on its target (a one-pole alone creeps on by ulps, and every
/// cache keyed on the settings would miss at every step), and only once near it.
#[test]
fn a_glide_lands_on_its_target() {
    for target in [1.0, -2.995_732_273_553_991, 0.0, 6.086_774_726_912_334] {
        let mut s = Smoothed::new(target + 1.0, SMOOTHING_TIME, 48000.0);
        let mut steps = 0;
        while s.value != target {
            let before = s.value;
            s.next(target);
            assert!(s.value != before, "stuck at {} for {target}", s.value);
            steps += 1;
            assert!(steps < 48_000, "{target}: still {} after 1 s", s.value);
        }
        // About 21 time constants (a billionth), not at once.
        assert!((9_000..12_000).contains(&steps), "{target}: {steps}");
    }
}
