//! A voice's strike with two-way coupling: the striker meets the body's modes at the
//! strike point (`model::coupled`), and the force of that contact drives the voice's
//! modal body as the rigid wall's does.
//!
//! The coupled system is stepped only while the striker is near the body. Once it is
//! clear — out of contact, moving away, and farther than the surface can reach — the
//! strike is over; with bouncing it flies under gravity in closed form while each mode
//! rings freely (also in closed form, applied once at the return), and the coupled
//! system takes over again a sample before the striker could meet the surface. So a
//! voice pays for the coupled system only around its contacts, micro-contacts included.
//!
//! Under gravity a train's last impact is decided by the rigid wall's rules: the load at
//! once, the load-aware exit (`load::ExitSolve`) a slice a sample, as the rigid wall's
//! bouncer solves it, since it is needed only when the contact ends. A flight that
//! would land before it is known waits at its landing and lands at the start of the
//! sample it arrives in (`exit.rs`).
//!
//! Every state is fixed-size; nothing allocates. Where the coupled step rule needs more
//! than [`max_voice_substeps`] steps a sample the strike is refused and the voice plays
//! the rigid wall instead ([`TwoWay::new`] returns `None`).

// The modes are a struct of arrays, indexed together up to `n`.
#![allow(clippy::needless_range_loop)]

use super::norm::{IMPULSE_MARGIN, Norm, excitation};
use crate::engine::params::{Coupling, EngineParams};
use crate::model::body::{BodySettings, BodyType};
use crate::model::bounce::{
    EXIT_SLICE, MAX_IMPACTS, MAX_TRAIN_TIME, WAIT_FACTOR, flight_at, flight_return,
};
use crate::model::coupled::{Coupled, CoupledRun};
use crate::model::{Analytic, BounceSample, Contact, Latch, Train, restitution};

mod budget;
pub use budget::{WORK_BUDGET, max_voice_substeps, method_of};
mod exit;
use exit::LastImpact;
mod modes;
pub(super) use modes::ModesCache;
use modes::free_modes;
#[cfg(test)]
use {
    crate::model::Method,
    crate::model::body::strike_modes,
    crate::model::coupled::{State, StrikeModes},
    budget::MAX_VOICE_SUBSTEPS,
};

/// Longest the striker stays near the body in one strike, s (a striker resting on the
/// body under gravity would otherwise keep the coupled system running for ever): the
/// strike then ends, as a rigid-wall train ends at rest.
pub const MAX_NEAR_TIME: f64 = 0.1;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    /// The coupled system runs (in contact, or near it).
    Near {
        samples: u64,
    },
    /// Ballistic flight under `g`: `t` s since it left at `(x0, v0)` (the surface bound
    /// `reach` away), resumed a sample before `t_return`: at `land`, the last sample
    /// boundary before it, or later where the flight waits there for its exit.
    Flight {
        x0: f64,
        v0: f64,
        t: f64,
        t_return: f64,
        land: Option<f64>,
    },
    Done,
}

/// What the editor's trace reads of a two-way strike after a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoWayView {
    /// The striker's displacement toward the body and velocity, m and m/s.
    pub x_s: f64,
    pub v: f64,
    /// The body's surface under the striker, `w = Σ w_k`, m.
    pub w: f64,
    /// The impact in progress: its speed in, and the contact it latched.
    pub v_in: f64,
    pub contact: Contact,
    pub impacts: u32,
    /// The strike (or train) is over.
    pub done: bool,
    /// It was ended early, its striker lifted, because it had spent its work budget
    /// (see `budget.rs`).
    pub cut: bool,
}

/// A strike (or bouncing train) on a body that gives.
#[derive(Clone, Copy, Debug)]
pub(super) struct TwoWay {
    run: CoupledRun,
    fs: f64,
    train: Train,
    stage: Stage,
    /// Samples played and impacts started.
    elapsed: u64,
    impacts: u32,
    /// The next sample starts an impact (for its level and budget).
    pending_onset: bool,
    /// The speed the impact in progress came in at.
    v_in: f64,
    /// Damping from a restitution: each impact gets the `μ` that leaves the rigid wall
    /// at `−e v_in` for its own `v_in`, as on the rigid wall (`Latch::contact_at`).
    restitution: Option<f64>,
    /// Whether the impact in progress is the train's last (its load-aware exit solved
    /// a slice a sample, see [`LastImpact::open`]).
    decision: LastImpact,
    /// Units of that solve a sample ([`EXIT_SLICE`]).
    slice: u32,
    /// What a sample near the body costs, and what the strike has spent, in
    /// [`budget::step_cost`] units; and whether it ended on [`WORK_BUDGET`].
    cost: u64,
    work: u64,
    /// The work around the steps: each sample near the body's own (the stage, the
    /// excitation, the checks after it) and each state reset by gravity between
    /// samples (`fall`, a force evaluation of the coupled system). Counted in
    /// [`work`](Self::work), what a crumple pays, not in the strike's [`WORK_BUDGET`]
    /// (which its sound depends on).
    overhead: u64,
    cut: bool,
}

impl TwoWay {
    /// The strike of `contact` at `v_in` on the body `st` of `p.body_mass` kg, or `None`
    /// where the patch is the rigid wall, there is no body, or the coupled system would
    /// need more than [`max_voice_substeps`] steps a sample (the rigid wall plays it).
    pub(super) fn new(
        p: &EngineParams,
        st: &BodySettings,
        latch: &Latch,
        v_in: f64,
        fs: f64,
        train: Train,
        cache: &mut ModesCache,
    ) -> Option<Self> {
        if p.coupling != Coupling::TwoWay || st.kind == BodyType::None {
            return None;
        }
        let modes = cache.get(st, p.body_mass);
        if modes.n == 0 {
            return None;
        }
        let contact = latch.contact_at(v_in);
        let sys = Coupled { contact, modes };
        let substeps = sys.substeps(v_in, 1.0 / fs)?;
        if substeps > max_voice_substeps(fs) {
            return None;
        }
        let pow = cache.pow(contact.alpha);
        let run =
            CoupledRun::with_pow(sys, method_of(p), v_in, fs, substeps, pow)?.without_energy();
        let gravity = train.gravity.filter(|g| *g > 0.0 && g.is_finite());
        Some(Self {
            run,
            fs,
            train: Train { gravity, ..train },
            stage: Stage::Near { samples: 0 },
            elapsed: 0,
            impacts: 1,
            pending_onset: true,
            v_in,
            restitution: latch.restitution,
            decision: LastImpact::open(&contact, gravity, v_in),
            slice: EXIT_SLICE,
            cost: u64::from(substeps) * budget::step_cost(method_of(p)),
            work: 0,
            overhead: 0,
            cut: false,
        })
    }

    /// What the strike has spent so far, in [`budget::step_cost`] units, with a
    /// bouncing train's exit solves at the rigid train's rate (`bounce::EXIT_WORK`
    /// an impact).
    pub(super) fn work(&self) -> u64 {
        let exits = self.train.gravity.map_or(0, |_| u64::from(self.impacts));
        self.work + exits * crate::model::bounce::EXIT_WORK + self.overhead
    }

    /// The coupled system's energy `H` (striker, contact, modes), J: a sum over the
    /// modes, so asked only where the trace keeps a point.
    pub(super) fn energy(&self) -> f64 {
        self.run.sys().hamiltonian(&self.run.state)
    }

    /// The strike as the trace reads it.
    pub(super) fn view(&self) -> TwoWayView {
        let (sys, s) = (self.run.sys(), &self.run.state);
        let (d, _) = s.delta(sys.modes.n);
        TwoWayView {
            x_s: s.x,
            v: s.v,
            w: s.x - d,
            v_in: self.v_in,
            contact: sys.contact,
            impacts: self.impacts,
            done: self.stage == Stage::Done,
            cut: self.cut,
        }
    }

    /// The rigid wall's closed form for the contact the impact in progress latched.
    pub(super) fn analytic(&self) -> Analytic {
        self.run.sys().contact.impact(self.v_in)
    }

    pub(super) fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// True while the striker presses the body.
    pub(super) fn touching(&self) -> bool {
        matches!(self.stage, Stage::Near { .. }) && self.delta() > 0.0
    }

    fn delta(&self) -> f64 {
        self.run.state.delta(self.run.sys().modes.n).0
    }

    /// How far the surface can ever move from rest while no contact feeds it: each
    /// free mode's energy only falls, so `|w_k| ≤ √(w_k² + (ẇ_k/ω_k)²)` from now on.
    fn reach(&self) -> f64 {
        let (m, s) = (&self.run.sys().modes, &self.run.state);
        let mut r = 0.0;
        for i in 0..m.n {
            let u = s.u[i] / m.omega[i];
            r += (s.w[i] * s.w[i] + u * u).sqrt();
        }
        r
    }

    /// One sample as the voice hears it: what the contact did, and its normalised
    /// excitation (as the rigid wall's: the sample's average force `m Δv fs`, within
    /// the impact's `budget`). An impact on a body that gives transfers at most
    /// `2 m v_in` (the striker cannot leave faster than it came: the body is passive),
    /// which sets its budget.
    #[inline]
    pub(super) fn excite(&mut self, norm: &Norm, budget: &mut f64) -> (BounceSample, f64) {
        let v_in = self.run.state.v;
        let s = self.step();
        let m = self.run.sys().contact.mass;
        if s.onset {
            *budget = IMPULSE_MARGIN * 2.0 * m * v_in.max(0.0) * self.fs * norm.inv_peak;
        }
        let u = excitation(m * s.dv * self.fs, norm, budget);
        (s, u)
    }

    /// One sample: what the contact took from the striker (as the rigid wall's
    /// [`BounceSample`]; under gravity in contact, over the static load).
    #[inline]
    pub(super) fn step(&mut self) -> BounceSample {
        self.elapsed += 1;
        let mut out = BounceSample::default();
        match self.stage {
            Stage::Done => {}
            Stage::Near { samples } => {
                out.onset = std::mem::take(&mut self.pending_onset);
                let v0 = self.run.state.v;
                if self.run.tick().is_none() {
                    self.stage = Stage::Done;
                    return out;
                }
                out.dv = v0 - self.run.state.v;
                self.work += self.cost;
                self.overhead += budget::SAMPLE_WORK;
                if let Some(g) = self.train.gravity {
                    out.dv -= self.fall(g);
                }
                self.stage = Stage::Near {
                    samples: samples + 1,
                };
                self.decision.spend(&self.run.sys().contact, self.slice);
                self.after_near(samples + 1, &mut out);
            }
            Stage::Flight {
                x0,
                v0,
                t,
                t_return,
                land,
            } => {
                if self.decision.pending() {
                    // A flight sample has no contact to step: its budget goes to the
                    // exit. One that says the striker sticks ends the train here, as it
                    // would have ended at the take-off (a flight is silent).
                    let budget = self.slice.saturating_mul(WAIT_FACTOR);
                    self.decision.spend(&self.run.sys().contact, budget);
                    if self.decision.last {
                        self.stage = Stage::Done;
                        return out;
                    }
                }
                self.fly(x0, v0, t + 1.0 / self.fs, t_return, land);
            }
        }
        out
    }

    /// Gravity over the sample just stepped (its exact ballistic part, added to the
    /// striker's motion), where it acts: always with gravity in contact, out of contact
    /// otherwise. Returns the velocity it added where the contact heard it (the static
    /// load, which the body does not hear), else 0.
    fn fall(&mut self, g: f64) -> f64 {
        let in_contact = self.delta() > 0.0;
        if in_contact && !self.train.in_contact {
            return 0.0;
        }
        let dt = 1.0 / self.fs;
        let mut s = self.run.state;
        s.x += 0.5 * g * dt * dt;
        s.v += g * dt;
        self.run.set_state(s);
        self.overhead += budget::RESET_WORK;
        if self.train.in_contact { -g * dt } else { 0.0 }
    }

    /// After a sample near the body: the strike ends, or flies, once the striker is
    /// clear; and it ends, whatever, after [`MAX_NEAR_TIME`] or [`WORK_BUDGET`].
    fn after_near(&mut self, samples: u64, out: &mut BounceSample) {
        let s = self.run.state;
        // (The surface's reach, a root a mode, only once the striker moves away.)
        let clear = s.v <= 0.0 && self.delta() <= 0.0 && s.x < -self.reach();
        let late = self.elapsed as f64 > MAX_TRAIN_TIME * self.fs;
        // (A state that is not finite has ended the strike in `step` already.)
        self.cut = self.work > WORK_BUDGET;
        if samples as f64 > MAX_NEAR_TIME * self.fs || late || self.cut {
            out.detached = true;
            self.stage = Stage::Done;
            return;
        }
        if !clear {
            return;
        }
        out.detached = true;
        let reach = self.reach();
        match self.train.gravity {
            Some(g) if s.v < 0.0 && !self.decision.last && self.impacts < MAX_IMPACTS => {
                // Back to the surface's reach where x0 + v0 t + g t²/2 = −reach.
                let t_return = flight_return(s.x, s.v, g, -reach);
                self.stage = Stage::Flight {
                    x0: s.x,
                    v0: s.v,
                    t: 0.0,
                    t_return,
                    land: None,
                };
            }
            _ => {
                self.decision.settle();
                self.stage = Stage::Done;
            }
        }
    }

    /// A sample of flight, `t` s after take-off: the coupled system takes over at the
    /// last sample boundary before the striker can reach the surface. Where the exit
    /// of the contact it flies from is not known by then, the striker waits there (its
    /// state as at that boundary) while the modes ring on, and lands at the start of
    /// the sample its exit arrives in: late, at the exact flight's return speed.
    fn fly(&mut self, x0: f64, v0: f64, t: f64, t_return: f64, land: Option<f64>) {
        // (As the flight was always resumed: where `t_return` is not a number, at once.)
        let flying = t + 1.0 / self.fs < t_return;
        let land = land.or((!flying).then_some(t));
        let Some(t_land) = land.filter(|_| !self.decision.pending()) else {
            self.stage = Stage::Flight {
                x0,
                v0,
                t,
                t_return,
                land,
            };
            return;
        };
        let g = self.train.gravity.unwrap_or(0.0);
        let mut s = self.run.state;
        (s.x, s.v) = flight_at(x0, v0, g, t_land);
        free_modes(&self.run.sys().modes, &mut s, t);
        if let Some(e) = self.restitution {
            self.run.set_mu(restitution::mu_for(e, s.v));
        }
        self.run.set_state(s);
        self.v_in = s.v;
        self.impacts += 1;
        self.decision = LastImpact::open(&self.run.sys().contact, self.train.gravity, s.v);
        self.pending_onset = true;
        self.stage = Stage::Near { samples: 0 };
    }
}

#[cfg(test)]
mod tests;
