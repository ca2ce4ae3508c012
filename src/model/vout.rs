//! Outbound velocity: the exact root of eq (6) and the approximation `ṽ_out` of eq (7).

use super::contact::ln1p_remainder;

/// Exact outbound velocity `v_out` (negative), the root of eq (6) other than `v_in`.
///
/// With `a = μ v_in` and `c = a − ln(1 + a)` (by `ln1p_remainder`, so it keeps its digits
/// as `a → 0`), eq (6) reads `s + ln(1 − s) = −c` for `s = −μ v_out ∈ (0, 1)`, whose
/// closed form is `s = 1 + W₀(−e^{−(1+c)})`. Near the branch point `−1/e` (small `a`)
/// `W₀` is taken from its series in `p = √(2(1 − e^{−c}))`; for large `c` from the
/// asymptote `1 − s ≈ e^{−(1+c)}`. One to three Newton steps on the well-conditioned
/// form then polish the result to full precision.
pub fn v_out_exact(mu: f64, v_in: f64) -> f64 {
    let a = mu * v_in;
    if !a.is_finite() || a <= 0.0 {
        // No damping (or a degenerate input): the elastic rebound.
        return -v_in;
    }
    -solve_s(ln1p_remainder(a)) / mu
}

/// Solves `−s − ln(1 − s) = c` for `s ∈ (0, 1)`.
fn solve_s(c: f64) -> f64 {
    if c < 2.0 {
        // Branch-point series of 1 + W₀ in p (Corless et al. 1996, eq 4.22).
        let p = (-2.0 * (-c).exp_m1()).sqrt();
        let mut s = p
            * (1.0
                + p * (-1.0 / 3.0
                    + p * (11.0 / 72.0
                        + p * (-43.0 / 540.0 + p * (769.0 / 17280.0 + p * (-221.0 / 8505.0))))));
        s = s.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
        for _ in 0..8 {
            // Halley on h(s) = −s − ln(1 − s) − c = s² ψ(−s) − c:
            // h' = s/(1 − s), h'' = 1/(1 − s)². Cubic convergence: a step below
            // 1e-6 s leaves an error of order 1e-18 s, so the loop can stop there.
            let h = ln1p_remainder(-s) - c;
            let inv = 1.0 / (1.0 - s);
            let (d1, d2) = (s * inv, inv * inv);
            let step = 2.0 * h * d1 / (2.0 * d1 * d1 - h * d2);
            let next = (s - step).clamp(0.5 * s, 0.5 * (1.0 + s));
            let done = (next - s).abs() <= 1e-6 * next;
            s = next;
            if done {
                break;
            }
        }
        s
    } else {
        // t = 1 − s solves ln t − t = −(1 + c); start from the asymptote.
        let mut t = (-(1.0 + c)).exp();
        if t == 0.0 {
            return 1.0;
        }
        for _ in 0..8 {
            let step = (t.ln() - t + 1.0 + c) * t / (1.0 - t);
            let next = (t - step).clamp(0.5 * t, 0.5 * (1.0 + t));
            // Here the error after a step is about step² / (2 t): stop likewise.
            let done = (next - t).abs() <= 1e-9 * next;
            t = next;
            if done {
                break;
            }
        }
        1.0 - t
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
