//! The exit's integration: DOP853 on seed 001's eq (6) (`dop853`), handing a heavily
//! damped creep to the exponential integrator (`creep`).

use crate::model::alpha_pow::AlphaPow;

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

#[derive(Clone, Copy, Debug)]
pub(super) struct Scaled {
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
}
