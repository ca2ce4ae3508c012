//! The onset's computations as they were before each was bounded, kept as references
//! for `tests/onset_reference.rs` and `benches/onset.rs`:
//!
//! [`scaled_exit_dp5`]: the load-aware exit (`model::load::scaled_exit`) by adaptive
//! Dormand–Prince 5(4) on seed 001's eq (6) at an absolute tolerance of 1e-10, at most
//! 3000 steps (about 0.5 ms). Proposition 1's former rule stays in the crate:
//! `model::prop1::restitution_prop1_fine`.
#![allow(dead_code)]

use rebound::model::load::LoadExit;
use rebound::model::series::pow_alpha;

/// Most accepted and rejected steps.
pub const MAX_STEPS: u32 = 3000;
/// Step control tolerance on the scaled state.
const TOL: f64 = 1e-10;

/// `model::load::scaled_exit` by the former solver.
pub fn scaled_exit_dp5(alpha: f64, gamma: f64, g_tilde: f64) -> LoadExit {
    let sys = Scaled {
        alpha,
        beta: alpha + 1.0,
        gamma,
        g_tilde,
    };
    sys.integrate()
}

#[derive(Clone, Copy)]
struct Scaled {
    alpha: f64,
    beta: f64,
    gamma: f64,
    g_tilde: f64,
}

/// `(u, w)`.
type State = [f64; 2];

#[path = "dopri5.rs"]
mod dopri5;
use dopri5::{A, B4, C};

impl Scaled {
    #[inline]
    fn rhs(&self, y: State) -> State {
        let u = y[0].max(0.0);
        let ua = if u > 0.0 {
            pow_alpha(u, self.alpha)
        } else {
            0.0
        };
        [y[1] - self.gamma * ua * u, self.g_tilde - ua]
    }

    /// `u' = w − γ u^β`.
    fn du(&self, y: State) -> f64 {
        let u = y[0].max(0.0);
        y[1] - self.gamma * u.powf(self.beta)
    }

    /// The scaled energy `E = ½ u'² + u^β/β − g̃ u`.
    fn energy(&self, y: State) -> f64 {
        let u = y[0].max(0.0);
        let du = self.du(y);
        0.5 * du * du + u.powf(self.beta) / self.beta - self.g_tilde * u
    }

    /// One Dormand–Prince step of length `h`: the fifth-order state and an error
    /// estimate (the difference to the fourth-order one).
    fn step(&self, y: State, h: f64) -> (State, f64) {
        let mut k = [[0.0; 2]; 7];
        k[0] = self.rhs(y);
        for i in 1..7 {
            let mut yi = y;
            for (j, kj) in k.iter().enumerate().take(i) {
                yi[0] += h * A[i][j] * kj[0];
                yi[1] += h * A[i][j] * kj[1];
            }
            let _ = C[i];
            k[i] = self.rhs(yi);
        }
        let mut y5 = y;
        let mut err = [0.0; 2];
        for (i, ki) in k.iter().enumerate() {
            let b5 = if i < 6 { A[6][i] } else { 0.0 };
            y5[0] += h * b5 * ki[0];
            y5[1] += h * b5 * ki[1];
            err[0] += h * (b5 - B4[i]) * ki[0];
            err[1] += h * (b5 - B4[i]) * ki[1];
        }
        let scale = |_: usize| TOL;
        let e = (err[0] / scale(0)).abs().max((err[1] / scale(1)).abs());
        (y5, e)
    }

    fn integrate(&self) -> LoadExit {
        let bad = |p: f64| !p.is_finite();
        if bad(self.alpha) || self.alpha <= 0.0 || bad(self.gamma) || bad(self.g_tilde) {
            return LoadExit::DEGENERATE;
        }
        let mut y: State = [0.0, 1.0];
        let mut t = 0.0;
        // The first step: a fraction of the unloaded contact's time scale, or of the
        // load's (u grows like τ and the load takes over where g̃ τ ~ 1).
        let mut h = 0.01f64
            .min(0.1 / self.g_tilde.max(1e-300))
            .min(0.1 / self.gamma.max(1e-300));
        for steps in 1..=MAX_STEPS {
            // Moving out, a step may go at most twice the distance to the wall: beyond,
            // the load (which acts out of contact too) could carry a long step out
            // through the wall and back in unseen.
            let du = self.du(y);
            if du < 0.0 && y[0] > 0.0 {
                h = h.min(2.0 * y[0] / -du);
            }
            let (y1, err) = self.step(y, h);
            if err.is_nan() || err > 1.0 || !y1[0].is_finite() || !y1[1].is_finite() {
                let shrink = if err.is_finite() {
                    (0.9 * err.powf(-0.2)).max(0.1)
                } else {
                    0.1
                };
                h *= shrink;
                continue;
            }
            if y1[0] <= 0.0 && t + h > 0.0 && self.du(y1) < 0.0 {
                // Returned to the wall within this step: Newton on the step length.
                return LoadExit {
                    steps,
                    ..self.locate(y, t, h)
                };
            }
            t += h;
            y = y1;
            if self.energy(y) < 0.0 {
                return LoadExit {
                    e: 0.0,
                    sticks: true,
                    tau: t,
                    resolved: true,
                    steps,
                };
            }
            let grow = if err > 0.0 { 0.9 * err.powf(-0.2) } else { 5.0 };
            h *= grow.clamp(0.2, 5.0);
        }
        LoadExit {
            e: (-self.du(y)).clamp(0.0, 1.0),
            sticks: false,
            tau: t,
            resolved: false,
            steps: MAX_STEPS,
        }
    }

    /// The return to `u = 0` inside the step of length `h` from `(y, t)`: Newton on
    /// `u(s) = 0`, each `u(s)` a single step of length `s` from `y` (the step is inside
    /// the tolerance), `u'(s)` from the state.
    fn locate(&self, y: State, t: f64, h: f64) -> LoadExit {
        // Linear start: u is nearly linear near the wall, where the force vanishes.
        let (y_end, _) = self.step(y, h);
        let mut s = h * y[0] / (y[0] - y_end[0]);
        let mut ys = y_end;
        for _ in 0..8 {
            ys = self.step(y, s).0;
            let du = self.du(ys);
            if du >= 0.0 {
                break;
            }
            let ds = -ys[0] / du;
            s = (s + ds).clamp(0.0, h);
            if ds.abs() <= 1e-15 * s.max(1e-300) {
                break;
            }
        }
        LoadExit {
            e: (-self.du(ys)).clamp(0.0, 1.0),
            sticks: false,
            tau: t + s,
            resolved: true,
            steps: 0,
        }
    }
}
