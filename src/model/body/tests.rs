//! Unit tests of the modal body.

use super::*;

#[test]
fn bar_ratios_follow_the_free_free_beam() {
    let b = ModalBody::new(
        BodySettings {
            kind: BodyType::Bar,
            f1: 100.0,
            ..Default::default()
        },
        48000.0,
    );
    let f = b.frequencies();
    assert!((f[1] / f[0] - 2.756).abs() < 0.01, "{}", f[1] / f[0]);
    assert!((f[2] / f[0] - 5.404).abs() < 0.01);
}

#[test]
fn membrane_ratios_are_bessel_zeros() {
    let b = ModalBody::new(
        BodySettings {
            kind: BodyType::Membrane,
            f1: 100.0,
            position: 0.5,
            ..Default::default()
        },
        48000.0,
    );
    let f = b.frequencies();
    assert!((f[1] / f[0] - 1.593).abs() < 0.01);
}

#[test]
fn impulse_rings_and_decays_by_t60() {
    let fs = 48000.0;
    let mut b = ModalBody::new(
        BodySettings {
            kind: BodyType::Bell,
            f1: 440.0,
            t60: 0.5,
            ..Default::default()
        },
        fs,
    );
    b.tick(1.0);
    let a0 = b.amplitude();
    for _ in 0..(4.0 * fs) as usize {
        b.tick(0.0);
    }
    // The hum (ratio 0.5) decays slowest: T60 · 2^0.35 ≈ 0.64 s, so after 4 s it is
    // down by more than 6 × 60 dB … well below −120 dB.
    assert!(b.amplitude() < a0 * 1e-6);
}

#[test]
fn modes_and_gains_do_not_depend_on_the_rate() {
    for kind in BodyType::ALL {
        for f1 in [55.0, 440.0, 1760.0, 7040.0] {
            let st = BodySettings {
                kind,
                f1,
                ..Default::default()
            };
            let r = ModalBody::new(st, 44_100.0);
            for fs in [48_000.0, 96_000.0, 192_000.0] {
                let b = ModalBody::new(st, fs);
                for k in 0..MODES {
                    let (f, f0) = (b.frequencies()[k], r.frequencies()[k]);
                    assert!((f - f0).abs() <= 1e-9 * f0, "{kind:?} {f1} {fs}: {f} {f0}");
                    let (g, g0) = (b.gains()[k], r.gains()[k]);
                    assert!((g - g0).abs() <= 1e-12, "{kind:?} {f1} {fs}: {g} {g0}");
                }
            }
        }
    }
}

#[test]
fn a_type_switch_crossfades_and_none_forgets_the_ringing() {
    let fs = 48_000.0;
    let st = BodySettings::default();
    let mut b = ModalBody::new(st, fs);
    b.tick(1.0);
    let mut last = 0.0;
    let mut max_step: f64 = 0.0;
    for _ in 0..1000 {
        let y = b.tick(0.0);
        max_step = max_step.max((y - last).abs());
        last = y;
    }
    b.retune(
        BodySettings {
            kind: BodyType::None,
            ..st
        },
        fs,
    );
    assert!(b.is_switching());
    let n = (SWITCH_TIME * fs) as usize;
    for _ in 0..n {
        let y = b.tick(0.0);
        assert!((y - last).abs() <= 1.5 * max_step, "{y} {last}");
        last = y;
    }
    assert!(!b.is_switching());
    assert_eq!(b.amplitude(), 0.0);
    // Back to the bar: it starts silent, at once.
    b.retune(st, fs);
    assert!(!b.is_switching());
    assert_eq!(b.tick(0.0), 0.0);
}
