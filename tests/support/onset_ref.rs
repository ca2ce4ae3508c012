//! The onset's computations as they were before each was bounded, kept as references
//! for `tests/onset_reference.rs` and `benches/onset.rs`:
//!
//! - [`scaled_exit_dp5`]: the load-aware exit (`model::load::scaled_exit`) by adaptive
//!   Dormand–Prince 5(4) on seed 001's eq (6) at an absolute tolerance of 1e-10, at
//!   most 3000 steps (about 0.5 ms);
//! - [`restitution_prop1_289`]: Proposition 1 (`model::prop1::restitution_prop1`) with
//!   its two integrals on the 289-node tanh–sinh rule.
#![allow(dead_code)]

use std::f64::consts::FRAC_PI_2;

use rebound::model::load::LoadExit;
use rebound::model::series::pow_alpha;

/// Most accepted and rejected steps.
pub const MAX_STEPS: u32 = 3000;
/// Step control tolerance on the scaled state.
const TOL: f64 = 1e-10;

/// `model::load::scaled_exit` by the former solver.
pub fn scaled_exit_dp5(alpha: f64, gamma: f64, g_tilde: f64) -> LoadExit {
    let sys = Scaled {
        alpha,
        beta: alpha + 1.0,
        gamma,
        g_tilde,
    };
    sys.integrate()
}

#[derive(Clone, Copy)]
struct Scaled {
    alpha: f64,
    beta: f64,
    gamma: f64,
    g_tilde: f64,
}

/// `(u, w)`.
type State = [f64; 2];

// Dormand–Prince 5(4) coefficients.
const C: [f64; 7] = [0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0];
const A: [[f64; 6]; 7] = [
    [0.0; 6],
    [0.2, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
    [
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
        0.0,
        0.0,
    ],
    [
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
        0.0,
    ],
    [
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
    ],
];
/// Fifth-order weights are `A[6]`; these are the fourth-order ones.
const B4: [f64; 7] = [
    5179.0 / 57600.0,
    0.0,
    7571.0 / 16695.0,
    393.0 / 640.0,
    -92097.0 / 339200.0,
    187.0 / 2100.0,
    1.0 / 40.0,
];

impl Scaled {
    #[inline]
    fn rhs(&self, y: State) -> State {
        let u = y[0].max(0.0);
        let ua = if u > 0.0 {
            pow_alpha(u, self.alpha)
        } else {
            0.0
        };
        [y[1] - self.gamma * ua * u, self.g_tilde - ua]
    }

    /// `u' = w − γ u^β`.
    fn du(&self, y: State) -> f64 {
        let u = y[0].max(0.0);
        y[1] - self.gamma * u.powf(self.beta)
    }

    /// The scaled energy `E = ½ u'² + u^β/β − g̃ u`.
    fn energy(&self, y: State) -> f64 {
        let u = y[0].max(0.0);
        let du = self.du(y);
        0.5 * du * du + u.powf(self.beta) / self.beta - self.g_tilde * u
    }

    /// One Dormand–Prince step of length `h`: the fifth-order state and an error
    /// estimate (the difference to the fourth-order one).
    fn step(&self, y: State, h: f64) -> (State, f64) {
        let mut k = [[0.0; 2]; 7];
        k[0] = self.rhs(y);
        for i in 1..7 {
            let mut yi = y;
            for (j, kj) in k.iter().enumerate().take(i) {
                yi[0] += h * A[i][j] * kj[0];
                yi[1] += h * A[i][j] * kj[1];
            }
            let _ = C[i];
            k[i] = self.rhs(yi);
        }
        let mut y5 = y;
        let mut err = [0.0; 2];
        for (i, ki) in k.iter().enumerate() {
            let b5 = if i < 6 { A[6][i] } else { 0.0 };
            y5[0] += h * b5 * ki[0];
            y5[1] += h * b5 * ki[1];
            err[0] += h * (b5 - B4[i]) * ki[0];
            err[1] += h * (b5 - B4[i]) * ki[1];
        }
        let scale = |_: usize| TOL;
        let e = (err[0] / scale(0)).abs().max((err[1] / scale(1)).abs());
        (y5, e)
    }

    fn integrate(&self) -> LoadExit {
        let bad = |p: f64| !p.is_finite();
        if bad(self.alpha) || self.alpha <= 0.0 || bad(self.gamma) || bad(self.g_tilde) {
            return LoadExit::DEGENERATE;
        }
        let mut y: State = [0.0, 1.0];
        let mut t = 0.0;
        // The first step: a fraction of the unloaded contact's time scale, or of the
        // load's (u grows like τ and the load takes over where g̃ τ ~ 1).
        let mut h = 0.01f64
            .min(0.1 / self.g_tilde.max(1e-300))
            .min(0.1 / self.gamma.max(1e-300));
        for steps in 1..=MAX_STEPS {
            // Moving out, a step may go at most twice the distance to the wall: beyond,
            // the load (which acts out of contact too) could carry a long step out
            // through the wall and back in unseen.
            let du = self.du(y);
            if du < 0.0 && y[0] > 0.0 {
                h = h.min(2.0 * y[0] / -du);
            }
            let (y1, err) = self.step(y, h);
            if err.is_nan() || err > 1.0 || !y1[0].is_finite() || !y1[1].is_finite() {
                let shrink = if err.is_finite() {
                    (0.9 * err.powf(-0.2)).max(0.1)
                } else {
                    0.1
                };
                h *= shrink;
                continue;
            }
            if y1[0] <= 0.0 && t + h > 0.0 && self.du(y1) < 0.0 {
                // Returned to the wall within this step: Newton on the step length.
                return LoadExit {
                    steps,
                    ..self.locate(y, t, h)
                };
            }
            t += h;
            y = y1;
            if self.energy(y) < 0.0 {
                return LoadExit {
                    e: 0.0,
                    sticks: true,
                    tau: t,
                    resolved: true,
                    steps,
                };
            }
            let grow = if err > 0.0 { 0.9 * err.powf(-0.2) } else { 5.0 };
            h *= grow.clamp(0.2, 5.0);
        }
        LoadExit {
            e: (-self.du(y)).clamp(0.0, 1.0),
            sticks: false,
            tau: t,
            resolved: false,
            steps: MAX_STEPS,
        }
    }

    /// The return to `u = 0` inside the step of length `h` from `(y, t)`: Newton on
    /// `u(s) = 0`, each `u(s)` a single step of length `s` from `y` (the step is inside
    /// the tolerance), `u'(s)` from the state.
    fn locate(&self, y: State, t: f64, h: f64) -> LoadExit {
        // Linear start: u is nearly linear near the wall, where the force vanishes.
        let (y_end, _) = self.step(y, h);
        let mut s = h * y[0] / (y[0] - y_end[0]);
        let mut ys = y_end;
        for _ in 0..8 {
            ys = self.step(y, s).0;
            let du = self.du(ys);
            if du >= 0.0 {
                break;
            }
            let ds = -ys[0] / du;
            s = (s + ds).clamp(0.0, h);
            if ds.abs() <= 1e-15 * s.max(1e-300) {
                break;
            }
        }
        LoadExit {
            e: (-self.du(ys)).clamp(0.0, 1.0),
            sticks: false,
            tau: t + s,
            resolved: true,
            steps: 0,
        }
    }
}

/// Proposition 1 (eqs 36–38) as `model::prop1::restitution_prop1` computed it before:
/// the same formula, `(J, M)` on the 289-node rule.
pub fn restitution_prop1_289(alpha: f64, gamma: f64, g_tilde: f64) -> f64 {
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

const ALPHA_MAX: f64 = 16.0;

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

fn mul0(x: f64, y: f64) -> f64 {
    if x == 0.0 || y == 0.0 { 0.0 } else { x * y }
}
