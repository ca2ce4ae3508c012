//! Outbound velocity: the exact root of eq (6) and the approximation `ṽ_out` of eq (7).

use super::series::ln1p_remainder;
use std::cmp::Ordering;

/// Exact outbound velocity `v_out` (negative), the root of eq (6) other than `v_in`.
///
/// With `a = μ v_in` and `c = a − ln(1 + a)` (by `ln1p_remainder`, so it keeps its digits
/// as `a → 0`), eq (6) reads `s + ln(1 − s) = −c` for `s = −μ v_out ∈ (0, 1)`, whose
/// closed form is `s = 1 + W₀(−e^{−(1+c)})`. Near the branch point `−1/e` (small `a`)
/// `W₀` is taken from its series in `p = √(2(1 − e^{−c}))`; for large `c` from the
/// asymptote `1 − s ≈ e^{−(1+c)}`. One to three Newton steps on the well-conditioned
/// form then polish the result to full precision.
pub fn v_out_exact(mu: f64, v_in: f64) -> f64 {
    solve(mu, v_in, false).0
}

/// `(v_out, s_out)`: [`v_out_exact`] and `s_out = ln(1 + μ v_out)`, the end of the
/// contact in the variable `s = ln(1 + μv)` in which eq (9) loses its `1/(1 + μv)`
/// factor (see `tau`). For a large `μ v_in`, `1 + μ v_out` underflows relative to 1
/// (it is `e^{−(1+c)}` to first order), so `s_out` is taken from the Lambert-W form
/// directly: `t = 1 + μ v_out = −W₀(−e^{−(1+c)})` gives `ln t = t − (1 + c)`.
pub fn v_out_and_s_out(mu: f64, v_in: f64) -> (f64, f64) {
    solve(mu, v_in, true)
}

/// Below this `c` the root is taken to first order in `a` (`√c` would be near the
/// subnormals and the Halley steps lose their meaning).
const TINY_C: f64 = 1e-280;

/// `(v_out, s_out)`, with `s_out` only `with_s` (NaN otherwise).
#[inline]
fn solve(mu: f64, v_in: f64, with_s: bool) -> (f64, f64) {
    let a = mu * v_in;
    if !a.is_finite() || a <= 0.0 {
        // No damping (or a degenerate input): the elastic rebound.
        return (-v_in, 0.0);
    }
    let c = ln1p_remainder(a);
    let log_of = |s: f64| if with_s { (-s).ln_1p() } else { f64::NAN };
    if c < TINY_C {
        // To first order s = a − 2a²/3: the elastic rebound less 2a/3 of it.
        let s = a * (1.0 - 2.0 / 3.0 * a);
        (-s / mu, log_of(s))
    } else if c < 2.0 {
        let s = solve_s(c);
        (-s / mu, log_of(s))
    } else {
        let t = solve_t(c);
        (-(1.0 - t) / mu, t - (1.0 + c))
    }
}

/// `x.max(lo).min(hi)`: a clamp that never panics (`f64::clamp` does on NaN bounds).
#[inline]
fn clamp_to(x: f64, lo: f64, hi: f64) -> f64 {
    x.max(lo).min(hi)
}

/// Solves `−s − ln(1 − s) = c` for `s ∈ (0, 1)`, `c < 2`.
fn solve_s(c: f64) -> f64 {
    if c.is_nan() {
        return f64::NAN;
    }
    {
        // Branch-point series of 1 + W₀ in p (Corless et al. 1996, eq 4.22).
        let p = (-2.0 * (-c).exp_m1()).sqrt();
        let mut s = p
            * (1.0
                + p * (-1.0 / 3.0
                    + p * (11.0 / 72.0
                        + p * (-43.0 / 540.0 + p * (769.0 / 17280.0 + p * (-221.0 / 8505.0))))));
        s = clamp_to(s, f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        for _ in 0..8 {
            // Halley on h(s) = −s − ln(1 − s) − c = s² ψ(−s) − c:
            // h' = s/(1 − s), h'' = 1/(1 − s)². Cubic convergence: a step below
            // 1e-6 s leaves an error of order 1e-18 s, so the loop can stop there.
            let h = ln1p_remainder(-s) - c;
            let inv = 1.0 / (1.0 - s);
            let (d1, d2) = (s * inv, inv * inv);
            let step = 2.0 * h * d1 / (2.0 * d1 * d1 - h * d2);
            let next = clamp_to(s - step, 0.5 * s, 0.5 * (1.0 + s));
            // NaN ends the loop too.
            let done = (next - s).abs().partial_cmp(&(1e-6 * next)) != Some(Ordering::Greater);
            s = next;
            if done {
                break;
            }
        }
        s
    }
}

/// For `c ≥ 2`: `t = 1 − s`, which solves `ln t − t = −(1 + c)`, to full relative
/// precision (it may be far below the rounding of `1 − s`).
fn solve_t(c: f64) -> f64 {
    // Start from the asymptote.
    {
        let mut t = (-(1.0 + c)).exp();
        if t.partial_cmp(&0.0) != Some(Ordering::Greater) {
            return 0.0;
        }
        for _ in 0..8 {
            let step = (t.ln() - t + 1.0 + c) * t / (1.0 - t);
            let next = clamp_to(t - step, 0.5 * t, 0.5 * (1.0 + t));
            // Here the error after a step is about step² / (2 t): stop likewise.
            let done = (next - t).abs().partial_cmp(&(1e-9 * next)) != Some(Ordering::Greater);
            t = next;
            if done {
                break;
            }
        }
        t
    }
}

/// The approximation `ṽ_out` of eqs (7)–(8) with n = 4:
/// `v_lim [1 − (1 + a + 2a²/3 + 2a³/9 + 14a⁴/135) e^{−2a}]`, `a = μ v_in`,
/// `v_lim = −1/μ`. The bracket is evaluated as `−expm1(ln(poly) − 2a)`, which keeps its
/// digits as `a → 0` where the literal form cancels.
pub fn v_out_approx(mu: f64, v_in: f64) -> f64 {
    let a = mu * v_in;
    if !a.is_finite() || a <= 0.0 {
        return -v_in;
    }
    let q = a * (1.0 + a * (2.0 / 3.0 + a * (2.0 / 9.0 + a * (14.0 / 135.0))));
    let bracket = -(q.ln_1p() - 2.0 * a).exp_m1();
    -bracket / mu
}
