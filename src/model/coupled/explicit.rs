//! The paper's explicit methods, eqs (24)–(26), on the coupled state: the striker and
//! every mode advance together, the contact force coupling them. As in the mass–wall
//! model, Verlet and Heun evaluate the accelerations once per step and hand the last
//! one on as the next step's `a_n` (paper-notes); RK4 evaluates four times.

use super::system::{Coupled, State};
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
    #[inline]
    pub fn accel(&self, s: &State) -> Accel {
        let b = &self.modes;
        let (d, dr) = s.delta(b.n);
        let f = self.force(d, dr);
        let mut modes = [0.0; MODES];
        for i in 0..b.n {
            let o = b.omega[i];
            modes[i] = f * b.inv_mass[i] - o * o * s.w[i] - 2.0 * b.sigma[i] * s.u[i];
        }
        Accel {
            striker: -f / self.contact.mass,
            modes,
            force: f,
        }
    }

    /// Velocity Verlet, eq (24): positions from `a_n`, the new accelerations at the
    /// half-step velocity, which they then complete. Returns `a_{n+1}`.
    pub(super) fn verlet_step(&self, s: &mut State, a0: &Accel, h: f64) -> Accel {
        let n = self.modes.n;
        let mut half = *s;
        half.x = s.x + h * s.v + 0.5 * h * h * a0.striker;
        half.v = s.v + 0.5 * h * a0.striker;
        for i in 0..n {
            half.w[i] = s.w[i] + h * s.u[i] + 0.5 * h * h * a0.modes[i];
            half.u[i] = s.u[i] + 0.5 * h * a0.modes[i];
        }
        let a1 = self.accel(&half);
        *s = half;
        s.v += 0.5 * h * a1.striker;
        for i in 0..n {
            s.u[i] += 0.5 * h * a1.modes[i];
        }
        a1
    }

    /// Heun, eq (25): Euler predictor, trapezoid corrector. Returns the accelerations
    /// at the predicted state, the next step's `a_n`.
    pub(super) fn heun_step(&self, s: &mut State, a0: &Accel, h: f64) -> Accel {
        let n = self.modes.n;
        let mut pred = *s;
        pred.v = s.v + h * a0.striker;
        pred.x = s.x + 0.5 * h * (s.v + pred.v);
        for i in 0..n {
            pred.u[i] = s.u[i] + h * a0.modes[i];
            pred.w[i] = s.w[i] + 0.5 * h * (s.u[i] + pred.u[i]);
        }
        let a1 = self.accel(&pred);
        s.x = pred.x;
        s.v += 0.5 * h * (a0.striker + a1.striker);
        for i in 0..n {
            s.w[i] = pred.w[i];
            s.u[i] += 0.5 * h * (a0.modes[i] + a1.modes[i]);
        }
        a1
    }

    /// Classical RK4, eq (26), on `(x, v)` of striker and modes.
    pub(super) fn rk4_step(&self, s: &mut State, h: f64) {
        let n = self.modes.n;
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
        let k1 = self.accel(s);
        let s2 = stage(s, &k1, s, 0.5 * h);
        let k2 = self.accel(&s2);
        let s3 = stage(s, &k2, &s2, 0.5 * h);
        let k3 = self.accel(&s3);
        let s4 = stage(s, &k3, &s3, h);
        let k4 = self.accel(&s4);
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
