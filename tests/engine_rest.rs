//! Bounce trains end, through the whole engine ("coming to rest"):
//!
//! - with gravity in contact, the default patch's train comes to rest, its voice is
//!   reported terminated, and the output is below −120 dBFS from at most
//!   `t_last_force + 2·T60 + 0.5 s` on (the body's fundamental falls 120 dB in two
//!   T60s, upper modes faster; the half second covers the engine's DC blocker);
//! - with gravity in flight only (the paper's mode) the same bound holds, by the rule
//!   that ends a train once its bounces have merged into a buzz (`MERGED_LOAD`): there
//!   is no endless sub-audible buzz.

use rebound::engine::{Engine, EngineParams};

const SILENT: f32 = 1e-6;

struct Run {
    /// Last sample with any wall force, s.
    last_force: f64,
    /// Last sample at or above −120 dBFS, s.
    last_sound: f64,
    /// When the voice was reported ended, s.
    ended: Option<f64>,
    peak: f32,
}

fn run(p: &EngineParams, fs: f64, seconds: f64) -> Run {
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    e.note_on(60, 1.0, 0, None);
    let block = 256;
    let (mut out, mut force) = (vec![0.0f32; block], vec![0.0f32; block]);
    let mut right = vec![0.0f32; block];
    let mut r = Run {
        last_force: 0.0,
        last_sound: 0.0,
        ended: None,
        peak: 0.0,
    };
    let mut n = 0usize;
    while (n as f64) < seconds * fs {
        e.render_with_force(&mut out, &mut right, Some(&mut force));
        for i in 0..block {
            // Either channel sounding counts.
            out[i] = if out[i].abs() >= right[i].abs() || !right[i].is_finite() {
                out[i]
            } else {
                right[i]
            };
            let t = (n + i) as f64 / fs;
            if force[i] != 0.0 {
                r.last_force = t;
            }
            if out[i].abs() >= SILENT {
                r.last_sound = t;
            }
            assert!(out[i].is_finite());
            r.peak = r.peak.max(out[i].abs());
        }
        if r.ended.is_none() && !e.terminated().is_empty() {
            r.ended = Some((n + block) as f64 / fs);
        }
        e.clear_terminated();
        n += block;
    }
    r
}

#[test]
fn a_gravity_in_contact_train_comes_to_rest_and_falls_silent() {
    for fs in [44_100.0, 96_000.0] {
        for g in [9.81, 100.0] {
            let p = EngineParams {
                bouncing: true,
                gravity_in_contact: true,
                gravity: g,
                ..EngineParams::default()
            };
            let r = run(&p, fs, 14.0);
            let bound = r.last_force + 2.0 * p.t60 + 0.5;
            eprintln!(
                "g {g}, {fs} Hz: last force {:.3} s, silent from {:.3} s (bound {bound:.3}), ended {:?}",
                r.last_force, r.last_sound, r.ended
            );
            assert!(r.peak > 0.01, "it sounded");
            assert!(
                r.last_force < 6.0,
                "the train rests: last force at {}",
                r.last_force
            );
            assert!(r.last_sound <= bound, "sound at {} s", r.last_sound);
            let ended = r.ended.expect("the voice is reported terminated");
            assert!(ended <= bound + 0.1, "ended at {ended} s");
        }
    }
}

#[test]
fn a_flight_only_train_ends_by_its_rule_and_falls_silent() {
    let fs = 48_000.0;
    for g in [9.81, 100.0] {
        let p = EngineParams {
            bouncing: true,
            gravity: g,
            ..EngineParams::default()
        };
        let r = run(&p, fs, 12.0);
        let bound = r.last_force + 2.0 * p.t60 + 0.5;
        eprintln!(
            "flight only, g {g}: last force {:.3} s, silent from {:.3} s, ended {:?}",
            r.last_force, r.last_sound, r.ended
        );
        assert!(
            r.last_force < 6.0,
            "the train ended: last force at {}",
            r.last_force
        );
        assert!(
            r.last_sound <= bound && r.last_sound < 11.0,
            "buzz at {} s",
            r.last_sound
        );
        assert!(r.ended.is_some(), "the voice is reported terminated");
    }
}

#[test]
fn a_train_at_low_gravity_ends_within_the_train_time_limit() {
    // g = 1: flights of up to seconds, a train of minutes if let go on; no impact
    // starts after MAX_TRAIN_TIME (60 s).
    let p = EngineParams {
        bouncing: true,
        gravity_in_contact: true,
        gravity: 1.0,
        ..EngineParams::default()
    };
    let r = run(&p, 22_050.0, 70.0);
    let limit = rebound::model::bounce::MAX_TRAIN_TIME;
    eprintln!("g 1: last force {:.3} s, ended {:?}", r.last_force, r.ended);
    assert!(r.last_force < limit + 5.0, "{}", r.last_force);
    assert!(r.ended.is_some() && r.last_sound < 70.0 - 1.0);
}
