//! Nonlinear least-squares refinement of a band's poles.
//!
//! ESPRIT's poles are a subspace estimate: where a fast decay shares a band with slow
//! ones, or a weak component falls below the model order, they are off by more than
//! the noise explains. Minimising the band signal's residual over the poles, with the
//! amplitudes eliminated (variable projection, Golub & Pereyra 1973, with Kaufman's
//! 1975 Jacobian), reaches the least-squares poles from ESPRIT's start in a few
//! Gauss–Newton steps.
//!
//! Each trial is one Householder QR of the Vandermonde matrix, kept as reflectors.
//! Its `Qᴴ` rotates the whole problem: the residual is the tail of `Qᴴy`, and the
//! Jacobian's projection `(I − QQᴴ)·∂V` is the tail of `Qᴴ·∂V` (Kaufman's form), so
//! a step needs no further `n`-row product, and the accepted trial's factorization
//! serves the next step. Only `k × k` triangles are ever given to an SVD.

use nalgebra::DMatrix;
use rustfft::num_complex::Complex64;

/// Gauss–Newton steps at most.
const MAX_STEPS: usize = 12;
/// Stop when a step lowers the residual by less than this fraction.
const TOLERANCE: f64 = 1e-9;
/// Singular values of the triangles at or below this count as zero (absolute, as the
/// full matrices' SVD solve had them).
const RANK_EPS: f64 = 1e-13;

/// Refines `poles` (all decaying) to the least-squares fit of the first `n` samples of
/// every channel in `signals`. Poles stay inside the unit circle; a step that does not
/// lower the residual is halved, and the start is kept if nothing helps.
pub fn refine(signals: &[Vec<Complex64>], n: usize, poles: &mut [Complex64]) {
    if poles.is_empty() || n <= 2 * poles.len() {
        return;
    }
    let y: Vec<&[Complex64]> = signals.iter().map(|s| &s[..n]).collect();
    let Some(mut fit) = Projection::new(&y, poles) else {
        return;
    };
    for _ in 0..MAX_STEPS {
        let Some(step) = fit.gauss_newton_step(poles) else {
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
            if let Some(t) = Projection::new(&y, &trial).filter(|t| t.cost < fit.cost) {
                let gain = (fit.cost - t.cost) / fit.cost.max(1e-300);
                poles.copy_from_slice(&trial);
                fit = t;
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

/// The Vandermonde matrix `V[m][k] = w_k^m` of `n` rows, column-major.
pub(crate) fn vandermonde(n: usize, poles: &[Complex64]) -> Vec<Complex64> {
    let mut v = Vec::with_capacity(n * poles.len());
    for &w in poles {
        let mut z = Complex64::new(1.0, 0.0);
        for _ in 0..n {
            v.push(z);
            z *= w;
        }
    }
    v
}

/// The least-squares fit of the channels `y` on a set of poles, in the rotated frame
/// of the Vandermonde matrix's QR.
struct Projection {
    qr: Qr,
    /// `Qᴴ y` per channel: the first `k` entries hold the fit, the rest the residual.
    qhy: Vec<Vec<Complex64>>,
    /// Residual energy summed over the channels.
    cost: f64,
}

impl Projection {
    /// `None` when the fit is not finite.
    fn new(y: &[&[Complex64]], poles: &[Complex64]) -> Option<Self> {
        let (n, k) = (y[0].len(), poles.len());
        let qr = Qr::new(vandermonde(n, poles), n, k);
        let qhy = qr.rotate(y);
        let cost: f64 = qhy
            .iter()
            .flat_map(|b| &b[k..])
            .map(Complex64::norm_sqr)
            .sum();
        cost.is_finite().then_some(Self { qr, qhy, cost })
    }

    /// One Gauss–Newton step for all poles: the model is analytic in each pole, so the
    /// step solves a complex linear least-squares problem, here in the rotated frame
    /// (the residual's and the projected Jacobian's tails, channels stacked).
    fn gauss_newton_step(&self, poles: &[Complex64]) -> Option<Vec<Complex64>> {
        let (n, k) = (self.qhy[0].len(), poles.len());
        let tops: Vec<&[Complex64]> = self.qhy.iter().map(|b| &b[..k]).collect();
        let b = self.qr.solve(&tops, RANK_EPS)?;
        // Tails of Qᴴ·∂V, where ∂(w^m)/∂w = m·w^(m−1).
        let tails: Vec<Vec<Complex64>> = poles
            .iter()
            .map(|&w| {
                let mut d = Vec::with_capacity(n);
                let mut z = Complex64::new(0.0, 0.0);
                let mut pow = Complex64::new(1.0, 0.0);
                for m in 0..n {
                    d.push(z);
                    z = pow * (m + 1) as f64;
                    pow *= w;
                }
                self.qr.apply_qh(&mut d);
                d.split_off(k)
            })
            .collect();
        // Each channel's block weights the columns by its amplitudes.
        let rows = (n - k) * self.qhy.len();
        let mut jac = Vec::with_capacity(rows * k);
        for (j, tail) in tails.iter().enumerate() {
            for c in 0..self.qhy.len() {
                let bj = b[(j, c)];
                jac.extend(tail.iter().map(|x| x * bj));
            }
        }
        let mut res: Vec<Complex64> = self.qhy.iter().flat_map(|q| q[k..].to_vec()).collect();
        let jqr = Qr::new(jac, rows, k);
        jqr.apply_qh(&mut res);
        let step = jqr.solve(&[&res[..k]], RANK_EPS)?;
        let step: Vec<Complex64> = step.iter().copied().collect();
        step.iter().all(|z| z.is_finite()).then_some(step)
    }
}

/// Least-squares solution of `V x = y` (`V` column-major, `n × k`) for each column of
/// `y`, through a QR and an SVD of its triangle; singular values up to `eps` count as
/// zero. One row per column of `V`, one column per right-hand side.
pub(crate) fn least_squares(
    v: Vec<Complex64>,
    n: usize,
    k: usize,
    y: &[&[Complex64]],
    eps: f64,
) -> Option<DMatrix<Complex64>> {
    let qr = Qr::new(v, n, k);
    let qhy = qr.rotate(y);
    let tops: Vec<&[Complex64]> = qhy.iter().map(|b| &b[..k]).collect();
    qr.solve(&tops, eps)
}

/// Householder QR of a tall complex `n × k` matrix, kept as its reflectors (the
/// layout of LAPACK's `zgeqrf`; Golub & Van Loan, Matrix Computations, §5.2):
/// applying `Qᴴ` costs `O(n·k)` a vector and `Q` is never formed.
pub(crate) struct Qr {
    n: usize,
    k: usize,
    /// Column `j` holds reflector `v_j` in rows `j..n`, scaled to `|v_j|² = 2` so
    /// that `H_j = I − v_j v_jᴴ` (a zero column leaves `v_j = 0`, `H_j = I`).
    v: Vec<Complex64>,
    /// The `k × k` upper triangle `R`.
    r: DMatrix<Complex64>,
}

impl Qr {
    /// Factors `a` (column-major, `n ≥ k`).
    pub(crate) fn new(mut a: Vec<Complex64>, n: usize, k: usize) -> Self {
        let mut r = DMatrix::<Complex64>::zeros(k, k);
        for j in 0..k {
            let (done, rest) = a.split_at_mut((j + 1) * n);
            let x = &mut done[j * n + j..];
            let norm = x.iter().map(Complex64::norm_sqr).sum::<f64>().sqrt();
            let x0 = x[0];
            let phase = if x0.norm() > 0.0 {
                x0 / x0.norm()
            } else {
                Complex64::new(1.0, 0.0)
            };
            let alpha = -phase * norm;
            r[(j, j)] = alpha;
            // |x − αe₁|² = 2·norm·(norm + |x₀|).
            let vv = 2.0 * norm * (norm + x0.norm());
            if vv > 0.0 {
                x[0] -= alpha;
                let s = (2.0 / vv).sqrt();
                x.iter_mut().for_each(|e| *e *= s);
            }
            for (c, col) in rest.chunks_exact_mut(n).enumerate() {
                reflect(x, &mut col[j..]);
                r[(j, j + 1 + c)] = col[j];
            }
        }
        Self { n, k, v: a, r }
    }

    /// `Qᴴ c` for each channel `c` of `y`.
    fn rotate(&self, y: &[&[Complex64]]) -> Vec<Vec<Complex64>> {
        y.iter()
            .map(|c| {
                let mut b = c.to_vec();
                self.apply_qh(&mut b);
                b
            })
            .collect()
    }

    /// `b ← Qᴴ b` for a vector of `n` entries.
    pub(crate) fn apply_qh(&self, b: &mut [Complex64]) {
        for j in 0..self.k {
            reflect(&self.v[j * self.n + j..(j + 1) * self.n], &mut b[j..]);
        }
    }

    /// Solves `R x = t` for each `t` (the first `k` entries of a `Qᴴ y`) through the
    /// SVD of `R`, whose singular values are the factored matrix's: those up to `eps`
    /// count as zero.
    pub(crate) fn solve(&self, tops: &[&[Complex64]], eps: f64) -> Option<DMatrix<Complex64>> {
        let t = DMatrix::from_fn(self.k, tops.len(), |i, c| tops[c][i]);
        self.r.clone().svd(true, true).solve(&t, eps).ok()
    }
}

/// `b ← (I − v vᴴ) b`.
fn reflect(v: &[Complex64], b: &mut [Complex64]) {
    let s = dot(v, b);
    if s != Complex64::new(0.0, 0.0) {
        b.iter_mut().zip(v).for_each(|(b, v)| *b -= v * s);
    }
}

/// `vᴴ b`, in four independent partial sums so the loop pipelines and vectorizes (a
/// single running sum is one long dependency chain).
fn dot(v: &[Complex64], b: &[Complex64]) -> Complex64 {
    let (mut re, mut im) = ([0.0f64; 4], [0.0f64; 4]);
    let (vc, bc) = (v.chunks_exact(4), b.chunks_exact(4));
    let tail: Complex64 = vc
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(v, b)| v.conj() * b)
        .sum();
    for (v4, b4) in vc.zip(bc) {
        for i in 0..4 {
            re[i] += v4[i].re * b4[i].re + v4[i].im * b4[i].im;
            im[i] += v4[i].re * b4[i].im - v4[i].im * b4[i].re;
        }
    }
    tail + Complex64::new(re.iter().sum(), im.iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qr_least_squares_matches_the_svd_solve() {
        let poles = [
            Complex64::from_polar(0.99, 0.3),
            Complex64::from_polar(0.97, 0.35),
            Complex64::from_polar(0.8, -1.0),
        ];
        let n = 50;
        let y: Vec<Complex64> = (0..n)
            .map(|m| Complex64::new((m as f64 * 0.37).sin(), (m as f64 * 0.11).cos()))
            .collect();
        let v = vandermonde(n, &poles);
        let x = least_squares(v.clone(), n, 3, &[&y], 1e-13).expect("solve");
        let dense = DMatrix::from_column_slice(n, 3, &v);
        let yy = DMatrix::from_column_slice(n, 1, &y);
        let expected = dense.svd(true, true).solve(&yy, 1e-13).expect("svd");
        assert!((x - expected).norm() < 1e-9);
    }

    #[test]
    fn refinement_recovers_perturbed_poles() {
        let truth = [
            Complex64::from_polar(0.995, 0.4),
            Complex64::from_polar(0.98, 0.5),
        ];
        let y: Vec<Complex64> = (0..300)
            .map(|m| truth[0].powu(m) + truth[1].powu(m) * Complex64::new(0.3, 0.2))
            .collect();
        let mut poles = [
            truth[0] * 1.001,
            truth[1] * Complex64::from_polar(0.999, 0.01),
        ];
        refine(&[y], 300, &mut poles);
        assert!((poles[0] - truth[0]).norm() < 1e-8 && (poles[1] - truth[1]).norm() < 1e-8);
    }
}
