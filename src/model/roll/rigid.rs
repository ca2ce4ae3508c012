//! The rigid limit of the surface contact ([`Damping::Rigid`](super::Damping::Rigid)),
//! for a contact too stiff for its steps to follow: the spring would ask more than
//! [`MAX_STEPS`](super::MAX_STEPS) Verlet steps a sample, its resonance `ω > 3 fs` at
//! the depth a landing reaches, above the audio band. The contact is then taken as
//! rigid, which costs no step at all:
//! - **On the surface** the mass rides it: its velocity is the path's slope over the
//!   sample, and the force is the load's. Where the path turns at a sample's start
//!   (the surface is linear across a sample, as the stepped contact reads it), it
//!   turns into the mass, a collision, or away from it, a flight.
//! - **In flight** the mass follows the exact parabola under the load, as the stepped
//!   contact's does, and lands where it meets the surface, at its own sub-sample
//!   instant.
//! - **A collision** sends the mass off at the exact `v_out` of eq (6)
//!   (`vout::v_out_exact`) relative to the surface, which depends on `μ v_in` alone,
//!   not on `k`: the restitution of the stepped contact, as its steps shorten. A
//!   rebound that would fly for less than a sample (`v_out < g h / 2`) is not resolved
//!   as a bounce: the mass stays on the surface, and the damping takes all of the
//!   relative motion. Under a load, Hunt–Crossley's restitution tends to 1 at slow
//!   landings, and without that rule the bounces would shrink too slowly to settle.
//!
//! **Energy balance.** A collision's damping takes `½ m (u_in² − u_out²)` and the
//! surface puts in `ṡ` times its impulse; riding, the load's reaction works at `L ṡ`;
//! a flight keeps `½ m ẏ² + L y`. So `E + D − W` holds to rounding.

use super::Rolling;
use crate::model::vout::v_out_exact;

impl Rolling {
    /// One sample with the surface going from `s0` to `s1` in the rigid limit: returns
    /// the contact force averaged over the sample, N.
    #[inline]
    pub(super) fn rigid_sample(&mut self, s0: f64, s1: f64) -> f64 {
        let (m, load, fs) = (self.contact.mass, self.load, self.fs);
        let (h, g) = (1.0 / fs, load / m);
        let sdot = (s1 - s0) * fs;
        let w0 = self.w;
        if self.f > 0.0 {
            // Riding, the path turns at the sample's start: into the mass (a
            // collision), or away from it (a flight).
            let u = self.w - sdot;
            if u < 0.0 {
                self.collide(sdot, -u, g * h);
            } else if u > 0.0 {
                self.f = 0.0;
            }
        }
        if self.f > 0.0 {
            self.ride(sdot, s1, h);
        } else {
            self.rigid_flight(s0, sdot, h, g);
        }
        self.samples += 1;
        // m Δw = ∫(F − L) dt over the sample.
        m * (self.w - w0) * fs + load
    }

    /// A collision with the surface (moving at `sdot`) at `u_in` toward it: the mass
    /// rebounds at the exact `v_out` (eq 6), or stays on the surface where the rebound
    /// would fly less than a sample (`g h` is the speed the load takes in one).
    #[inline]
    fn collide(&mut self, sdot: f64, u_in: f64, gh: f64) {
        let m = self.contact.mass;
        let u_out = -v_out_exact(self.contact.mu, u_in);
        let u_out = if u_out >= 0.5 * gh { u_out } else { 0.0 };
        self.dissipated += 0.5 * m * (u_in * u_in - u_out * u_out);
        self.work += m * sdot * (u_in + u_out);
        self.w = sdot + u_out;
        self.f = if u_out > 0.0 { 0.0 } else { self.load };
    }

    /// Riding the surface at its speed `sdot` for `t`, to `s1`: the load's reaction
    /// works at `L ṡ`.
    #[inline]
    fn ride(&mut self, sdot: f64, s1: f64, t: f64) {
        self.work += self.load * sdot * t;
        self.w = sdot;
        self.y = s1;
        self.f = self.load;
        self.acc = 0.0;
    }

    /// A sample of flight from the surface at `s0` (rising at `sdot`), landing if the
    /// parabola meets it.
    #[inline]
    fn rigid_flight(&mut self, s0: f64, sdot: f64, h: f64, g: f64) {
        // On the surface already and pressed into it: landed at the start.
        let landing = if s0 >= self.y && sdot > self.w {
            Some(0.0)
        } else {
            self.landing(s0, sdot, h, g)
        };
        let Some(t) = landing else {
            self.fly(h, g);
            return;
        };
        self.fly(t, g);
        self.landings += 1;
        self.last_landing = self.samples as f64 + t * self.fs;
        self.y = s0 + sdot * t;
        self.collide(sdot, (sdot - self.w).max(0.0), g * h);
        if self.f > 0.0 {
            self.ride(sdot, s0 + sdot * h, h - t);
        } else {
            // It flies at least `2 u_out / g ≥ h`: no second landing in this sample.
            self.fly(h - t, g);
        }
    }
}
