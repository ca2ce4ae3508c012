//! What a loaded contact comes to ([`LoadExit`]) and seed 001's scaling.

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
    pub(super) const fn stuck(tau: f64, steps: u32) -> LoadExit {
        LoadExit {
            e: 0.0,
            sticks: true,
            tau,
            resolved: true,
            steps,
        }
    }
}

/// What a loaded contact's exit changed (`Impact::resolve_load`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExitNews {
    /// Nothing about the mass now (the contact is still going, or did not end on
    /// the exit's account).
    Unchanged,
    /// The contact had ended: the mass now leaves at the exact exit speed.
    Leaves,
    /// The contact had ended, but the mass sticks: it is at rest.
    Rests,
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
