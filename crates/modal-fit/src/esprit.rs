//! ESPRIT on one band signal: the poles of a sum of damped complex exponentials.
//!
//! The signal subspace is taken from the sample covariance of length-`L` windows; its
//! shift invariance gives the poles as the eigenvalues of a small matrix (Roy &
//! Kailath 1989, ESPRIT). The amplitudes then follow by least squares on the found
//! poles. The model order is the number of covariance eigenvalues standing clear of
//! the band's noise eigenvalues.

use nalgebra::{DMatrix, Schur, SymmetricEigen};
use rustfft::num_complex::Complex64;

/// The poles found in one band and what they were found against.
#[derive(Debug, Clone)]
pub struct BandPoles {
    /// Decaying poles at the band rate (|w| < 1).
    pub poles: Vec<Complex64>,
    /// Noise power per band sample (summed over the channels), from the covariance's
    /// noise eigenvalues.
    pub noise_psd: f64,
}

/// Sample covariance `R[i][j] = Σ_c Σ_n y_c[n+i] conj(y_c[n+j])` of `l`-sample windows,
/// summed over the channels so that a mode weak or inverted in one channel still shows.
///
/// The first row is summed directly; the rest follows down the diagonals by adding the
/// window's new end product and dropping its old start product, `O(l·n)` in all.
pub fn covariance(signals: &[Vec<Complex64>], l: usize) -> DMatrix<Complex64> {
    let mut r = DMatrix::<Complex64>::zeros(l, l);
    for y in signals {
        let m = y.len() + 1 - l;
        for j in 0..l {
            let row0: Complex64 = (0..m).map(|n| y[n] * y[n + j].conj()).sum();
            let mut acc = row0;
            r[(0, j)] += acc;
            for i in 1..l - j {
                let (a, b) = (i - 1, i - 1 + j);
                acc += y[a + m] * y[b + m].conj() - y[a] * y[b].conj();
                r[(i, i + j)] += acc;
            }
        }
    }
    for i in 0..l {
        for j in 0..i {
            r[(i, j)] = r[(j, i)].conj();
        }
    }
    r
}

/// Poles of the band signals (all sharing them), at most `max_order`.
///
/// `occupied` is the fraction of the band rate the filter passes: noise fills only
/// that share of the covariance's eigenvalues, and the middle of those sets the noise
/// level that the signal eigenvalues must stand above.
pub fn band_poles(
    signals: &[Vec<Complex64>],
    l: usize,
    occupied: f64,
    max_order: usize,
) -> BandPoles {
    let n = signals[0].len();
    let m = (n + 1 - l) as f64;
    let eig = SymmetricEigen::new(covariance(signals, l));
    let mut order: Vec<usize> = (0..l).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    let values: Vec<f64> = order.iter().map(|&i| eig.eigenvalues[i].max(0.0)).collect();
    let noise_rank = ((occupied * l as f64 * 0.6) as usize).clamp(1, l - 1);
    let noise = values[noise_rank].max(values[0] * 1e-14);
    // Noise eigenvalues of a finite sample spread by about (1 + √(l/m))² (Marchenko–
    // Pastur); signal must clear that edge by a further factor of 2.
    let spread = (1.0 + (l as f64 / m).sqrt()).powi(2);
    let limit = noise * spread * 2.0;
    let cap = max_order.min(noise_rank).min(l - 2);
    let r = values.iter().take(cap).take_while(|&&v| v > limit).count();
    let noise_psd = noise / m;
    if r == 0 {
        return BandPoles {
            poles: Vec::new(),
            noise_psd,
        };
    }
    let us = DMatrix::from_fn(l, r, |i, k| eig.eigenvectors[(i, order[k])]);
    let u1 = us.rows(0, l - 1).into_owned();
    let u2 = us.rows(1, l - 1).into_owned();
    let Ok(phi) = u1.svd(true, true).solve(&u2, 1e-12) else {
        return BandPoles {
            poles: Vec::new(),
            noise_psd,
        };
    };
    let poles = eigenvalues(phi)
        .into_iter()
        .filter(|w| w.norm() < 1.0 && w.is_finite())
        .collect();
    BandPoles { poles, noise_psd }
}

/// Eigenvalues of a general complex matrix from its Schur form (the diagonal, and any
/// 2×2 block the iteration left solved directly).
fn eigenvalues(a: DMatrix<Complex64>) -> Vec<Complex64> {
    let n = a.nrows();
    let (_, t) = Schur::new(a).unpack();
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        let scale = t[(i, i)].norm()
            + if i + 1 < n {
                t[(i + 1, i + 1)].norm()
            } else {
                0.0
            };
        if i + 1 < n && t[(i + 1, i)].norm() > 1e-13 * scale.max(1e-300) {
            let (p, q, r, s) = (t[(i, i)], t[(i, i + 1)], t[(i + 1, i)], t[(i + 1, i + 1)]);
            let half_tr = (p + s) * 0.5;
            let disc = (half_tr * half_tr - (p * s - q * r)).sqrt();
            out.push(half_tr + disc);
            out.push(half_tr - disc);
            i += 2;
        } else {
            out.push(t[(i, i)]);
            i += 1;
        }
    }
    out
}

/// Least-squares complex amplitudes of each channel on the given poles:
/// `y_c[m] ≈ Σ_k b[k][c] w_k^m`. Returns one row per pole, one column per channel.
pub fn amplitudes(signals: &[Vec<Complex64>], poles: &[Complex64]) -> DMatrix<Complex64> {
    let n = signals[0].len();
    let k = poles.len();
    let v = crate::refine::vandermonde(n, poles);
    let ys: Vec<&[Complex64]> = signals.iter().map(Vec::as_slice).collect();
    crate::refine::least_squares(v, n, k, &ys, 1e-12)
        .unwrap_or_else(|| DMatrix::zeros(k, signals.len()))
}

/// Energy `Σ_m |w|^{2m}` of a unit-amplitude pole over `n` samples.
pub fn pole_energy(w: Complex64, n: usize) -> f64 {
    let r2 = w.norm_sqr();
    if (1.0 - r2).abs() < 1e-12 {
        n as f64
    } else {
        (1.0 - r2.powi(n as i32)) / (1.0 - r2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    fn signal(poles: &[(Complex64, Complex64)], n: usize) -> Vec<Complex64> {
        (0..n)
            .map(|m| poles.iter().map(|(w, b)| b * w.powu(m as u32)).sum())
            .collect()
    }

    #[test]
    fn covariance_matches_the_direct_sum() {
        let y: Vec<Complex64> = (0..40)
            .map(|n| Complex64::new((n as f64).sin(), (n as f64 * 0.7).cos()))
            .collect();
        let l = 7;
        let r = covariance(std::slice::from_ref(&y), l);
        for i in 0..l {
            for j in 0..l {
                let direct: Complex64 = (0..=40 - l).map(|n| y[n + i] * y[n + j].conj()).sum();
                assert!((r[(i, j)] - direct).norm() < 1e-9);
            }
        }
    }

    #[test]
    fn finds_two_close_noiseless_poles_and_their_amplitudes() {
        let w1 = Complex64::from_polar(0.999, 2.0 * PI * 0.1);
        let w2 = Complex64::from_polar(0.995, 2.0 * PI * 0.11);
        let (b1, b2) = (Complex64::new(1.0, 0.5), Complex64::new(-0.2, 0.3));
        let y = signal(&[(w1, b1), (w2, b2)], 600);
        let found = band_poles(std::slice::from_ref(&y), 100, 1.0, 10);
        assert_eq!(found.poles.len(), 2, "{:?}", found.poles);
        let mut poles = found.poles.clone();
        poles.sort_by(|a, b| a.arg().total_cmp(&b.arg()));
        assert!((poles[0] - w1).norm() < 1e-8 && (poles[1] - w2).norm() < 1e-8);
        let b = amplitudes(std::slice::from_ref(&y), &poles);
        assert!((b[(0, 0)] - b1).norm() < 1e-7 && (b[(1, 0)] - b2).norm() < 1e-7);
    }
}
