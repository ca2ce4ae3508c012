//! The exit's integration: DOP853 on seed 001's eq (6) (`dop853`), handing a heavily
//! damped creep to the exponential integrator (`creep`).

use super::outcome::{LoadExit, scaled, time_scale};
use crate::model::alpha_pow::AlphaPow;

/// The stiffness of the creep ahead ([`Scaled::creep_ahead`]) at which DOP853 hands it
/// over, and at which it takes it back (near the wall, where the slow manifold stops
/// attracting and the exit itself is resolved).
pub(super) const CREEP_ENTER: f64 = 50.0;
pub(super) const CREEP_ENTRIES: u32 = 4;

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
        let e = -crate::model::vout::v_out_exact(mu, v_in) / v_in;
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
pub(super) struct Scaled {
    pub(super) alpha: f64,
    pub(super) beta: f64,
    pub(super) gamma: f64,
    pub(super) g_tilde: f64,
    /// `x^α`, the one power each evaluation takes.
    pub(super) pow: AlphaPow,
}

/// `(u, w)`.
pub(super) type State = [f64; 2];

impl Scaled {
    /// The right-hand side of seed 001's eq (6), `(u', w') = (w − γ u^β, g̃ − u^α)`, and
    /// `u^α`, the one power each evaluation takes. Past the wall (`u < 0`, only inside
    /// the step that crosses it) the powers are extended as odd functions: nothing after
    /// the crossing is kept, and the odd extension keeps the right-hand side as smooth
    /// across `u = 0` as `u^α` allows (analytic for α = 1 and 3), where cutting the
    /// force to 0 put a kink in the crossing step that its error estimate rejected
    /// down to tiny steps.
    #[inline(always)]
    pub(super) fn rhs(&self, y: State) -> (State, f64) {
        let u = y[0];
        let p = if u != 0.0 { self.power(u.abs()) } else { 0.0 };
        let ua = if u > 0.0 { p } else { -p };
        ([y[1] - self.gamma * p * u, self.g_tilde - ua], ua)
    }

    /// `x^α` for `x > 0`: exact and cheap for α = 1, 1.5, 2 and 3, from per-α tables
    /// otherwise (`alpha_pow`: `exp(α ln x)` took about 26 ns, twelve times a step, two
    /// thirds of a step's cost).
    #[inline(always)]
    pub(super) fn power(&self, x: f64) -> f64 {
        self.pow.pow(x)
    }

    /// The scaled energy `E = ½ u'² + u^β/β − g̃ u` from `u'` and `u^α` at hand.
    #[inline(always)]
    pub(super) fn energy(&self, u: f64, du: f64, u_pow: f64) -> f64 {
        let u = u.max(0.0);
        0.5 * du * du + u * u_pow / self.beta - self.g_tilde * u
    }

    /// The absolute tolerance of a step: [`TOL`], widened by `μ v_in / 10` (`μ v_in =
    /// (α + 1) γ`) where that exceeds 1, in proportion to the exit speed's own scale.
    #[inline(always)]
    pub(super) fn tolerance(&self) -> f64 {
        TOL * (0.1 * self.beta * self.gamma).max(1.0)
    }

    /// The first step: a fraction of the unloaded contact's time scale, or of the
    /// load's (u grows like τ and the load takes over where g̃ τ ~ 1).
    pub(super) fn first_step(&self) -> f64 {
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
