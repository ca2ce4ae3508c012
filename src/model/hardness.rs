//! Hardness: the contact time `τ` at a given strike speed, eq (9) inverted to `k`.
//!
//! Eq (9) makes `τ` depend on `m/k` only through `(m/k)^{1/(α+1)}` (the paper's remark
//! after eq 9). Scaling `v` by `v_in` in its integral (with `z = μ v_in` held) adds
//! `v_in^{(1−α)/(α+1)}`, so that exactly
//!
//! ```text
//! τ = (m/k)^{1/(α+1)} v_in^{(1−α)/(α+1)} C(z, α),
//! ```
//!
//! where `C(z, α)` is eq (9) for `m = k = v_in = 1`, `μ = z` ([`unit_time`]). Given
//! `τ`, `k = m (C v_in^{(1−α)/(α+1)} / τ)^{α+1}`: exact wherever eq (9) is, and the
//! exponent `α` then changes only the pulse's shape, never its duration.
//!
//! `C` costs one quadrature (eq 9 on a fixed 91-node rule,
//! [`super::tau::contact_time_onset`], about 3 µs); everything else is closed form, and
//! a voice caches `C` per `(z, α)` ([`UnitTime`]).

use super::contact::Contact;
use super::restitution::mu_v_in_for;
use super::tau::contact_time_onset;

/// `C(z, α)`: the contact time of eq (9) for `m = k = v_in = 1` and `μ = z`, s. One
/// fixed quadrature (91 nodes): bounded, and cached by [`UnitTime`] so that an onset
/// pays it only when Bounciness or Shape moved.
pub fn unit_time(z: f64, alpha: f64) -> f64 {
    let z = if z.is_finite() && z > 0.0 { z } else { 0.0 };
    let t = contact_time_onset(&Contact::new(1.0, z, alpha, 1.0).impact(1.0));
    if t.is_finite() && t > 0.0 {
        t
    } else {
        f64::NAN
    }
}

/// `v_in^{(1−α)/(α+1)}`: how `τ` scales with the speed at a fixed `μ v_in`.
fn speed_factor(v_in: f64, alpha: f64) -> f64 {
    v_in.powf((1.0 - alpha) / (alpha + 1.0))
}

/// The stiffness `k` (N/m^α) that makes a strike at `v_in` last `tau` seconds, eq (9)
/// inverted: `k = m (C v_in^{(1−α)/(α+1)} / τ)^{α+1}`, `unit` being [`unit_time`] of
/// `(μ v_in, α)`.
pub fn k_for_contact_time(tau: f64, mass: f64, v_in: f64, alpha: f64, unit: f64) -> f64 {
    mass * (unit * speed_factor(v_in, alpha) / tau).powf(alpha + 1.0)
}

/// The contact time `τ` (s) of a strike at `v_in` with stiffness `k`, eq (9) by the
/// same scaling: `τ = (m/k)^{1/(α+1)} v_in^{(1−α)/(α+1)} C`.
pub fn contact_time_for_k(k: f64, mass: f64, v_in: f64, alpha: f64, unit: f64) -> f64 {
    (mass / k).powf(1.0 / (alpha + 1.0)) * speed_factor(v_in, alpha) * unit
}

/// [`unit_time`] remembered for the last `(z, α)`: recomputed only when either
/// changes, so a voice pays the quadrature once per new setting, not per strike. The
/// `z` of the last restitution too (a Newton solve of seed 000's eq 19).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitTime {
    z: f64,
    alpha: f64,
    unit: f64,
    e: f64,
    z_of_e: f64,
}

impl Default for UnitTime {
    fn default() -> Self {
        Self {
            z: f64::NAN,
            alpha: f64::NAN,
            unit: f64::NAN,
            e: f64::NAN,
            z_of_e: f64::NAN,
        }
    }
}

impl UnitTime {
    /// `C(z, α)`, from the cache when `(z, α)` is the last one asked for.
    pub fn get(&mut self, z: f64, alpha: f64) -> f64 {
        if z != self.z || alpha != self.alpha {
            self.z = z;
            self.alpha = alpha;
            self.unit = unit_time(z, alpha);
        }
        self.unit
    }

    /// `z = μ v_in` for restitution `e` ([`mu_v_in_for`]), from the cache when `e` is
    /// the last one asked for.
    pub fn z_for(&mut self, e: f64) -> f64 {
        if e != self.e {
            self.e = e;
            self.z_of_e = mu_v_in_for(e);
        }
        self.z_of_e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tau::contact_time;

    #[test]
    fn the_cache_gives_what_it_caches_whatever_the_order() {
        let mut c = UnitTime::default();
        for (e, alpha) in [(0.5, 1.5), (0.5, 1.5), (0.9, 1.5), (0.9, 2.0), (0.5, 2.0)] {
            let z = c.z_for(e);
            assert_eq!(z.to_bits(), mu_v_in_for(e).to_bits(), "e {e}");
            let u = c.get(z, alpha);
            assert_eq!(
                u.to_bits(),
                unit_time(z, alpha).to_bits(),
                "e {e} α {alpha}"
            );
            // Asking for the unit time keeps the restitution's z, and back.
            assert_eq!(c.z_for(e).to_bits(), z.to_bits());
        }
        assert!(c.z_for(f64::NAN).is_finite());
    }

    #[test]
    fn inversion_round_trips_through_eq_9() {
        for alpha in [1.0, 1.3, 1.5, 2.0, 3.0] {
            for (mu, v_in) in [(0.0, 1.0), (0.5, 0.5), (0.01, 2.0), (2.0, 30.0)] {
                for mass in [1e-4, 0.01, 1.0] {
                    for tau in [2e-5, 6e-4, 1e-2] {
                        let unit = unit_time(mu * v_in, alpha);
                        let k = k_for_contact_time(tau, mass, v_in, alpha, unit);
                        let c = Contact::new(k, mu, alpha, mass);
                        let got = contact_time(&c.impact(v_in));
                        let rel = (got - tau).abs() / tau;
                        assert!(rel < 1e-10, "α {alpha} μ {mu} v {v_in} m {mass}: {got}");
                        let back = contact_time_for_k(k, mass, v_in, alpha, unit);
                        assert!((back - tau).abs() < 1e-12 * tau);
                    }
                }
            }
        }
    }

    #[test]
    fn bounciness_stays_on_the_fixed_rule() {
        // The lowest Bounciness asks the largest μ v_in of eq (9) at an onset.
        let lowest = crate::engine::LIMITS[0].restitution;
        let z = mu_v_in_for(lowest);
        assert!(z < crate::model::tau::FIXED_RULE_MAX / 4.0, "{z}");
    }

    #[test]
    fn paper_case_i_contact_time() {
        // paper-notes: case I lasts 1659.20 samples at 44.1 kHz.
        let (k, mu, alpha, m, v) = (1e3, 0.5, 1.5, 0.01, 0.5);
        let tau = contact_time_for_k(k, m, v, alpha, unit_time(mu * v, alpha));
        assert!(
            (tau * 44_100.0 - 1659.20).abs() < 0.01,
            "{}",
            tau * 44_100.0
        );
    }
}
