//! How loud the body's ringing is from now on, from its modal state: what the level
//! calibration weighs a strike by (see `engine::level::law`), without rendering the ring.

use super::ModalBody;
use super::bank::Coefs;
use super::limits::MODES;
use std::f64::consts::PI;

impl ModalBody {
    /// Energy of the body's output over the next `window` s, each mode weighted by
    /// `weight(f)` (an amplitude gain at its frequency in Hz), in s·(output unit)²:
    /// mode `k` rings as `A_k e^{−t/τ_k} sin(…)`, `A_k = |a_k + i b_k| |z_k|`, and its
    /// energy over the window is `A_k² τ_k (1 − e^{−2W/τ_k}) / 4`; the modes are far
    /// enough apart in frequency that their cross terms average out. The same at every
    /// rate for the same state, since `τ_k` and `f_k` are in seconds and Hz.
    pub fn ring_energy(&self, window: f64, weight: impl Fn(f64) -> f64) -> f64 {
        if !self.active || window.is_nan() || window <= 0.0 {
            return 0.0;
        }
        let mut e = bank_energy(&self.re, &self.im, &self.k, self.fs, window, &weight);
        if self.fade_left > 0 {
            e += bank_energy(
                &self.old_re,
                &self.old_im,
                &self.old,
                self.fs,
                window,
                &weight,
            );
        }
        e
    }
}

fn bank_energy(
    re: &[f64; MODES],
    im: &[f64; MODES],
    k: &Coefs,
    fs: f64,
    window: f64,
    weight: &impl Fn(f64) -> f64,
) -> f64 {
    let mut e = 0.0;
    for i in 0..MODES {
        let w2 = k.a[i] * k.a[i] + k.b[i] * k.b[i];
        let z2 = re[i] * re[i] + im[i] * im[i];
        if w2 == 0.0 || z2 == 0.0 {
            continue;
        }
        let r = k.c[i].hypot(k.s[i]);
        let f = k.s[i].atan2(k.c[i]) * fs / (2.0 * PI);
        // Amplitude time constant, s (an undamped mode rings the whole window).
        let held = if r < 1.0 {
            let tau = -1.0 / (r.ln() * fs);
            0.5 * tau * (1.0 - (-2.0 * window / tau).exp())
        } else {
            window
        };
        let g = weight(f);
        e += 0.5 * w2 * z2 * g * g * held;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::super::{BodySettings, BodyType, ModalBody, Partial, Recorded, register};

    /// A recorded body whose partials are far apart. (The built-in glass's beating
    /// pairs, 2 Hz apart, do not average out their cross terms within a window: there
    /// the estimate is off by up to 3 dB, which the level law's bounded lift and cut
    /// absorb; see docs/recorded-body.md.)
    fn spread_partials() -> u16 {
        let p = |freq_hz, t60_s, amplitude| Partial {
            freq_hz,
            t60_s,
            amplitude,
        };
        let body = Recorded::new(&[p(300.0, 1.0, 1.0), p(1150.0, 0.4, 0.5), p(2710.0, 0.2, 0.3)]);
        register(&body.unwrap()).unwrap()
    }

    /// The energy from the modal state is the energy the body then plays, for every
    /// body, at two rates (unweighted, and weighted: the weighting is applied per mode,
    /// so a weight of 2 quadruples it).
    #[test]
    fn ring_energy_is_what_the_body_then_plays() {
        for kind in BodyType::ALL {
            if kind == BodyType::None {
                continue;
            }
            for fs in [44_100.0, 96_000.0] {
                let mut b = ModalBody::new(
                    BodySettings {
                        kind,
                        f1: 440.0,
                        t60: 0.3,
                        recording: spread_partials(),
                        ..Default::default()
                    },
                    fs,
                );
                // A pulse, then until the drive high-pass's tail has died (see `drive`).
                let settle = (0.03 * fs) as usize;
                for i in 0..settle {
                    b.tick(if i < 10 { 1.0 } else { 0.0 });
                }
                let window = 0.2;
                let predicted = b.ring_energy(window, |_| 1.0);
                assert!((b.ring_energy(window, |_| 2.0) / predicted - 4.0).abs() < 1e-12);
                let n = (window * fs) as usize;
                let played: f64 = (0..n).map(|_| b.tick(0.0).powi(2)).sum::<f64>() / fs;
                let err = (predicted / played).log10().abs() * 10.0;
                assert!(err < 1.0, "{kind:?} at {fs}: {predicted:e} vs {played:e}");
            }
        }
    }
}
