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
//! with the embedded Dormand–Prince 8(5,3) pair (DOP853) under step control, and
//! locates the return to `u = 0` by Newton on the step length. At the tolerance the
//! exit needs it takes a third to a fifth of the steps the 5(4) pair took (33–40 on the
//! notes' three cases instead of 115–219) at under twice the work a step, and its work
//! is bounded by [`MAX_STEPS`]. The scaled energy `E = ½ u'² + u^{β}/β − g̃ u` only
//! decreases (`E' = −γ β u^α u'²`), and `E(0) = ½ u'²` at the wall: once `E < 0` the
//! mass can never leave, which ends the integration of a sticking contact early.
//!
//! A heavily damped contact (`μ v_in = (α + 1) γ` in the tens and hundreds) stops within
//! a short depth and creeps back out on a slow manifold, the damping balancing the
//! spring and the load, which its velocity relaxes onto at the rate `μ v_in u^α`: stiff
//! for any explicit method, whose steps that rate bounds (190 DOP853 steps at
//! `μ v_in = 500`). There the creep is handed to an exponential integrator in the
//! damping phase `φ` (`dφ = μ v_in u^α dt`), where that relaxation is linear with unit
//! rate and is taken exactly (`Scaled::creep`); DOP853 takes the contact back near
//! the wall, where the exit is. A creep of 200 to 500 in `μ v_in` then takes 45–80
//! steps' work instead of 120–260.

use super::alpha_pow::AlphaPow;

mod creep;
mod dop853;
mod loaded;

use creep::{CREEP_ENTER, CREEP_ENTRIES};
pub use loaded::{Loaded, REST_FORCE, SETTLE_ZETA};

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

    /// A mass that sticks, its energy negative at `tau` (in the caller's units),
    /// after `steps` steps.
    const fn stuck(tau: f64, steps: u32) -> LoadExit {
        LoadExit {
            e: 0.0,
            sticks: true,
            tau,
            resolved: true,
            steps,
        }
    }
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

/// Most accepted and rejected steps of one [`exit`], a creep's steps included (each
/// about the work of one): over the full ranges a contact takes 10–80 (33 at the
/// median). Past this the exit is eq (6)'s (see [`exit`]).
pub const MAX_STEPS: u32 = 400;
/// Step control tolerance on the scaled state (of order 1): the restitution comes out
/// within about 4e-8 of the reference integration at 1e-13 over the full ranges
/// (`tests/core_seeds.rs` asks 1e-6), as the former Dormand–Prince 5(4) at 1e-10 did
/// (3e-8), and within 5e-8 of that solver (`tests/onset_reference.rs`). At 1e-10
/// DOP853's estimate let a few steps through that cost 2e-7. A heavily damped contact
/// leaves at about `1/(μ v_in)` of `v_in` (eq 6 for large `μ v_in`): its tolerance is
/// widened in proportion from `μ v_in = 10` on ([`Scaled::tolerance`]).
const TOL: f64 = 5e-11;

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
        pow: AlphaPow::new(alpha),
    };
    sys.integrate()
}

#[derive(Clone, Copy)]
struct Scaled {
    alpha: f64,
    beta: f64,
    gamma: f64,
    g_tilde: f64,
    /// `x^α`, the one power each evaluation takes.
    pow: AlphaPow,
}

/// `(u, w)`.
type State = [f64; 2];

impl Scaled {
    /// The right-hand side of seed 001's eq (6), `(u', w') = (w − γ u^β, g̃ − u^α)`, and
    /// `u^α`, the one power each evaluation takes. Past the wall (`u < 0`, only inside
    /// the step that crosses it) the powers are extended as odd functions: nothing after
    /// the crossing is kept, and the odd extension keeps the right-hand side as smooth
    /// across `u = 0` as `u^α` allows (analytic for α = 1 and 3), where cutting the
    /// force to 0 put a kink in the crossing step that its error estimate rejected
    /// down to tiny steps.
    #[inline(always)]
    fn rhs(&self, y: State) -> (State, f64) {
        let u = y[0];
        let p = if u != 0.0 { self.power(u.abs()) } else { 0.0 };
        let ua = if u > 0.0 { p } else { -p };
        ([y[1] - self.gamma * p * u, self.g_tilde - ua], ua)
    }

    /// `x^α` for `x > 0`: exact and cheap for α = 1, 1.5, 2 and 3, from per-α tables
    /// otherwise (`alpha_pow`: `exp(α ln x)` took about 26 ns, twelve times a step, two
    /// thirds of a step's cost).
    #[inline(always)]
    fn power(&self, x: f64) -> f64 {
        self.pow.pow(x)
    }

    /// The scaled energy `E = ½ u'² + u^β/β − g̃ u` from `u'` and `u^α` at hand.
    #[inline(always)]
    fn energy(&self, u: f64, du: f64, u_pow: f64) -> f64 {
        let u = u.max(0.0);
        0.5 * du * du + u * u_pow / self.beta - self.g_tilde * u
    }

    /// The absolute tolerance of a step: [`TOL`], widened by `μ v_in / 10` (`μ v_in =
    /// (α + 1) γ`) where that exceeds 1, in proportion to the exit speed's own scale.
    #[inline(always)]
    fn tolerance(&self) -> f64 {
        TOL * (0.1 * self.beta * self.gamma).max(1.0)
    }

    /// The first step: a fraction of the unloaded contact's time scale, or of the
    /// load's (u grows like τ and the load takes over where g̃ τ ~ 1).
    fn first_step(&self) -> f64 {
        0.01f64
            .min(0.1 / self.g_tilde.max(1e-300))
            .min(0.1 / self.gamma.max(1e-300))
    }

    fn integrate(&self) -> LoadExit {
        let bad = |p: f64| !p.is_finite();
        if bad(self.alpha) || self.alpha <= 0.0 || bad(self.gamma) || bad(self.g_tilde) {
            return LoadExit::DEGENERATE;
        }
        let mut y: State = [0.0, 1.0];
        let mut f = self.rhs(y).0;
        let mut t = 0.0;
        let mut h = self.first_step();
        // A step right after a rejected one does not grow (Hairer's rule: the rejected
        // estimate already said how far the solution stays smooth).
        let mut rejected = false;
        let mut creeps = 0;
        let mut steps = 0;
        while steps < MAX_STEPS {
            steps += 1;
            // Moving out, a step may go at most twice the distance to the wall: beyond,
            // the load (which acts out of contact too) could carry a long step out
            // through the wall and back in unseen.
            let du = f[0];
            if du < 0.0 && y[0] > 0.0 {
                h = h.min(2.0 * y[0] / -du);
            }
            let s = self.step(y, f, h);
            if s.err.is_nan() || s.err > 1.0 || !s.y[0].is_finite() || !s.y[1].is_finite() {
                let shrink = if s.err.is_finite() {
                    (0.9 * s.err.powf(-0.125)).max(0.2)
                } else {
                    0.1
                };
                h *= shrink;
                rejected = true;
                continue;
            }
            if s.y[0] <= 0.0 && y[0] > 0.0 && s.f[0] >= 0.0 {
                // Out through the wall and back in within the step (a strong load
                // turns a slow exit round faster than the limit above allows for): the
                // exit was inside it, so a shorter step has to see it.
                h *= 0.5;
                rejected = true;
                continue;
            }
            if s.y[0] <= 0.0 && t + h > 0.0 && s.f[0] < 0.0 {
                // Returned to the wall within this step.
                return LoadExit {
                    steps,
                    ..self.locate(y, f, t, h, &s)
                };
            }
            t += h;
            y = s.y;
            f = s.f;
            if self.energy(y[0], f[0], s.u_pow) < 0.0 {
                return LoadExit::stuck(t, steps);
            }
            let grow = if s.err > 0.0 {
                0.9 * s.err.powf(-0.125)
            } else {
                6.0
            };
            h *= grow.clamp(0.2, if rejected { 1.0 } else { 6.0 });
            rejected = false;
            if creeps < CREEP_ENTRIES && self.creep_ahead(y[0], f[0], s.u_pow) > CREEP_ENTER {
                creeps += 1;
                match self.creep_out(y, f[0], t, steps, &mut h) {
                    Ok(r) => (y, f, t, steps) = (r.y, r.f, r.t, r.steps),
                    Err(exit) => return exit,
                }
            }
        }
        LoadExit {
            e: (-f[0]).clamp(0.0, 1.0),
            sticks: false,
            tau: t,
            resolved: false,
            steps: MAX_STEPS,
        }
    }
}

#[cfg(test)]
mod tests;
