//! The physical contact behind the controls: Playable (Hardness and Bounciness) or
//! Expert (`k` and `μ`) resolved to the paper's `k`, `μ`, and what they give at the top
//! strike speed, for the voices and the editor alike.

use crate::engine::params::{Controls, EngineParams};
use crate::model::hardness::{UnitTime, contact_time_for_k, k_for_contact_time, unit_time};
use crate::model::restitution::mu_v_in_for;
use crate::model::vout::v_out_exact;

/// What the controls mean physically, at the top strike speed `v_max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Physical {
    /// Stiffness, N/m^α.
    pub k: f64,
    /// Damping ratio μ = λ/k at `v_max`, s/m (eq 1).
    pub mu: f64,
    /// Contact time at `v_max`, ms (eq 9).
    pub tau_ms: f64,
    /// Coefficient of restitution at `v_max`: `−v_out/v_in` (eq 6).
    pub e: f64,
}

/// The top strike speed the controls are defined at.
pub fn v_top(p: &EngineParams) -> f64 {
    p.v_max.max(p.v_min)
}

/// Stiffness `k` for these parameters: Expert's `k`, or in Playable mode Hardness
/// (`τ` at `v_max`) inverted through eq (9) at the damping Bounciness gives
/// (`μ v_max = z(e)`, seed 000). `unit` caches the one quadrature.
pub fn stiffness(p: &EngineParams, unit: &mut UnitTime) -> f64 {
    match p.controls {
        Controls::Expert => p.k,
        Controls::Playable => {
            let z = unit.z_for(p.restitution);
            let c = unit.get(z, p.alpha);
            let k = k_for_contact_time(1e-3 * p.hardness_ms, p.mass, v_top(p), p.alpha, c);
            if k.is_finite() && k > 0.0 { k } else { p.k }
        }
    }
}

/// Whether the damping comes from the restitution: always in Playable mode (Bounciness),
/// by choice in Expert mode.
pub fn restitution_of(p: &EngineParams) -> Option<f64> {
    (p.controls == Controls::Playable || p.from_restitution).then_some(p.restitution)
}

/// The physical contact (`k`, `μ`, `τ`, `e`) at `v_max`, in either mode. Not for the
/// audio thread (one quadrature of eq 9).
pub fn physical(p: &EngineParams) -> Physical {
    let v = v_top(p);
    let k = stiffness(p, &mut UnitTime::default());
    let (mu, e) = match restitution_of(p) {
        Some(e) => (mu_v_in_for(e) / v, e),
        None => (p.mu, -v_out_exact(p.mu, v) / v),
    };
    let tau_ms = match p.controls {
        Controls::Playable => p.hardness_ms,
        Controls::Expert => {
            1e3 * contact_time_for_k(k, p.mass, v, p.alpha, unit_time(mu * v, p.alpha))
        }
    };
    Physical { k, mu, tau_ms, e }
}
