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
//! with `γ = μ v_in/(α + 1)` and `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g` (`load::scaled`).
//!
//! Everything here is for `β = α + 1`; the integrals are written for a general `β`
//! internally so the tests can check them against the paper's Beta-function closed forms
//! (eqs 20, 43, 44) for any `(α, β)`, Kuwabara–Kono's `α = β = 3/2` included.
//!
//! Domain: Assumption 1 (`α ≥ 1`); `α` is clamped to `[1, ALPHA_MAX]`, `γ` to `γ ≥ 0`.
//! `g̃` may have either sign (a net load away from the wall gives `g̃ < 0`; the paper
//! computes only `g̃ ≥ 0`). Any non-finite input gives NaN. No allocation, and every
//! function has a fixed cost: a bounded Newton for `u_M` and one fixed tanh–sinh rule
//! (81 nodes for [`restitution_prop1`], which runs at a contact's onset; 289 for the
//! general-`β` integrals the tests check against the Beta-function closed forms).

use super::tau::{TANH_SINH_STEP, tanh_sinh_nodes};
use std::f64::consts::{FRAC_PI_2, PI};

/// Largest `α` taken; larger values are clamped (keeps `u^{α+1}` finite everywhere).
pub const ALPHA_MAX: f64 = 16.0;

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
    restitution_on(alpha, gamma, g_tilde, Load::integrals_hc)
}

/// [`restitution_prop1`] with its two integrals on the fine 289-node rule of any `β`:
/// the reference the onset's 81-node rule is tested and timed against.
pub fn restitution_prop1_fine(alpha: f64, gamma: f64, g_tilde: f64) -> f64 {
    restitution_on(alpha, gamma, g_tilde, |l| l.integrals(l.alpha + 1.0))
}

/// Eqs (36)–(38) with `(J, M)` from `integrals`.
fn restitution_on(
    alpha: f64,
    gamma: f64,
    g_tilde: f64,
    integrals: impl Fn(&Load) -> (f64, f64),
) -> f64 {
    if !gamma.is_finite() {
        return f64::NAN;
    }
    let Some(load) = Load::new(alpha, g_tilde) else {
        return f64::NAN;
    };
    let gamma = gamma.max(0.0);
    let (j, m) = integrals(&load);
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
    /// `|t| ≤ 4.5`, 289 nodes) is then accurate to rounding for any `β ≥ 1`, including
    /// `β = 1`, where a large load makes `F^{−1/2}` singular at `y = 0` too (`c₀` tiny).
    /// Hunt–Crossley's `β = α + 1` takes [`integrals_hc`](Self::integrals_hc).
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

    /// [`integrals`](Self::integrals) for Hunt–Crossley's `β = α + 1`, at a contact's
    /// onset. There the weight `y^{β−1} = y^α` (`α ≥ 1`) vanishes at `y = 0`, so only the
    /// simple zero of `F` at `y_max` is singular (`F^{±1/2}`), and the same tanh–sinh rule
    /// needs a step of 1/10 on `|t| ≤ 4` (81 nodes instead of 289): within 6e-14 of the
    /// fine rule for every `α` in `[1, 16]` and `|g̃|` from 1e-12 to 1e12 (`prop1_tests`).
    /// Each node shares one power between `F` and the weight (`y^{α+1} = y·y^α`) and takes
    /// its abscissa from running products instead of `sinh`, `cosh` and two `exp`.
    fn integrals_hc(&self) -> (f64, f64) {
        let half = 0.5 * self.y_max;
        if !(half > 0.0 && half.is_finite()) {
            return (0.0, 0.0);
        }
        let ap1 = self.alpha + 1.0;
        let ym = self.y_max;
        // y_M^{α+1}/(α+1), the scale of F's expansion about y_M (see `f_at`).
        let top = 2.0 * ym.powf(ap1) / ap1;
        let mut sum_j = 0.0;
        let mut sum_m = 0.0;
        let mut add = |dl: f64, dr: f64, weight: f64| {
            if dl <= 0.0 || dr <= 0.0 || weight == 0.0 {
                return;
            }
            let pw = dl.powf(self.alpha);
            let f = if dl <= dr {
                self.c0 + 2.0 * self.g1 * dl - 2.0 * dl * pw / ap1
            } else {
                -2.0 * self.g1 * dr - top * (ap1 * (-dr / ym).ln_1p()).exp_m1()
            };
            if f.is_nan() || f <= 0.0 {
                return;
            }
            let sf = f.sqrt();
            sum_j += weight * sf * pw;
            sum_m += weight * pw / sf;
        };
        add(half, half, FRAC_PI_2);
        tanh_sinh_nodes(40, |one_minus, weight| {
            let near = half * one_minus;
            let far = half * (2.0 - one_minus);
            add(far, near, weight);
            add(near, far, weight);
        });
        (sum_j * TANH_SINH_STEP * half, sum_m * TANH_SINH_STEP * half)
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
#[path = "prop1_tests.rs"]
mod tests;
