//! One contact, advanced one sample at a time: the integrators of eqs (23)–(26) and
//! the corrections of Section IV-A, dispatched by a `match` on small `Copy` enums.
//!
//! An impact starts aligned on a sample (`x₀ = 0`, `v₀ = v_in`, `f₀ = 0`, as the
//! paper's tables assume) or a fraction into one ([`Impact::start_at`]: a bounce's
//! exact return time), and ends at the first sample with `x ≤ 0`, reporting where
//! inside that sample it left ([`Impact::exit_fraction`]).
//!
//! Under gravity during contact ([`Impact::with_gravity`], seed 001) the load `m g`
//! acts on the mass throughout; the hybrid correction stands aside (eq (3)'s `x(v)`
//! assumes no load), the clamp sets the load-aware exit, and a mass that cannot leave
//! settles to rest (see `load`).

use super::contact::{Analytic, Contact, PowNear, binomial_coefficients, has_exact_pow};
use super::hybrid::{Fix, Hybrid};
use super::load::{ExitNews, LoadExit, Loaded};
use super::newton::{self, NewtonStats};
use super::scheme::{ClampTarget, Method, Scheme, Stepping};

mod advance;
mod clock;
mod damped;
mod gravity;
mod steps;
mod substep;
#[cfg(test)]
mod vex_tests;

pub use steps::{
    ACCURATE_MAX, DAMPED_OVER, DAMPING_STEP, MAX_STRIDE, MAX_SUBSTEPS, OMEGA_ACCURATE, OMEGA_PULSE,
    OMEGA_STEP, STRIDE_RATE, need_within, plan_within, stride_within, substeps_at, substeps_for,
    substeps_within,
};

/// A contact that has gone numerically wild (a non-finite state, or a speed this many
/// times `v_in`, which a dissipative contact can never reach) is ended at once with a
/// physical exit and flagged as runaway.
const RUNAWAY_SPEED_RATIO: f64 = 4.0;

/// Without the clamp, a contact that would leave faster than this many times `v_in` is
/// flagged as runaway and leaves at the exact `v_out` instead: a dissipative contact
/// can never leave faster than it arrived, and a voice must not fly off for minutes.
/// Smaller numerical gains stay: they are what the uncorrected modes exist to show.
pub const EXIT_SPEED_LIMIT: f64 = 1.5;

/// A contact still going after this many times its closed-form upper bound on eq (9)
/// (see [`super::tau::contact_time_bound`]), plus [`GUARD_SLACK`] samples, is ended as
/// runaway.
const GUARD_FACTOR: f64 = 4.0;
const GUARD_SLACK: f64 = 64.0;

/// Below this fraction of `x_max` on the way out, the hybrid's exit is dated by its
/// own clock (see `Impact::tick_clock`).
pub const CLOCK_ZONE: f64 = 0.2;

/// Where a power is carried from one step to the next (Verlet, Heun, AM1), every
/// this many steps it is evaluated directly: the roundings carried (a few ulps a
/// step) stay bounded by a few tens of ulps.
const POW_ANCHOR_EVERY: u64 = 16;

/// Most [`Impact::work`] a trapped mass's settling may take (about 1.5 ms of a core):
/// then it is put at rest, without a jolt. A mass that can no longer leave has made its
/// sound; what is left is its settling under a drag that is a rule, not the paper's
/// physics (`load::SETTLE_ZETA`). Where the well is soft that settling is a rocking at
/// a few hertz, or a creep at millimetres a second, for seconds: one such voice cost
/// 10–20 times the default patch's. Each has fallen about 40 dB or more when this is
/// spent at a step a sample.
pub const TRAPPED_WORK: u64 = 40_000;

/// The per-sample state of one contact.
#[derive(Clone, Copy, Debug)]
pub struct Impact {
    an: Analytic,
    scheme: Scheme,
    /// The step: one sample's time over `substeps`.
    h: f64,
    /// `h / m`, the only way the mass enters the explicit updates.
    h_m: f64,
    /// Steps per sample (1 unless the contact is too stiff for the rate).
    substeps: u32,
    /// Shorter than [`MAX_SUBSTEPS`] can resolve: exits in closed form.
    closed_form: bool,
    /// Damped past what the method can follow at [`DAMPED_OVER`] steps a sample: taken
    /// by the damping-exact step instead (see `damped`).
    damped: bool,
    /// The velocity a creeping mass had when it was put at rest (0 otherwise): the
    /// body hears the creep stop, not the mass lose it (see [`Self::v_heard`]).
    crept: f64,
    /// The [`work`](Self::work) done when the mass was trapped (the settling's own is
    /// bounded by [`TRAPPED_WORK`]); and whether the settling was ended on it.
    trap_work: u64,
    spent: bool,
    /// The velocity the clamp sets at detachment; without the clamp, the exact `v_out`
    /// that a runaway or closed-form contact leaves with.
    v_target: f64,
    /// Most samples a contact may last before it is ended as runaway.
    max_samples: u64,
    /// Speed beyond which the contact counts as runaway.
    v_runaway: f64,
    x: f64,
    v: f64,
    /// Force on the mass at the current state, reused as `f_n` by the next step.
    f: f64,
    /// Heun's predicted velocity `ṽ_{n+1}` of the last step (see `paper_handover`).
    v_pred: f64,
    /// At a general α (no exact power, see `has_exact_pow`), `x^α` is carried from a
    /// nearby point where it is known (`PowNear`): for RK4 the last step's `x₄`, for
    /// Verlet and Heun the last state, for AM1 the last point Newton evaluated.
    near_pow: bool,
    pow_ref: PowNear,
    /// Binomial coefficients of `(1 + σ)^α`.
    pow_coeffs: [f64; 9],
    /// The hybrid correction's carried logarithm (untouched without it).
    hybrid: Hybrid,
    /// Samples and steps advanced so far.
    n: u64,
    steps: u64,
    in_contact: bool,
    runaway: bool,
    pub newton: NewtonStats,
    /// The hybrid correction applies (asked for, and no load).
    hybrid_on: bool,
    /// Fraction of the first sample that had passed at onset, in `[0, 1)`.
    start: f64,
    /// Where in the last sample the contact ended, in `(0, 1]`.
    exit_frac: f64,
    /// Where in the current step `x` crossed 0 (set by `substep` when it ends).
    theta: f64,
    /// Gravity during contact (inert when `g = 0`).
    load: Loaded,
    /// The contact ended on `v_target` (the clamp, closed form, the guard or a
    /// runaway), not at its own exit speed.
    on_target: bool,
    /// [`CLOCK_ZONE`] of `x_max` with the hybrid (0 without it, and with one step per
    /// sample: the paper's convention).
    clock_zone: f64,
    /// The exit clock's `x` (NaN until it starts) and the exit it dated, in samples
    /// since the contact's first sample began (NaN until then). See `tick_clock`.
    clock_x: f64,
    clock_t: f64,
    /// One sample, s, and its reciprocal (the rate the exit clock counts in).
    h_sample: f64,
    fs: f64,
    /// Steps compiled for AVX2 (`step_vex`): the same arithmetic, in three-operand
    /// instructions, where the CPU has it (see `vex`).
    vex: bool,
}

impl Impact {
    /// A contact starting now with inbound speed `v_in > 0` at sample rate `fs`.
    ///
    /// Degenerate inputs (non-finite, `k`, `m`, `α`, `v_in` or `fs` not positive, `μ`
    /// negative) give a contact that ends at the first step, never a panic.
    pub fn new(contact: Contact, scheme: Scheme, v_in: f64, fs: f64) -> Self {
        let an = Analytic::new(contact, v_in);
        let c = contact;
        let valid = [c.k, c.alpha, c.mass, v_in, fs]
            .iter()
            .all(|p| p.is_finite() && *p > 0.0)
            && c.mu.is_finite()
            && c.mu >= 0.0;
        // One solution of eq (6) serves the exit and the guard's bound.
        let (v_out, s_out) = super::vout::v_out_and_s_out(c.mu, v_in);
        let v_target = match (scheme.correction.clamp(), scheme.clamp_target) {
            (true, ClampTarget::Approx) => an.v_out_approx(),
            _ => v_out,
        };
        let sample = 1.0 / fs;
        let plan = match (valid, scheme.stepping) {
            (false, _) => None,
            (true, Stepping::PerSample) => Some((1, false)),
            (true, Stepping::Auto) => plan_within(&c, v_in, an.x_max(), sample, OMEGA_ACCURATE),
        };
        let substeps = plan.map(|p| p.0);
        let h = sample / substeps.unwrap_or(1) as f64;
        let bound = super::tau::contact_time_bound_at(&an, v_out, s_out) * fs;
        let max_samples = (GUARD_FACTOR * bound + GUARD_SLACK).ceil();
        Self {
            an,
            scheme,
            h,
            h_m: h / contact.mass,
            substeps: substeps.unwrap_or(1),
            closed_form: substeps.is_none(),
            damped: plan.is_some_and(|p| p.1),
            crept: 0.0,
            trap_work: 0,
            spent: false,
            v_target: if v_target.is_finite() { v_target } else { 0.0 },
            // A NaN bound saturates to 0: such a contact ends at once.
            max_samples: max_samples as u64,
            v_runaway: RUNAWAY_SPEED_RATIO * v_in,
            x: 0.0,
            v: v_in,
            f: 0.0,
            v_pred: v_in,
            hybrid: Hybrid::default(),
            near_pow: !has_exact_pow(contact.alpha),
            pow_ref: PowNear::NONE,
            pow_coeffs: binomial_coefficients(contact.alpha),
            n: 0,
            steps: 0,
            in_contact: true,
            runaway: false,
            newton: NewtonStats::default(),
            hybrid_on: scheme.correction.hybrid(),
            start: 0.0,
            exit_frac: 1.0,
            theta: 1.0,
            load: Loaded::default(),
            on_target: false,
            clock_zone: match scheme.stepping {
                Stepping::Auto if scheme.correction.hybrid() => CLOCK_ZONE * an.x_max(),
                _ => 0.0,
            },
            clock_x: f64::NAN,
            clock_t: f64::NAN,
            h_sample: sample,
            fs: 1.0 / sample,
            vex: super::dispatch::vector_path(),
        }
    }

    /// The stepping of a strike that no bounce follows: with [`Stepping::Auto`] the
    /// looser accuracy [`OMEGA_PULSE`], since its exit's instant only ends its own
    /// pulse. Before the first sample only; otherwise (or under a load) unchanged.
    pub fn single_strike(mut self) -> Self {
        let auto = self.scheme.stepping == Stepping::Auto;
        if !auto || self.closed_form || self.n > 0 || self.load.g > 0.0 {
            return self;
        }
        let (c, v_in) = (self.an.contact, self.an.v_in);
        if let Some((n, damped)) =
            plan_within(&c, v_in, self.an.x_max(), self.h_sample, OMEGA_PULSE)
        {
            self.substeps = n;
            self.damped = damped;
            self.h = self.h_sample / n as f64;
            self.h_m = self.h / c.mass;
        }
        self
    }

    pub fn analytic(&self) -> &Analytic {
        &self.an
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    pub fn x(&self) -> f64 {
        self.x
    }

    pub fn v(&self) -> f64 {
        self.v
    }

    /// The work this contact has taken, in units of about a Verlet step's cost (the
    /// train's budget, `bounce::TRAIN_WORK_BUDGET`): each step weighed by its method
    /// (RK4's four stages cost about two Verlet steps here, the damping-exact step's
    /// four exponentials six), and AM1's Newton iterations one each.
    pub fn work(&self) -> u64 {
        let weight = match (self.damped, self.scheme.method) {
            (true, _) => 6,
            (false, Method::Rk4) => 2,
            (false, _) => 1,
        };
        self.steps * weight + self.newton.total
    }

    /// A trapped mass was put at rest on [`TRAPPED_WORK`].
    pub fn spent(&self) -> bool {
        self.spent
    }

    /// The velocity the body hears the step leave: [`v`](Self::v), except where a
    /// creeping mass was put at rest, whose creep (sub-audio, and under the drive
    /// high-pass) ends there without a jolt: its last velocity.
    pub fn v_heard(&self) -> f64 {
        self.v + self.crept
    }

    /// Samples advanced so far.
    pub fn samples(&self) -> u64 {
        self.n
    }

    pub fn in_contact(&self) -> bool {
        self.in_contact
    }

    /// True when the contact was ended by the runaway guard.
    pub fn runaway(&self) -> bool {
        self.runaway
    }

    /// True when the contact is too short for [`MAX_SUBSTEPS`] steps a sample to
    /// resolve, and so exits in closed form at its first sample.
    pub fn closed_form(&self) -> bool {
        self.closed_form
    }

    /// True where the damping-exact step takes the contact in place of the method (its
    /// damping asks the method for more than [`DAMPED_OVER`] steps a sample).
    pub fn damped(&self) -> bool {
        self.damped
    }

    /// Steps per sample.
    pub fn substeps(&self) -> u32 {
        self.substeps
    }

    /// Heun's predicted velocity at the last step: the paper hands this on to the
    /// next impact of Table III. Only for reproducing that table.
    pub fn paper_handover(&self) -> f64 {
        self.v_pred
    }

    /// The mass's acceleration at the current state, m/s² (`f/m`, the load's part
    /// included): the slope a strided contact's velocity curve meets its steps with.
    #[inline]
    pub fn acceleration(&self) -> f64 {
        self.f / self.an.contact.mass
    }

    /// Force of the mass on the wall (the excitation of the resonating body):
    /// `k x^α (1 + μ v)`, never negative (the contact cannot pull).
    #[inline]
    pub fn wall_force(&self) -> f64 {
        (-self.an.contact.force(self.x, self.v)).max(0.0)
    }

    /// `x^α` in contact: from the carried point by series at a general α (see
    /// `PowNear`), directly where α has an exact power.
    #[inline(always)]
    pub(super) fn carried_pow(&self, c: &Contact, x: f64) -> f64 {
        if self.near_pow {
            self.pow_ref.x_pow_alpha(c.alpha, &self.pow_coeffs, x)
        } else {
            c.x_pow_alpha(x)
        }
    }

    /// `x₁^α` for the hybrid correction's guess where it comes cheap from the carried
    /// point (RK4 and AM1 at a general α); NaN otherwise, and without the hybrid.
    #[inline(always)]
    pub(super) fn hybrid_guess_pow(&self, c: &Contact, x1: f64) -> f64 {
        if self.near_pow && self.scheme.correction.hybrid() {
            self.carried_pow(c, x1)
        } else {
            f64::NAN
        }
    }

    /// Ends the contact at `x = 0` with velocity `v`.
    #[cold]
    pub(super) fn end(&mut self, v: f64, runaway: bool) {
        self.runaway |= runaway;
        self.on_target = true;
        self.x = 0.0;
        self.v = v;
        self.f = 0.0;
        self.in_contact = false;
    }
}
