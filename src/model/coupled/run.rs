//! A coupled strike over a window of samples: the method's steps, the contact intervals
//! and the energy balance.

use super::explicit::Accel;
use super::system::{Coupled, State, TwoWayMethod};
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
    pub sys: Coupled,
    pub method: TwoWayMethod,
    pub state: State,
    h: f64,
    substeps: u32,
    accel: Accel,
    /// The discrete gradient's last `Δδ` (its next first guess).
    dg_last: f64,
    h0: f64,
    dissipated: f64,
    in_contact: bool,
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
        let c = sys.contact;
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
            h: 1.0 / fs / substeps as f64,
            substeps,
            accel: Accel::ZERO,
            dg_last: 0.0,
            h0: sys.hamiltonian(&state),
            dissipated: 0.0,
            in_contact: false,
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

    /// Puts the system in state `s` (a voice's striker back from a flight, or moved by
    /// gravity between samples): the accelerations the methods hand on are those of `s`,
    /// so the next step starts from it consistently. The energy balance is left as it
    /// was (it no longer describes an isolated system).
    pub fn set_state(&mut self, s: State) {
        self.state = s;
        self.accel = self.sys.accel(&s);
        self.dg_last = 0.0;
        self.in_contact = s.delta(self.sys.modes.n).0 > 0.0;
    }

    /// Steps a sample takes.
    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// One step of the method; returns the contact force on the body at its end (the
    /// discrete gradient: over the step).
    #[inline]
    fn step(&mut self) -> f64 {
        let (sys, h) = (&self.sys, self.h);
        let p0 = sys.dissipation_power(&self.state);
        let estimated = match self.method {
            TwoWayMethod::Paper(Method::Verlet) => {
                self.accel = sys.verlet_step(&mut self.state, &self.accel, h);
                true
            }
            TwoWayMethod::Paper(Method::Heun) => {
                self.accel = sys.heun_step(&mut self.state, &self.accel, h);
                true
            }
            TwoWayMethod::Paper(Method::Rk4) => {
                sys.rk4_step(&mut self.state, h);
                true
            }
            TwoWayMethod::Paper(Method::Am1) => {
                self.accel = sys.am1_step(&mut self.state, &self.accel, h, &mut self.newton);
                true
            }
            TwoWayMethod::DiscreteGradient => {
                let r = sys.dg_step(&mut self.state, h, &mut self.dg_last);
                self.dissipated += r.dissipated;
                self.accel.force = r.force;
                false
            }
        };
        if estimated {
            // The explicit methods and AM1 carry no dissipation of their own: the
            // trapezoid rule on the dissipated power measures it to O(h²).
            self.dissipated += 0.5 * h * (p0 + sys.dissipation_power(&self.state));
        }
        self.accel.force
    }

    /// Advances one sample; returns the contact force on the body at its end (0 out of
    /// contact), or `None` once the state has gone non-finite.
    pub fn tick(&mut self) -> Option<f64> {
        if self.report.runaway {
            return None;
        }
        let n = self.sys.modes.n;
        let mut force = 0.0;
        for _ in 0..self.substeps {
            force = self.step();
            let (d, _) = self.state.delta(n);
            if d > 0.0 && !self.in_contact {
                self.report.contacts += 1;
            }
            if d <= 0.0 && self.in_contact {
                self.report.v_out = self.state.v;
            }
            self.in_contact = d > 0.0;
        }
        if !self.state.is_finite() {
            self.report.runaway = true;
            return None;
        }
        if self.in_contact {
            self.report.contact_samples += 1;
        } else {
            force = 0.0;
        }
        let drift = (self.sys.hamiltonian(&self.state) + self.dissipated - self.h0) / self.h0;
        self.report.energy_drift = drift;
        self.report.energy_drift_max = self.report.energy_drift_max.max(drift.abs());
        Some(force)
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
