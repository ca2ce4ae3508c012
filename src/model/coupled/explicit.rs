//! The paper's explicit methods, eqs (24)–(26), on the coupled state: the striker and
//! every mode advance together, the contact force coupling them. As in the mass–wall
//! model, Verlet and Heun evaluate the accelerations once per step and hand the last
//! one on as the next step's `a_n` (paper-notes); RK4 evaluates four times.
//!
//! The modes are stepped in place, a lane group at a time ([`LANES`]), with the run's
//! per-mode constants ([`ModeCoefs`]) made once: each loop is a few vector
//! multiply–adds over the modes, the sums for the compression among them.

use super::system::{Coupled, LANES, ModeCoefs, State, Step, total};
use crate::model::alpha_pow::AlphaPow;
use crate::model::body::MODES;

/// Accelerations of the striker and the modes, and the contact force they came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accel {
    pub striker: f64,
    pub modes: [f64; MODES],
    /// Contact force on the body, N.
    pub force: f64,
}

impl Accel {
    pub const ZERO: Accel = Accel {
        striker: 0.0,
        modes: [0.0; MODES],
        force: 0.0,
    };
}

impl Coupled {
    /// `ẍ_s = −F/m`, `ẅ_k = F/m_k − ω_k² w_k − 2σ_k ẇ_k` at a state.
    pub fn accel(&self, s: &State) -> Accel {
        let (k, pow) = (
            ModeCoefs::new(&self.modes, 0.0),
            AlphaPow::new(self.contact.alpha),
        );
        let step = Step {
            k: &k,
            pow: &pow,
            h: 0.0,
        };
        self.accel_with(step, s)
    }

    /// [`accel`](Self::accel) with the modes' constants at hand.
    #[inline(always)]
    pub(super) fn accel_with(&self, Step { k, pow, .. }: Step, s: &State) -> Accel {
        let (d, dr) = s.delta(self.modes.n);
        let f = self.force_with(pow, d, dr);
        let mut a = Accel {
            striker: -f / self.contact.mass,
            modes: [0.0; MODES],
            force: f,
        };
        for i in 0..k.lanes {
            a.modes[i] = f * k.inv_mass[i] - k.omega2[i] * s.w[i] - k.damp[i] * s.u[i];
        }
        a
    }

    /// Velocity Verlet, eq (24): positions from `a_n`, the new accelerations at the
    /// half-step velocity, which they then complete; `a` becomes `a_{n+1}`. Returns the
    /// compression at the new positions.
    #[inline(always)]
    pub(super) fn verlet_step(&self, step: Step, s: &mut State, a: &mut Accel) -> f64 {
        let Step { k, pow, h } = step;
        let (hh, h2) = (0.5 * h * h, 0.5 * h);
        s.x = s.x + h * s.v + hh * a.striker;
        s.v += h2 * a.striker;
        let (mut sw, mut su) = ([0.0; LANES], [0.0; LANES]);
        for c in 0..k.groups() {
            for j in 0..LANES {
                let i = c * LANES + j;
                s.w[i] = s.w[i] + h * s.u[i] + hh * a.modes[i];
                s.u[i] += h2 * a.modes[i];
                sw[j] += s.w[i];
                su[j] += s.u[i];
            }
        }
        let d = s.x - total(&sw);
        let f = self.force_with(pow, d, s.v - total(&su));
        a.striker = -f / self.contact.mass;
        a.force = f;
        s.v += h2 * a.striker;
        for c in 0..k.groups() {
            for j in 0..LANES {
                let i = c * LANES + j;
                let am = f * k.inv_mass[i] - k.omega2[i] * s.w[i] - k.damp[i] * s.u[i];
                a.modes[i] = am;
                s.u[i] += h2 * am;
            }
        }
        d
    }

    /// Heun, eq (25): Euler predictor, trapezoid corrector; `a` becomes the
    /// accelerations at the predicted state, the next step's `a_n`. Returns the
    /// compression at the new positions.
    #[inline(always)]
    pub(super) fn heun_step(&self, Step { k, pow, h }: Step, s: &mut State, a: &mut Accel) -> f64 {
        let h2 = 0.5 * h;
        let v_pred = s.v + h * a.striker;
        s.x += h2 * (s.v + v_pred);
        let mut u_pred = [0.0; MODES];
        let (mut sw, mut su) = ([0.0; LANES], [0.0; LANES]);
        for c in 0..k.groups() {
            for j in 0..LANES {
                let i = c * LANES + j;
                u_pred[i] = s.u[i] + h * a.modes[i];
                s.w[i] += h2 * (s.u[i] + u_pred[i]);
                sw[j] += s.w[i];
                su[j] += u_pred[i];
            }
        }
        let d = s.x - total(&sw);
        let f = self.force_with(pow, d, v_pred - total(&su));
        let striker = -f / self.contact.mass;
        s.v += h2 * (a.striker + striker);
        a.striker = striker;
        a.force = f;
        for c in 0..k.groups() {
            for j in 0..LANES {
                let i = c * LANES + j;
                let am = f * k.inv_mass[i] - k.omega2[i] * s.w[i] - k.damp[i] * u_pred[i];
                s.u[i] += h2 * (a.modes[i] + am);
                a.modes[i] = am;
            }
        }
        d
    }

    /// Classical RK4, eq (26), on `(x, v)` of striker and modes.
    pub(super) fn rk4_step(&self, step: Step, s: &mut State) {
        let (k, h) = (step.k, step.h);
        let n = k.lanes;
        let stage = |base: &State, a: &Accel, from: &State, c: f64| {
            let mut t = *base;
            t.x = base.x + c * from.v;
            t.v = base.v + c * a.striker;
            for i in 0..n {
                t.w[i] = base.w[i] + c * from.u[i];
                t.u[i] = base.u[i] + c * a.modes[i];
            }
            t
        };
        let k1 = self.accel_with(step, s);
        let s2 = stage(s, &k1, s, 0.5 * h);
        let k2 = self.accel_with(step, &s2);
        let s3 = stage(s, &k2, &s2, 0.5 * h);
        let k3 = self.accel_with(step, &s3);
        let s4 = stage(s, &k3, &s3, h);
        let k4 = self.accel_with(step, &s4);
        const SIXTH: f64 = 1.0 / 6.0;
        let (x, v) = (s.x, s.v);
        s.x = x + h * (v + 2.0 * s2.v + 2.0 * s3.v + s4.v) * SIXTH;
        s.v = v + h * (k1.striker + 2.0 * k2.striker + 2.0 * k3.striker + k4.striker) * SIXTH;
        for i in 0..n {
            let (w, u) = (s.w[i], s.u[i]);
            s.w[i] = w + h * (u + 2.0 * s2.u[i] + 2.0 * s3.u[i] + s4.u[i]) * SIXTH;
            s.u[i] =
                u + h * (k1.modes[i] + 2.0 * k2.modes[i] + 2.0 * k3.modes[i] + k4.modes[i]) * SIXTH;
        }
    }
}
