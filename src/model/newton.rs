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
    // `(G, G', k x^α)`: the last is the scale of the force's rounding (see `done`).
    let mut g_and_slope = |f: f64| -> (f64, f64, f64) {
        let x = xa + c2 * f;
        let v = va + c1 * f;
        let outer = drag * v - load;
        if x <= 0.0 {
            return (f + outer, 1.0 + drag * c1, 0.0);
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
        let g = f + spring * damp + outer;
        let slope = 1.0 + drag * c1 + c.k * (c.alpha * xa_pow / x * c2 * damp + xa_pow * c.mu * c1);
        (g, slope, spring)
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
        let (g, slope, spring) = g_and_slope(f);
        if g == 0.0 {
            break;
        }
        b.narrow(f, g < 0.0);
        let newton = f - g / slope;
        if !top_checked && (newton >= b.hi || newton.is_nan()) {
            b = checked_top(&mut g_and_slope, b, xa, c2);
            top_checked = true;
        }
        let next = b.inside_or_mid(newton);
        // Relative to the force, or to `k x^α` where `1 + μv` has cancelled to nearly 0
        // (the creeping exit of a heavily damped contact): there `G` itself is only
        // known to the rounding of `k x^α`, and a relative step would never be reached.
        let done = (next - f).abs() <= REL_TOL * next.abs().max(spring);
        f = next;
        if done {
            break;
        }
    }
    stats.record(iters);
    f
}

/// The bracket with its top `f = 0` checked: kept where `G(0) > 0`, else widened
/// upward from 0. Past v_lim (`1 + μv < 0`), or where a load outweighs the spring,
/// the force pushes inward and the root lies above 0.
fn checked_top(
    g_and_slope: &mut impl FnMut(f64) -> (f64, f64, f64),
    b: Bracket,
    xa: f64,
    c2: f64,
) -> Bracket {
    if g_and_slope(0.0).0 > 0.0 {
        return b;
    }
    let mut step = xa.max(1.0) / c2;
    let (mut lo, mut hi) = (0.0, step);
    let mut tries = 0;
    while g_and_slope(hi).0 <= 0.0 && tries < 64 {
        lo = hi;
        step *= 2.0;
        hi += step;
        tries += 1;
    }
    Bracket { lo, hi }
}
