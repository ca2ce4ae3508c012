//! Unit tests of [`super`]: seed 001's scaled variables, exits and rest.

use super::creep::phis;
use super::*;
use crate::model::vout::v_out_exact;

#[test]
fn scaled_variables() {
    // The notes' case m = 0.01, k = 1e7, μ = 0.5, α = 1.5, g = 9.81, v_in = 1e-3:
    // γ = 0.5·1e-3/2.5 = 2e-4 and g̃ = 1e-9^{0.4}·1e-3^{−1.2}·9.81 = 9.81.
    let (gamma, g) = scaled(1e7, 0.5, 1.5, 0.01, 1e-3, 9.81);
    assert!((gamma - 2e-4).abs() < 1e-18);
    assert!((g - 9.81).abs() < 1e-12, "{g}");
}

#[test]
fn without_load_it_is_eq_6() {
    for (mu, v_in) in [
        (0.5, 0.1),
        (0.5, 2.0),
        (1e-4, 1.0),
        (3.0, 1.0),
        (10.0, 10.0),
    ] {
        let x = exit(1e7, mu, 1.5, 0.01, v_in, 0.0);
        let e_exact = -v_out_exact(mu, v_in) / v_in;
        assert!(x.resolved && !x.sticks);
        assert!(
            (x.e - e_exact).abs() < 1e-8,
            "μ {mu} v {v_in}: {} vs {e_exact}",
            x.e
        );
    }
}

#[test]
fn the_notes_gravity_in_contact_values() {
    for (v_in, e) in [(0.1, 0.96424), (0.01, 0.98540), (0.001, 0.20817)] {
        let x = exit(1e7, 0.5, 1.5, 0.01, v_in, 9.81);
        assert!(!x.sticks && x.resolved);
        assert!((x.e - e).abs() < 1e-5, "v_in {v_in}: {} vs {e}", x.e);
    }
    let x = exit(1e7, 0.5, 1.5, 0.01, 0.0005, 9.81);
    assert!(x.sticks && x.e == 0.0);
}

#[test]
fn degenerate_inputs_never_panic() {
    for p in [f64::NAN, f64::INFINITY, 0.0, -1.0, 1e-300, 1e300] {
        for i in 0..6 {
            let mut a = [1e7, 0.5, 1.5, 0.01, 0.1, 9.81];
            a[i] = p;
            let x = exit(a[0], a[1], a[2], a[3], a[4], a[5]);
            assert!(
                x.e.is_finite() && (0.0..=1.0).contains(&x.e),
                "{a:?}: {x:?}"
            );
        }
    }
}

#[test]
fn the_creep_phi_functions_agree_across_their_two_forms() {
    // Below |z| = 1 the series; the recurrence from e^z − 1 loses only a few ulps
    // times 1/|z|³ for |z| ≥ 1/2, so the two meet there.
    for i in 0..=50 {
        let z = -0.5 - 0.49 * i as f64 / 50.0;
        let (s1, s2, s3) = phis(z, z.exp());
        let p1 = z.exp_m1() / z;
        let p2 = (p1 - 1.0) / z;
        let p3 = (p2 - 0.5) / z;
        for (a, b) in [(s1, p1), (s2, p2), (s3, p3)] {
            assert!((a / b - 1.0).abs() < 1e-13, "z {z}: {a} vs {b}");
        }
    }
    // φ_k(0) = 1/k!.
    assert_eq!(phis(0.0, 1.0), (1.0, 0.5, 1.0 / 6.0));
}

/// Runs `solve` in slices of `slice` units, checking each call does what it says: a
/// pending call spent its whole slice, and the solve ends within its bound.
fn sliced(mut solve: ExitSolve, slice: u32) -> LoadExit {
    // At most MAX_STEPS steps, a unit to leave a creep out of steps, eight Newton
    // iterations.
    let bound = (MAX_STEPS + 4 + 8).div_ceil(slice) + 1;
    for _ in 0..bound {
        if let Progress::Done(x) = solve.advance(slice) {
            assert_eq!(solve.result(), Some(x));
            return x;
        }
        assert_eq!(solve.result(), None);
    }
    panic!("not done after {bound} slices of {slice}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// However the solve is sliced, it ends bit for bit where the one-shot one does:
    /// over the full scaled ranges (γ from the paper's light damping to the creeps of
    /// `μ v_in` in the hundreds, `g̃` from negligible to a mass that sticks at once),
    /// and for the physical inputs the bouncer hands it.
    #[test]
    fn slices_give_the_one_shot_exit(
        alpha in 1.0f64..4.0,
        log_gamma in -6.0f64..3.0,
        log_g in -9.0f64..1.0,
        slice in 1u32..=40,
        log_k in 3.0f64..13.0,
        log_m in -4.0f64..-1.0,
        log_v in -3.0f64..1.0,
    ) {
        let (gamma, g_tilde) = (10f64.powf(log_gamma), 10f64.powf(log_g));
        let one = scaled_exit(alpha, gamma, g_tilde);
        proptest::prop_assert_eq!(sliced(ExitSolve::scaled(alpha, gamma, g_tilde), slice), one);
        // The same damping at the physical inputs: μ = (α + 1) γ / v_in.
        let (k, m, v) = (10f64.powf(log_k), 10f64.powf(log_m), 10f64.powf(log_v));
        let mu = (alpha + 1.0) * gamma / v;
        let one = exit(k, mu, alpha, m, v, 9.81);
        proptest::prop_assert_eq!(sliced(ExitSolve::new(k, mu, alpha, m, v, 9.81), slice), one);
    }
}

#[test]
fn slices_give_the_one_shot_exit_of_creeps_and_sticks() {
    // The creeps (γ of 3 to 500, light loads) and the sticking contacts, many of
    // each, at every slice from one unit up.
    let mut n = (0, 0);
    for i in 0..300 {
        let f = i as f64 / 300.0;
        let alpha = 1.0 + 3.0 * ((7.0 * f) % 1.0);
        let gamma = 10f64.powf(0.5 + 2.2 * ((13.0 * f) % 1.0));
        let g_tilde = 10f64.powf(-8.0 + 5.0 * f);
        let one = scaled_exit(alpha, gamma, g_tilde);
        n.0 += usize::from(one.steps > 40);
        n.1 += usize::from(one.sticks);
        for slice in [1, 2, 3, 5, 8, 13, 64] {
            assert_eq!(
                sliced(ExitSolve::scaled(alpha, gamma, g_tilde), slice),
                one,
                "α {alpha} γ {gamma} g̃ {g_tilde}, slices of {slice}"
            );
        }
    }
    assert!(n.0 > 100 && n.1 > 20, "long solves, sticks: {n:?}");
}

/// The remembered tables are those made anew, whatever α was asked before: each
/// one right after each other one, the exact powers' α among them.
#[test]
fn remembered_power_tables_are_made_anew() {
    let alphas = [1.0, 1.5, 2.55, 2.55 + 1e-12, 3.0, 0.7];
    let xs = [1e-9, 0.37, 1.0, 2.9, 1e6];
    for &a in &alphas {
        for &b in &alphas {
            super::ExitSolve::prime(a);
            let (got, anew) = (
                super::resume::alpha_pow_cached(b),
                crate::model::alpha_pow::AlphaPow::new(b),
            );
            for x in xs {
                assert_eq!(got.pow(x).to_bits(), anew.pow(x).to_bits(), "{b} after {a}");
            }
        }
    }
}
