//! A voice's run of samples (`Voice::run`, its loop compiled for the voice's path)
//! plays the samples its calls one by one (`Voice::tick_with`) play, bit for bit.

use super::*;
use crate::engine::level::Levels;
use crate::engine::{Controls, Coupling};
use crate::model::{Correction, Method};

/// Every field of a sample, as bits.
fn bits(s: Option<VoiceSample>) -> Option<[u64; 8]> {
    s.map(|s| {
        let c = s.contact;
        let fields = [s.out, s.side, s.force, s.dry, s.body, c.dv];
        let mut out = [0; 8];
        for (o, f) in out.iter_mut().zip(fields) {
            *o = f.to_bits();
        }
        out[6] = u64::from(c.onset);
        out[7] = u64::from(c.detached);
        out
    })
}

#[test]
fn a_run_plays_the_samples_of_its_calls() {
    let fs = 48_000.0;
    let soft = EngineParams {
        controls: Controls::Expert,
        k: 1e4,
        method: Method::Rk4,
        correction: Correction::Both,
        ..Default::default()
    };
    let bouncing = EngineParams {
        bouncing: true,
        humanize: 1.0,
        ..Default::default()
    };
    let patches = [
        EngineParams::default(),
        soft,
        bouncing,
        EngineParams {
            gravity_in_contact: true,
            ..bouncing
        },
        EngineParams {
            coupling: Coupling::TwoWay,
            ..bouncing
        },
    ];
    const N: usize = 24_000;
    for (i, p) in patches.iter().enumerate() {
        let mut levels = Levels::on_demand(fs);
        levels.set(p, fs);
        let mut calls = Voice::new(fs);
        calls.strike_with(p, 60, 1.0, 0, 0.7, &mut levels);
        let mut run = calls;
        // Harder from the strike on: each bounce latches the parameters of its onset,
        // and takes its gains from `level` for them.
        let q = &EngineParams {
            hardness_ms: 0.5 * p.hardness_ms,
            ..*p
        };
        levels.set(q, fs);
        let one_by_one: Vec<_> = (0..N)
            .map(|_| bits(calls.tick_with(q, 0.7, Some(&mut levels))))
            .collect();
        let mut played = Vec::with_capacity(N);
        let n = run.run(q, 0.7, Some(&mut levels), N, |s, _| {
            played.push(bits(s));
            true
        });
        assert_eq!(n, N, "patch {i}");
        let first_apart = one_by_one.iter().zip(&played).position(|(a, b)| a != b);
        assert_eq!(first_apart, None, "patch {i}");
        let onsets = played.iter().flatten().filter(|s| s[6] == 1).count();
        assert!(onsets >= 1, "patch {i}: nothing struck");
    }
}

#[test]
fn a_run_stops_after_the_sample_its_reader_refuses() {
    let p = EngineParams::default();
    let mut v = Voice::new(48_000.0);
    v.strike(&p, 60, 1.0, 0);
    let mut seen = 0;
    let n = v.run(&p, 0.7, None, 100, |_, voice| {
        seen += 1;
        voice.in_contact()
    });
    assert_eq!(n, seen);
    assert!(n < 100 && !v.in_contact(), "{n}");
}
