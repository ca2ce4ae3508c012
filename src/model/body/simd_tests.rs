//! The vector and portable mode-bank loops against each other, and the block loop
//! against the sample loop.

use super::*;

/// A strike's force over a few samples every 5000, then silence: what a contact hands
/// the body.
fn force(n: usize) -> f64 {
    let n = n % 5000;
    if n < 6 {
        (n as f64 * 0.5).sin() + 0.3
    } else {
        0.0
    }
}

/// Plays `b` for `len` samples through every kind of change the voice makes: a strike,
/// a ring in blocks, a retune, a switch of body type (crossfade) and a hand (damping).
fn play(mut b: ModalBody, kinds: [BodyType; 2], fs: f64, len: usize) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(len);
    let (mut mid, mut side) = ([0.0; 37], [0.0; 37]);
    let mut n = 0;
    while n < len {
        if n == len / 4 {
            let st = BodySettings {
                f1: b.settings().f1 * 1.5,
                ..b.settings()
            };
            b.retune(st, fs);
        }
        if n == len / 2 {
            b.retune(
                BodySettings {
                    kind: kinds[1],
                    ..b.settings()
                },
                fs,
            );
        }
        if n == 3 * len / 4 {
            b.damp(0.05);
        }
        if n % 5000 < 64 || (n / 37) % 3 == 0 {
            out.push(b.tick_pickups(force(n)));
            n += 1;
        } else {
            b.ring_pickups(0.0, &mut mid, &mut side);
            out.extend(mid.iter().copied().zip(side));
            n += mid.len();
        }
    }
    out
}

#[test]
fn the_vector_path_is_taken_where_the_cpu_has_one() {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        let forced_off = std::env::var("REBOUND_SIMD").is_ok_and(|v| v == "portable");
        assert_eq!(vector_path(), cpu && !forced_off);
    }
}

#[test]
fn vector_and_portable_banks_agree_to_1e_12() {
    let len = 20_000;
    for fs in [44_100.0, 192_000.0] {
        for kind in BodyType::ALL {
            for f1 in [40.0, 440.0, 4000.0] {
                let st = BodySettings {
                    kind,
                    f1,
                    t60: 2.0,
                    ..Default::default()
                };
                let other = if kind == BodyType::Bell {
                    BodyType::Plate
                } else {
                    BodyType::Bell
                };
                let mut portable = ModalBody::new(st, fs);
                portable.set_vector(false);
                let mut vector = ModalBody::new(st, fs);
                vector.set_vector(true);
                let a = play(portable, [kind, other], fs, len);
                let b = play(vector, [kind, other], fs, len);
                let peak = a
                    .iter()
                    .map(|(m, s)| m.abs().max(s.abs()))
                    .fold(0.0, f64::max);
                let worst = a
                    .iter()
                    .zip(&b)
                    .map(|((m, s), (p, q))| (m - p).abs().max((s - q).abs()))
                    .fold(0.0, f64::max);
                assert!(peak > 0.0, "{kind:?} {f1} Hz at {fs}: silent");
                assert!(
                    worst <= 1e-12 * peak,
                    "{kind:?} {f1} Hz at {fs}: {worst:e} of a peak {peak:e}"
                );
            }
        }
    }
}

#[test]
fn a_ringing_block_is_the_samples_it_stands_for() {
    for vector in [false, true] {
        for kind in BodyType::ALL {
            let st = BodySettings {
                kind,
                ..Default::default()
            };
            let mut a = ModalBody::new(st, 48_000.0);
            a.set_vector(vector);
            for n in 0..10 {
                a.tick_pickups(force(n));
            }
            let mut b = a;
            let (mut mid, mut side) = ([0.0; 200], [0.0; 200]);
            b.ring_pickups(0.0, &mut mid, &mut side);
            for (m, s) in mid.iter().zip(&side) {
                assert_eq!((*m, *s), a.tick_pickups(0.0), "{kind:?}, vector {vector}");
            }
            assert_eq!(a.amplitude(), b.amplitude());
        }
    }
}
