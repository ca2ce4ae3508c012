//! Newton's method on AM1's delay-free loop (eq 23), safeguarded by bisection.

use super::contact::{Contact, PowNear};

/// Newton stops when a step changes `f` by less than this, relative (paper-notes).
pub const REL_TOL: f64 = 1e-14;
/// Hard cap on iterations per sample; never reached on well-posed contacts.
pub const MAX_ITERS: u32 = 32;

/// A root's bracket `[lo, hi]` for Newton's method safeguarded by bisection: each
/// residual's sign narrows it, and a step that would leave it bisects instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bracket {
    pub lo: f64,
    pub hi: f64,
}

impl Bracket {
    /// `x` where it lies strictly inside, else the midpoint (also what a NaN gives).
    #[inline]
    pub fn inside_or_mid(self, x: f64) -> f64 {
        if x > self.lo && x < self.hi {
            x
        } else {
            0.5 * (self.lo + self.hi)
        }
    }

    /// Moves an end to `x`: the lower one when the root lies above `x` (`above`).
    #[inline]
    pub fn narrow(&mut self, x: f64, above: bool) {
        if above {
            self.lo = x;
        } else {
            self.hi = x;
        }
    }

    /// The Newton step from `x`, `x − r / slope`, or the midpoint where it leaves.
    #[inline]
    pub fn step(self, x: f64, r: f64, slope: f64) -> f64 {
        self.inside_or_mid(x - r / slope)
    }
}

/// Iteration counts over the samples of one contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NewtonStats {
    pub samples: u64,
    pub total: u64,
    pub max: u32,
}

impl NewtonStats {
    pub fn mean(&self) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            self.total as f64 / self.samples as f64
        }
    }
    fn record(&mut self, iters: u32) {
        self.samples += 1;
        self.total += iters as u64;
        self.max = self.max.max(iters);
    }
}

/// Solves `G(f) = f − F(xa + c2 f, va + c1 f) = 0` for the force on the mass at the
/// next sample, starting from `f_start` (the previous force, as in the paper).
///
/// `G(f) = f` wherever `x(f) ≤ 0`, so `f = 0` is the root when `xa ≤ 0`; otherwise a
/// root lies in `(−xa/c2, 0]` while `1 + μ v > 0`, and `G` is increasing there.
/// Newton steps that leave the bracket are replaced by bisection.
///
/// With `near` (a general α: the binomial coefficients of `(1 + σ)^α` and a point
/// where `x^α` is known), each evaluation takes `x^α` from the last point by series
/// and becomes the next point: the iterates are close, so the `exp(α ln x)` of each
/// becomes a few multiplications.
///
/// `ext = (load, drag)` adds the external force `load − drag v` (gravity during
/// contact, and the settling drag of a trapped mass, see `load`); `(0, 0)` is the
/// paper's contact.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn solve_am1(
    c: &Contact,
    xa: f64,
    va: f64,
    c1: f64,
    c2: f64,
    f_start: f64,
    mut near: Option<(&[f64; 9], &mut PowNear)>,
    ext: (f64, f64),
    stats: &mut NewtonStats,
) -> f64 {
    let (load, drag) = ext;
    if xa <= 0.0 {
        stats.record(0);
        // Out of contact only the external force acts: f = load − drag (va + c1 f).
        return (load - drag * va) / (1.0 + drag * c1);
    }
    // `(G, G', k x^α, G'', x)`: the third is the scale of the force's rounding (see
    // `done`), the fourth and fifth Newton's own error estimate (see `settled`).
    let mut g_and_slope = |f: f64| -> Eval {
        let x = xa + c2 * f;
        let v = va + c1 * f;
        let outer = drag * v - load;
        if x <= 0.0 {
            return Eval {
                g: f + outer,
                slope: 1.0 + drag * c1,
                spring: 0.0,
                curve: 0.0,
                x,
            };
        }
        let xa_pow = match near.as_mut() {
            Some((coeffs, at)) => {
                let p = at.x_pow_alpha(c.alpha, coeffs, x);
                **at = PowNear::new(x, p);
                p
            }
            None => super::contact::pow_alpha(x, c.alpha),
        };
        let damp = 1.0 + c.mu * v;
        let spring = c.k * xa_pow;
        let inv_x = 1.0 / x;
        // `α x^{α−1}`, the spring's slope in x.
        let ax = c.alpha * xa_pow * inv_x;
        Eval {
            g: f + spring * damp + outer,
            slope: 1.0 + drag * c1 + c.k * (ax * c2 * damp + xa_pow * c.mu * c1),
            spring,
            curve: c.k * ax * c2 * ((c.alpha - 1.0) * c2 * damp * inv_x + 2.0 * c.mu * c1),
            x,
        }
    };
    // The bracket's top is `f = 0` while `G(0) > 0`, the usual case. Checking it costs
    // an evaluation, so it is checked only when it matters: when `f_start` is not
    // inside, or when a Newton step leaves through the top (an inward-pushing load or
    // `1 + μv < 0` shows up there, since every iterate below the top then has `G < 0`).
    let mut b = Bracket {
        lo: -xa / c2,
        hi: 0.0,
    };
    let mut top_checked = false;
    if !(f_start > b.lo && f_start < b.hi) {
        b = checked_top(&mut g_and_slope, b, xa, c2);
        top_checked = true;
    }
    let mut f = b.inside_or_mid(f_start);
    let mut iters = 0;
    while iters < MAX_ITERS {
        iters += 1;
        let e = g_and_slope(f);
        if e.g == 0.0 {
            break;
        }
        b.narrow(f, e.g < 0.0);
        let newton = f - e.g / e.slope;
        if !top_checked && (newton >= b.hi || newton.is_nan()) {
            b = checked_top(&mut g_and_slope, b, xa, c2);
            top_checked = true;
        }
        let next = b.inside_or_mid(newton);
        let step = (next - f).abs();
        // Relative to the force, or to `k x^α` where `1 + μv` has cancelled to nearly 0
        // (the creeping exit of a heavily damped contact): there `G` itself is only
        // known to the rounding of `k x^α`, and a relative step would never be reached.
        let tol = REL_TOL * next.abs().max(e.spring);
        let done = step <= tol;
        // Newton's step from `f` lands within `|G''| Δ² / (2 |G'|)` of the root, `Δ`
        // the step (quadratic convergence), where the step is a Newton step (not a
        // bisection) and moves `x` too little (a thousandth) for `G''` to change: then
        // the evaluation that would only confirm it is left out (a tenth of the
        // tolerance to spare). In a slow contact `G` is nearly linear and one
        // evaluation a sample is enough.
        let settled = next == newton
            && c2 * step <= 1e-3 * e.x
            && e.curve.abs() * step * step <= 0.2 * tol * e.slope.abs();
        f = next;
        if done || settled {
            break;
        }
    }
    stats.record(iters);
    f
}

/// One evaluation of `G` on the way to its root (see `solve_am1`).
#[derive(Clone, Copy)]
struct Eval {
    g: f64,
    slope: f64,
    /// `k x^α`: the scale of the force's rounding.
    spring: f64,
    /// `G''`, for Newton's own error estimate.
    curve: f64,
    /// The compression where it was evaluated.
    x: f64,
}

/// The bracket with its top `f = 0` checked: kept where `G(0) > 0`, else widened
/// upward from 0. Past v_lim (`1 + μv < 0`), or where a load outweighs the spring,
/// the force pushes inward and the root lies above 0.
fn checked_top(g_and_slope: &mut impl FnMut(f64) -> Eval, b: Bracket, xa: f64, c2: f64) -> Bracket {
    if g_and_slope(0.0).g > 0.0 {
        return b;
    }
    let mut step = xa.max(1.0) / c2;
    let (mut lo, mut hi) = (0.0, step);
    let mut tries = 0;
    while g_and_slope(hi).g <= 0.0 && tries < 64 {
        lo = hi;
        step *= 2.0;
        hi += step;
        tries += 1;
    }
    Bracket { lo, hi }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// Whether it stops on a step under the tolerance or on its own error estimate,
        /// the force it returns is a root to the tolerance: the Newton step from it
        /// (what a further evaluation would move it by) is within `REL_TOL` of the
        /// force's scale. Contacts from soft and slow to stiff at a coarse step (where
        /// `G` is far from linear), the exact powers and the general ones, pushing and
        /// pulling dampings, with and without a load.
        #[test]
        fn the_force_returned_is_a_root(
            log_k in 2.0..12.0f64,
            alpha in prop_oneof![Just(1.5), Just(2.0), 1.0..4.0f64],
            log_mu in -4.0..1.0f64,
            log_m in -4.0..0.5f64,
            fs in prop_oneof![Just(22_050.0), Just(48_000.0), Just(384_000.0)],
            log_xa in -9.0..-2.0f64,
            va in -10.0..10.0f64,
            start in -1.0..1.0f64,
            load in prop_oneof![Just(0.0), -50.0..50.0f64],
        ) {
            let (k, mu, m) = (10f64.powf(log_k), 10f64.powf(log_mu), 10f64.powf(log_m));
            let c = Contact::new(k, mu, alpha, m);
            let h = 1.0 / fs;
            let (c1, c2) = (0.5 * h / m, 0.25 * h * h / m);
            let xa = 10f64.powf(log_xa);
            // A start near the spring's force at `xa`, as the last sample's would be.
            let f_start = -k * xa.powf(alpha) * (1.0 + 0.1 * start);
            let mut stats = NewtonStats::default();
            let f = solve_am1(&c, xa, va, c1, c2, f_start, None, (load, 0.0), &mut stats);
            prop_assert!(f.is_finite());
            // (Out of contact, `x ≤ 0`, `G = f − load`.)
            let x = (xa + c2 * f).max(0.0);
            let v = va + c1 * f;
            let spring = k * x.powf(alpha);
            let g = f + spring * (1.0 + mu * v) - load;
            let slope = 1.0 + k * (alpha * x.powf(alpha - 1.0) * c2 * (1.0 + mu * v)
                + x.powf(alpha) * mu * c1);
            let newton = (g / slope).abs();
            let scale = f.abs().max(spring);
            // `G` is only known to the rounding of its largest term (a load and a
            // damped spring that cancel): the step it gives is noise below that.
            let noise = 64.0 * f64::EPSILON * (f.abs() + (spring * (1.0 + mu * v)).abs() + load.abs())
                / slope.abs();
            prop_assert!(
                stats.max == MAX_ITERS || newton <= 2.0 * REL_TOL * scale + noise,
                "step {newton:e} against {scale:e}: {:e}", newton / scale
            );
        }
    }
}
