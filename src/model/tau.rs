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
/// [`contact_time_bound`], and [`contact_time_onset`] where the exact value is needed
/// at an onset.
pub fn contact_time(an: &Analytic) -> f64 {
    contact_time_with(an, tanh_sinh)
}

/// [`contact_time`] on one fixed tanh–sinh rule instead of refining levels until two
/// agree: 91 nodes (step 1/10 on `|t| ≤ 4.5`) instead of the 385 or 769 at which the
/// refinement stops. The integrand's singularities are at the ends only,
/// `q^{−α/(α+1)}` with `q` vanishing linearly there (as `d^{−1/2}` to `d^{−3/4}` for
/// α 1 to 3), which a double-exponential rule resolves at a fixed step; `t ≤ 4.5`
/// puts the last nodes within 1e-60 of the ends, where the tail of `d^{−3/4}` is
/// below 1e-15. Within 1e-13 of [`contact_time`] for `μ v_in` up to
/// [`FIXED_RULE_MAX`] and α from 1 to 3 (the tests below; Bounciness 0.05–0.99 asks
/// 0.015–20). Beyond, where `1 + μ v_out` nears underflow and the integrand's end
/// steepens (1e-10 at `μ v_in` = 1e3), it refines as [`contact_time`] does. Bounded
/// work, for eq (9) at an onset (`hardness`).
pub fn contact_time_onset(an: &Analytic) -> f64 {
    if an.contact.mu * an.v_in <= FIXED_RULE_MAX {
        contact_time_with(an, tanh_sinh_fixed)
    } else {
        contact_time(an)
    }
}

/// Largest `μ v_in` [`contact_time_onset`] takes its fixed rule at.
pub const FIXED_RULE_MAX: f64 = 100.0;

fn contact_time_with(
    an: &Analytic,
    quadrature: impl Fn(f64, &dyn Fn(f64, f64) -> f64) -> f64,
) -> f64 {
    let c = an.contact;
    let (mu, v_in) = (c.mu, an.v_in);
    let (v_out, s_out) = super::vout::v_out_and_s_out(mu, v_in);
    // `1 + μ v_out` from `s_out`: it keeps its digits where it underflows relative to 1.
    let w_out = s_out.exp();
    let (sigma_in, sigma_out) = sigma_ends(an, v_out, s_out);
    let e = c.alpha / (c.alpha + 1.0);
    let half = 0.5 * (sigma_in - sigma_out);
    let integral = quadrature(half, &|from_top: f64, from_bottom: f64| {
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

/// [`tanh_sinh`] on the one fixed rule of [`contact_time_onset`]: step 1/10 on
/// `|t| ≤ 4.5`, the abscissae from running products of `e^{1/10}` (45 roundings at
/// most, far inside the rule's error) and one `exp` a node.
fn tanh_sinh_fixed(half: f64, f: &dyn Fn(f64, f64) -> f64) -> f64 {
    use std::f64::consts::FRAC_PI_2;
    if !(half > 0.0 && half.is_finite()) {
        return f64::NAN;
    }
    let mut sum = FRAC_PI_2 * f(half, half);
    tanh_sinh_nodes(45, |one_minus, weight| {
        let (near, far) = (half * one_minus, half * (2.0 - one_minus));
        if near.is_nan() || near <= 0.0 || weight == 0.0 {
            return;
        }
        sum += weight * (f(near, far) + f(far, near));
    });
    sum * TANH_SINH_STEP * half
}

/// The step of [`tanh_sinh_nodes`].
pub(crate) const TANH_SINH_STEP: f64 = 0.1;

/// The nodes of a tanh–sinh rule of step [`TANH_SINH_STEP`] at `t = k·step`,
/// `k = 1..=nodes` (each stands for `±t`; the centre is the caller's): `visit` gets
/// `1 − tanh(π/2 · sinh t)`, a node's distance to the nearer end over the half-width,
/// and its weight. The abscissae come from running products of `e^{step}` (at most
/// `nodes` roundings, far inside the rule's error) and one `exp` a node.
pub(crate) fn tanh_sinh_nodes(nodes: u32, mut visit: impl FnMut(f64, f64)) {
    use std::f64::consts::FRAC_PI_2;
    let e_step = TANH_SINH_STEP.exp();
    let mut e_t = 1.0;
    for _ in 1..=nodes {
        e_t *= e_step;
        let inv = 1.0 / e_t;
        let (sinh_t, cosh_t) = (0.5 * (e_t - inv), 0.5 * (e_t + inv));
        let e2u = (FRAC_PI_2 * sinh_t * 2.0).exp();
        // 1 − tanh(u) = 2/(e^{2u} + 1), exact however large u; 1/cosh²(u) =
        // 4 e^{2u}/(e^{2u} + 1)².
        let one_minus = 2.0 / (e2u + 1.0);
        visit(one_minus, FRAC_PI_2 * cosh_t * one_minus * one_minus * e2u);
    }
}

/// ∫ over an interval of half-width `half` of `f`, where `f(a, b)` receives the
/// distances of the node to the upper and lower ends (computed without rounding at
/// the ends). Levels are refined until two agree to 1e-14 (at most 12 levels).
fn tanh_sinh(half: f64, f: &dyn Fn(f64, f64) -> f64) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Contact;

    /// The onset's fixed rule against the refining one, over the damping `μ v_in` from
    /// 0 to [`FIXED_RULE_MAX`] (Bounciness 0.99–0.05 gives 0.015–20) and α from 1 to
    /// 3, at unit scale (`hardness::unit_time`) and at the paper's scales.
    #[test]
    fn the_fixed_rule_matches_the_refining_one() {
        let mut worst = 0.0f64;
        for iz in 0..=110 {
            let z = if iz == 0 {
                0.0
            } else {
                10f64.powf(-9.0 + 11.0 * iz as f64 / 110.0)
            };
            for ia in 0..=20 {
                let alpha = 1.0 + 2.0 * ia as f64 / 20.0;
                for (k, m, v_in) in [(1.0, 1.0, 1.0), (1e7, 0.01, 0.5), (1e12, 1e-4, 50.0)] {
                    let an = Contact::new(k, z / v_in, alpha, m).impact(v_in);
                    let (fine, onset) = (contact_time(&an), contact_time_onset(&an));
                    let d = (onset / fine - 1.0).abs();
                    assert!(d < 2e-13, "μ v_in {z} α {alpha} k {k}: {onset} vs {fine}");
                    worst = worst.max(d);
                }
            }
        }
        println!("largest relative difference {worst:.2e}");
        // Past the fixed rule's range, the refining one itself.
        let an = Contact::new(1.0, 1e3, 1.5, 1.0).impact(1.0);
        assert_eq!(contact_time_onset(&an), contact_time(&an));
    }
}
