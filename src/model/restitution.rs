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

use super::memo::{Last, remembered};
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

/// `z = μ v_in`, the root of seed 000's eq (19) for restitution `e`, to double
/// precision.
///
/// Writing eq (19) as `F(z) = R(−e z) − R(z) = 0` with `R(r) = r − ln(1 + r) = r² ψ(r)`,
/// `G = F(z)/z² = e² ψ(−e z) − ψ(z)` keeps its digits as `z → 0` (`e → 1`), where `F`
/// itself is a difference of nearly equal terms. `G` is negative at 0 (for `e < 1`),
/// increasing, and has a pole at `z = 1/e`, where Newton in `z` crawls (the root of a
/// low `e` sits close to the pole). So Newton runs in `u = −ln(1 − e z) ∈ (0, ∞)`,
/// where the pole is at infinity and `G` is nearly linear, inside a bracket (bisection,
/// or doubling while the bracket is open, where a step leaves it). It stops when `G`
/// is below its own rounding error or the step is a few ulps: about five evaluations,
/// at most [`MAX_ITERS`].
///
/// `e ≥ 1` (elastic) gives 0; `e` below [`E_MIN`] or NaN is taken as [`E_MIN`].
pub fn mu_v_in_for(e: f64) -> f64 {
    solve(e).0
}

/// [`mu_v_in_for`] and the number of evaluations it took.
fn solve(e: f64) -> (f64, u32) {
    if e >= 1.0 {
        return (0.0, 0);
    }
    let e = if e >= E_MIN { e } else { E_MIN };
    let e2 = e * e;
    // The start: near e = 1 the series z ≈ 3(1 − e²)/(2(1 + e³)); for low e the root
    // is near the pole, z ≈ 1/e, where eq (19) reads u ≈ z (1 + e) − ln(1 + z).
    let mut u = if e < 0.5 {
        (1.0 + e) / e - (1.0 / e).ln_1p()
    } else {
        let z = (1.5 * (1.0 - e2) / (1.0 + e2 * e)).min(0.5 / e);
        -(-e * z).ln_1p()
    };
    let (mut lo, mut hi) = (0.0, f64::INFINITY);
    for n in 1..=MAX_ITERS {
        // 1 − e z = exp(−u) exactly in these variables, and ln(1 − e z) = −u.
        let q = (-u).exp();
        let ez = -(-u).exp_m1();
        let z = ez / e;
        let psi_in = if ez < PSI_SERIES_BELOW {
            psi(-ez)
        } else {
            (u - ez) / (ez * ez)
        };
        let psi_out = psi_any(z);
        let g = e2 * psi_in - psi_out;
        if g.abs() <= 8.0 * f64::EPSILON * (e2 * psi_in.abs() + psi_out.abs()) {
            return (z, n);
        }
        if g < 0.0 {
            lo = u;
        } else {
            hi = u;
        }
        // dG/du = G'(z) dz/du, G'(z) = (F'/z − 2G)/z with F'/z = e²/(1 − e z) − 1/(1 + z),
        // dz/du = (1 − e z)/e: multiplied out so that nothing divides by q.
        let dg = (e2 - q / (1.0 + z) - 2.0 * g * q) / (e * z);
        let next = u - g / dg;
        if (next - u).abs() <= 4.0 * f64::EPSILON * u {
            return (-(-next).exp_m1() / e, n);
        }
        u = if next > lo && next < hi {
            next
        } else if hi.is_finite() {
            0.5 * (lo + hi)
        } else {
            2.0 * u
        };
    }
    (-(-u).exp_m1() / e, MAX_ITERS)
}

/// Most evaluations of [`mu_v_in_for`]: Newton converges in about five from its start
/// (at most ten over the range, see the tests); a cap, not a budget.
pub const MAX_ITERS: u32 = 100;

/// The damping `μ` (s/m) that makes a strike at `v_in` leave at `−e v_in`: seed 000's
/// eq (19), `μ v_in = d/e`. Non-finite or non-positive `v_in` gives 0.
pub fn mu_for(e: f64, v_in: f64) -> f64 {
    if !(v_in.is_finite() && v_in > 0.0) {
        return 0.0;
    }
    let mu = mu_v_in_cached(e) / v_in;
    if mu.is_finite() { mu } else { 0.0 }
}

/// [`mu_v_in_for`], remembered for the last `e` this thread asked for (`model::memo`).
/// `μ v_in` depends on `e` alone, so every contact of a patch (each of a note's
/// latches, every humanized hit, every bounce) shares one solve, made at the patch
/// change by the strike's set-up.
fn mu_v_in_cached(e: f64) -> f64 {
    thread_local! {
        static LAST: Last<u64, f64> = const { Last::new(None) };
    }
    remembered(&LAST, e.to_bits(), || mu_v_in_for(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::vout::v_out_exact;

    /// The remembered root is the one solved anew, whatever was asked before it (each
    /// value right after each other one, the same value twice, NaN among them).
    #[test]
    fn the_remembered_root_is_the_root() {
        let es = [0.0, 0.05, 0.3, 0.3 + 1e-15, 0.7, 0.999, 1.0, f64::NAN];
        for &a in &es {
            for &b in &es {
                mu_v_in_cached(a);
                let got = mu_v_in_cached(b);
                assert_eq!(got.to_bits(), mu_v_in_for(b).to_bits(), "{b} after {a}");
                assert_eq!(mu_for(b, 2.0).to_bits(), (mu_v_in_for(b) / 2.0).to_bits());
            }
        }
    }

    /// A note-on solves this for every humanized Bounciness: Newton must stop once its
    /// step is rounding noise, over the whole range, not run to the cap.
    #[test]
    fn newton_stops_within_a_few_evaluations() {
        let mut worst = (0, 0.0);
        for i in 0..=20_000 {
            // e from E_MIN to 1 − 1e-12, evenly in log(1 − e) and in e.
            let t = i as f64 / 20_000.0;
            for e in [1.0 - 10f64.powf(-12.0 * t), E_MIN + (1.0 - E_MIN) * t] {
                let (z, n) = solve(e);
                assert!(z.is_finite() && z >= 0.0, "e {e}: z {z}");
                if n > worst.0 {
                    worst = (n, e);
                }
            }
        }
        assert!(worst.0 <= 8, "{} evaluations at e = {}", worst.0, worst.1);
    }

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
