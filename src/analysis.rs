//! Spectra of rendered audio, shared by the editor's spectrum plot, the CLI's plots and
//! the tests: a Hann-windowed spectrum in dBFS over `rustfft`; and the bounce train
//! read from a render's contact force, shared by `rebound presets --measure` and the
//! tests. Plain numbers, no framework types.

use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

/// The spectrum's floor, dBFS.
pub const FLOOR_DB: f64 = -140.0;

/// In-place forward FFT of the complex signal `re + i im` (the same length; any
/// length, by `rustfft`'s planner). Allocates: for the editor, the CLI and the tests,
/// never the audio thread.
pub fn fft(re: &mut [f64], im: &mut [f64]) {
    let n = re.len().min(im.len());
    if n == 0 {
        return;
    }
    let mut buf: Vec<Complex<f64>> = re
        .iter()
        .zip(im.iter())
        .map(|(&r, &i)| Complex::new(r, i))
        .collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    for ((r, i), z) in re.iter_mut().zip(im.iter_mut()).zip(&buf) {
        (*r, *i) = (z.re, z.im);
    }
}

/// `[frequency Hz, level dBFS]` of every bin from DC to Nyquist: Hann window over the
/// samples, zero-padded to a power of two, scaled so that a full-scale sine on a bin
/// reads 0 dBFS.
pub fn spectrum_db(samples: &[f32], fs: f64) -> Vec<[f64; 2]> {
    let len = samples.len();
    if len < 2 || !fs.is_finite() || fs <= 0.0 {
        return Vec::new();
    }
    let n = len.next_power_of_two();
    let mut re = vec![0.0; n];
    let mut im = vec![0.0; n];
    let mut wsum = 0.0;
    for (i, s) in samples.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / (len - 1) as f64).cos();
        wsum += w;
        re[i] = *s as f64 * w;
    }
    fft(&mut re, &mut im);
    (0..=n / 2)
        .map(|k| {
            let mag = (re[k] * re[k] + im[k] * im[k]).sqrt() * 2.0 / wsum;
            let db = if mag > 0.0 {
                (20.0 * mag.log10()).max(FLOOR_DB)
            } else {
                FLOOR_DB
            };
            [k as f64 * fs / n as f64, db]
        })
        .collect()
}

/// Power spectrum `|X_k|²` of `x` (no window, zero-padded to a power of two), bins
/// `0..=N/2`, and the bin width in Hz.
pub fn power_spectrum(x: &[f32], fs: f64) -> (Vec<f64>, f64) {
    let n = x.len().next_power_of_two().max(2);
    let mut re: Vec<f64> = x.iter().map(|&s| s as f64).collect();
    re.resize(n, 0.0);
    let mut im = vec![0.0; n];
    fft(&mut re, &mut im);
    let p = (0..=n / 2).map(|k| re[k] * re[k] + im[k] * im[k]).collect();
    (p, fs / n as f64)
}

/// Spectral centroid of `x`, Hz: `Σ f |X|² / Σ |X|²` (0 for silence).
pub fn centroid(x: &[f32], fs: f64) -> f64 {
    let (p, df) = power_spectrum(x, fs);
    let (num, den) = p
        .iter()
        .enumerate()
        .fold((0.0, 0.0), |a, (k, v)| (a.0 + k as f64 * df * v, a.1 + v));
    if den > 0.0 { num / den } else { 0.0 }
}

/// The samples at which a contact starts: where the force `force` becomes non-zero
/// (a render's force is exactly 0 between contacts).
pub fn force_onsets(force: &[f32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut was = false;
    for (i, &f) in force.iter().enumerate() {
        let on = f != 0.0;
        if on && !was {
            out.push(i);
        }
        was = on;
    }
    out
}

/// The ratio of each interval between `onsets` to the one before, over the first
/// `intervals` intervals (while a train's flights are still many samples long).
pub fn interval_ratios(onsets: &[usize], intervals: usize) -> Vec<f64> {
    let iv: Vec<f64> = onsets
        .windows(2)
        .map(|w| (w[1] - w[0]) as f64)
        .take(intervals)
        .collect();
    iv.windows(2).map(|w| w[1] / w[0]).collect()
}

/// Standard deviation of `x` (population; 0 when empty).
pub fn spread(x: &[f64]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let m = x.iter().sum::<f64>() / x.len() as f64;
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / x.len() as f64).sqrt()
}
