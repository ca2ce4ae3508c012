//! Proves the closed forms of Section II: the analytic values of the notes' table,
//! the exact v_out against a 100-digit reference across μ·v_in from 1e-9 to 1e3, the
//! restitution points of the seed paper, and the contact time quadrature.

use rebound::model::tau::contact_time;
use rebound::model::vout::{v_out_approx, v_out_exact};
use rebound::model::{Contact, paper};

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// Whether `ours` rounds to the printed value in its printed precision.
fn matches_printed(ours: f64, printed: &str) {
    let p: f64 = printed.parse().unwrap();
    let (mantissa, exp) = match printed.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap()),
        None => (printed, 0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len() as i32);
    let half_unit = 0.5 * 10f64.powi(exp - decimals);
    assert!(
        (ours - p).abs() <= half_unit * (1.0 + 1e-9),
        "ours {ours:.15e} vs printed {printed}"
    );
}

#[test]
fn notes_table_of_analytic_values() {
    let rows = [
        (
            paper::CASE_I,
            "-0.428425508758",
            "-0.428425708451",
            "5.9104e-3",
            "1659.20",
        ),
        (
            paper::CASE_1,
            "-0.498338868598",
            "-0.498338868597",
            "7.0950e-5",
            "18.890",
        ),
        (
            paper::CASE_2,
            "-0.748434931597",
            "-0.748528641793",
            "3.8926e-5",
            "5.861",
        ),
    ];
    for ((k, mu, alpha, v_in), v_out, v_tilde, x_max, tau) in rows {
        let an = Contact::new(k, mu, alpha, paper::MASS).impact(v_in);
        // 12 printed digits: this is the 1e-9 relative check and more.
        matches_printed(an.v_out(), v_out);
        matches_printed(an.v_out_approx(), v_tilde);
        assert!(rel(an.v_out(), v_out.parse().unwrap()) < 1e-11);
        assert!(rel(an.v_out_approx(), v_tilde.parse().unwrap()) < 1e-11);
        matches_printed(an.x_max(), x_max);
        matches_printed(contact_time(&an) * paper::FS, tau);
    }
}

/// x_max by eq (4) equals x(0) of eq (3), and the closed form agrees with the literal
/// formula (which is accurate at these moderate μ).
#[test]
fn x_max_closed_form_matches_literal_eq4() {
    for (k, mu, alpha, v_in) in [paper::CASE_I, paper::CASE_1, paper::CASE_2] {
        let m = paper::MASS;
        let an = Contact::new(k, mu, alpha, m).impact(v_in);
        let literal = (m * (alpha + 1.0) / (k * mu * mu) * (mu * v_in - (1.0 + mu * v_in).ln()))
            .powf(1.0 / (alpha + 1.0));
        assert!(
            rel(an.x_max(), literal) < 1e-9,
            "{} vs {}",
            an.x_max(),
            literal
        );
    }
}

/// The contact time agrees to 1e-9 with an independent evaluation of eq (9): the
/// interval split at its midpoint, each half mapped by `d = D u^{α+1}` (which makes
/// the end singularities smooth), the bracket from the literal logarithms measured
/// from the nearer end, and composite 5-point Gauss–Legendre.
#[test]
fn contact_time_agrees_with_independent_quadrature() {
    const GL: [(f64, f64); 5] = [
        (0.0, 0.568_888_888_888_888_9),
        (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
        (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
        (0.906_179_845_938_664, 0.236_926_885_056_189_1),
        (-0.906_179_845_938_664, 0.236_926_885_056_189_1),
    ];
    for (k, mu, alpha, v_in) in [paper::CASE_I, paper::CASE_1, paper::CASE_2] {
        let c = Contact::new(k, mu, alpha, paper::MASS);
        let an = c.impact(v_in);
        let v_out = an.v_out();
        let e = alpha / (alpha + 1.0);
        let half = 0.5 * (v_in - v_out);
        // From v_in downwards (d ≥ 0) and from v_out upwards (d ≥ 0).
        let p_top = |d: f64| (mu * d + (-mu * d / (1.0 + mu * v_in)).ln_1p()) / (mu * mu);
        let p_bot = |d: f64| (-mu * d + (mu * d / (1.0 + mu * v_out)).ln_1p()) / (mu * mu);
        let mut integral = 0.0;
        let panels = 400;
        for (p, v_of) in [
            (
                &p_top as &dyn Fn(f64) -> f64,
                &(|d: f64| v_in - d) as &dyn Fn(f64) -> f64,
            ),
            (&p_bot, &|d: f64| v_out + d),
        ] {
            for j in 0..panels {
                let (a, b) = (j as f64 / panels as f64, (j + 1) as f64 / panels as f64);
                for (node, w) in GL {
                    let u = 0.5 * (a + b) + 0.5 * (b - a) * node;
                    let d = half * u.powf(alpha + 1.0);
                    let jac = half * (alpha + 1.0) * u.powf(alpha);
                    let v = v_of(d);
                    integral += 0.5 * (b - a) * w * jac / ((1.0 + mu * v) * p(d).powf(e));
                }
            }
        }
        let tau_ref = (c.mass / c.k).powf(1.0 / (alpha + 1.0)) * (alpha + 1.0).powf(-e) * integral;
        let tau = contact_time(&an);
        assert!(
            rel(tau, tau_ref) < 1e-9,
            "tau {tau:e} vs {tau_ref:e}: {:e}",
            rel(tau, tau_ref)
        );
    }
}

fn reference() -> Vec<(f64, f64)> {
    include_str!("data/vout_reference.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            (
                it.next().unwrap().parse().unwrap(),
                it.next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

/// tools/vout_reference.py wrote these with mpmath at 100 digits.
#[test]
fn exact_v_out_matches_high_precision_reference() {
    let table = reference();
    assert!(table.len() > 240);
    let mut worst = 0.0f64;
    for (a, s) in table {
        for mu in [1e-4, 0.37, 1.0, 10.0] {
            let v_in = a / mu;
            if mu * v_in != a {
                continue; // only exact products
            }
            let v_out = v_out_exact(mu, v_in);
            let err = rel(-mu * v_out, s);
            worst = worst.max(err);
            assert!(err <= 1e-12, "a = {a:e}, mu = {mu}: rel err {err:e}");
        }
    }
    assert!(worst <= 1e-12);
}

/// Seed paper 000, eq (19): restitution e at μ v_in = d/e.
#[test]
fn restitution_points_of_seed_000() {
    for (e, a) in [
        (0.3, 3.087082),
        (0.5, 1.432751),
        (0.7, 0.634828),
        (0.9, 0.166482),
    ] {
        let mu = 0.5;
        let v_in = a / mu;
        let ratio = v_out_exact(mu, v_in) / v_in;
        assert!((ratio + e).abs() < 1e-6, "e = {e}: v_out/v_in = {ratio}");
    }
}

/// ṽ_out of eq (7) against the exact root: the error is small where the paper says
/// (Fig. 3) and both tend to −v_in as μ v_in → 0.
#[test]
fn approximation_error_follows_fig_3() {
    for a in [1e-9, 1e-6, 1e-3, 0.01, 0.1] {
        let e = rel(v_out_approx(1.0, a), v_out_exact(1.0, a));
        assert!(e < 1e-3, "a = {a}: {e}");
    }
    assert!(rel(v_out_approx(1.0, 1e-9), -1e-9) < 1e-8);
    // Both sit between v_lim = −1/μ and −v_in.
    for a in [0.5, 2.0, 20.0] {
        for v in [v_out_exact(1.0, a), v_out_approx(1.0, a)] {
            assert!(v > -1.0 && v > -a && v < 0.0);
        }
    }
}

/// The analytic Hamiltonian of eq (20) starts at H_0, ends at H_τ, and decreases.
#[test]
fn hamiltonian_of_v_is_monotone_between_h0_and_h_tau() {
    for (k, mu, alpha, v_in) in [paper::CASE_I, paper::CASE_1, paper::CASE_2] {
        let an = Contact::new(k, mu, alpha, paper::MASS).impact(v_in);
        let v_out = an.v_out();
        assert!(rel(an.hamiltonian_of_v(v_in), an.h_0()) < 1e-12);
        let h_tau = 0.5 * paper::MASS * v_out * v_out;
        assert!(rel(an.hamiltonian_of_v(v_out), h_tau) < 1e-9);
        let mut prev = f64::INFINITY;
        for i in 0..=100 {
            let v = v_in + (v_out - v_in) * i as f64 / 100.0;
            let h = an.hamiltonian_of_v(v);
            assert!(h <= prev * (1.0 + 1e-12));
            prev = h;
        }
    }
}

/// ψ(r) = (r − ln(1+r))/r²: the series branch joins the direct formula at |r| = 0.05
/// and matches a long-double-free reference (the alternating series summed from the
/// small end) everywhere below.
#[test]
fn psi_series_matches_direct_formula() {
    use rebound::model::contact::psi;
    for r in [
        -0.049_999_f64,
        -0.03,
        -1e-3,
        -1e-9,
        0.0,
        1e-9,
        1e-3,
        0.03,
        0.049_999,
    ] {
        let mut reference = 0.0;
        for n in (0..60).rev() {
            reference += (-r).powi(n) / (n as f64 + 2.0);
        }
        assert!(
            rel(psi(r), reference) < 1e-15,
            "r = {r}: {} vs {reference}",
            psi(r)
        );
    }
    for r in [0.05, 0.0500001] {
        // ψ′ ≈ −0.3 there: a step of 1e-12 moves ψ by ~3e-13, and no jump adds to it.
        assert!((psi(r - 1e-12) - psi(r)).abs() < 4e-13);
    }
}

/// x(v) from a nearby guess (the hybrid's fast path) inverts `x^{α+1} = p` at least as
/// well as the direct `powf(p, 1/(α+1))` (whose exponent is itself rounded), for the
/// exponents with an exact power and for any other.
#[test]
fn x_from_a_nearby_guess_inverts_the_power() {
    for alpha in [1.0, 1.5, 2.0, 1.3, 2.7] {
        let an = Contact::new(1e7, 0.5, alpha, 0.01).impact(1.0);
        let residual = |x: f64, p: f64| rel(x.powf(alpha + 1.0), p);
        for p in [1e-30, 3.7e-12, 2.2e-5, 0.7] {
            let direct = an.x_from_pow_alpha1(p);
            for rel_off in [0.0, 1e-9, 3.9e-6, -3.9e-6, 5e-6, -4e-4, 9e-4, 0.3] {
                let (near, near_pow) =
                    an.x_from_pow_alpha1_near(p, direct * (1.0 + rel_off), f64::NAN);
                let (rn, rd) = (residual(near, p), residual(direct, p));
                // x^α consistent with x: x · x^α = p.
                assert!(
                    rel(near * near_pow, p) <= 8e-16,
                    "alpha {alpha} p {p:e}: x^α"
                );
                assert!(
                    rn <= rd.max(4e-16 * (alpha + 1.0)),
                    "alpha {alpha} p {p:e} off {rel_off}: residual {rn:e} vs powf {rd:e}"
                );
            }
        }
    }
}

/// `x^α` from a known nearby power (RK4's stages at a general α) agrees with `powf`
/// to a few ulps in each of its regimes: five terms, nine terms, and direct.
#[test]
fn power_near_a_known_point_matches_powf() {
    use rebound::model::contact::{PowNear, binomial_coefficients};
    for alpha in [1.1, 1.3, 2.2, 2.7, 2.95] {
        let c = Contact::new(1e7, 0.5, alpha, 0.01);
        let coeffs = binomial_coefficients::<9>(alpha);
        for x_r in [1e-9, 3.3e-6, 0.02] {
            let at = PowNear::new(x_r, x_r.powf(alpha));
            for sigma in [0.0, 2e-7, -9e-4, 9e-4, 0.012, -0.031, 0.0312, 0.2, -0.5] {
                let x = x_r * (1.0 + sigma);
                let got = at.x_pow_alpha(c.alpha, &coeffs, x);
                let want = x.powf(alpha);
                // The series adds a few roundings to the known power; the direct path
                // is `exp(α ln x)`, which errs by a few ulps times |α ln x|.
                let ulps = if sigma.abs() < 1.0 / 32.0 {
                    8.0
                } else {
                    4.0 + (alpha * x.ln()).abs()
                };
                assert!(
                    rel(got, want) < ulps * f64::EPSILON,
                    "alpha {alpha} x_r {x_r:e} sigma {sigma}: {got:e} vs {want:e}"
                );
            }
            assert_eq!(at.x_pow_alpha(c.alpha, &coeffs, 0.0), 0.0);
            assert_eq!(at.x_pow_alpha(c.alpha, &coeffs, -x_r), 0.0);
        }
    }
}
