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
