//! Gravity during contact (seed 001) and restitution targets (seed 000) for one
//! contact: the load in the force, the load-aware exit, trapping and rest.

use super::*;

impl Impact {
    /// The same contact leaving at `−e v_in`: the clamp's target for a damping set from
    /// a restitution `e` (whose `μ` was solved so that eq (6) gives exactly this).
    pub fn with_restitution_target(mut self, e: f64) -> Self {
        if self.scheme.correction.clamp()
            && self.scheme.clamp_target == ClampTarget::Exact
            && e.is_finite()
        {
            self.v_target = -e.clamp(0.0, 1.0) * self.an.v_in;
        }
        self
    }

    /// The same contact under gravity `g` (m/s²) during contact (seed 001), with its
    /// exact load-aware outcome `exit` (`load::exit`) and the clamp's restitution
    /// `e_target` (the exact `exit.e`, or Proposition 1's). `g ≤ 0` or non-finite
    /// leaves the contact as it is.
    pub fn with_gravity(self, g: f64, exit: LoadExit, e_target: f64) -> Self {
        let mut imp = self.with_load(g);
        imp.resolve_load(exit, e_target);
        imp
    }

    /// The same contact under gravity `g` during contact, its exit still to be solved
    /// (`load::ExitSolve`) and handed over by [`Self::resolve_load`]. Meanwhile the
    /// contact does not stick on the exit's account (it still can by its energy, see
    /// `Loaded::observe`), the clamp's target is the contact's without load and the
    /// guard its length without load (at least [`GUARD_SLACK`] samples, longer than
    /// any solve takes at the bouncer's slices).
    pub fn with_load(mut self, g: f64) -> Self {
        if !(g.is_finite() && g > 0.0) {
            return self;
        }
        let c = self.an.contact;
        self.load = Loaded::new(&c, self.an.v_in, g);
        self.hybrid_on = false;
        self.clock_zone = 0.0;
        // The load speeds the mass up in the well: at most to √(v_in² + 2α/(α+1) g x̄).
        let v_well = (self.an.v_in.powi(2) + 2.0 * g * self.load.x_rest).sqrt();
        if v_well.is_finite() {
            self.v_runaway = RUNAWAY_SPEED_RATIO * v_well;
        }
        self.f = self.load.force;
        if self.scheme.stepping == Stepping::Auto && !self.closed_form {
            // Steps for the deepest compression under the load: energy bounds it by
            // the larger of 2^{1/(α+1)} times the unloaded x_max and the depth where the
            // load's work is half the spring's, (2(α+1) m g/k)^{1/α}.
            let a = c.alpha;
            let x_free =
                ((a + 1.0) * c.mass * self.an.v_in.powi(2) / (2.0 * c.k)).powf(1.0 / (a + 1.0));
            let x_load = (2.0 * (a + 1.0) * c.mass * g / c.k).powf(1.0 / a);
            let x_deep = (x_free * 2f64.powf(1.0 / (a + 1.0))).max(x_load);
            let sample = self.h_sample;
            match plan_within(&c, self.an.v_in, x_deep, sample, OMEGA_ACCURATE) {
                Some((n, damped)) if n > self.substeps || damped != self.damped => {
                    self.substeps = n;
                    self.damped = damped;
                    self.h = sample / n as f64;
                    self.h_m = self.h / c.mass;
                }
                Some(_) => {}
                None => self.closed_form = true,
            }
        }
        self
    }

    /// Hands a loaded contact ([`Self::with_load`]) its exact exit and the clamp's
    /// restitution `e_target`: the clamp's target, the stick decision, the guard and
    /// the drift's scale. For a contact that already ended on its provisional target,
    /// the mass is put where the exit would have put it: at the exit speed, or at
    /// rest where the exit says it sticks and the contact would have held it (under
    /// the clamp, or in closed form).
    pub fn resolve_load(&mut self, exit: LoadExit, e_target: f64) -> ExitNews {
        if self.load.g <= 0.0 {
            return ExitNews::Unchanged;
        }
        let c = self.an.contact;
        self.load.set_exit(&c, self.an.v_in, exit);
        let clamp = self.scheme.correction.clamp();
        if clamp && e_target.is_finite() {
            self.v_target = -e_target.clamp(0.0, 1.0) * self.an.v_in;
        } else if !exit.sticks {
            self.v_target = -exit.e * self.an.v_in;
        }
        // The guard follows the load-aware contact time; a sticking contact's is
        // extended when the mass is trapped (see `trap`).
        let fs = self.sample_rate();
        let bound = if exit.resolved {
            exit.tau
        } else {
            2.0 * exit.tau.max(0.0)
        };
        let max = (GUARD_FACTOR * bound * fs + GUARD_SLACK).ceil() as u64;
        self.max_samples = self.max_samples.max(max);
        if self.in_contact || self.load.rested || !self.on_target {
            return ExitNews::Unchanged;
        }
        if exit.sticks && (clamp || self.closed_form) {
            self.rest();
            return ExitNews::Rests;
        }
        self.v = self.v_target;
        ExitNews::Leaves
    }

    /// Gravity during contact, m/s² (0 for the paper's contact).
    pub fn gravity(&self) -> f64 {
        self.load.g
    }

    /// The exact load-aware outcome, under gravity during contact, once solved.
    pub fn load_exit(&self) -> Option<LoadExit> {
        self.load.exit
    }

    /// True when the contact ended with the mass at rest at `x̄ = (m g/k)^{1/α}`.
    pub fn rested(&self) -> bool {
        self.load.rested
    }

    /// True once the load-aware energy went negative (the mass can no longer leave).
    pub fn trapped(&self) -> bool {
        self.load.trapped
    }

    /// Largest residual drift of the load-aware energy balance `H + D` over the
    /// contact, relative to the energy the exact contact dissipates (0 without load).
    pub fn load_drift(&self) -> f64 {
        self.load.max_dev()
    }

    /// Ends a trapped contact with the mass at rest at `x̄`.
    #[cold]
    pub(super) fn rest(&mut self) {
        self.load.rested = true;
        self.x = self.load.x_rest;
        self.v = 0.0;
        self.f = 0.0;
        self.in_contact = false;
    }

    /// [`rest`](Self::rest) without a jolt: a creep (or, `spent`, a rocking at
    /// [`TRAPPED_WORK`]) stops there, and the body hears the step, not the mass losing
    /// its last velocity as a blow ([`Self::v_heard`]).
    #[cold]
    pub(super) fn rest_quietly(&mut self, spent: bool) {
        let v = self.v;
        self.rest();
        self.crept = v;
        self.spent = spent;
    }

    /// The mass got trapped (its load-aware energy is negative): the settling drag is
    /// on, and the guard allows for the settling.
    #[cold]
    pub(super) fn trap(&mut self) {
        self.trap_work = self.work();
        // The sample rate from the sample itself: `h` is shortened while a contact's
        // first sample, which started inside it, is stepped.
        let fs = self.sample_rate();
        let settle = self.load.settle_bound(&self.an.contact) * fs;
        let until = self.n as f64 + settle + GUARD_SLACK;
        if until.is_finite() {
            self.max_samples = self.max_samples.max(until.ceil() as u64);
        }
    }

    /// The external force on the mass at velocity `v`: the load less the settling drag
    /// (both 0 for the paper's contact).
    #[inline(always)]
    pub(super) fn ext(&self, v: f64) -> f64 {
        self.load.force - self.load.drag * v
    }
}
