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
use super::load::{LoadExit, Loaded};
use super::newton::{self, NewtonStats};
use super::scheme::{ClampTarget, Method, Scheme, Stepping};

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

/// Sub-stepping: a step `h` is split so that `h ω_max ≤ OMEGA_STEP` (the stiffest
/// oscillation of the contact, `ω² = k α x_max^{α−1} (1 + μ v_in)/m`, bounds the
/// stability of the explicit methods and resolves the pulse) and `h λ_max ≤
/// DAMPING_STEP` (the fastest damping rate, `λ = k x_max^α μ/m`, which is what the
/// explicit methods cannot follow when `μ v_in` is in the tens). At 0.5 Verlet's
/// phase error keeps a contact within a few percent of eq (9). The paper's tables
/// are computed with one step per sample ([`Stepping::PerSample`]): there
/// `h ω_max` = 0.003, 0.20 and 0.85.
pub const OMEGA_STEP: f64 = 0.5;
pub const DAMPING_STEP: f64 = 0.5;
/// On top of stability, accuracy: up to [`ACCURATE_MAX`] steps a sample so that
/// `h ω_max ≤ OMEGA_ACCURATE`. At one step a sample the pulse's shape (not its energy,
/// which the corrections fix) depends on `h ω`, and so on the rate: the default
/// contact's dry pulse is 0.2 dB stronger at 2–6 kHz at 48 kHz than at 192 kHz. This
/// keeps the same patch's spectrum within 1 % across rates (`tests/body_rates.rs`).
pub const OMEGA_ACCURATE: f64 = 0.1;
pub const ACCURATE_MAX: u32 = 8;
/// Most sub-steps per sample. A contact that would need more is shorter than two
/// samples: in the damped regime steps per sample × samples per contact is about
/// `(α + 1) μ v_in / DAMPING_STEP` ≤ 4000, and an undamped one needing this many lasts
/// a small fraction of a sample. Such a contact is taken in closed form, exiting at the
/// exact `v_out` within its first sample (see [`Impact::closed_form`]): eq (9) allows
/// at most 4 samples where it is under 3. Work per sample is bounded by this many
/// steps; work per contact by about `(α + 1) μ v_in / DAMPING_STEP + π / OMEGA_STEP +
/// MAX_SUBSTEPS` ≤ ~6000 steps.
pub const MAX_SUBSTEPS: u32 = 2048;

/// Sub-steps per sample for a contact at step `h`, or `None` where it needs more than
/// [`MAX_SUBSTEPS`] (or the parameters are degenerate).
pub fn substeps_for(an: &Analytic, h: f64) -> Option<u32> {
    let c = an.contact;
    let x_max = an.x_max();
    let x_pow = c.x_pow_alpha(x_max);
    let omega2 = c.k * c.alpha * (x_pow / x_max) * (1.0 + c.mu * an.v_in) / c.mass;
    let lambda = c.k * x_pow * c.mu / c.mass;
    let h_omega = h * omega2.sqrt();
    let stable = (h_omega / OMEGA_STEP).max(h * lambda / DAMPING_STEP);
    let need = stable.max((h_omega / OMEGA_ACCURATE).min(ACCURATE_MAX as f64));
    if need <= 1.0 {
        Some(1)
    } else if need <= MAX_SUBSTEPS as f64 {
        Some(need.ceil() as u32)
    } else {
        None
    }
}

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
    /// [`CLOCK_ZONE`] of `x_max` with the hybrid (0 without it, and with one step per
    /// sample: the paper's convention).
    clock_zone: f64,
    /// The exit clock's `x` (NaN until it starts) and the exit it dated, in samples
    /// since the contact's first sample began (NaN until then). See `tick_clock`.
    clock_x: f64,
    clock_t: f64,
    /// One sample, s.
    h_sample: f64,
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
        let substeps = match (valid, scheme.stepping) {
            (false, _) => None,
            (true, Stepping::PerSample) => Some(1),
            (true, Stepping::Auto) => substeps_for(&an, sample),
        };
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
            clock_zone: match scheme.stepping {
                Stepping::Auto if scheme.correction.hybrid() => CLOCK_ZONE * an.x_max(),
                _ => 0.0,
            },
            clock_x: f64::NAN,
            clock_t: f64::NAN,
            h_sample: sample,
        }
    }

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
    /// exact load-aware outcome `exit` solved at onset (`load::exit`) and the clamp's
    /// restitution `e_target` (the exact `exit.e`, or Proposition 1's). `g ≤ 0` or
    /// non-finite leaves the contact as it is.
    pub fn with_gravity(mut self, g: f64, exit: LoadExit, e_target: f64) -> Self {
        if !(g.is_finite() && g > 0.0) {
            return self;
        }
        let c = self.an.contact;
        self.load = Loaded::new(&c, self.an.v_in, g, exit);
        self.hybrid_on = false;
        self.clock_zone = 0.0;
        // The load speeds the mass up in the well: at most to √(v_in² + 2α/(α+1) g x̄).
        let v_well = (self.an.v_in.powi(2) + 2.0 * g * self.load.x_rest).sqrt();
        if v_well.is_finite() {
            self.v_runaway = RUNAWAY_SPEED_RATIO * v_well;
        }
        self.f = self.load.force;
        if self.scheme.correction.clamp() && e_target.is_finite() {
            self.v_target = -e_target.clamp(0.0, 1.0) * self.an.v_in;
        } else if !exit.sticks {
            self.v_target = -exit.e * self.an.v_in;
        }
        // The guard follows the load-aware contact time; a sticking contact's is
        // extended when the mass is trapped (see `trap`).
        let fs = 1.0 / (self.h * self.substeps as f64);
        let bound = if exit.resolved {
            exit.tau
        } else {
            2.0 * exit.tau.max(0.0)
        };
        let max = (GUARD_FACTOR * bound * fs + GUARD_SLACK).ceil() as u64;
        self.max_samples = self.max_samples.max(max);
        self
    }

    /// Starts the contact `frac` (in `[0, 1)`) into its first sample: the first call to
    /// [`step`](Self::step) integrates only the rest of that sample.
    pub fn start_at(mut self, frac: f64) -> Self {
        self.start = if frac > 0.0 && frac < 1.0 { frac } else { 0.0 };
        self
    }

    /// Where in its first sample the contact started, as a fraction of the sample.
    pub fn start_fraction(&self) -> f64 {
        self.start
    }

    /// Where in the last sample the contact ended, as a fraction of the sample from its
    /// start (1 while in contact). With the hybrid correction the exit is dated by its
    /// clock (see `tick_clock`), which may put it a little before this sample (< 0) or
    /// after it (> 1).
    pub fn exit_fraction(&self) -> f64 {
        self.exit_frac
    }

    /// Gravity during contact, m/s² (0 for the paper's contact).
    pub fn gravity(&self) -> f64 {
        self.load.g
    }
    /// The exact load-aware outcome solved at onset, under gravity during contact.
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
        self.load.max_dev
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
    /// Steps per sample.
    pub fn substeps(&self) -> u32 {
        self.substeps
    }
    /// Heun's predicted velocity at the last step: the paper hands this on to the
    /// next impact of Table III. Only for reproducing that table.
    pub fn paper_handover(&self) -> f64 {
        self.v_pred
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
    fn carried_pow(&self, c: &Contact, x: f64) -> f64 {
        if self.near_pow {
            self.pow_ref.x_pow_alpha(c.alpha, &self.pow_coeffs, x)
        } else {
            c.x_pow_alpha(x)
        }
    }

    /// `x₁^α` for the hybrid correction's guess where it comes cheap from the carried
    /// point (RK4 and AM1 at a general α); NaN otherwise, and without the hybrid.
    #[inline(always)]
    fn hybrid_guess_pow(&self, c: &Contact, x1: f64) -> f64 {
        if self.near_pow && self.scheme.correction.hybrid() {
            self.carried_pow(c, x1)
        } else {
            f64::NAN
        }
    }

    /// Advances one sample (`substeps` steps of the method). Returns whether the mass
    /// is still in contact afterwards.
    #[inline]
    pub fn step(&mut self) -> bool {
        if !self.in_contact {
            return false;
        }
        self.n += 1;
        let base = if self.n == 1 { self.start } else { 0.0 };
        if self.closed_form {
            self.exit_frac = 1.0;
            self.end(self.v_target, false);
            return false;
        }
        let (h, h_m) = (self.h, self.h_m);
        if base > 0.0 {
            // The onset fell inside this sample: only its rest is in contact.
            self.h *= 1.0 - base;
            self.h_m *= 1.0 - base;
        }
        let mut still = true;
        // Samples since the contact's first sample began, at substep i + θ.
        let at = |n: u64, i: u32, theta: f64, substeps: u32| {
            (n - 1) as f64 + base + (1.0 - base) * (i as f64 + theta) / substeps as f64
        };
        for i in 0..self.substeps {
            let v0 = self.v;
            let ok = self.substep();
            if self.clock_zone > 0.0 {
                self.tick_clock(
                    v0,
                    at(self.n, i, 0.0, self.substeps),
                    self.h * self.sample_rate(),
                );
            }
            if !ok {
                let mut t_exit = at(self.n, i, self.theta, self.substeps);
                if self.clock_x.is_finite() {
                    t_exit = if self.clock_t.is_finite() {
                        self.clock_t
                    } else if self.v < 0.0 {
                        // The curve ended first: the clock has this far to go at v_out.
                        t_exit + self.clock_x / (-self.v) * self.sample_rate()
                    } else {
                        t_exit
                    };
                }
                self.exit_frac = t_exit - (self.n - 1) as f64;
                still = false;
                break;
            }
        }
        self.h = h;
        self.h_m = h_m;
        if !still {
            return false;
        }
        if self.load.trapped && self.load.settled(&self.an.contact, self.x, self.v) {
            self.rest();
            return false;
        }
        if self.n >= self.max_samples {
            self.exit_frac = 1.0;
            if self.load.trapped || self.load.exit.is_some_and(|e| e.sticks) {
                self.rest();
            } else {
                self.end(self.v_target, true);
            }
            return false;
        }
        true
    }

    /// Samples a second (the step is a sample over the substeps).
    #[inline]
    fn sample_rate(&self) -> f64 {
        1.0 / (self.h_sample)
    }

    /// The exit clock of the hybrid correction. On the way out, near the wall, `v` is
    /// flat (the force vanishes there) and `x(v) ∝ (v − v_out)^{1/(α+1)}` turns a
    /// small error of the method's `v` into an exit tens of steps early or late, which
    /// would make the bounce rhythm depend on the rate. Below [`CLOCK_ZONE`] of
    /// `x_max` the clock carries its own `x` by the trapezoid rule on the method's `v`
    /// and dates the exit where it reaches 0; the state (and so the energy, eq 20) stays
    /// the hybrid's. `start` is the step's start in samples, `len` its length.
    #[inline]
    fn tick_clock(&mut self, v0: f64, start: f64, len: f64) {
        if self.clock_t.is_finite() || self.v.is_nan() || self.v >= 0.0 {
            return;
        }
        if !self.clock_x.is_finite() {
            if self.x > 0.0 && self.x < self.clock_zone {
                self.clock_x = self.x;
            }
            return;
        }
        let x1 = self.clock_x + 0.5 * (v0 + self.v) * len / self.sample_rate();
        if x1 <= 0.0 {
            let theta = self.clock_x / (self.clock_x - x1);
            self.clock_t = start + theta * len;
        }
        self.clock_x = x1;
    }

    /// Ends a trapped contact with the mass at rest at `x̄`.
    #[cold]
    fn rest(&mut self) {
        self.load.rested = true;
        self.x = self.load.x_rest;
        self.v = 0.0;
        self.f = 0.0;
        self.in_contact = false;
    }

    /// The mass got trapped (its load-aware energy is negative): the settling drag is
    /// on, and the guard allows for the settling.
    #[cold]
    fn trap(&mut self) {
        let fs = 1.0 / (self.h * self.substeps as f64);
        let settle = self.load.settle_bound(&self.an.contact) * fs;
        let until = self.n as f64 + settle + GUARD_SLACK;
        if until.is_finite() {
            self.max_samples = self.max_samples.max(until.ceil() as u64);
        }
    }

    /// The external force on the mass at velocity `v`: the load less the settling drag
    /// (both 0 for the paper's contact).
    #[inline(always)]
    fn ext(&self, v: f64) -> f64 {
        self.load.force - self.load.drag * v
    }

    /// Ends the contact at `x = 0` with velocity `v`.
    #[cold]
    fn end(&mut self, v: f64, runaway: bool) {
        self.runaway |= runaway;
        self.x = 0.0;
        self.v = v;
        self.f = 0.0;
        self.in_contact = false;
    }

    /// One step of the method and the corrections.
    #[inline(always)]
    fn substep(&mut self) -> bool {
        let c = self.an.contact;
        let (x, v, f, h, hm) = (self.x, self.v, self.f, self.h, self.h_m);
        self.theta = 1.0;
        if self.near_pow && self.steps.is_multiple_of(POW_ANCHOR_EVERY) {
            // No known point: this sample's powers are evaluated directly.
            self.pow_ref = PowNear::NONE;
        }
        // `x1_pow` is x₁^α where the method computed it (NaN where not).
        let (x1, v1, f1, x1_pow) = match self.scheme.method {
            Method::Verlet => {
                // eq (24): the force is evaluated once, at the predicted velocity.
                let x1 = x + h * v + 0.5 * h * hm * f;
                let v_half = v + 0.5 * hm * f;
                let x1_pow = self.carried_pow(&c, x1);
                let f1 = c.force_with_pow(x1_pow, v_half) + self.ext(v_half);
                (x1, v_half + 0.5 * hm * f1, f1, x1_pow)
            }
            Method::Heun => {
                // eq (25): Euler predictor, trapezoid corrector.
                let v_pred = v + hm * f;
                let x1 = x + 0.5 * h * (v + v_pred);
                let x1_pow = self.carried_pow(&c, x1);
                let f1 = c.force_with_pow(x1_pow, v_pred) + self.ext(v_pred);
                self.v_pred = v_pred;
                (x1, v + 0.5 * hm * (f + f1), f1, x1_pow)
            }
            Method::Rk4 => {
                // eq (26), with k_i, l_i as the increments of v and x. For a general α
                // the powers at this step's x and at x₂ come from the last x₄ (a second-
                // and a first-order step away), and at x₃ and x₄ from x₂, by series (see
                // `PowNear`); x₄ is the point carried to the next step. With an exact
                // power every stage is direct.
                let cf = &self.pow_coeffs;
                let near = self.near_pow;
                let (load, drag) = (self.load.force, self.load.drag);
                let force = |xs: f64, vs: f64, from: &PowNear| {
                    let p = if near {
                        from.x_pow_alpha(c.alpha, cf, xs)
                    } else {
                        c.x_pow_alpha(xs)
                    };
                    c.force_with_pow(p, vs) + (load - drag * vs)
                };
                let k1 = hm * force(x, v, &self.pow_ref);
                let l1 = h * v;
                let x2 = x + 0.5 * l1;
                let x2_pow = if near {
                    self.pow_ref.x_pow_alpha(c.alpha, cf, x2)
                } else {
                    c.x_pow_alpha(x2)
                };
                let at_x2 = PowNear::new(x2, x2_pow);
                let v2 = v + 0.5 * k1;
                let k2 = hm * (c.force_with_pow(x2_pow, v2) + (load - drag * v2));
                let l2 = h * (v + 0.5 * k1);
                let k3 = hm * force(x + 0.5 * l2, v + 0.5 * k2, &at_x2);
                let l3 = h * (v + 0.5 * k2);
                let x4 = x + l3;
                let x4_pow = if near {
                    at_x2.x_pow_alpha(c.alpha, cf, x4)
                } else {
                    c.x_pow_alpha(x4)
                };
                self.pow_ref = PowNear::new(x4, x4_pow);
                let v4 = v + k3;
                let k4 = hm * (c.force_with_pow(x4_pow, v4) + (load - drag * v4));
                let l4 = h * (v + k3);
                const SIXTH: f64 = 1.0 / 6.0;
                let x1 = x + (l1 + 2.0 * l2 + 2.0 * l3 + l4) * SIXTH;
                let v1 = v + (k1 + 2.0 * k2 + 2.0 * k3 + k4) * SIXTH;
                // x₁ is a second-order step from x₄.
                (x1, v1, 0.0, self.hybrid_guess_pow(&c, x1))
            }
            Method::Am1 => {
                // eq (23): x₁ = x + h v + h²/(4m)(f₁ + f), v₁ = v + h/(2m)(f₁ + f), with
                // f₁ = F(x₁, v₁) solved by Newton on the delay-free loop.
                let c1 = 0.5 * hm;
                let c2 = 0.25 * h * hm;
                let xa = x + h * v + c2 * f;
                let va = v + c1 * f;
                let near = self
                    .near_pow
                    .then_some((&self.pow_coeffs, &mut self.pow_ref));
                let ext = (self.load.force, self.load.drag);
                let f1 = newton::solve_am1(&c, xa, va, c1, c2, f, near, ext, &mut self.newton);
                let x1 = xa + c2 * f1;
                // x₁ is a Newton step from the last point evaluated.
                (x1, va + c1 * f1, f1, self.hybrid_guess_pow(&c, x1))
            }
        };
        // x^α of the state left by this step, where known: carried to the next.
        let mut pow_now = x1_pow;
        self.steps += 1;
        self.x = x1;
        self.v = v1;
        self.f = f1;
        if x1 > 0.0 && self.hybrid_on {
            // Section IV-A1: keep v from the integrator, put x back on the curve (3),
            // and make the force handed to the next step that of the corrected state
            // (x^α from the same series as x, no second powf). A force left over from the
            // uncorrected x can lock explicit methods into a 2-cycle at large steps.
            match self.hybrid.correct(&self.an, v, v1, x1, x1_pow) {
                Fix::OnCurve(xc, xc_pow) => {
                    self.x = xc;
                    self.f = c.force_with_pow(xc_pow, v1);
                    pow_now = xc_pow;
                }
                Fix::PastOut => {
                    // v passed v_out inside this step, so the mass left within it. v is
                    // flat at the wall (the force vanishes there) and a poor clock; x
                    // is nearly linear: it left where x, moving at the step's mean
                    // velocity (or the method's own x₁), reached 0.
                    self.theta = if x1 < 0.0 {
                        x / (x - x1)
                    } else {
                        x / (-0.5 * (v + v1) * h)
                    }
                    .clamp(0.0, 1.0);
                    self.x = 0.0;
                }
                Fix::Unresolved => {}
            }
        }
        if self.near_pow && matches!(self.scheme.method, Method::Verlet | Method::Heun) {
            self.pow_ref = PowNear::new(self.x, pow_now);
        }
        if !(self.v.abs() <= self.v_runaway && self.x.is_finite()) {
            self.theta = 1.0;
            self.end(self.v_target, true);
            return false;
        }
        if self.load.g > 0.0 {
            let xp = if self.x > 0.0 {
                self.carried_pow(&c, self.x)
            } else {
                0.0
            };
            if self.load.observe(&c, h, self.x, xp, self.v) {
                self.trap();
            }
            let sticks = self.load.trapped || self.load.exit.is_some_and(|e| e.sticks);
            if self.x <= 0.0 && sticks && (self.scheme.correction.clamp() || self.load.trapped) {
                // A mass that cannot leave stays at the wall and settles (seed 001,
                // eqs 21–22): the step that would have taken it out ends at x = 0.
                self.x = 0.0;
                self.v = self.v.max(0.0);
                self.f = self.load.force;
                return true;
            }
        }
        if self.x <= 0.0 {
            if self.theta >= 1.0 && x > 0.0 && self.x < 0.0 {
                // x is nearly linear in t at the wall (the force vanishes there).
                self.theta = (x / (x - x1)).clamp(0.0, 1.0);
            }
            if self.scheme.correction.clamp() {
                // Section IV-A2: set v_out at detachment and close the loop at x = 0.
                self.end(self.v_target, false);
            } else if self.v.abs() > EXIT_SPEED_LIMIT * self.an.v_in {
                self.end(self.v_target, true);
            } else {
                self.in_contact = false;
                self.f = 0.0;
            }
            return false;
        }
        true
    }
}
