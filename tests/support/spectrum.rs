//! Spectra for the tests: the editor's FFT, the engine's A-weighting curve and the
//! spectral centroid.
#![allow(dead_code)]

use rebound::analysis::fft;

/// Power spectrum `|X_k|²` of `x` (zero-padded to a power of two), bins `0..=N/2`, and
/// the bin width in Hz.
pub fn power_spectrum(x: &[f32], fs: f64) -> (Vec<f64>, f64) {
    let n = x.len().next_power_of_two().max(2);
    let mut re: Vec<f64> = x.iter().map(|&s| s as f64).collect();
    re.resize(n, 0.0);
    let mut im = vec![0.0; n];
    fft(&mut re, &mut im);
    let p = (0..=n / 2).map(|k| re[k] * re[k] + im[k] * im[k]).collect();
    (p, fs / n as f64)
}

/// The A-weighting curve the level calibration weighs rings by (IEC 61672-1, 0 dB at
/// 1 kHz).
pub use rebound::engine::level::a_weight;

/// A-weighted level of `x`, dB (relative: the same length and rate compare).
pub fn a_weighted_db(x: &[f32], fs: f64) -> f64 {
    let (p, df) = power_spectrum(x, fs);
    let e: f64 = p
        .iter()
        .enumerate()
        .map(|(k, v)| v * a_weight(k as f64 * df).powi(2))
        .sum();
    10.0 * e.log10()
}

/// Spectral centroid of `x`, Hz: `Σ f |X|² / Σ |X|²`.
pub fn centroid(x: &[f32], fs: f64) -> f64 {
    let (p, df) = power_spectrum(x, fs);
    let (num, den) = p
        .iter()
        .enumerate()
        .fold((0.0, 0.0), |a, (k, v)| (a.0 + k as f64 * df * v, a.1 + v));
    num / den
}
