//! The drive high-pass against the analogue Butterworth, its leak and its maps.

use super::*;

/// Gain at `f` Hz, measured on a steady sine, for a lowest mode at `mode` Hz.
fn gain(f: f64, mode: f64, fs: f64) -> f64 {
    let mut hp = DriveHighpass::default();
    hp.tune(mode, fs);
    let n = (fs * 2.0) as usize;
    let mut peak = 0.0f64;
    for i in 0..n {
        let y = hp.tick((2.0 * PI * f * i as f64 / fs).sin());
        if i > n / 2 {
            peak = peak.max(y.abs());
        }
    }
    peak
}

#[test]
fn butterworth_half_an_octave_below_the_lowest_mode_at_every_rate() {
    let fc = CUTOFF_RATIO * 440.0;
    for fs in [44_100.0, 96_000.0, 192_000.0] {
        // |H| = (f/fc)⁴ / √(1 + (f/fc)⁸).
        let r4 = (440.0 / fc).powi(4);
        let at_mode = gain(440.0, 440.0, fs);
        assert!(
            (at_mode - r4 / (1.0 + r4 * r4).sqrt()).abs() < 2e-3,
            "{fs}: {at_mode}"
        );
        // At the cutoff: −3 dB.
        let at_fc = gain(fc, 440.0, fs);
        assert!((at_fc - 0.5f64.sqrt()).abs() < 2e-3, "{fs}: {at_fc}");
        // Two octaves below the cutoff: 4⁻⁴, −48 dB.
        let low = gain(fc / 4.0, 440.0, fs);
        assert!((low / 0.25f64.powi(4) - 1.0).abs() < 0.01, "{fs}: {low}");
    }
}

#[test]
fn a_damped_drive_lets_its_tail_die() {
    let fs = 48_000.0;
    let tail = |t60: f64| {
        let mut hp = DriveHighpass::default();
        hp.tune(440.0, fs);
        hp.damp(t60, fs, 1);
        // A 2 ms push, then how much of it still comes out 20 ms later.
        (0..(0.022 * fs) as usize)
            .map(|i| hp.tick(if i < 96 { 1.0 } else { 0.0 }))
            .skip((0.02 * fs) as usize)
            .fold(0f64, |m, y| m.max(y.abs()))
    };
    let (free, damped) = (tail(f64::INFINITY), tail(0.005));
    assert!(damped < 1e-3 * free, "{damped:e} vs {free:e}");
}

/// The hand's leak acts while the force still pushes, not only on its tail.
#[test]
fn a_hand_damps_the_force_while_it_pushes() {
    let fs = 48_000.0;
    let (mut free, mut damped) = (DriveHighpass::default(), DriveHighpass::default());
    free.tune(440.0, fs);
    damped.tune(440.0, fs);
    damped.damp(0.005, fs, 1);
    let push = |hp: &mut DriveHighpass| (0..200).map(|i| hp.tick(1.0 + i as f64)).sum();
    let (a, b): (f64, f64) = (push(&mut free), push(&mut damped));
    assert!((a - b).abs() > 1e-3 * a.abs(), "{a} {b}");
    // Undamped again: the plain sections, as before the hand.
    let mut undone = damped;
    undone.damp(f64::INFINITY, fs, 1);
    assert!(undone.plain && !damped.plain);
}

/// The linear maps are the trapezoidal sections: within rounding of the textbook
/// sample (`hp`, then `s₁ += 2g hp`, `s₂ += 2g bp`) over a second of noise, from
/// the lowest cutoff at the highest rate to the highest, and through a retune.
#[test]
fn the_maps_are_the_trapezoidal_sections() {
    for (mode, fs) in [(20.0, 384_000.0), (440.0, 48_000.0), (20_000.0, 44_100.0)] {
        let mut hp = DriveHighpass::default();
        hp.tune(mode, fs);
        let (mut s, mut noise, mut worst, mut peak) = ([[0.0f64; 2]; 2], 1u64, 0f64, 0f64);
        for n in 0..fs as usize {
            if n == fs as usize / 2 {
                hp.tune(mode * 1.5, fs);
            }
            noise = noise
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (noise >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            let mut y = x;
            for (i, [s1, s2]) in s.iter_mut().enumerate() {
                let h = (y - hp.a[i] * *s1 - *s2) * hp.h[i];
                let bp = hp.g * h + *s1;
                *s1 = bp + hp.g * h;
                *s2 += hp.g2 * bp;
                y = h;
            }
            let got = hp.tick(x);
            worst = worst.max((got - y).abs());
            peak = peak.max(y.abs());
        }
        assert!(
            worst < 1e-12 * peak,
            "{mode} Hz at {fs}: {worst:e} of {peak:e}"
        );
    }
}

#[test]
fn no_lowest_mode_passes_through() {
    let mut hp = DriveHighpass::default();
    hp.tune(f64::NAN, 48_000.0);
    assert_eq!(hp.tick(0.25), 0.25);
}

/// A tail and a held force played in spans stay within rounding of the sections'
/// own samples, through a force that changes inside a span, a retune and a hand.
#[test]
fn spans_are_the_sections_samples() {
    for (mode, fs) in [(20.0, 384_000.0), (440.0, 48_000.0), (5000.0, 44_100.0)] {
        let mut hp = DriveHighpass::default();
        hp.tune(mode, fs);
        let mut reference = hp;
        let (mut worst, mut peak, mut spans) = (0f64, 0f64, 0);
        for n in 0..20_000usize {
            // A push, its tail, a held force from sample 5003 (inside a span), a retune
            // and a hand while it is held.
            let x = match n {
                0..200 => (n as f64 * 0.1).sin(),
                200..5003 => 0.0,
                _ => 0.7,
            };
            if n == 9_001 {
                hp.tune(mode * 1.3, fs);
                reference.tune(mode * 1.3, fs);
            }
            if n == 15_007 {
                hp.damp(0.05, fs, 64);
                reference.damp(0.05, fs, 64);
            }
            spans += usize::from(hp.span.is_live());
            let got = hp.tick(x);
            // The sections alone: no span ever starts on a force that changes.
            reference.last_x = f64::NAN;
            let want = reference.tick(x);
            worst = worst.max((got - want).abs());
            peak = peak.max(want.abs());
        }
        assert!(spans > 8_000, "{mode} Hz: spans played {spans} samples");
        // A tail is let go where its states fall under `QUIET`, at a span's end rather
        // than at the sample: its last samples, under twice that, 200 dB down.
        assert!(
            worst < 1e-12 * peak + 2.0 * QUIET,
            "{mode} Hz at {fs}: {worst:e} of {peak:e}"
        );
    }
}

/// A run of a held force gives the samples `tick` gives one by one, bit for bit,
/// however the run is cut: what a voice plays does not depend on a host's blocks.
#[test]
fn a_fill_is_its_ticks_however_cut() {
    let mut base = DriveHighpass::default();
    base.tune(110.0, 96_000.0);
    for n in 0..300 {
        base.tick((n as f64 * 0.05).cos());
    }
    let x = 0.3;
    let mut one = base;
    let want: Vec<f64> = (0..3000).map(|_| one.tick(x)).collect();
    for cut in [1, 5, 16, 17, 32, 333] {
        let mut hp = base;
        let mut got = vec![0.0; want.len()];
        for chunk in got.chunks_mut(cut) {
            hp.fill(x, chunk);
        }
        assert_eq!(got, want, "cut {cut}");
        assert_eq!(hp.s, one.s, "cut {cut}");
    }
}
