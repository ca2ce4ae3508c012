//! Nonlinear least-squares refinement of a band's poles.
//!
//! ESPRIT's poles are a subspace estimate: where a fast decay shares a band with slow
//! ones, or a weak component falls below the model order, they are off by more than
//! the noise explains. Minimising the band signal's residual over the poles, with the
//! amplitudes eliminated (variable projection, Golub & Pereyra 1973, with Kaufman's
//! 1975 Jacobian), reaches the least-squares poles from ESPRIT's start in a few
//! Gauss–Newton steps.

use nalgebra::DMatrix;
use rustfft::num_complex::Complex64;

/// Gauss–Newton steps at most.
const MAX_STEPS: usize = 12;
/// Stop when a step lowers the residual by less than this fraction.
const TOLERANCE: f64 = 1e-9;

/// Refines `poles` (all decaying) to the least-squares fit of the first `n` samples of
/// every channel in `signals`. Poles stay inside the unit circle; a step that does not
/// lower the residual is halved, and the start is kept if nothing helps.
pub fn refine(signals: &[Vec<Complex64>], n: usize, poles: &mut [Complex64]) {
    if poles.is_empty() || n <= 2 * poles.len() {
        return;
    }
    let y = DMatrix::from_fn(n, signals.len(), |m, c| signals[c][m]);
    let mut cost = residual(&y, poles).map_or(f64::INFINITY, |(r, _)| r.norm_squared());
    for _ in 0..MAX_STEPS {
        let Some(step) = gauss_newton_step(&y, poles) else {
            return;
        };
        let mut scale = 1.0;
        let mut improved = false;
        while scale > 1.0 / 64.0 {
            let trial: Vec<Complex64> = poles
                .iter()
                .zip(&step)
                .map(|(w, d)| clamp_inside(w + d * scale))
                .collect();
            let trial_cost = residual(&y, &trial).map_or(f64::INFINITY, |(r, _)| r.norm_squared());
            if trial_cost < cost {
                let gain = (cost - trial_cost) / cost.max(1e-300);
                poles.copy_from_slice(&trial);
                cost = trial_cost;
                improved = gain > TOLERANCE;
                break;
            }
            scale /= 2.0;
        }
        if !improved {
            return;
        }
    }
}

/// Keeps a pole strictly decaying, so powers over the span stay bounded.
fn clamp_inside(w: Complex64) -> Complex64 {
    let r = w.norm();
    if r < 1.0 - 1e-9 {
        w
    } else {
        w * ((1.0 - 1e-9) / r)
    }
}

/// The Vandermonde matrix `V[m][k] = w_k^m` of `n` rows.
pub(crate) fn vandermonde(n: usize, poles: &[Complex64]) -> DMatrix<Complex64> {
    let mut v = DMatrix::<Complex64>::zeros(n, poles.len());
    for (k, &w) in poles.iter().enumerate() {
        let mut z = Complex64::new(1.0, 0.0);
        for m in 0..n {
            v[(m, k)] = z;
            z *= w;
        }
    }
    v
}

/// The residual of the least-squares fit on `poles` (one column per channel) and the
/// orthonormal basis of the model's column space.
fn residual(
    y: &DMatrix<Complex64>,
    poles: &[Complex64],
) -> Option<(DMatrix<Complex64>, DMatrix<Complex64>)> {
    let q = vandermonde(y.nrows(), poles).qr().q();
    let r = y - &q * (q.adjoint() * y);
    r.iter().all(|z| z.is_finite()).then_some((r, q))
}

/// One Gauss–Newton step for all poles: the model is analytic in each pole, so the
/// step solves a complex linear least-squares problem.
fn gauss_newton_step(y: &DMatrix<Complex64>, poles: &[Complex64]) -> Option<Vec<Complex64>> {
    let (n, channels, k) = (y.nrows(), y.ncols(), poles.len());
    let v = vandermonde(n, poles);
    let b = v.clone().svd(true, true).solve(y, 1e-13).ok()?;
    let q = v.qr().q();
    let mut jac = DMatrix::<Complex64>::zeros(n * channels, k);
    let mut res = DMatrix::<Complex64>::zeros(n * channels, 1);
    let r = y - &q * (q.adjoint() * y);
    // d(w^m)/dw = m w^(m−1), weighted by each channel's amplitude.
    let mut dv = DMatrix::<Complex64>::zeros(n, k);
    for (j, &w) in poles.iter().enumerate() {
        let mut z = Complex64::new(0.0, 0.0);
        let mut pow = Complex64::new(1.0, 0.0);
        for m in 0..n {
            dv[(m, j)] = z;
            z = pow * (m + 1) as f64;
            pow *= w;
        }
    }
    for c in 0..channels {
        let mut d = dv.clone();
        for j in 0..k {
            let bj = b[(j, c)];
            d.column_mut(j).iter_mut().for_each(|x| *x *= bj);
        }
        let proj = &d - &q * (q.adjoint() * &d);
        jac.view_mut((c * n, 0), (n, k)).copy_from(&proj);
        res.view_mut((c * n, 0), (n, 1)).copy_from(&r.column(c));
    }
    let step = jac.svd(true, true).solve(&res, 1e-13).ok()?;
    let step: Vec<Complex64> = step.iter().copied().collect();
    step.iter().all(|z| z.is_finite()).then_some(step)
}
