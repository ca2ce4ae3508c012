//! Coefficient of restitution with a constant external load (gravity during contact):
//! Proposition 1 of Chatterjee, James & Brogliato, "Approximate coefficient of
//! restitution for nonlinear viscoelastic contact with external load" (Granular Matter
//! 2022; seed paper 001).
//!
//! The paper's model (1) is `m ẍ = k[(−x)₊^α + γ₀ d/dt (−x)₊^β] − m g − F`. Hunt–Crossley,
//! `m dv/dt = −k x^α (1 + μ v) + m g` with `x ≥ 0` the compression, is its case
//! `β = α + 1`, `γ₀ = μ/(α + 1)`, because `k μ x^α ẋ = k μ/(α+1) · d/dt x^{α+1}`. In the
//! scaled variables of eqs (2)–(4) the contact is system (6),
//!
//! ```text
//! du/dτ = w − γ u^β,   dw/dτ = −u^α + g̃,   u(0) = 0, w(0) = 1,   e = −u'(T_f),
//! ```
//!
//! with `γ = μ v_in/(α + 1)` and `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g` ([`scaled`]).
//!
//! Everything here is for `β = α + 1`; the integrals are written for a general `β`
//! internally so the tests can check them against the paper's Beta-function closed forms
//! (eqs 20, 43, 44) for any `(α, β)`, Kuwabara–Kono's `α = β = 3/2` included.
//!
//! Domain: Assumption 1 (`α ≥ 1`); `α` is clamped to `[1, ALPHA_MAX]`, `γ` to `γ ≥ 0`.
//! `g̃` may have either sign (a net load away from the wall gives `g̃ < 0`; the paper
//! computes only `g̃ ≥ 0`). Any non-finite input gives NaN. No allocation, and every
//! function has a fixed cost: a bounded Newton for `u_M` and one fixed tanh–sinh rule.

use std::f64::consts::{FRAC_PI_2, PI};

/// Largest `α` taken; larger values are clamped (keeps `u^{α+1}` finite everywhere).
pub const ALPHA_MAX: f64 = 16.0;

/// `(γ, g̃)` of eqs (3)–(4) for Hunt–Crossley (`β = α + 1`, `γ₀ = μ/(α+1)`, no extra
/// load `F`): `γ = μ v_in/(α+1)` (eq 3: the powers of `v_in` and `k/m` reduce to 1) and
/// `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g` (eq 4). An external force `F` enters as
/// `g + F/m`.
pub fn scaled(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> (f64, f64) {
    let ap1 = alpha + 1.0;
    let gamma = mu * v_in / ap1;
    let g_tilde = (mass / k).powf(1.0 / ap1) * v_in.powf(-2.0 * alpha / ap1) * g;
    (gamma, g_tilde)
}

/// Maximal compression `u_M` of the undamped contact, the root of eq (13),
/// `u_M^{α+1}/(α+1) − g̃ u_M = 1/2`; `u_M(0) = ((α+1)/2)^{1/(α+1)}` (eq 14), and
/// `u_M ≈ ((α+1) g̃)^{1/α}` for `g̃ ≫ 1` (eq A7).
pub fn u_max(alpha: f64, g_tilde: f64) -> f64 {
    match Load::new(alpha, g_tilde) {
        Some(l) => l.s * l.y_max,
        None => f64::NAN,
    }
}

/// `I₀(g̃)` of eq (39) (= eq 12) for `β = α + 1`: twice the dissipation integral
/// `∫ u₀'² u₀^{β−1} dτ` over the undamped half-contact (eq A3).
pub fn i0(alpha: f64, g_tilde: f64) -> f64 {
    let alpha = clamp_alpha(alpha);
    i0_beta(alpha, alpha + 1.0, g_tilde)
}

/// `Q₀(g̃)` of eq (40) (= eq B20) for `β = α + 1`: `∫ u₀^{β−1} dτ` over the undamped
/// half-contact.
pub fn q0(alpha: f64, g_tilde: f64) -> f64 {
    let alpha = clamp_alpha(alpha);
    q0_beta(alpha, alpha + 1.0, g_tilde)
}

/// `α` clamped to `[1, ALPHA_MAX]` (Assumption 1); NaN for a non-finite `α`.
fn clamp_alpha(alpha: f64) -> f64 {
    if alpha.is_finite() {
        alpha.clamp(1.0, ALPHA_MAX)
    } else {
        f64::NAN
    }
}

/// Proposition 1, eqs (36)–(38): `e ≈ min(e₊, e_s)`, the `O(γ²)` approximation of the
/// coefficient of restitution, for `β = α + 1`. `0` means the approximation says the
/// mass sticks (the bracket of eq 37 or 38 is negative).
///
/// The paper asks (after eq 42) that (36) be used only where it decreases with `γ`:
/// `e₊²` is a parabola in `γ` with its minimum at `γ₊ = 1/(2βQ₀)`, and `e_s` (when convex,
/// `Q₀ > I₀/2`) at `γ_s = 1/(2β(Q₀ − I₀/2))`. Beyond its minimum each is held at its
/// minimum value (`1 − I₀/(2Q₀)` for `e₊²`, `1 − I₀/(4(Q₀ − I₀/2))` for `e_s`), i.e.
/// this returns the running minimum of (36) over `[0, γ]`: identical to (36) where (36)
/// is valid, and non-increasing in `γ` everywhere.
pub fn restitution_prop1(alpha: f64, gamma: f64, g_tilde: f64) -> f64 {
    if !gamma.is_finite() {
        return f64::NAN;
    }
    let Some(load) = Load::new(alpha, g_tilde) else {
        return f64::NAN;
    };
    let gamma = gamma.max(0.0);
    let (j, m) = load.integrals(load.alpha + 1.0);
    if gamma == 0.0 || j == 0.0 || m == 0.0 {
        return 1.0;
    }
    let beta = load.alpha + 1.0;
    let ln_s = load.s.ln();
    let half_ap1 = 0.5 * (load.alpha + 1.0);
    // a = βγI₀, b = βγQ₀ and r = I₀/Q₀ (eqs 49–50 with u = s·y), from logs so that
    // overflow gives +∞ (⇒ e = 0), never ∞ − ∞.
    let a = ((2.0 * beta * gamma * j).ln() + (beta + half_ap1) * ln_s).exp();
    let b = ((beta * gamma * m).ln() + (beta - half_ap1) * ln_s).exp();
    let r = ((2.0 * j / m).ln() + (load.alpha + 1.0) * ln_s).exp();
    // Eq (37): e₊² = 1 − 2βI₀γ + 2β²I₀Q₀γ² = 1 − 2a(1 − b); minimum at b = 1/2.
    let e_plus_sq = if b >= 0.5 {
        1.0 - 0.5 * r
    } else {
        1.0 - 2.0 * a * (1.0 - b)
    };
    // Eq (38): e_s = 1 − βI₀γ + β²I₀(Q₀ − I₀/2)γ² = 1 − a(1 − b·d), d = 1 − r/2.
    let d = 1.0 - 0.5 * r;
    let bd = mul0(b, d);
    let e_s = if d > 0.0 && bd >= 0.5 {
        1.0 - 0.5 * r / (2.0 - r)
    } else {
        1.0 - mul0(a, 1.0 - bd)
    };
    let e = e_plus_sq.max(0.0).sqrt().min(e_s.max(0.0));
    if e.is_nan() { 0.0 } else { e.min(1.0) }
}

/// Sticking threshold `g̃_c` of eq (22), `g̃_c^p = 1/(2Cγ)` with
/// `p = β/α + 1/(2α) + 1/2` and `C` of eq (21), for `β = α + 1`
/// (`p = 3/2 + 3/(2α)`). From the large-`g̃` limit (A12) of the `O(γ)` expansion, so
/// good for small `γ` only (Fig. 6). `+∞` at `γ = 0`.
pub fn sticking_threshold_eq22(alpha: f64, gamma: f64) -> f64 {
    if !(alpha.is_finite() && gamma.is_finite()) {
        return f64::NAN;
    }
    let alpha = alpha.clamp(1.0, ALPHA_MAX);
    let beta = alpha + 1.0;
    let p = beta / alpha + 0.5 / alpha + 0.5;
    let c = c_eq21(alpha, beta);
    (2.0 * c * gamma.max(0.0)).powf(-1.0 / p)
}

/// `C` of eq (21) (= A12): `2√2 (β/α) (α+1)^{β/α + 1/(2α)} B((β + 1/2)/α, 3/2)`.
fn c_eq21(alpha: f64, beta: f64) -> f64 {
    2.0 * std::f64::consts::SQRT_2
        * (beta / alpha)
        * (alpha + 1.0).powf(beta / alpha + 0.5 / alpha)
        * beta_fn((beta + 0.5) / alpha, 1.5)
}

/// `I₀` of eq (39) for a general `β ≥ 1` (used by the tests against eq 43).
pub(crate) fn i0_beta(alpha: f64, beta: f64, g_tilde: f64) -> f64 {
    match Load::new(alpha, g_tilde) {
        Some(l) if beta.is_finite() => {
            let (j, _) = l.integrals(beta);
            2.0 * j * l.s.powf(beta + 0.5 * (l.alpha + 1.0))
        }
        _ => f64::NAN,
    }
}

/// `Q₀` of eq (40) for a general `β ≥ 1` (used by the tests against eq 44).
pub(crate) fn q0_beta(alpha: f64, beta: f64, g_tilde: f64) -> f64 {
    match Load::new(alpha, g_tilde) {
        Some(l) if beta.is_finite() => {
            let (_, m) = l.integrals(beta);
            m * l.s.powf(beta - 0.5 * (l.alpha + 1.0))
        }
        _ => f64::NAN,
    }
}

/// The undamped contact of eq (9) in the variable `y = u/s`, with `s = 1` for `g̃ ≤ 1` and
/// `s = g̃^{1/α}` above (the scaling of eq A7), so nothing overflows however large `g̃`:
/// `1 + 2(g̃u − u^{α+1}/(α+1)) = s^{α+1} F(y)` with
/// `F(y) = c₀ + 2 g₁ y − 2 y^{α+1}/(α+1)`, `c₀ = s^{−(α+1)}` (the `ε` of eq A8), `g₁ = g̃/s^α`.
struct Load {
    alpha: f64,
    s: f64,
    c0: f64,
    g1: f64,
    /// Root of `F` (eq 13 scaled, A8): `u_M = s·y_max`.
    y_max: f64,
}

impl Load {
    fn new(alpha: f64, g_tilde: f64) -> Option<Load> {
        if !(alpha.is_finite() && g_tilde.is_finite()) {
            return None;
        }
        let alpha = alpha.clamp(1.0, ALPHA_MAX);
        let ap1 = alpha + 1.0;
        let (s, c0, g1) = if g_tilde <= 1.0 {
            (1.0, 1.0, g_tilde)
        } else {
            let ln_s = g_tilde.ln() / alpha;
            (ln_s.exp(), (-ap1 * ln_s).exp(), 1.0)
        };
        // ψ(y) = y^{α+1}/(α+1) − g₁y − c₀/2 is convex with ψ(0) < 0 (or = 0 when c₀
        // underflows, then y = 0 is a second root): Newton from a point above the
        // largest root decreases monotonically onto it. Upper bound: ψ(y) ≥ 0 once
        // y^α ≥ 2(α+1)g₁ and y^{α+1} ≥ (α+1)c₀ (half of the power term beats each
        // other term); for g₁ < 0 also at y = c₀/(2|g₁|).
        let mut y = (ap1 * c0).powf(1.0 / ap1);
        if g1 > 0.0 {
            y = y.max((2.0 * ap1 * g1).powf(1.0 / alpha));
        } else if g1 < 0.0 {
            y = y.min(c0 / (-2.0 * g1));
        }
        for _ in 0..100 {
            let ya = y.powf(alpha);
            let psi = y * ya / ap1 - g1 * y - 0.5 * c0;
            let slope = ya - g1;
            if !(psi > 0.0 && slope > 0.0) {
                break;
            }
            let next = y - psi / slope;
            if next.is_nan() || next >= y || next <= 0.0 {
                break;
            }
            y = next;
        }
        Some(Load {
            alpha,
            s,
            c0,
            g1,
            y_max: y,
        })
    }

    /// `F` at the node whose distances to `0` and to `y_max` are `dl` and `dr`, each
    /// written from its nearer end so that the simple zero at `y_max` keeps its digits:
    /// `F(y_M − d) = −2g₁d + 2y_M^{α+1}/(α+1) · (1 − (1 − d/y_M)^{α+1})`.
    fn f_at(&self, dl: f64, dr: f64) -> f64 {
        let ap1 = self.alpha + 1.0;
        if dl <= dr {
            self.c0 + 2.0 * self.g1 * dl - 2.0 * dl.powf(ap1) / ap1
        } else {
            let ym = self.y_max;
            -2.0 * self.g1 * dr - 2.0 * ym.powf(ap1) / ap1 * (ap1 * (-dr / ym).ln_1p()).exp_m1()
        }
    }

    /// `(J, M)` = `(∫ F^{1/2} y^{β−1} dy, ∫ F^{−1/2} y^{β−1} dy)` over `[0, y_max]`, so
    /// that `I₀ = 2 s^{β+(α+1)/2} J` and `Q₀ = s^{β−(α+1)/2} M` (eqs 39–40 with `u = s·y`;
    /// compare eqs 49–51). Both ends are singular (`y^{β−1}` at 0, `F^{±1/2}` with a
    /// simple zero of `F` at `y_max`): the double-exponential (tanh–sinh) substitution
    /// `y = y_M/2·(1 + tanh(π/2 sinh t))` makes both integrands decay double
    /// exponentially in `t`, and a fixed trapezoidal rule in `t` (step 1/32 on
    /// `|t| ≤ 4.5`, 289 nodes) is then accurate to rounding.
    fn integrals(&self, beta: f64) -> (f64, f64) {
        const STEP: f64 = 1.0 / 32.0;
        const NODES: u32 = 144;
        let half = 0.5 * self.y_max;
        if !(half > 0.0 && half.is_finite()) {
            return (0.0, 0.0);
        }
        let mut sum_j = 0.0;
        let mut sum_m = 0.0;
        let mut add = |dl: f64, dr: f64, weight: f64| {
            if dl <= 0.0 || dr <= 0.0 || weight == 0.0 {
                return;
            }
            let f = self.f_at(dl, dr);
            if f.is_nan() || f <= 0.0 {
                return;
            }
            let pw = dl.powf(beta - 1.0);
            let sf = f.sqrt();
            sum_j += weight * sf * pw;
            sum_m += weight * pw / sf;
        };
        add(half, half, FRAC_PI_2);
        for k in 1..=NODES {
            let t = k as f64 * STEP;
            let v = FRAC_PI_2 * t.sinh();
            // 1 − tanh(v) = 2/(e^{2v} + 1), exact however large v.
            let one_minus = 2.0 / ((2.0 * v).exp() + 1.0);
            let cv = v.cosh();
            let weight = FRAC_PI_2 * t.cosh() / (cv * cv);
            let near = half * one_minus;
            let far = half * (2.0 - one_minus);
            add(far, near, weight);
            add(near, far, weight);
        }
        (sum_j * STEP * half, sum_m * STEP * half)
    }
}

/// `x·y`, but `0` when either factor is `0` (so `0·∞ = 0`).
fn mul0(x: f64, y: f64) -> f64 {
    if x == 0.0 || y == 0.0 { 0.0 } else { x * y }
}

/// Euler's Beta function `B(x, y) = Γ(x)Γ(y)/Γ(x + y)`, `x, y > 0`.
fn beta_fn(x: f64, y: f64) -> f64 {
    (ln_gamma(x) + ln_gamma(y) - ln_gamma(x + y)).exp()
}

/// `ln Γ(x)` for `x > 0`: Lanczos (g = 7, 9 terms, relative error ~1e-15), with the
/// reflection formula below 1/2.
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const P: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Γ(x)Γ(1 − x) = π / sin(πx).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = P[0];
    for (i, p) in P.iter().enumerate().skip(1) {
        a += p / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
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
                let (i, q) = (i0_beta(alpha, beta, 0.0), q0_beta(alpha, beta, 0.0));
                let (ic, qc) = (i0_closed(alpha, beta), q0_closed(alpha, beta));
                assert!(
                    (i / ic - 1.0).abs() < 1e-13,
                    "I0 α={alpha} β={beta}: {i} {ic}"
                );
                assert!(
                    (q / qc - 1.0).abs() < 1e-13,
                    "Q0 α={alpha} β={beta}: {q} {qc}"
                );
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
                    let (ib, qb) = brute(alpha, beta, g, 200_000);
                    let (i, q) = (i0_beta(alpha, beta, g), q0_beta(alpha, beta, g));
                    assert!(
                        (i / ib - 1.0).abs() < 1e-9,
                        "I0 α={alpha} β={beta} g={g}: {i} {ib}"
                    );
                    assert!(
                        (q / qb - 1.0).abs() < 1e-9,
                        "Q0 α={alpha} β={beta} g={g}: {q} {qb}"
                    );
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
    fn scaled_variables() {
        // The notes' case m = 0.01, k = 1e7, μ = 0.5, α = 1.5, g = 9.81, v_in = 1e-3:
        // γ = 0.5·1e-3/2.5 = 2e-4 and g̃ = 1e-9^{0.4}·1e-3^{−1.2}·9.81 = 9.81.
        let (gamma, g) = scaled(1e7, 0.5, 1.5, 0.01, 1e-3, 9.81);
        assert!((gamma - 2e-4).abs() < 1e-18);
        assert!((g - 9.81).abs() < 1e-12, "{g}");
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
}
