//! Resynthesis of the found modes against the recording: the residual level and the
//! noise floor left once the modes are taken out.

use rustfft::num_complex::Complex64;
use std::f64::consts::PI;

use crate::select::Candidate;

/// How the modes compare with the recording over the fitted span.
pub struct Comparison {
    /// Residual energy over recording energy, dB.
    pub residual_db: f64,
    /// RMS of the residual in its median 10 ms frame (per channel).
    pub noise_rms: f64,
    /// Largest absolute sample of the span.
    pub peak: f64,
}

/// Subtracts the modes from each channel of `span` and measures what is left.
pub fn compare(span: &[&[f64]], modes: &[Candidate], fs: f64) -> Comparison {
    let n = span[0].len();
    let frame = ((fs * 0.01) as usize).clamp(1, n.max(1));
    let mut frame_energy = vec![0.0; n.div_ceil(frame)];
    let (mut res_e, mut sig_e, mut peak) = (0.0, 0.0, 0.0f64);
    for (c, x) in span.iter().enumerate() {
        let mut model = vec![0.0; n];
        for m in modes {
            let p = Complex64::from_polar((-m.alpha / fs).exp(), 2.0 * PI * m.freq / fs);
            let mut z = m.coefs[c] * 2.0;
            for v in model.iter_mut() {
                *v += z.re;
                z *= p;
            }
        }
        for (i, (&xi, &mi)) in x.iter().zip(&model).enumerate() {
            let r = xi - mi;
            res_e += r * r;
            sig_e += xi * xi;
            peak = peak.max(xi.abs());
            frame_energy[i / frame] += r * r / span.len() as f64;
        }
    }
    let per_sample: Vec<f64> = frame_energy
        .iter()
        .enumerate()
        .map(|(i, e)| e / (frame.min(n - i * frame)) as f64)
        .collect();
    Comparison {
        residual_db: 10.0 * (res_e.max(1e-300) / sig_e.max(1e-300)).log10(),
        noise_rms: crate::onset::quantile(&per_sample, 0.5).sqrt(),
        peak,
    }
}
