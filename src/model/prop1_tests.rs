//! Unit tests of `prop1`.
use super::*;

/// Eq (43): `I₀(0) = ((α+1)/2)^{β/(α+1) − 1} B(β/(α+1), 3/2)`.
fn i0_closed(alpha: f64, beta: f64) -> f64 {
    ((alpha + 1.0) / 2.0).powf(beta / (alpha + 1.0) - 1.0) * beta_fn(beta / (alpha + 1.0), 1.5)
}

/// Eq (44): `Q₀(0) = ½ ((α+1)/2)^{β/(α+1) − 1} B(β/(α+1), 1/2)`.
fn q0_closed(alpha: f64, beta: f64) -> f64 {
    0.5 * ((alpha + 1.0) / 2.0).powf(beta / (alpha + 1.0) - 1.0)
        * beta_fn(beta / (alpha + 1.0), 0.5)
}

/// An independent brute force: `u = u_M (1 − s²)` removes the `F^{±1/2}` end,
/// `s = 1 − r⁶` flattens `u^{β−1}` at `u = 0`, and the midpoint rule in `r` with `n`
/// cells does the rest.
fn brute(alpha: f64, beta: f64, g: f64, n: usize) -> (f64, f64) {
    let um = u_max(alpha, g);
    let ap1 = alpha + 1.0;
    let q = 6.0;
    let (mut si, mut sq) = (0.0, 0.0);
    for i in 0..n {
        let r = (i as f64 + 0.5) / n as f64;
        let s = 1.0 - r.powf(q);
        let ds_dr = q * r.powf(q - 1.0);
        let one_m = r.powf(q) * (2.0 - r.powf(q)); // 1 − s²
        let u = um * one_m;
        // F(u)/s² with F(u_M) = 0 taken out exactly.
        let g_over = -2.0 * g * um
            + 2.0 * um.powf(ap1) / ap1 * (-(ap1 * (-s * s).ln_1p()).exp_m1()) / (s * s);
        let pw = u.powf(beta - 1.0);
        // du = −2 u_M s ds; F^{1/2} = s √G; F^{−1/2} = 1/(s √G).
        si += 2.0 * g_over.sqrt() * s * pw * 2.0 * um * s * ds_dr;
        sq += pw / g_over.sqrt() * 2.0 * um * ds_dr;
    }
    (si / n as f64, sq / n as f64)
}

/// Asserts the quadratures `(I₀, Q₀)` match `want` to `tol`, relative; `what` names
/// the case in the message.
fn assert_integrals(got: (f64, f64), want: (f64, f64), tol: f64, what: &str) {
    let ((i, q), (i_want, q_want)) = (got, want);
    assert!((i / i_want - 1.0).abs() < tol, "I0 {what}: {i} {i_want}");
    assert!((q / q_want - 1.0).abs() < tol, "Q0 {what}: {q} {q_want}");
}

#[test]
fn beta_function_and_kk_constants() {
    // Γ(1/2) = √π, B(1, 3/2) = 2/3, B(2, 3) = 1/12.
    assert!((ln_gamma(0.5) - 0.5 * PI.ln()).abs() < 1e-14);
    assert!((beta_fn(1.0, 1.5) - 2.0 / 3.0).abs() < 1e-14);
    assert!((beta_fn(2.0, 3.0) - 1.0 / 12.0).abs() < 1e-14);
    // Kuwabara–Kono (α = β = 3/2): C₀ = β I₀(0) = 1.730173287142 (eq 20, sec. 4.4.1),
    // C = 4.403986 and g̃_c ≈ 0.30522 γ^{−6/11} (sec. 4.3).
    let c0 = 1.5 * i0_closed(1.5, 1.5);
    assert!((c0 - 1.730_173_287_142).abs() < 1e-11, "{c0}");
    let c0_quad = 1.5 * i0_beta(1.5, 1.5, 0.0);
    assert!((c0_quad - 1.730_173_287_142).abs() < 1e-11, "{c0_quad}");
    let c = c_eq21(1.5, 1.5);
    assert!((c - 4.403_986).abs() < 1e-6, "{c}");
    let p = 1.0 + 1.0 / 3.0 + 0.5;
    let pref = (2.0 * c).powf(-1.0 / p);
    assert!((pref - 0.305_22).abs() < 1e-5, "{pref}");
    // C₂ = A₂(0) (eq 42) from the quadrature against its closed form (45), and
    // against Schwager–Pöschel's −9b/4 = −1.7960997494 (eq 29), which eq (45)
    // itself matches only to 1.3e-8 (−1.7960997621).
    let (a, b) = (1.5f64, 1.5f64);
    let (i, q) = (i0_beta(a, b, 0.0), q0_beta(a, b, 0.0));
    let c2 = b * b * i * (i / 2.0 - q);
    let e45 = -b.powi(3) * (a + 1.0).powf(2.0 * b / (a + 1.0) - 1.0)
        / (2f64.powf(2.0 * b / (a + 1.0) - 2.0) * (a + 2.0 * b + 1.0).powi(2))
        * beta_fn(b / (a + 1.0), 0.5).powi(2);
    assert!((c2 - e45).abs() < 1e-12, "{c2} {e45}");
    assert!((c2 + 1.796_099_749_4).abs() < 2e-8, "{c2}");
}

#[test]
fn integrals_match_beta_closed_forms_at_zero_load() {
    for &alpha in &[1.0, 1.25, 1.5, 2.0, 3.0, 5.0] {
        for &beta in &[1.0, 1.25, 1.5, 2.5, alpha + 1.0, 4.0] {
            let got = (i0_beta(alpha, beta, 0.0), q0_beta(alpha, beta, 0.0));
            let closed = (i0_closed(alpha, beta), q0_closed(alpha, beta));
            assert_integrals(got, closed, 1e-13, &format!("α={alpha} β={beta}"));
        }
        // β = α + 1: I₀(0) = B(1, 3/2) = 2/3 and Q₀(0) = B(1, 1/2)/2 = 1.
        assert!((i0(alpha, 0.0) - 2.0 / 3.0).abs() < 1e-14);
        assert!((q0(alpha, 0.0) - 1.0).abs() < 1e-14);
        // Eq (14).
        let um = u_max(alpha, 0.0);
        assert!((um - ((alpha + 1.0) / 2.0).powf(1.0 / (alpha + 1.0))).abs() < 1e-15);
    }
}

#[test]
fn integrals_match_brute_force_under_load() {
    for &alpha in &[1.0, 1.5, 3.0] {
        for &g in &[0.0, 0.05, 0.9, 1.0, 1.1, 10.0, 300.0] {
            for &beta in &[1.5, alpha + 1.0] {
                let got = (i0_beta(alpha, beta, g), q0_beta(alpha, beta, g));
                let what = format!("α={alpha} β={beta} g={g}");
                assert_integrals(got, brute(alpha, beta, g, 200_000), 1e-9, &what);
            }
        }
    }
}

#[test]
fn u_max_solves_eq13_and_a7() {
    for &alpha in &[1.0, 1.5, 2.0, 3.0, 16.0] {
        for &g in &[-1e3, -1.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 1e3, 1e9] {
            let u = u_max(alpha, g);
            let lhs = u.powf(alpha + 1.0) / (alpha + 1.0);
            let res = lhs - g * u - 0.5;
            let scale = lhs + (g * u).abs() + 0.5;
            assert!(
                res.abs() <= 1e-14 * scale,
                "α={alpha} g={g}: u={u} res={res}"
            );
        }
        let g = 1e12;
        let a7 = ((alpha + 1.0) * g).powf(1.0 / alpha);
        assert!((u_max(alpha, g) / a7 - 1.0).abs() < 1e-9);
    }
}

#[test]
fn large_load_limit_a11() {
    // (A11): I₀ ≈ (2√2/α)(α+1)^{(β+1/2)/α} g̃^{(2β+α+1)/(2α)} B((β+1/2)/α, 3/2).
    for &alpha in &[1.0, 1.5, 3.0] {
        let beta = alpha + 1.0;
        let g: f64 = 1e8;
        let a11 = 2.0 * std::f64::consts::SQRT_2 / alpha
            * (alpha + 1.0).powf((beta + 0.5) / alpha)
            * g.powf((2.0 * beta + alpha + 1.0) / (2.0 * alpha))
            * beta_fn((beta + 0.5) / alpha, 1.5);
        assert!((i0(alpha, g) / a11 - 1.0).abs() < 1e-3, "α={alpha}");
    }
}

#[test]
fn prop1_at_zero_load_is_the_taylor_expansion() {
    // Eqs (41)–(45): e = 1 − A₁γ − A₂γ² + O(γ³) with A₁ = βI₀ = 2β/3 and
    // A₂ = β²I₀(I₀/2 − Q₀) = −4β²/9 at g̃ = 0 (β = α + 1).
    for &alpha in &[1.0, 1.5, 3.0] {
        let beta = alpha + 1.0;
        let gamma = 1e-3;
        let e = restitution_prop1(alpha, gamma, 0.0);
        let taylor = 1.0 - 2.0 * beta / 3.0 * gamma + 4.0 * beta * beta / 9.0 * gamma * gamma;
        assert!((e - taylor).abs() < 1e-7, "α={alpha}: {e} {taylor}");
    }
}

#[test]
fn prop1_monotone_in_gamma() {
    for &alpha in &[1.0, 1.5, 2.0, 3.0, 16.0] {
        for &g in &[-5.0, 0.0, 0.05, 1.0, 10.0, 1e3, 1e8] {
            let mut prev = 1.0;
            for i in 0..=400 {
                let gamma = 10f64.powf(-8.0 + 10.0 * i as f64 / 400.0);
                let e = restitution_prop1(alpha, gamma, g);
                assert!((0.0..=1.0).contains(&e), "α={alpha} g={g} γ={gamma}: {e}");
                assert!(e <= prev + 1e-15, "α={alpha} g={g} γ={gamma}: {e} > {prev}");
                prev = e;
            }
        }
    }
}

#[test]
fn no_nan_for_finite_inputs() {
    let vals = [
        0.0,
        -0.0,
        1e-300,
        -1e-300,
        1e-12,
        0.5,
        1.0,
        1.5,
        7.0,
        1e6,
        1e150,
        1e300,
        f64::MAX,
        -1.0,
        -1e300,
        -f64::MAX,
        f64::MIN_POSITIVE,
    ];
    for &a in &vals {
        for &gm in &vals {
            for &g in &vals {
                let e = restitution_prop1(a, gm, g);
                assert!((0.0..=1.0).contains(&e), "α={a} γ={gm} g={g}: {e}");
                assert!(!u_max(a, g).is_nan(), "u_max α={a} g={g}");
                assert!(!i0(a, g).is_nan(), "i0 α={a} g={g}");
                assert!(!q0(a, g).is_nan(), "q0 α={a} g={g}");
                assert!(!sticking_threshold_eq22(a, gm).is_nan());
            }
        }
    }
    for &bad in &[f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for &ok in &[0.0, 1.0, 1e300] {
            for e in [
                restitution_prop1(bad, ok, ok),
                restitution_prop1(ok.max(1.0), bad, ok),
                restitution_prop1(ok.max(1.0), ok, bad),
            ] {
                assert!(e.is_nan() || e == 0.0, "{e}");
            }
            assert!(u_max(bad, ok).is_nan() && u_max(1.5, bad).is_nan());
            assert!(i0(bad, ok).is_nan() && q0(1.5, bad).is_nan());
            assert!(sticking_threshold_eq22(bad, ok).is_nan());
            assert!(sticking_threshold_eq22(1.5, bad).is_nan());
        }
    }
}

#[test]
fn threshold_eq22_decreases_with_gamma() {
    for &alpha in &[1.0, 1.5, 3.0] {
        let mut prev = f64::INFINITY;
        for i in 0..20 {
            let gamma = 10f64.powf(-6.0 + 0.3 * i as f64);
            let gc = sticking_threshold_eq22(alpha, gamma);
            assert!(gc < prev);
            prev = gc;
        }
    }
    assert_eq!(sticking_threshold_eq22(1.5, 0.0), f64::INFINITY);
}

/// The onset's 81-node rule for `β = α + 1` against the 289-node rule the closed-form
/// tests above pin, over the whole `α` domain and loads from 1e-12 to 1e12 (either
/// sign), and Proposition 1 itself taken both ways.
#[test]
fn the_onset_rule_matches_the_fine_rule() {
    let mut worst: f64 = 0.0;
    for ia in 0..=150 {
        let alpha = 1.0 + 15.0 * ia as f64 / 150.0;
        for ig in 0..=200 {
            let g = if ig == 0 {
                0.0
            } else {
                10f64.powf(-12.0 + 24.0 * ig as f64 / 200.0)
            };
            for g in [g, -g] {
                let l = Load::new(alpha, g).unwrap();
                let (j0, m0) = l.integrals(alpha + 1.0);
                let (j, m) = l.integrals_hc();
                let d = (j / j0 - 1.0).abs().max((m / m0 - 1.0).abs());
                assert!(d < 1e-13, "α={alpha} g̃={g}: J {j} {j0}, M {m} {m0}");
                worst = worst.max(d);
            }
        }
    }
    println!("largest relative difference {worst:.2e}");
}
