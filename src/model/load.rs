//! Gravity during contact (seed 001): `m dv/dt = −k x^α (1 + μ v) + m g`.
//!
//! With a constant load the exit speed depends on `v_in` through two numbers only. In
//! seed 001's scaling (its eqs 2–4, Hunt–Crossley being its case `β = α + 1`), with
//! `x = δ u`, `t = T τ`, `δ^{α+1} = m v_in²/k` and `T = δ/v_in`:
//!
//! `u'' + γ (u^β)' + u^α = g̃`, `u(0) = 0`, `u'(0) = 1`,
//!
//! `γ = μ v_in/(α + 1)` and `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g`. The restitution is
//! `e = −u'(T_f)` at the first return to `u = 0`, or 0 if the mass never returns: it
//! sticks and settles at `x̄ = (m g/k)^{1/α}`.
//!
//! No closed form exists. [`exit`] integrates seed 001's eq (6) (the generalised
//! velocity `w = u' + γ u^β`, in which the right-hand side is smooth) once, at onset,
//! with an embedded Dormand–Prince 5(4) pair under step control, and locates the
//! return to `u = 0` by Newton on the step length. Its work is bounded by
//! [`MAX_STEPS`]. The scaled energy `E = ½ u'² + u^{β}/β − g̃ u` only decreases
//! (`E' = −γ β u^α u'²`), and `E(0) = ½ u'²` at the wall: once `E < 0` the mass can
//! never leave, which ends the integration of a sticking contact early.

use super::series::pow_alpha;

/// The load-aware outcome of one contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadExit {
    /// Restitution `e = −v_out/v_in ∈ [0, 1]`; 0 when the mass sticks.
    pub e: f64,
    /// True when the mass never leaves the wall.
    pub sticks: bool,
    /// Contact time, s (for a sticking contact: when its energy fell below 0).
    pub tau: f64,
    /// False when the integration ran out of steps (the result is then the last
    /// state's best guess).
    pub resolved: bool,
    /// Steps taken (accepted and rejected), for the onset cost.
    pub steps: u32,
}

impl LoadExit {
    /// What degenerate inputs give: the elastic exit, flagged unresolved.
    pub const DEGENERATE: LoadExit = LoadExit {
        e: 1.0,
        sticks: false,
        tau: 0.0,
        resolved: false,
        steps: 0,
    };
}

/// Seed 001's dimensionless damping `γ` and load `g̃` (its eqs 3–4, `β = α + 1`,
/// `γ₀ = μ/(α+1)`): `γ = μ v_in/(α+1)` (the powers of `v_in` and `k/m` reduce to 1) and
/// `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g`. An external force `F` would enter as
/// `g + F/m`.
pub fn scaled(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> (f64, f64) {
    let gamma = mu * v_in / (alpha + 1.0);
    let g_tilde =
        (mass / k).powf(1.0 / (alpha + 1.0)) * v_in.powf(-2.0 * alpha / (alpha + 1.0)) * g;
    (gamma, g_tilde)
}

/// The time scale `T = δ/v_in` (s) of the scaling, `δ = (m v_in²/k)^{1/(α+1)}`.
pub fn time_scale(k: f64, alpha: f64, mass: f64, v_in: f64) -> f64 {
    (mass * v_in * v_in / k).powf(1.0 / (alpha + 1.0)) / v_in
}

/// The rest position under the load, `x̄ = (m g/k)^{1/α}` (m).
pub fn x_rest(k: f64, alpha: f64, mass: f64, g: f64) -> f64 {
    (mass * g / k).powf(1.0 / alpha)
}

/// Most accepted and rejected steps of one [`exit`] (about 25 µs a hundred steps): a
/// contact of the default patch takes 100–180, a sticking one about 50.
pub const MAX_STEPS: u32 = 3000;
/// Step control tolerance on the scaled state (of order 1): the restitution comes out
/// within about 5e-9 (against 1e-12: the notes' three cases move by 1.6–4.7e-9).
const TOL: f64 = 1e-10;

/// The exact load-aware exit of a contact at `v_in` under gravity `g` (m/s², ≥ 0).
/// Degenerate inputs give the elastic `e = 1`, never a panic.
pub fn exit(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> LoadExit {
    let ok = [k, alpha, mass, v_in]
        .iter()
        .all(|p| p.is_finite() && *p > 0.0)
        && mu.is_finite()
        && mu >= 0.0
        && g.is_finite()
        && g >= 0.0;
    if !ok {
        return LoadExit::DEGENERATE;
    }
    let (gamma, g_tilde) = scaled(k, mu, alpha, mass, v_in, g);
    let s = scaled_exit(alpha, gamma, g_tilde);
    let tau = s.tau * time_scale(k, alpha, mass, v_in);
    if s.resolved {
        LoadExit { tau, ..s }
    } else {
        // Out of steps: a creeping exit of a heavily damped contact (γ in the
        // hundreds) or a long orbit in a deep, nearly undamped well. Both leave as
        // without the load to within the load's small effect: eq (6)'s exact exit.
        let e = -super::vout::v_out_exact(mu, v_in) / v_in;
        LoadExit {
            e: if e.is_finite() {
                e.clamp(0.0, 1.0)
            } else {
                1.0
            },
            tau,
            ..s
        }
    }
}

/// [`exit`] in seed 001's variables: `tau` is in units of `T`.
pub fn scaled_exit(alpha: f64, gamma: f64, g_tilde: f64) -> LoadExit {
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

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;

/// Damping ratio of the settling of a trapped mass: a documented rule, not seed 001's
/// physics. Once the load-aware energy is negative the mass can never leave; left to
/// the contact's own damping it would rock in the well at `ω_eq` and decay at only
/// `μ g/2` (seconds at the defaults, days at μ = 1e-4, g = 0.1). A drag giving this
/// ratio at the rest point settles it within about `28/ω_eq` to [`REST_FORCE`].
pub const SETTLE_ZETA: f64 = 0.5;
/// The settling is over, and the mass put at rest at `x̄`, when the amplitude of the
/// force about the static load is below this fraction of `m g`: at most 120 dB under
/// the load, which itself is below any strike's peak force.
pub const REST_FORCE: f64 = 1e-6;

/// The per-contact state of gravity during contact, kept by `Impact`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loaded {
    /// Gravity, m/s² (0: the paper's contact, all of this inert).
    pub g: f64,
    /// The load `m g`, N.
    pub force: f64,
    /// The settling drag (N·s/m): 0 until the mass is trapped.
    pub drag: f64,
    /// The exact outcome, solved at onset.
    pub exit: Option<LoadExit>,
    /// The load-aware energy went negative: the mass can no longer leave.
    pub trapped: bool,
    /// Settled: the contact ended at rest at `x̄`.
    pub rested: bool,
    pub x_rest: f64,
    /// Stiffness at rest `k α x̄^{α−1}`, N/m.
    k_eq: f64,
    /// The Hamiltonian at rest, `H(x̄, 0)`: the bottom of the well.
    h_rest: f64,
    /// `H(0) = ½ m v_in²`.
    h0: f64,
    /// Energy dissipated so far (`∫ (μ k x^α + drag) v² dt`), and its last rate.
    dissipated: f64,
    rate: f64,
    /// Energy the exact contact dissipates (the scale of the drift).
    delta_h: f64,
    /// Largest `|H + D − H(0)|` so far, relative to `delta_h`.
    pub max_dev: f64,
}

impl Loaded {
    pub fn new(c: &super::contact::Contact, v_in: f64, g: f64, exit: LoadExit) -> Self {
        let x_rest = x_rest(c.k, c.alpha, c.mass, g);
        let h0 = 0.5 * c.mass * v_in * v_in;
        let v_out = exit.e * v_in;
        let mut l = Self {
            g,
            force: c.mass * g,
            exit: Some(exit),
            x_rest,
            k_eq: c.k * c.alpha * x_rest.powf(c.alpha - 1.0),
            h0,
            // What the contact dissipates: down to ½ m v_out², or for a mass that
            // sticks, to the bottom of the well, H(x̄) = −α/(α+1) m g x̄.
            delta_h: if exit.sticks {
                h0 + c.alpha / (c.alpha + 1.0) * c.mass * g * x_rest
            } else {
                h0 - 0.5 * c.mass * v_out * v_out
            }
            .max(f64::MIN_POSITIVE),
            ..Self::default()
        };
        let rest_pow = if x_rest > 0.0 {
            x_rest.powf(c.alpha)
        } else {
            0.0
        };
        l.h_rest = l.hamiltonian(c, x_rest, rest_pow, 0.0);
        l
    }

    /// The load-aware Hamiltonian `H = ½ m v² + k x^{α+1}/(α+1) − m g x` (seed 001's
    /// energy in physical units), from `x^α` at hand.
    #[inline]
    pub fn hamiltonian(&self, c: &super::contact::Contact, x: f64, x_pow: f64, v: f64) -> f64 {
        // The load's potential holds on both sides of the wall (a step that ends past
        // it has flown the rest of its length); the spring's only in contact.
        let spring = if x > 0.0 {
            c.k * x * x_pow / (c.alpha + 1.0)
        } else {
            0.0
        };
        0.5 * c.mass * v * v + spring - self.force * x
    }

    /// After a step of length `h` to `(x, v)`: the dissipated energy (trapezoid), the
    /// drift of `H + D` and the trap test. Returns true when the mass just got trapped.
    #[inline]
    pub fn observe(
        &mut self,
        c: &super::contact::Contact,
        h: f64,
        x: f64,
        x_pow: f64,
        v: f64,
    ) -> bool {
        let rate = (c.mu * c.k * x_pow + self.drag) * v * v;
        self.dissipated += 0.5 * h * (rate + self.rate);
        self.rate = rate;
        let hx = self.hamiltonian(c, x, x_pow, v);
        let dev = (hx + self.dissipated - self.h0).abs() / self.delta_h;
        if dev > self.max_dev {
            self.max_dev = dev;
        }
        if !self.trapped && hx < 0.0 && x > 0.0 {
            self.trapped = true;
            self.drag = 2.0 * SETTLE_ZETA * (c.mass * self.k_eq).sqrt();
            return true;
        }
        false
    }

    /// Seconds the settling of a trapped mass may take, with margin.
    pub fn settle_bound(&self, c: &super::contact::Contact) -> f64 {
        let omega = (self.k_eq / c.mass).sqrt();
        4.0 * (1.0 / REST_FORCE).ln() / (SETTLE_ZETA * omega)
    }

    /// True once a trapped mass rocks with a force amplitude under [`REST_FORCE`]·`m g`.
    pub fn settled(&self, c: &super::contact::Contact, x: f64, v: f64) -> bool {
        if !self.trapped {
            return false;
        }
        let x_pow = if x > 0.0 { x.powf(c.alpha) } else { 0.0 };
        let e = self.hamiltonian(c, x, x_pow, v) - self.h_rest;
        let amp = (2.0 * e.max(0.0) * self.k_eq).sqrt();
        amp <= REST_FORCE * self.force
    }
}
