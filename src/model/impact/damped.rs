//! A contact whose damping is too stiff for the explicit methods: the damping taken
//! exactly over each step.
//!
//! Where `μ v_in` is in the tens or hundreds (a low restitution at a low speed, or a
//! heavy load pressing the mass deep), the velocity relaxes at `λ = k x^α μ/m`, and
//! the explicit methods need `h λ ≤ DAMPING_STEP` to stay stable: hundreds of steps a
//! sample over a contact that can last a second (a 61 g mass under 57 m/s² sinking
//! into a soft contact took 3.3 s of a core for 3 s of audio). Yet with `x^α` held
//! over a step, eqs (1)–(2) with the load are linear in `v`:
//!
//! `m v' = −k p (1 + μ v) + m g − d v`, i.e. `v' = a − λ v`, `λ = (k p μ + d)/m`,
//! `a = (m g − k p)/m`,
//!
//! whose exact solution relaxes `v` onto `a/λ` at rate `λ`: stable and exact in the
//! damping whatever `h λ`. `x` follows from the exact integral of `v`, and `p` is
//! `x^α` at the step's midpoint (predicted, then corrected once: second order in the
//! spring's motion). So the steps follow the spring, stiffened by the damping at
//! `v_in` (`h ω ≤ OMEGA_STEP`, `ω² = k α x^{α−1} (1 + μ v_in)/m`, what `x^α` over the
//! step still takes explicitly), at two powers (carried by series) and two exponentials a
//! step: over a grid of such contacts it leaves within 2e-5 of the exact `v_out` and
//! within a sample of a fine reference's contact time (`tests/damped_contact.rs`).
//!
//! This replaces the patch's method for that contact only (`Impact::damped`); the
//! corrections still set the exit (the clamp's `v_out`), and the load-aware energy
//! balance is watched as for any method.

use super::*;
use crate::model::load::phis;

impl Impact {
    /// One step of `h` from `(x, v)` with the damping exact (see the module): `(x₁, v₁,
    /// f₁, x₁^α)`, the force and power at the end left unknown (0 and NaN: nothing
    /// carries them). The midpoint's power is carried to the next step's prediction
    /// (a step away at most: by series, see `PowNear`).
    #[inline(always)]
    pub(super) fn step_damped(
        &mut self,
        c: &Contact,
        x: f64,
        v: f64,
        h: f64,
    ) -> (f64, f64, f64, f64) {
        let (load, drag) = (self.load.force, self.load.drag);
        let inv_m = 1.0 / c.mass;
        let over = |p: f64| {
            let lambda = (c.k * p * c.mu + drag) * inv_m;
            let a = (load - c.k * p) * inv_m;
            // The exponential integrator's φ₁, φ₂ at −λh (the creep's, `load::phis`):
            // v(h) = v e^{−λh} + a h φ₁; ∫₀ʰ v = h (v φ₁ + a h φ₂).
            let z = -lambda * h;
            let e = z.exp();
            let (phi1, phi2, _) = phis(z, e);
            (v * e + a * h * phi1, x + h * (v * phi1 + a * h * phi2))
        };
        let x_guess = x + 0.5 * h * v;
        let (_, x_pred) = over(self.carried_pow(c, x_guess));
        let x_mid = 0.5 * (x + x_pred);
        let p_mid = self.carried_pow(c, x_mid);
        if self.near_pow && x_mid > 0.0 {
            self.pow_ref = PowNear::new(x_mid, p_mid);
        }
        let (v1, x1) = over(p_mid);
        (x1, v1, 0.0, f64::NAN)
    }
}
