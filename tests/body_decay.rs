//! Decay is the real T60 of the fundamental for every body: measured from the rendered
//! note's envelope at the fundamental (the body's tuned pitch `f₁`; the bell's hum an
//! octave below rings longer, as in a real bell), within ±15 %.

use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::model::body::BodyType;
use std::f64::consts::PI;

/// Amplitude of `x` at `f` Hz over a Hann window of `len` samples from `start`.
fn amplitude_at(x: &[f32], fs: f64, f: f64, start: usize, len: usize) -> f64 {
    let (mut re, mut im, mut wsum) = (0.0, 0.0, 0.0);
    for (i, s) in x[start..start + len].iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * PI * i as f64 / len as f64).cos();
        let ph = 2.0 * PI * f * (start + i) as f64 / fs;
        re += w * *s as f64 * ph.cos();
        im += w * *s as f64 * ph.sin();
        wsum += w;
    }
    2.0 * (re * re + im * im).sqrt() / wsum
}

/// T60 of the component at `f`: the least-squares slope of its level in dB over the
/// frames from 30 ms on, while it is within 40 dB of where the fit starts.
fn measured_t60(x: &[f32], fs: f64, f: f64) -> f64 {
    // Long enough to keep the nearest mode (the bell's 1.2 f₁) out of the bin.
    let len = ((20.0 / f) * fs).max(0.02 * fs) as usize;
    let hop = len / 8;
    let mut pts = Vec::new();
    let mut start = (0.03 * fs) as usize;
    let mut first = None;
    while start + len <= x.len() {
        let db = 20.0 * amplitude_at(x, fs, f, start, len).log10();
        let t = (start + len / 2) as f64 / fs;
        let top = *first.get_or_insert(db);
        if db < top - 40.0 {
            break;
        }
        pts.push((t, db));
        start += hop;
    }
    assert!(pts.len() >= 6, "too few frames: {}", pts.len());
    let n = pts.len() as f64;
    let (st, sd) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (mt, md) = (st / n, sd / n);
    let (mut num, mut den) = (0.0, 0.0);
    for (t, d) in &pts {
        num += (t - mt) * (d - md);
        den += (t - mt) * (t - mt);
    }
    -60.0 / (num / den)
}

#[test]
fn decay_is_the_t60_of_the_fundamental_for_every_body() {
    let fs = 48_000.0;
    let mut bad = Vec::new();
    for body in BodyType::ALL {
        if body == BodyType::None {
            continue;
        }
        for t60 in [0.2, 1.0, 3.0] {
            let p = EngineParams {
                body,
                t60,
                mix: 1.0,
                body_freq: 220.0,
                ..Default::default()
            };
            let seconds = (t60 + 0.2).min(3.0);
            let r = render(
                &p,
                fs,
                &[NoteSpec {
                    at: 0,
                    key: 60,
                    velocity: 1.0,
                    off: None,
                }],
                (seconds * fs) as usize,
            );
            let got = measured_t60(&r.left, fs, 220.0);
            eprintln!("{body:?} T60 {t60} s: measured {got:.3} s");
            if (got / t60 - 1.0).abs() > 0.15 {
                bad.push(format!("{body:?} T60 {t60}: {got:.3}"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
