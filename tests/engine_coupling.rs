//! Two-way coupling through the engine: the striker meets the body's surface, which
//! gives (`engine::voice::two_way`).
//!
//! - Rigid wall ignores Body mass (every other test runs on the rigid wall);
//! - a two-way strike is finite and its level calibrated as the rigid one's, over
//!   bodies, body masses, Hardness and rates;
//! - a light body lengthens the force pulse and darkens it; a heavy one is the wall;
//! - it bounces under gravity and the train ends;
//! - a strike the coupled step rule cannot take in a voice's budget plays the wall.

use rebound::engine::level::law::TARGET_PEAK_DB;
use rebound::engine::{Controls, Coupling, EngineParams, Rendered};

#[path = "support/strike.rs"]
mod strike;
use rebound::model::body::BodyType;
use strike::strike;

fn two_way(body_mass: f64) -> EngineParams {
    EngineParams {
        coupling: Coupling::TwoWay,
        body_mass,
        ..Default::default()
    }
}

/// Samples of the force pulse (from the first to the last with force), and the
/// spectral centroid of the force over the first 4096 samples (a naive DFT), Hz.
fn pulse(r: &Rendered) -> (usize, f64) {
    let on: Vec<usize> = (0..r.force.len()).filter(|&i| r.force[i] > 0.0).collect();
    let len = on.last().map_or(0, |l| l + 1 - on[0]);
    let n = 4096.min(r.force.len());
    let (mut num, mut den) = (0.0, 0.0);
    for k in 1..n / 2 {
        let (mut re, mut im) = (0.0, 0.0);
        for (i, f) in r.force[..n].iter().enumerate() {
            let ph = 2.0 * std::f64::consts::PI * (k * i) as f64 / n as f64;
            re += *f as f64 * ph.cos();
            im -= *f as f64 * ph.sin();
        }
        let a = re * re + im * im;
        num += a * k as f64 * r.fs / n as f64;
        den += a;
    }
    (len, num / den)
}

fn peak_db(r: &Rendered) -> f64 {
    let peak = r.mono().iter().fold(0f32, |m, s| m.max(s.abs())) as f64;
    20.0 * peak.log10()
}

#[test]
fn the_rigid_wall_ignores_body_mass() {
    let p = EngineParams {
        bouncing: true,
        ..Default::default()
    };
    let a = strike(&p, 48_000.0, 0.5);
    for body_mass in [1e-3, 10.0] {
        let b = strike(&EngineParams { body_mass, ..p }, 48_000.0, 0.5);
        assert!(
            a.left
                .iter()
                .zip(&b.left)
                .all(|(x, y)| x.to_bits() == y.to_bits())
        );
        assert!(
            a.right
                .iter()
                .zip(&b.right)
                .all(|(x, y)| x.to_bits() == y.to_bits())
        );
    }
}

/// Every body, body masses 1 g–10 kg, Hardness 0.05–5 ms, 44.1 and 96 kHz: finite, no
/// guard event, and the full-velocity strike peaks at the target ±2 dB (the rigid
/// wall's figure for a grid of patches, `engine_level`).
#[test]
fn two_way_strikes_are_finite_and_peak_at_the_target() {
    let mut bad = Vec::new();
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for fs in [44_100.0, 96_000.0] {
        for body in [
            BodyType::Bar,
            BodyType::Plate,
            BodyType::Membrane,
            BodyType::Bell,
            BodyType::WoodBlock,
        ] {
            for body_mass in [1e-3, 0.02, 10.0] {
                for hardness_ms in [0.05, 0.6, 5.0] {
                    let p = EngineParams {
                        body,
                        hardness_ms,
                        ..two_way(body_mass)
                    };
                    let r = strike(&p, fs, 0.25);
                    let finite = r.left.iter().chain(&r.right).all(|x| x.is_finite());
                    let db = peak_db(&r);
                    (lo, hi) = (lo.min(db), hi.max(db));
                    if !finite || r.guard_events > 0 || (db - TARGET_PEAK_DB).abs() > 2.0 {
                        bad.push(format!(
                            "{fs} {body:?} M {body_mass} {hardness_ms} ms: {db:.2} dB"
                        ));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    eprintln!("two-way peaks {lo:.2} to {hi:.2} dB");
}

/// Default striker on the bar, plate and bell, Hardness 0.6 and 5 ms: a 1 g body holds
/// the striker longer than a 10 kg one (at least 1.2× the force pulse) and its pulse is
/// darker (spectral centroid at most 0.85×); the 10 kg body is the wall within a sample
/// and 2 % of the centroid.
#[test]
fn a_light_body_lengthens_and_darkens_the_pulse_a_heavy_one_is_the_wall() {
    for body in [BodyType::Bar, BodyType::Plate, BodyType::Bell] {
        for hardness_ms in [0.6, 5.0] {
            let p = |m: f64| EngineParams {
                body,
                hardness_ms,
                ..two_way(m)
            };
            let (light, lc) = pulse(&strike(&p(1e-3), 48_000.0, 0.1));
            let (heavy, hc) = pulse(&strike(&p(10.0), 48_000.0, 0.1));
            let rigid = EngineParams {
                coupling: Coupling::Rigid,
                ..p(10.0)
            };
            let (wall, wc) = pulse(&strike(&rigid, 48_000.0, 0.1));
            let what = format!(
                "{body:?} {hardness_ms} ms: light {light} samples {lc:.0} Hz, heavy {heavy} {hc:.0}, wall {wall} {wc:.0}"
            );
            assert!(
                light as f64 >= 1.2 * heavy as f64 && lc <= 0.85 * hc,
                "{what}"
            );
            assert!(
                heavy.abs_diff(wall) <= 1 && (hc / wc - 1.0).abs() < 0.02,
                "{what}"
            );
        }
    }
}

/// Force pulses (runs of samples with force) in a render.
fn pulses(r: &Rendered) -> usize {
    let mut n = 0;
    let mut on = false;
    for f in &r.force {
        if *f > 0.0 && !on {
            n += 1;
        }
        on = *f > 0.0;
    }
    n
}

/// With bouncing the two-way striker comes back under gravity again and again (its
/// flights in closed form), the train ends, and the voice with it.
#[test]
fn two_way_bounces_under_gravity_and_ends() {
    for gravity_in_contact in [false, true] {
        for body_mass in [3e-3, 0.5] {
            let p = EngineParams {
                bouncing: true,
                gravity_in_contact,
                t60: 0.2,
                ..two_way(body_mass)
            };
            let r = strike(&p, 48_000.0, 3.0);
            let n = pulses(&r);
            let tail = &r.left[r.left.len() - 4800..];
            let silent = tail.iter().all(|x| x.abs() < 1e-5);
            assert!(r.left.iter().all(|x| x.is_finite()), "{body_mass}");
            let wall = EngineParams {
                coupling: Coupling::Rigid,
                ..p
            };
            let rigid = pulses(&strike(&wall, 48_000.0, 3.0));
            eprintln!(
                "g in contact {gravity_in_contact}, M {body_mass}: {n} pulses (rigid wall {rigid})"
            );
            assert!(
                n >= 5 && silent,
                "g in contact {gravity_in_contact}, M {body_mass}: {n} pulses, silent {silent}"
            );
        }
    }
}

/// A contact the coupled step rule would need more than the voice's 128 steps a sample
/// for (486: a stiff linear contact of a light striker on a 1 g body at 44.1 kHz) plays
/// the rigid wall, bit for bit.
#[test]
fn a_strike_too_stiff_for_the_voice_plays_the_rigid_wall() {
    let p = EngineParams {
        controls: Controls::Expert,
        k: 1e8,
        alpha: 1.0,
        mass: 1e-4,
        v_max: 50.0,
        ..two_way(1e-3)
    };
    let a = strike(&p, 44_100.0, 0.2);
    let b = strike(
        &EngineParams {
            coupling: Coupling::Rigid,
            ..p
        },
        44_100.0,
        0.2,
    );
    assert!(
        a.left
            .iter()
            .zip(&b.left)
            .all(|(x, y)| x.to_bits() == y.to_bits())
    );
}

/// The corners of the ranges that shape a two-way strike (striker mass, Hardness,
/// Shape, Bounciness, body pitch, Decay, Body mass, strike speed; Expert stiffness and
/// damping), with bouncing and gravity in contact, at 44.1 and 192 kHz: every sample
/// finite, and no runaway for the guard to catch.
#[test]
fn two_way_corners_of_the_ranges_stay_finite() {
    let (lo, hi) = (&rebound::engine::LIMITS[0], &rebound::engine::LIMITS[1]);
    let mut bad = Vec::new();
    for fs in [44_100.0, 192_000.0] {
        for bits in 0..256u32 {
            let pick = |i: u32, f: fn(&EngineParams) -> f64| {
                if bits >> i & 1 == 1 { f(hi) } else { f(lo) }
            };
            let expert = bits.count_ones() % 2 == 1;
            let p = EngineParams {
                controls: if expert {
                    Controls::Expert
                } else {
                    Controls::Playable
                },
                mass: pick(0, |p| p.mass),
                hardness_ms: pick(1, |p| p.hardness_ms),
                k: pick(1, |p| p.k),
                alpha: pick(2, |p| p.alpha),
                restitution: pick(3, |p| p.restitution),
                mu: pick(3, |p| p.mu),
                body_freq: pick(4, |p| p.body_freq),
                t60: pick(5, |p| p.t60),
                body_mass: pick(6, |p| p.body_mass),
                v_max: pick(7, |p| p.v_max),
                bouncing: true,
                gravity_in_contact: bits % 3 == 0,
                ..two_way(1.0)
            };
            let r = strike(&p, fs, 0.05);
            let finite = r.left.iter().chain(&r.right).all(|x| x.is_finite());
            if !finite || r.guard_events > 0 {
                bad.push(format!(
                    "{fs} {bits:08b}: finite {finite}, guard {}",
                    r.guard_events
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The same key struck again while its two-way contact still presses on the body (a
/// double trigger, a fast roll with a soft mallet): as on the rigid wall, the old
/// contact goes on into the body, fading, while the new strike takes over, so the body
/// hears no step of force. Cutting it rang every mode with the step: at the soft end of
/// Hardness, whose calibrated body gain lifts a slow pulse's faint ringing to full
/// level, a bang far over two strikes. The two stay within the rigid wall's bound
/// (`engine_level`: 1.5 dB over two calibrated strikes that add).
#[test]
fn a_restrike_during_a_two_way_contact_hands_over_without_a_click() {
    let fs = 48_000.0;
    for body_mass in [0.5, 0.02] {
        for hardness_ms in [0.6, 4.0, 10.0] {
            for frac in [0.25, 0.5, 0.75] {
                let p = EngineParams {
                    hardness_ms,
                    ..two_way(body_mass)
                };
                let again = 11 + (frac * hardness_ms * 1e-3 * fs) as usize;
                let notes = [10, again].map(|at| rebound::engine::NoteSpec {
                    at,
                    key: 60,
                    velocity: 1.0,
                    off: None,
                });
                let r = rebound::engine::render(&p, fs, &notes, (0.5 * fs) as usize);
                let db = peak_db(&r);
                let case = format!("{body_mass} kg, Hardness {hardness_ms} ms, again at {frac}");
                eprintln!("{case}: {db:.2} dBFS");
                assert!(
                    db.is_finite() && db <= TARGET_PEAK_DB + 7.5,
                    "{case}: {db:.2} dBFS"
                );
            }
        }
    }
}
