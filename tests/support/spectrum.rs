//! Spectra for the tests: the editor's FFT, the engine's A-weighting curve and the
//! spectral centroid.
#![allow(dead_code, unused_imports)]

/// The power spectrum and the spectral centroid are the library's (the CLI measures
/// with them too).
pub use rebound::analysis::{centroid, power_spectrum};

/// The A-weighting curve the level calibration weighs rings by (IEC 61672-1, 0 dB at
/// 1 kHz).
pub use rebound::engine::level::law::a_weight;

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
