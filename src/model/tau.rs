//! Contact duration, eq (9): by double-exponential (tanh–sinh) quadrature for tests and
//! offline tools, and as a closed-form upper bound for the audio thread.
//!
//! In the variable `s = ln(1 + μv)` the factor `1/(1 + μv)` of eq (9) cancels
//! (`ds = μ dv/(1 + μv)`), and `Q(s) = μ² P` of eq (3) becomes
//! `e^{s_in} − e^s − (s_in − s)`: smooth, concave, zero at both ends. Scaled by `1/μ`
//! (`σ = s/μ`, `q = Q/μ²`, both finite as `μ → 0`) this gives
//!
//! ```text
//! τ = (m/k)^{1/(α+1)} (α+1)^{−α/(α+1)} ∫_{σ_out}^{σ_in} q(σ)^{−α/(α+1)} dσ,
//! ```
//!
//! and `q` is written relative to whichever end is nearer, so that every node keeps its
//! digits: from the top, `q = v_in Δ E(μΔ) − Δ² φ₋(μΔ)`; from the bottom,
//! `q = −v_out Δ' − (1 + μv_out) Δ'² φ₊(μΔ')`, with `E(D) = (1 − e^{−D})/D`,
//! `φ₋(D) = (D − 1 + e^{−D})/D²` and `φ₊(D) = (e^D − 1 − D)/D²`. `s_out` comes straight
//! from the Lambert-W form ([`super::vout::s_out`]), so nothing cancels when
//! `1 + μ v_out` underflows relative to 1 (`μ v_in` in the tens and beyond).

use super::contact::Analytic;

/// The ends of the contact in `σ = ln(1 + μv)/μ` (m/s), each the velocity itself as
/// `μ → 0`: `(σ_in, σ_out)`, from `(v_out, s_out)` of [`super::vout::v_out_and_s_out`].
fn sigma_ends(an: &Analytic, v_out: f64, s_out: f64) -> (f64, f64) {
    let (mu, v_in) = (an.contact.mu, an.v_in);
    let sigma_in = v_in * ln1p_ratio(mu * v_in);
    let b = mu * v_out;
    let sigma_out = if b > -0.5 {
        v_out * ln1p_ratio(b)
    } else {
        s_out / mu
    };
    (sigma_in, sigma_out)
}

/// `ln(1 + b)/b`, 1 at `b = 0`.
fn ln1p_ratio(b: f64) -> f64 {
    if b == 0.0 { 1.0 } else { b.ln_1p() / b }
}

/// `(1 − e^{−D})/D`.
fn e_ratio(d: f64) -> f64 {
    if d.abs() < 1e-8 {
        1.0 - 0.5 * d
    } else {
        -(-d).exp_m1() / d
    }
}

/// `(e^{sD} − 1 − sD)/D²` for `s = ±1`: `φ₊` (`s = 1`) and `φ₋` (`s = −1`), by their
/// series where the direct form would cancel.
fn phi(d: f64, s: f64) -> f64 {
    let x = s * d;
    if x.abs() < 0.1 {
        // Σ xⁿ/(n+2)!, n ≤ 9: 1e-19 relative at |x| = 0.1.
        let mut term = 0.5;
        let mut sum = 0.5;
        for n in 1..10 {
            term *= x / (n as f64 + 2.0);
            sum += term;
        }
        sum
    } else {
        (x.exp_m1() - x) / (x * x)
    }
}

/// The constant in front of the integral: `(m/k)^{1/(α+1)} (α+1)^{−α/(α+1)}`.
fn prefactor(an: &Analytic) -> f64 {
    let c = an.contact;
    let e = c.alpha / (c.alpha + 1.0);
    (c.mass / c.k).powf(1.0 / (c.alpha + 1.0)) * (c.alpha + 1.0).powf(-e)
}

/// Contact duration `τ` in seconds, eq (9). Not for the audio thread: see
/// [`contact_time_bound`].
pub fn contact_time(an: &Analytic) -> f64 {
    let c = an.contact;
    let (mu, v_in) = (c.mu, an.v_in);
    let (v_out, s_out) = super::vout::v_out_and_s_out(mu, v_in);
    // `1 + μ v_out` from `s_out`: it keeps its digits where it underflows relative to 1.
    let w_out = s_out.exp();
    let (sigma_in, sigma_out) = sigma_ends(an, v_out, s_out);
    let e = c.alpha / (c.alpha + 1.0);
    let half = 0.5 * (sigma_in - sigma_out);
    let integral = tanh_sinh(half, |from_top, from_bottom| {
        let q = if from_top <= from_bottom {
            let d = from_top;
            v_in * d * e_ratio(mu * d) - d * d * phi(mu * d, -1.0)
        } else {
            let d = from_bottom;
            -v_out * d - w_out * d * d * phi(mu * d, 1.0)
        };
        q.powf(-e)
    });
    prefactor(an) * integral
}

/// A closed-form upper bound on `τ`, for the audio thread: `q` is concave in `σ`, peaks
/// at `v = 0` (`σ = 0`) with `q(0) = P(0) = x_max^{α+1} k/((α+1) m)` (eq 4), and so lies
/// above the triangle on `[σ_out, σ_in]` with that apex. Integrating the triangle's
/// `q^{−α/(α+1)}` gives `τ ≤ prefactor · (α+1)(σ_in − σ_out) P(0)^{−α/(α+1)}`: 4/π
/// of `τ` for a linear undamped spring, a small factor elsewhere. Costs one
/// solution of eq (6) and a few logarithms.
pub fn contact_time_bound(an: &Analytic) -> f64 {
    let (v_out, s_out) = super::vout::v_out_and_s_out(an.contact.mu, an.v_in);
    contact_time_bound_at(an, v_out, s_out)
}

/// [`contact_time_bound`] where eq (6) is already solved: `(v_out, s_out)` of
/// [`super::vout::v_out_and_s_out`].
pub fn contact_time_bound_at(an: &Analytic, v_out: f64, s_out: f64) -> f64 {
    let c = an.contact;
    let (sigma_in, sigma_out) = sigma_ends(an, v_out, s_out);
    let e = c.alpha / (c.alpha + 1.0);
    let p0 = an.bracket(0.0);
    prefactor(an) * (c.alpha + 1.0) * (sigma_in - sigma_out) * p0.powf(-e)
}

/// ∫ over an interval of half-width `half` of `f`, where `f(a, b)` receives the
/// distances of the node to the upper and lower ends (computed without rounding at
/// the ends). Levels are refined until two agree to 1e-14 (at most 12 levels).
fn tanh_sinh(half: f64, f: impl Fn(f64, f64) -> f64) -> f64 {
    use std::f64::consts::FRAC_PI_2;
    if !(half > 0.0 && half.is_finite()) {
        return f64::NAN;
    }
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
    for _ in 0..12 {
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
