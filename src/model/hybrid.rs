//! The hybrid correction of Section IV-A1, one sample at a time: keep the integrator's
//! velocity and put the compression back on the analytic curve `x(v)` of eq (3).
//!
//! The curve holds a logarithm. Computed directly it is one `ln_1p` on the critical
//! path of every step, which cost more than the integrator itself. Between two
//! samples the velocity moves little, so the logarithm is carried instead. Write the
//! bracket of eq (3) as `P(v) = d v_in/w − Q(v)` with `d = v_in − v`, `w = 1 + μ v_in`,
//! `r = −μ d/w` and `Q = (r − ln(1 + r))/μ²` (the part with the logarithm). With
//! `e = (v₁ − v₀)/(1 + μ v₀)`, `1 + r₁ = (1 + r₀)(1 + μe)`, so
//!
//! ```text
//! Q₁ = Q₀ − e·d₀/w + e² ψ(μe),        ψ(δ) = (δ − ln(1 + δ))/δ²,
//! ```
//!
//! a short series for a small `μe`. Through a contact `v` falls, so every term added
//! is positive and the sum keeps its relative precision (one rounding a sample at
//! worst); it is re-anchored on the direct form every [`REANCHOR_EVERY`] samples. The
//! carried form is used on `tolerant` impacts only (see [`Analytic::tolerant`]).
//!
//! The step to `x` is folded in: with `g = x_g^{α+1}` the integrator's guess,
//! `ε = P·x_scale/g − 1` is summed from terms that are ready early, and `x`, `x^α` follow
//! from `ε` by binomial series ([`Analytic::near_series`]).
//!
//! Where `v` cannot pin `x` down in double precision the correction stands aside and
//! the integrator's own `x` is kept ([`Fix::Unresolved`]): at the start of a long, soft
//! contact, where `v_in − v` is a few ulps of `v_in`, and in the creeping exit of a
//! heavily damped one (`μ v_in` in the tens), where `1 + μv` is within a few ulps
//! of 0 and the logarithm of eq (3) amplifies each ulp of `v` without bound. See
//! [`Analytic::resolvable`].

use super::contact::{Analytic, NEAR_SERIES_BELOW};

/// `|μe|` up to which the carried logarithm is used; the ten terms of `psi_small`
/// then leave `(μe)¹⁰/12 < 7e-20` relative. A contact of a few hundred samples moves
/// `μe` by a few thousandths a sample: at 1/1024 most of its samples took the direct
/// `ln_1p`, which is on the path every next sample waits on.
const DELTA_MAX: f64 = 1.0 / 64.0;

/// Samples after which `Q` is recomputed directly, bounding the rounding carried.
pub const REANCHOR_EVERY: u32 = 64;

/// What the correction makes of one sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fix {
    /// `(x(v), x(v)^α)` on the curve of eq (3).
    OnCurve(f64, f64),
    /// `v` is past `v_out`: the bracket of eq (3) is negative, the curve has ended.
    PastOut,
    /// `v` cannot resolve `x(v)` here: keep the integrator's `x`.
    Unresolved,
}

/// What the hybrid correction carries from one sample to the next.
#[derive(Clone, Copy, Debug)]
pub struct Hybrid {
    /// Velocity of the last corrected sample (NaN before the first).
    v: f64,
    /// `d/w` and `Q` there.
    dw: f64,
    big_q: f64,
    /// `1/(1 + μ v)` there: `e` of the next sample is one multiplication away.
    inv_u: f64,
    since_anchor: u32,
}

impl Default for Hybrid {
    fn default() -> Self {
        Self {
            v: f64::NAN,
            dw: 0.0,
            big_q: 0.0,
            inv_u: f64::NAN,
            since_anchor: 0,
        }
    }
}

impl Hybrid {
    /// The point on the curve of eq (3) at the integrator's velocity `v₁`, given its
    /// uncorrected compression `x_guess > 0` and, where the integrator has it,
    /// `guess_pow = x_guess^α` (NaN otherwise). See [`Fix`]. `v0` is the velocity
    /// before the step: a step that did not move it is left to the integrator.
    #[inline(always)]
    pub fn correct(
        &mut self,
        an: &Analytic,
        v0: f64,
        v1: f64,
        x_guess: f64,
        guess_pow: f64,
    ) -> Fix {
        let mu = an.contact.mu;
        let u1 = 1.0 + mu * v1;
        let d1 = an.v_in - v1;
        let g_pow = an.guess_pow(x_guess, guess_pow);
        // These depend on the guess and the last sample only, so they are under way
        // while the integrator still computes v₁.
        let scale_g = an.x_scale() / (g_pow * x_guess);
        if v1 == v0 || !an.resolvable(d1, u1, scale_g, x_guess) {
            // The carried logarithm restarts from the direct form once resolved.
            self.v = f64::NAN;
            return Fix::Unresolved;
        }
        let inv_u1 = 1.0 / u1;
        let dw1 = d1 * an.inv_w();
        let e = (v1 - self.v) * self.inv_u;
        let delta = mu * e;
        let carry = an.tolerant() && delta.abs() < DELTA_MAX && self.since_anchor < REANCHOR_EVERY;
        if !carry {
            return self.correct_direct(an, v1, (dw1, inv_u1), scale_g, x_guess, g_pow);
        }
        self.since_anchor += 1;
        let e2 = e * e;
        let psi_d = psi_small(delta);
        let big_q1 = (self.big_q - e * self.dw) + e2 * psi_d;
        // ε = x_scale·(d₁ v_in/w − Q₁)/g − 1, grouped so that the terms waiting on
        // the series of ψ enter last.
        let lead = d1 * (an.v_in * an.inv_w() * scale_g) - 1.0;
        let eps =
            (lead - (self.big_q * scale_g - e * (self.dw * scale_g))) - (e2 * scale_g) * psi_d;
        self.settle(an, (v1, dw1, inv_u1, big_q1), eps, (x_guess, g_pow))
    }

    /// [`correct`](Self::correct) re-anchored on the direct form of `Q` (every
    /// [`REANCHOR_EVERY`] samples, a large step of `μe`, or an impact that is not
    /// `tolerant`). Out of line: its `ln_1p` is a call, around which the carried path
    /// would otherwise keep its values in memory.
    #[inline(never)]
    fn correct_direct(
        &mut self,
        an: &Analytic,
        v1: f64,
        (dw1, inv_u1): (f64, f64),
        scale_g: f64,
        x_guess: f64,
        g_pow: f64,
    ) -> Fix {
        self.since_anchor = 0;
        let big_q1 = an.log_part(dw1);
        let eps = (dw1 * an.v_in - big_q1) * scale_g - 1.0;
        self.settle(an, (v1, dw1, inv_u1, big_q1), eps, (x_guess, g_pow))
    }

    /// Keeps the step's state (`v`, `d/w`, `1/(1 + μv)` and `Q` after it) and returns
    /// the point on the curve at `ε`: by the series around the guess where `ε` is small
    /// (nearly every sample), else [`far_from_guess`].
    #[inline(always)]
    fn settle(
        &mut self,
        an: &Analytic,
        (v1, dw1, inv_u1, big_q1): (f64, f64, f64, f64),
        eps: f64,
        (x_guess, g_pow): (f64, f64),
    ) -> Fix {
        self.v = v1;
        self.dw = dw1;
        self.big_q = big_q1;
        self.inv_u = inv_u1;
        if eps.abs() < NEAR_SERIES_BELOW {
            let (x, x_pow) = an.near_series(eps, x_guess, g_pow);
            return Fix::OnCurve(x, x_pow);
        }
        far_from_guess(an, dw1, big_q1)
    }
}

/// The point on the curve where `ε` is too large for the series around the guess (or
/// there is no usable guess power: `ε` is NaN then), by `powf`; past `v_out`, none.
#[inline(never)]
fn far_from_guess(an: &Analytic, dw1: f64, big_q1: f64) -> Fix {
    let p = an.x_scale() * (dw1 * an.v_in - big_q1);
    if p > 0.0 {
        let x = an.x_from_pow_alpha1(p);
        Fix::OnCurve(x, p / x)
    } else {
        Fix::PastOut
    }
}

/// `ψ(δ) = Σ (−δ)^j/(j + 2)` for `|δ| < DELTA_MAX`: ten terms in Estrin's scheme.
#[inline(always)]
fn psi_small(d: f64) -> f64 {
    const C: [f64; 10] = [
        1.0 / 2.0,
        1.0 / 3.0,
        1.0 / 4.0,
        1.0 / 5.0,
        1.0 / 6.0,
        1.0 / 7.0,
        1.0 / 8.0,
        1.0 / 9.0,
        1.0 / 10.0,
        1.0 / 11.0,
    ];
    let d2 = d * d;
    let d4 = d2 * d2;
    let low = (C[0] - C[1] * d) + d2 * (C[2] - C[3] * d);
    let mid = (C[4] - C[5] * d) + d2 * (C[6] - C[7] * d);
    let high = C[8] - C[9] * d;
    low + d4 * (mid + d4 * high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::contact::psi;

    /// The short series agrees with the 17-term one over its whole range: the carried
    /// logarithm is as exact as the direct form wherever it is used.
    #[test]
    fn psi_small_matches_psi_up_to_delta_max() {
        let n = 20_000;
        let mut worst: f64 = 0.0;
        for i in 0..=n {
            let d = DELTA_MAX * (2.0 * i as f64 / n as f64 - 1.0);
            let exact = psi(d);
            worst = worst.max(((psi_small(d) - exact) / exact).abs());
        }
        assert!(worst < 4.0 * f64::EPSILON, "{worst:e}");
    }
}
