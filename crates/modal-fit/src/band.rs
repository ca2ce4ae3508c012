//! Splitting a recording into overlapping complex sub-bands at a low sample rate.
//!
//! Each band is heterodyned to baseband, low-pass filtered and decimated, so a subspace
//! method sees a handful of poles in a short signal instead of hundreds at the full
//! rate (the sub-band approach of Laroche 1993 and Badeau, David & Richard 2006). The
//! filter is causal: every output sample that uses only samples after the onset is
//! exactly a sum of the same damped exponentials (the FIR maps `q^n` to `H(q) q^n`), so
//! the band poles carry over to the full rate without a transient to model.

use rustfft::num_complex::Complex64;
use std::f64::consts::PI;

/// Width of the frequency range each wide band is responsible for, Hz. Wide bands
/// need only a short filter (2.6 ms at 48 kHz), so fast decays are seen early.
pub const WIDE_HZ: f64 = 1500.0;
/// Width of each narrow band, Hz: a 50 ms ESPRIT window at the wide bands' 4 kHz
/// rate sees too little of a slow decay to measure it, so slow modes are measured
/// again at a sixth of that rate, where the same window spans 300 ms.
pub const NARROW_HZ: f64 = 250.0;
/// How far beyond its own range each band's flat passband reaches, as a fraction of
/// the spacing, so a mode near a band edge is analysed with its full skirt.
const MARGIN: f64 = 0.2;
/// Stopband attenuation of the band filter, dB: well below a −60 dB noise floor.
const STOP_DB: f64 = 80.0;

/// The bands for one sample rate: decimation, filter and centre frequencies.
#[derive(Debug, Clone)]
pub struct BandPlan {
    /// Full sample rate, Hz.
    pub fs: f64,
    /// Decimation factor.
    pub decim: usize,
    /// Band sample rate `fs / decim`, Hz.
    pub fs_band: f64,
    /// Width of each band's own range, Hz (poles are kept from the band whose centre
    /// they sit nearest).
    pub spacing: f64,
    /// Half-width of the flat passband, Hz.
    pub pass_half: f64,
    /// Low-pass prototype, unit gain at DC.
    pub taps: Vec<f64>,
    /// Centre frequency of each band, Hz.
    pub centers: Vec<f64>,
}

impl BandPlan {
    /// Plans bands `spacing` Hz apart covering `0..max_hz` (clamped below Nyquist).
    pub fn new(fs: f64, spacing: f64, max_hz: f64) -> Self {
        let spacing = spacing.min(fs / 8.0);
        let pass_half = spacing * (0.5 + MARGIN);
        // The band rate leaves the passband alias-free: images fold only onto the
        // transition band, whose poles are discarded as not central.
        let decim = ((fs / (spacing * 8.0 / 3.0)).floor() as usize).max(1);
        let fs_band = fs / decim as f64;
        let stop = (fs_band - pass_half).max(pass_half * 1.2);
        let taps = kaiser_lowpass(fs, pass_half, stop);
        let top = max_hz.min(fs * 0.49);
        let mut centers = Vec::new();
        let mut c = spacing / 2.0;
        while c - spacing / 2.0 < top {
            centers.push(c);
            c += spacing;
        }
        Self {
            fs,
            decim,
            fs_band,
            spacing,
            pass_half,
            taps,
            centers,
        }
    }

    /// Centre of the band whose own range holds `f`.
    pub fn center_of(&self, f: f64) -> f64 {
        ((f / self.spacing).floor() + 0.5) * self.spacing
    }

    /// Index (full rate, from the onset) of the first band sample: the first output
    /// whose filter taps all lie after the onset.
    pub fn first_sample(&self) -> usize {
        self.taps.len() - 1
    }

    /// Number of band samples a span of `n` full-rate samples yields.
    pub fn band_len(&self, n: usize) -> usize {
        if n < self.taps.len() {
            0
        } else {
            (n - self.taps.len()) / self.decim + 1
        }
    }

    /// The band signal of `x` (which starts at the onset) around `center` Hz:
    /// `y[m] = Σ_k h[k] x[n−k] e^{−jω(n−k)}` at `n = first_sample + m·decim`.
    pub fn extract(&self, x: &[f64], center: f64, len: usize) -> Vec<Complex64> {
        let w = 2.0 * PI * center / self.fs;
        // Modulated taps: the sum then runs on real input, and one phasor per output
        // undoes the modulation.
        let g: Vec<Complex64> = self
            .taps
            .iter()
            .enumerate()
            .map(|(k, &h)| Complex64::from_polar(h, w * k as f64))
            .collect();
        let n0 = self.first_sample();
        (0..len)
            .map(|m| {
                let n = n0 + m * self.decim;
                let mut acc = Complex64::new(0.0, 0.0);
                for (k, gk) in g.iter().enumerate() {
                    acc += gk * x[n - k];
                }
                acc * Complex64::from_polar(1.0, -w * n as f64)
            })
            .collect()
    }

    /// The filter's response to the full-rate baseband pole `q`: `Σ_k h[k] q^{−k}`.
    pub fn response(&self, q: Complex64) -> Complex64 {
        let inv = q.inv();
        let mut pow = Complex64::new(1.0, 0.0);
        let mut acc = Complex64::new(0.0, 0.0);
        for &h in &self.taps {
            acc += pow * h;
            pow *= inv;
        }
        acc
    }
}

/// Windowed-sinc low-pass (Kaiser window, Kaiser 1974 design formulas), flat to `pass`
/// Hz and `STOP_DB` down from `stop` Hz, normalised to unit DC gain.
fn kaiser_lowpass(fs: f64, pass: f64, stop: f64) -> Vec<f64> {
    let dw = 2.0 * PI * (stop - pass) / fs;
    let n = (((STOP_DB - 8.0) / (2.285 * dw)).ceil() as usize + 1).max(3);
    let beta = 0.1102 * (STOP_DB - 8.7);
    let fc = (pass + stop) / 2.0 / fs;
    let mid = (n - 1) as f64 / 2.0;
    let i0_beta = bessel_i0(beta);
    let mut taps: Vec<f64> = (0..n)
        .map(|k| {
            let t = k as f64 - mid;
            let sinc = if t == 0.0 {
                2.0 * fc
            } else {
                (2.0 * PI * fc * t).sin() / (PI * t)
            };
            let r = t / mid;
            sinc * bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / i0_beta
        })
        .collect();
    let sum: f64 = taps.iter().sum();
    taps.iter_mut().for_each(|h| *h /= sum);
    taps
}

/// Modified Bessel function of the first kind, order 0 (power series).
fn bessel_i0(x: f64) -> f64 {
    let mut term = 1.0;
    let mut sum = 1.0;
    let q = x * x / 4.0;
    for k in 1..200 {
        term *= q / (k as f64 * k as f64);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gain_db(plan: &BandPlan, f: f64) -> f64 {
        let q = Complex64::from_polar(1.0, 2.0 * PI * f / plan.fs);
        20.0 * plan.response(q).norm().log10()
    }

    #[test]
    fn filter_is_flat_in_the_passband_and_deep_in_the_stopband() {
        let plan = BandPlan::new(48_000.0, WIDE_HZ, 20_000.0);
        for f in [0.0, 300.0, plan.pass_half] {
            assert!(
                gain_db(&plan, f).abs() < 0.01,
                "passband {f} Hz: {}",
                gain_db(&plan, f)
            );
        }
        let stop = plan.fs_band - plan.pass_half;
        for f in [stop, stop + 500.0, 10_000.0, 23_000.0] {
            assert!(
                gain_db(&plan, f) < -STOP_DB + 1.0,
                "stopband {f} Hz: {}",
                gain_db(&plan, f)
            );
        }
    }

    #[test]
    fn extraction_maps_an_exponential_to_its_band_pole() {
        let plan = BandPlan::new(48_000.0, WIDE_HZ, 20_000.0);
        let (f, alpha) = (2_400.0, 30.0);
        let p = Complex64::from_polar((-alpha / plan.fs).exp(), 2.0 * PI * f / plan.fs);
        let x: Vec<f64> = (0..4000).map(|n| p.powu(n as u32).re).collect();
        let center = plan.centers[1];
        let y = plan.extract(&x, center, plan.band_len(x.len()));
        let w = p * Complex64::from_polar(1.0, -2.0 * PI * center / plan.fs);
        let expected = w.powu(plan.decim as u32);
        // The negative-frequency half is in the stopband: the ratio is the pole.
        let ratio = y[20] / y[19];
        assert!((ratio - expected).norm() < 1e-3, "{ratio} vs {expected}");
    }
}
