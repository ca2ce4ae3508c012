//! A coupled strike over a window of samples: the method's steps, the contact intervals
//! and the energy balance.

use super::explicit::Accel;
use super::simd;
use super::system::{Coupled, ModeCoefs, State, Step, TwoWayMethod};
use crate::model::alpha_pow::AlphaPow;
use crate::model::newton::NewtonStats;
use crate::model::scheme::Method;

/// What a coupled strike did over its window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoupledReport {
    /// The striker's velocity when its last contact in the window ended (positive into
    /// the body, as `simulate`); where the window ends in contact, its velocity then.
    pub v_out: f64,
    /// Samples (after the onset's) with `δ > 0`.
    pub contact_samples: u64,
    /// Separate contact intervals (counted at every step).
    pub contacts: u32,
    /// `(H + dissipated − H₀) / H₀`, `H₀ = ½ m v_in²` the input energy, at the window's
    /// end.
    pub energy_drift: f64,
    /// Largest `|H + dissipated − H₀| / H₀` over the window.
    pub energy_drift_max: f64,
    pub substeps: u32,
    /// The window ended in contact.
    pub in_contact_at_end: bool,
    /// The state went non-finite and the run stopped there.
    pub runaway: bool,
}

/// A coupled strike advanced one sample at a time.
#[derive(Clone, Copy, Debug)]
pub struct CoupledRun {
    sys: Coupled,
    pub method: TwoWayMethod,
    pub state: State,
    /// The modes' constants at the step `h` (made once: see `set_contact` for the one
    /// part of the system a run may change).
    coefs: ModeCoefs,
    /// `δ^α` for the contact's `α` (made once: `AlphaPow`).
    pow: AlphaPow,
    h: f64,
    substeps: u32,
    accel: Accel,
    /// The discrete gradient's last `Δδ` (its next first guess).
    dg_last: f64,
    h0: f64,
    dissipated: f64,
    in_contact: bool,
    /// Keep the energy balance (the report's `energy_drift`): a voice, which only
    /// plays the strike, leaves it off (`without_energy`).
    energy: bool,
    /// Take the vector path (`simd`) where it has the method: AVX2 found.
    vector: bool,
    pub report: CoupledReport,
    pub newton: NewtonStats,
}

impl CoupledRun {
    /// A strike at `v_in` onto the body at rest, at sample rate `fs`; `None` where the
    /// parameters are degenerate or the contact needs more than `MAX_SUBSTEPS` steps a
    /// sample.
    pub fn new(sys: Coupled, method: TwoWayMethod, v_in: f64, fs: f64) -> Option<Self> {
        let substeps = sys.substeps(v_in, 1.0 / fs)?;
        Self::with_substeps(sys, method, v_in, fs, substeps)
    }

    /// The same at a given number of steps a sample instead of the rule's: to compare
    /// with another model at the same step (the rigid-wall limit against `Impact`).
    pub fn with_substeps(
        sys: Coupled,
        method: TwoWayMethod,
        v_in: f64,
        fs: f64,
        substeps: u32,
    ) -> Option<Self> {
        let pow = AlphaPow::new(sys.contact.alpha);
        Self::with_pow(sys, method, v_in, fs, substeps, &pow)
    }

    /// [`with_substeps`](Self::with_substeps) with the power's tables at hand (a voice
    /// keeps them between strikes); tables made for another `α` are made anew.
    pub fn with_pow(
        sys: Coupled,
        method: TwoWayMethod,
        v_in: f64,
        fs: f64,
        substeps: u32,
        pow: &AlphaPow,
    ) -> Option<Self> {
        let c = sys.contact;
        let pow = if pow.alpha() == c.alpha {
            *pow
        } else {
            AlphaPow::new(c.alpha)
        };
        let valid = [c.k, c.alpha, c.mass, v_in, fs]
            .iter()
            .all(|p| p.is_finite() && *p > 0.0)
            && c.mu.is_finite()
            && c.mu >= 0.0
            && substeps > 0;
        if !valid {
            return None;
        }
        let state = State::onset(v_in);
        Some(Self {
            sys,
            method,
            state,
            coefs: ModeCoefs::new(&sys.modes, 1.0 / fs / substeps as f64),
            pow,
            h: 1.0 / fs / substeps as f64,
            substeps,
            accel: Accel::ZERO,
            dg_last: 0.0,
            h0: sys.hamiltonian(&state),
            dissipated: 0.0,
            in_contact: false,
            energy: true,
            vector: crate::model::body::vector_path(),
            report: CoupledReport {
                v_out: v_in,
                contact_samples: 0,
                contacts: 0,
                energy_drift: 0.0,
                energy_drift_max: 0.0,
                substeps,
                in_contact_at_end: false,
                runaway: false,
            },
            newton: NewtonStats::default(),
        })
    }

    /// The same run without its energy balance (the power dissipated, twice a step,
    /// and `H` once a sample): what a voice plays, which only needs the strike. The
    /// report's `energy_drift` then stays 0.
    pub fn without_energy(mut self) -> Self {
        self.energy = false;
        self
    }

    /// The same run on the portable loop whatever the CPU (to compare the paths).
    pub fn portable(mut self) -> Self {
        self.vector = false;
        self
    }

    /// Puts the system in state `s` (a voice's striker back from a flight, or moved by
    /// gravity between samples): the accelerations the methods hand on are those of `s`,
    /// so the next step starts from it consistently. The energy balance is left as it
    /// was (it no longer describes an isolated system).
    pub fn set_state(&mut self, s: State) {
        self.state = s;
        self.state.rest_past(self.sys.modes.n);
        let step = Step {
            k: &self.coefs,
            pow: &self.pow,
            h: self.h,
        };
        self.accel = self.sys.accel_with(step, &self.state);
        self.dg_last = 0.0;
        self.in_contact = self.state.delta(self.sys.modes.n).0 > 0.0;
    }

    /// Changes the contact's damping `μ` (a voice's next impact, re-solved for its own
    /// speed); nothing else of the system changes within a run.
    pub fn set_mu(&mut self, mu: f64) {
        self.sys.contact.mu = mu;
    }

    /// The system it runs.
    pub fn sys(&self) -> &Coupled {
        &self.sys
    }

    /// Steps a sample takes.
    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// One step of the method; returns the contact force on the body at its end (the
    /// discrete gradient: over the step) and the compression at its end.
    #[inline(always)]
    fn step(&mut self) -> (f64, f64) {
        let step = Step {
            k: &self.coefs,
            pow: &self.pow,
            h: self.h,
        };
        let (sys, h) = (&self.sys, self.h);
        let p0 = if self.energy {
            sys.dissipation_power(&self.state)
        } else {
            0.0
        };
        let d = match self.method {
            TwoWayMethod::Paper(Method::Verlet) => {
                sys.verlet_step(step, &mut self.state, &mut self.accel)
            }
            TwoWayMethod::Paper(Method::Heun) => {
                sys.heun_step(step, &mut self.state, &mut self.accel)
            }
            TwoWayMethod::Paper(Method::Rk4) => {
                sys.rk4_step(step, &mut self.state);
                let (d, dr) = self.state.delta(sys.modes.n);
                self.accel.force = sys.force_with(step.pow, d, dr);
                d
            }
            TwoWayMethod::Paper(Method::Am1) => {
                self.accel =
                    sys.am1_step(step.k, &mut self.state, &self.accel, h, &mut self.newton);
                self.state.delta(sys.modes.n).0
            }
            TwoWayMethod::DiscreteGradient => {
                let r = sys.dg_step(step.k, &mut self.state, h, &mut self.dg_last);
                self.dissipated += r.dissipated;
                self.accel.force = r.force;
                self.state.delta(sys.modes.n).0
            }
        };
        if self.energy && self.method != TwoWayMethod::DiscreteGradient {
            // The explicit methods and AM1 carry no dissipation of their own: the
            // trapezoid rule on the dissipated power measures it to O(h²).
            self.dissipated += 0.5 * h * (p0 + sys.dissipation_power(&self.state));
        }
        (self.accel.force, d)
    }

    /// Advances one sample; returns the contact force on the body at its end (0 out of
    /// contact), or `None` once the state has gone non-finite.
    #[inline]
    pub fn tick(&mut self) -> Option<f64> {
        if self.report.runaway {
            return None;
        }
        let mut force = 0.0;
        let mut d = 0.0;
        if !self.vectorised(&mut d) {
            for _ in 0..self.substeps {
                (force, d) = self.step();
                count(&mut self.report, &mut self.in_contact, d, self.state.v);
            }
        } else {
            force = self.accel.force;
        }
        // A mode that is not finite makes the compression so (the sum carries it on).
        let (_, dr) = self.state.delta(self.sys.modes.n);
        if !(self.state.x.is_finite() && d.is_finite() && dr.is_finite()) {
            self.report.runaway = true;
            return None;
        }
        if self.in_contact {
            self.report.contact_samples += 1;
        } else {
            force = 0.0;
        }
        if self.energy {
            let drift = (self.sys.hamiltonian(&self.state) + self.dissipated - self.h0) / self.h0;
            self.report.energy_drift = drift;
            self.report.energy_drift_max = self.report.energy_drift_max.max(drift.abs());
        }
        Some(force)
    }

    /// The sample's steps by the vector path, where it is taken: a run without its
    /// energy balance, on a CPU with AVX2, by Verlet or Heun. `d` becomes the last
    /// step's compression.
    #[inline(always)]
    fn vectorised(&mut self, d: &mut f64) -> bool {
        let TwoWayMethod::Paper(method) = self.method else {
            return false;
        };
        if self.energy || !self.vector {
            return false;
        }
        let (report, in_contact) = (&mut self.report, &mut self.in_contact);
        let mut each = |delta: f64, v: f64| {
            count(report, in_contact, delta, v);
            *d = delta;
        };
        simd::sample(
            method,
            &self.sys,
            Step {
                k: &self.coefs,
                pow: &self.pow,
                h: self.h,
            },
            &mut self.state,
            &mut self.accel,
            self.substeps,
            &mut each,
        )
    }

    /// The report so far (the velocity of a contact still going is the current one).
    pub fn finish(&self) -> CoupledReport {
        let mut r = self.report;
        r.in_contact_at_end = self.in_contact;
        if self.in_contact {
            r.v_out = self.state.v;
        }
        r
    }
}

/// Counts a step ending at compression `d` with the striker at `v`: a contact begins
/// where `d` turns positive, and leaves at `v` where it turns back.
#[inline(always)]
fn count(report: &mut CoupledReport, in_contact: &mut bool, d: f64, v: f64) {
    if d > 0.0 && !*in_contact {
        report.contacts += 1;
    }
    if d <= 0.0 && *in_contact {
        report.v_out = v;
    }
    *in_contact = d > 0.0;
}

/// Runs a strike for `samples` samples and reports it; `None` where [`CoupledRun::new`]
/// refuses the parameters.
pub fn simulate_coupled(
    sys: Coupled,
    method: TwoWayMethod,
    v_in: f64,
    fs: f64,
    samples: u64,
) -> Option<CoupledReport> {
    let mut run = CoupledRun::new(sys, method, v_in, fs)?;
    for _ in 0..samples {
        if run.tick().is_none() {
            break;
        }
    }
    Some(run.finish())
}
