//! Pins down the output level of a full-velocity strike (note 60) as it is measured:
//!
//! - the dry force pulse alone (no body, mix 0) peaks at −6 dBFS within ±0.75 dB for
//!   every contact of the grid with μ ≤ 0.5 that lasts from 6 samples to 20 ms, at
//!   44.1 to 96 kHz (measured −6.68 … −5.75 dBFS): `FULL_SCALE` is the analytic peak
//!   force; a contact of a few samples shows its force averaged over a sample, below
//!   that peak, and a longer one is drooped by the 2 Hz DC blocker;
//! - the default contact's dry pulse peaks at −5.9 dBFS at every rate;
//! - with a body at the default mix (70 %) and the default contact, a strike peaks
//!   4 to 9 dB lower: −14.5 dBFS for the default patch (bar), −11.7 … −14.8 dBFS for
//!   every body; over the whole contact grid, −21 … −10 dBFS (contacts of one or two
//!   samples, split between samples, are the quietest).

use rebound::engine::{Controls, EngineParams, NoteSpec, Rendered, render};
use rebound::model::body::BodyType;

fn strike(p: &EngineParams, fs: f64, seconds: f64) -> Rendered {
    render(
        p,
        fs,
        &[NoteSpec {
            at: 10,
            key: 60,
            velocity: 1.0,
            off: None,
        }],
        (seconds * fs) as usize,
    )
}

fn peak_db(r: &Rendered) -> f64 {
    let peak = r.peak() as f64;
    20.0 * peak.log10()
}

#[test]
fn dry_pulse_peaks_at_minus_6_dbfs() {
    let (mut lo, mut hi, mut n) = (f64::MAX, f64::MIN, 0);
    let mut bad = Vec::new();
    for fs in [44_100.0, 48_000.0, 96_000.0] {
        for k in [1e4, 1e7, 1e10, 1e12] {
            for alpha in [1.0, 1.5, 3.0] {
                for mu in [1e-3, 0.5] {
                    for mass in [1e-4, 1e-3, 0.01, 0.3] {
                        let p = EngineParams {
                            controls: Controls::Expert,
                            body: BodyType::None,
                            mix: 0.0,
                            k,
                            alpha,
                            mu,
                            mass,
                            ..Default::default()
                        };
                        let r = strike(&p, fs, 0.05);
                        let samples = r.trace.samples as f64;
                        if samples < 6.0 || samples > 0.02 * fs {
                            continue;
                        }
                        let db = peak_db(&r);
                        n += 1;
                        lo = lo.min(db);
                        hi = hi.max(db);
                        if (db + 6.0).abs() > 0.75 {
                            bad.push(format!(
                                "{fs} Hz k {k:e} α {alpha} μ {mu} m {mass} \
                                 ({samples} samples): {db:.2} dBFS"
                            ));
                        }
                    }
                }
            }
        }
    }
    eprintln!("dry pulse: {n} contacts, {lo:.2} … {hi:.2} dBFS");
    assert!(n >= 100, "too few contacts in range: {n}");
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn default_contact_dry_pulse_peaks_at_minus_5_9_dbfs_at_every_rate() {
    let p = EngineParams {
        // The Expert default contact: k 1e7, μ 0.5.
        controls: Controls::Expert,
        body: BodyType::None,
        mix: 0.0,
        ..Default::default()
    };
    for fs in [44_100.0, 48_000.0, 96_000.0, 192_000.0] {
        let db = peak_db(&strike(&p, fs, 0.05));
        assert!((db + 5.9).abs() < 0.1, "{fs} Hz: {db:.2} dBFS");
    }
}

#[test]
fn default_mix_strike_peaks_at_minus_12_to_minus_15_dbfs() {
    for fs in [44_100.0, 48_000.0, 96_000.0] {
        // The patch's own level: the mono fold-down (the stereo image lifts one
        // channel's peak a little; engine_stereo bounds it).
        let r = strike(&EngineParams::default(), fs, 0.3);
        let mono = r.mono().iter().fold(0f32, |m, s| m.max(s.abs()));
        let db = 20.0 * (mono as f64).log10();
        eprintln!("default patch at {fs} Hz: {db:.2} dBFS");
        assert!(
            (db + 14.5).abs() < 0.3,
            "default patch at {fs} Hz: {db:.2} dBFS"
        );
    }
    for body in BodyType::ALL {
        if body == BodyType::None {
            continue;
        }
        let p = EngineParams {
            body,
            ..Default::default()
        };
        let db = peak_db(&strike(&p, 48_000.0, 0.3));
        eprintln!("{body:?}: {db:.2} dBFS");
        assert!((-14.8..=-11.5).contains(&db), "{body:?}: {db:.2} dBFS");
    }
}

#[test]
fn default_mix_peaks_between_minus_21_and_minus_10_dbfs_for_any_contact() {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    let mut bad = Vec::new();
    for body in BodyType::ALL {
        for k in [1e4, 1e7, 1e10] {
            for alpha in [1.0, 1.5, 3.0] {
                for mu in [1e-3, 0.5, 5.0] {
                    for mass in [1e-3, 0.01, 0.3] {
                        let p = EngineParams {
                            controls: Controls::Expert,
                            body,
                            k,
                            alpha,
                            mu,
                            mass,
                            ..Default::default()
                        };
                        let db = peak_db(&strike(&p, 48_000.0, 0.3));
                        lo = lo.min(db);
                        hi = hi.max(db);
                        if !(-21.0..=-10.0).contains(&db) {
                            bad.push(format!(
                                "{body:?} k {k:e} α {alpha} μ {mu} m {mass}: {db:.2}"
                            ));
                        }
                    }
                }
            }
        }
    }
    eprintln!("default mix over the contact grid: {lo:.2} … {hi:.2} dBFS");
    assert!(bad.is_empty(), "{bad:#?}");
}
