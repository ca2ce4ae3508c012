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
//! velocity `w = u' + γ u^β`, in which the right-hand side is smooth) once per contact
//! (in one go, or a bounded slice per sample: [`ExitSolve`]), with the embedded
//! Dormand–Prince 8(5,3) pair (DOP853) under step control, and locates the return to `u = 0` by Newton on the step length. At the tolerance the
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
//! rate and is taken exactly (`Scaled::creep_step`); DOP853 takes the contact back near
//! the wall, where the exit is. A creep of 200 to 500 in `μ v_in` then takes 45–80
//! steps' work instead of 120–260.

mod creep;
mod dop853;
mod outcome;
mod resume;
mod solve;
mod state;

/// The exponential integrator's φ functions, which the damping-exact contact step
/// (`impact::damped`) shares with the creep.
pub(crate) use creep::phis;
pub use outcome::ExitNews;
pub use outcome::{LoadExit, scaled, time_scale, x_rest};
pub use resume::{ExitSolve, Progress, exit, scaled_exit};
pub use solve::MAX_STEPS;
pub use state::{Loaded, REST_FORCE, SETTLE_ZETA};

#[cfg(test)]
mod tests;
