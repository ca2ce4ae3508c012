//! Damping from a coefficient of restitution (seed 000, Hunt & Crossley via its eq 19).
//!
//! A contact that leaves at `v_out = −e v_in` is eq (6) of the core paper with that
//! exit: with `z = μ v_in`,
//!
//! `ln(1 + z) − ln(1 − e z) = z (1 + e)`,
//!
//! which is seed 000's eq (19), `(1 + d/e)/(1 − d) = exp(d (1 + 1/e))` with `d = e z`.
//! Its root `z(e)` does not depend on `v_in`, so a sound designer's "bounciness" `e`
//! gives every strike the damping `μ = z(e)/v_in` that makes it leave at exactly
//! `−e v_in`.

use super::series::{PSI_SERIES_BELOW, psi};

/// Restitution below this is taken as this (`z` grows like `ln(1/e)/e`).
pub const E_MIN: f64 = 1e-6;

/// `ψ(r) = (r − ln(1 + r))/r²` for any `r > −1`: the series near 0, the closed form
/// elsewhere.
fn psi_any(r: f64) -> f64 {
    if r.abs() < PSI_SERIES_BELOW {
        psi(r)
    } else {
        (r - r.ln_1p()) / (r * r)
    }
}

/// `z = μ v_in`, the root of seed 000's eq (19) for restitution `e`, to full double
/// precision.
///
/// Writing eq (19) as `F(z) = R(−e z) − R(z) = 0` with `R(r) = r − ln(1 + r) = r² ψ(r)`,
/// `F(z)/z² = e² ψ(−e z) − ψ(z)` keeps its digits as `z → 0` (`e → 1`), where `F`
/// itself is a difference of nearly equal terms. It is negative at 0 (for `e < 1`),
/// increasing, and unbounded as `z → 1/e`: Newton inside a shrinking bracket, with
/// bisection where a step leaves it, at most [`MAX_ITERS`] evaluations.
///
/// `e ≥ 1` (elastic) gives 0; `e` below [`E_MIN`] or NaN is taken as [`E_MIN`].
pub fn mu_v_in_for(e: f64) -> f64 {
    if e >= 1.0 {
        return 0.0;
    }
    let e = if e >= E_MIN { e } else { E_MIN };
    let g = |z: f64| e * e * psi_any(-e * z) - psi_any(z);
    // The slope of F/z² is awkward at 0; Newton uses F' = z (e²/(1 − e z) − 1/(1 + z))
    // on F = z² G, i.e. the step G z / (e²/(1 − e z) − 1/(1 + z)).
    let slope = |z: f64| e * e / (1.0 - e * z) - 1.0 / (1.0 + z);
    let (mut lo, mut hi) = (0.0, 1.0 / e);
    // The first terms of the series: z ≈ 3(1 − e²)/(2(1 + e³)) near e = 1.
    let mut z = (1.5 * (1.0 - e * e) / (1.0 + e * e * e)).min(0.5 / e);
    for _ in 0..MAX_ITERS {
        let gz = g(z);
        if gz == 0.0 {
            return z;
        }
        if gz < 0.0 {
            lo = z;
        } else {
            hi = z;
        }
        let mut next = z - gz * z / slope(z);
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - z).abs() <= 1e-16 * z {
            return next;
        }
        z = next;
    }
    z
}

/// Most evaluations of [`mu_v_in_for`]: Newton converges in about six from the series
/// guess; bisection alone would need about 60 over `(0, 1/e)`.
pub const MAX_ITERS: u32 = 100;

/// The damping `μ` (s/m) that makes a strike at `v_in` leave at `−e v_in`: seed 000's
/// eq (19), `μ v_in = d/e`. Non-finite or non-positive `v_in` gives 0.
pub fn mu_for(e: f64, v_in: f64) -> f64 {
    if !(v_in.is_finite() && v_in > 0.0) {
        return 0.0;
    }
    let mu = mu_v_in_for(e) / v_in;
    if mu.is_finite() { mu } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::vout::v_out_exact;

    #[test]
    fn seed_000_reference_points() {
        // paper-notes: e → μ v_in.
        for (e, z) in [
            (0.3, 3.087082),
            (0.5, 1.432751),
            (0.7, 0.634828),
            (0.9, 0.166482),
        ] {
            let got = mu_v_in_for(e);
            assert!((got - z).abs() < 1e-6, "e = {e}: {got} vs {z}");
        }
    }

    #[test]
    fn the_root_satisfies_eq_6() {
        for i in 0..=200 {
            let e = 0.01 + 0.985 * i as f64 / 200.0;
            for v_in in [1e-3, 0.7, 50.0] {
                let mu = mu_for(e, v_in);
                let v_out = v_out_exact(mu, v_in);
                let rel = (v_out + e * v_in).abs() / (e * v_in);
                assert!(rel < 1e-12, "e = {e}, v_in = {v_in}: v_out {v_out}");
            }
        }
    }

    #[test]
    fn edges_are_finite() {
        assert_eq!(mu_v_in_for(1.0), 0.0);
        assert_eq!(mu_v_in_for(2.0), 0.0);
        for e in [f64::NAN, -1.0, 0.0, 1e-300, 1e-6, 0.999_999_999] {
            let z = mu_v_in_for(e);
            assert!(z.is_finite() && z >= 0.0, "e = {e}: {z}");
        }
        assert_eq!(mu_for(0.5, 0.0), 0.0);
        assert_eq!(mu_for(0.5, f64::NAN), 0.0);
    }
}
