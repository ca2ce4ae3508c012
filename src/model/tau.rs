//! Contact duration, eq (9), by double-exponential (tanh–sinh) quadrature.

use super::contact::{Analytic, psi};

/// `P` measured from one end of the contact: `P(v_ref − d)` for the reference end
/// `v_ref` (either `v_in` or `v_out`, both roots of `P`), written so that it keeps
/// its digits as `d → 0`: `(d/w) v_ref − (d/w)² ψ(−μ d / w)`, `w = 1 + μ v_ref`.
fn bracket_from(mu: f64, v_ref: f64, d: f64) -> f64 {
    let w = 1.0 + mu * v_ref;
    let dw = d / w;
    dw * v_ref - dw * dw * psi(-mu * dw)
}

/// Contact duration `τ` in seconds, eq (9).
///
/// The prefactor `(μ²/(α+1))^{α/(α+1)}` is folded into the integrand
/// (`bracket = μ² P`), so that `τ = (m/k)^{1/(α+1)} (α+1)^{−α/(α+1)} ∫ dv /
/// ((1+μv) P(v)^{α/(α+1)})` stays finite as `μ → 0`. The integrand has algebraic
/// singularities at both ends, which tanh–sinh quadrature absorbs; each end is
/// evaluated from its own side so that no digits are lost to cancellation.
pub fn contact_time(an: &Analytic) -> f64 {
    let c = an.contact;
    let (v_in, v_out) = (an.v_in, an.v_out());
    let mu = c.mu;
    let e = c.alpha / (c.alpha + 1.0);
    let half = 0.5 * (v_in - v_out);
    // Integrand at distance `d` from the end `v_ref` (d ≥ 0 inward).
    let g = |v_ref: f64, d: f64, sign: f64| {
        let v = v_ref - sign * d;
        let p = bracket_from(mu, v_ref, sign * d);
        1.0 / ((1.0 + mu * v) * p.powf(e))
    };
    let integral = tanh_sinh(half, |d_from_top, d_from_bottom| {
        // Evaluate from whichever end is nearer.
        if d_from_top <= d_from_bottom {
            g(v_in, d_from_top, 1.0)
        } else {
            g(v_out, d_from_bottom, -1.0)
        }
    });
    (c.mass / c.k).powf(1.0 / (c.alpha + 1.0)) * (c.alpha + 1.0).powf(-e) * integral
}

/// ∫ over an interval of half-width `half` of `f`, where `f(a, b)` receives the
/// distances of the node to the upper and lower ends (computed without rounding at
/// the ends). Levels are refined until two agree to 1e-14.
fn tanh_sinh(half: f64, f: impl Fn(f64, f64) -> f64) -> f64 {
    use std::f64::consts::FRAC_PI_2;
    // The end singularities are as strong as d^{-3/4} (α = 3): the nodes must reach
    // within ~1e-300 of the ends, or the truncated tails cost 1e-7 of the integral.
    let t_max = 6.0;
    let mut h = 0.5;
    let mut sum = 0.0;
    let node = |t: f64| {
        let u = FRAC_PI_2 * t.sinh();
        // 1 − tanh(u) = 2 / (e^{2u} + 1), exact for large u.
        let one_minus = 2.0 / ((2.0 * u).exp() + 1.0);
        let weight = FRAC_PI_2 * t.cosh() / (u.cosh() * u.cosh());
        (one_minus, weight)
    };
    let eval = |t: f64| {
        let (om, wt) = node(t);
        // Node at x = tanh(u): distances to the ends are half(1 − x) and half(1 + x).
        let (near, far) = (half * om, half * (2.0 - om));
        if near.is_nan() || near <= 0.0 || wt == 0.0 {
            return 0.0;
        }
        let right = f(near, far);
        let left = f(far, near);
        wt * (right + left)
    };
    // Level 0: all nodes k·h.
    let (_, w0) = node(0.0);
    sum += w0 * f(half, half);
    let mut t = h;
    while t <= t_max {
        sum += eval(t);
        t += h;
    }
    let mut prev = sum * h * half;
    for _ in 0..10 {
        h *= 0.5;
        let mut t = h;
        while t <= t_max {
            sum += eval(t);
            t += 2.0 * h;
        }
        let cur = sum * h * half;
        if (cur - prev).abs() <= 1e-14 * cur.abs() {
            return cur;
        }
        prev = cur;
    }
    prev
}
