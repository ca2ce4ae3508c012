//! What a two-way strike may cost a voice: steps a sample, and work over the whole
//! strike. The coupled system costs 1–8 times a rigid-wall contact step per step, and a
//! heavy striker on a light body can hold it near the body for its whole
//! [`MAX_NEAR_TIME`](super::MAX_NEAR_TIME) at the most steps a sample: unbounded, one
//! such voice took more than a core at 48 kHz. So a strike is refused where it needs
//! too many steps a sample (the rigid wall plays it), and ended where it has spent
//! [`WORK_BUDGET`] (the striker lifts off as at its near time's end; the body rings
//! on). Both are counted in steps of the cheapest method, so every method and rate
//! meets the same bound.

use crate::engine::params::EngineParams;
use crate::model::Method;
use crate::model::coupled::TwoWayMethod;

/// Most steps of the coupled system a voice takes a sample at 48 kHz and below: with up
/// to 16 modes, about as much work as a rigid-wall contact at its own limit. A strike
/// that needs more is played on the rigid wall.
pub const MAX_VOICE_SUBSTEPS: u32 = 128;

/// Most steps a sample at `fs`: [`MAX_VOICE_SUBSTEPS`] up to 48 kHz, then the same number
/// of steps a second. A strike needs a step of a given length in time, so its steps a
/// sample fall as the rate rises: a budget per sample would take strikes at 384 kHz
/// that it refuses at 48 kHz, at eight times their cost a second there (a voice, and
/// each level calibration of it, several times slower than real time). Per second, a
/// strike plays two-way or on the rigid wall alike at every rate above 48 kHz.
pub fn max_voice_substeps(fs: f64) -> u32 {
    let per_second = f64::from(MAX_VOICE_SUBSTEPS) * 48_000.0;
    let n = (per_second / fs).floor();
    if n.is_finite() {
        n.clamp(1.0, f64::from(MAX_VOICE_SUBSTEPS)) as u32
    } else {
        MAX_VOICE_SUBSTEPS
    }
}
/// Most work one strike's coupled system takes, in [`step_cost`] units (a vector
/// Verlet step of up to 16 modes, 40–60 ns here): 2–3 ms of a core, about three times
/// what the default patch's whole note costs (its ringing included), so a patch's notes
/// stay within 8× the default's (`cargo bench --bench patch_cost`; at 100 000 the
/// dearest two-way trains read 9–12×). A strike at the default patch's 5 steps a sample
/// stays under it for its whole near time (24 000 units in 0.1 s at 48 kHz), so only
/// heavy strikers on light bodies, stiff contacts, the implicit methods and long
/// bouncing trains meet it, after 3–25 ms of contact at the most steps a sample.
pub const WORK_BUDGET: u64 = 50_000;

/// What a step of `method` costs in vector Verlet steps (criterion, `benches/coupled.rs`
/// and `voice -- coupling`: Heun twice Verlet's force evaluations, RK4 four on the
/// portable loop, the discrete gradient its Newton solve on top).
pub fn step_cost(method: TwoWayMethod) -> u64 {
    match method {
        TwoWayMethod::Paper(Method::Verlet) => 1,
        TwoWayMethod::Paper(Method::Heun) => 2,
        TwoWayMethod::Paper(Method::Rk4) => 6,
        TwoWayMethod::Paper(Method::Am1) | TwoWayMethod::DiscreteGradient => 8,
    }
}

/// What a two-way sample costs around its steps, and what resetting the coupled state
/// between samples costs (`CoupledRun::set_state`: the accelerations of the whole
/// state, one force evaluation), in [`step_cost`] units. A crumple held on two-way
/// Verlet (one step a sample) spent about twice as long around its steps as in them,
/// and with gravity in contact as long in the resets as in the steps (perf, 5 Dec):
/// counted, its budget holds it near 8× the default patch where it read 11–15×.
pub const SAMPLE_WORK: u64 = 1;
pub const RESET_WORK: u64 = 1;

/// The coupled method for a patch: its integrator on the whole state, except AM1, the
/// paper's implicit trapezoid rule, whose place the discrete-gradient scheme takes (the
/// implicit scheme with the coupled system's exact energy balance, at about twice
/// coupled AM1's cost). The patch's corrections are the rigid wall's and do not apply.
/// Verlet (the default) stays within 1e-3 of the exact exit velocity on the coupled
/// reference cases, at a quarter of the discrete gradient's cost.
pub fn method_of(p: &EngineParams) -> TwoWayMethod {
    match p.method {
        Method::Am1 => TwoWayMethod::DiscreteGradient,
        m => TwoWayMethod::Paper(m),
    }
}
