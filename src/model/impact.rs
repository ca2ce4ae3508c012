//! One contact, advanced one sample at a time: the integrators of eqs (23)–(26) and
//! the corrections of Section IV-A, dispatched by a `match` on small `Copy` enums.
//!
//! An impact starts aligned on a sample (`x₀ = 0`, `v₀ = v_in`, `f₀ = 0`, as the
//! paper's tables assume) and ends at the first sample with `x ≤ 0`.

use super::contact::{Analytic, Contact, PowNear, binomial_coefficients, has_exact_pow};
use super::hybrid::Hybrid;
use super::newton::{self, NewtonStats};
use super::scheme::{ClampTarget, Method, Scheme};

/// A contact that has gone numerically wild (a non-finite state or a speed this many
/// times `v_in`) is ended at once with the analytic `v_out`: the explicit methods can
/// gain energy without bound when the contact is far shorter than one sample.
const RUNAWAY_SPEED_RATIO: f64 = 1e6;

/// A contact still going after this many samples has its analytic duration (eq 9)
/// computed once (~10 µs, so ≤ 2.5 ns a sample even for the shortest contact that
/// pays it); it is ended as runaway past `DURATION_FACTOR` times that. Short
/// contacts never pay for the quadrature.
const DURATION_CHECK_AFTER: u64 = 4096;

/// Where a power is carried from one sample to the next (Verlet, Heun, AM1), every
/// this many samples it is evaluated directly: the roundings carried (a few ulps a
/// sample) stay bounded by a few tens of ulps.
const POW_ANCHOR_EVERY: u64 = 16;
const DURATION_FACTOR: f64 = 8.0;

/// The per-sample state of one contact.
#[derive(Clone, Copy, Debug)]
pub struct Impact {
    an: Analytic,
    scheme: Scheme,
    h: f64,
    /// `h / m`, the only way the mass enters the explicit updates.
    h_m: f64,
    /// The velocity the clamp sets at detachment (unused without clamp).
    v_target: f64,
    /// Most samples a contact may last before it is ended as runaway: unbounded until
    /// the analytic duration has been computed (lazily, see `check_duration`).
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
    n: u64,
    in_contact: bool,
    runaway: bool,
    pub newton: NewtonStats,
}

impl Impact {
    /// A contact starting now with inbound speed `v_in > 0` at sample rate `fs`.
    pub fn new(contact: Contact, scheme: Scheme, v_in: f64, fs: f64) -> Self {
        let an = Analytic::new(contact, v_in);
        let v_target = if scheme.correction.clamp() {
            match scheme.clamp_target {
                ClampTarget::Approx => an.v_out_approx(),
                ClampTarget::Exact => an.v_out(),
            }
        } else {
            f64::NAN
        };
        let h = 1.0 / fs;
        Self {
            an,
            scheme,
            h,
            h_m: h / contact.mass,
            v_target,
            max_samples: u64::MAX,
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
            in_contact: true,
            runaway: false,
            newton: NewtonStats::default(),
        }
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
            self.pow_ref.x_pow_alpha(c, &self.pow_coeffs, x)
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

    /// Bounds the contact by its analytic duration (cold path, once per contact).
    #[cold]
    fn check_duration(&mut self) {
        let tau = super::tau::contact_time(&self.an) / self.h;
        let limit = DURATION_FACTOR * tau + 64.0;
        self.max_samples = if limit.is_finite() {
            limit as u64
        } else {
            u64::MAX
        };
    }

    /// Advances one sample. Returns whether the mass is still in contact afterwards.
    #[inline]
    pub fn step(&mut self) -> bool {
        if !self.in_contact {
            return false;
        }
        let c = self.an.contact;
        let (x, v, f, h, hm) = (self.x, self.v, self.f, self.h, self.h_m);
        if self.near_pow && self.n.is_multiple_of(POW_ANCHOR_EVERY) {
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
                let f1 = c.force_with_pow(x1_pow, v_half);
                (x1, v_half + 0.5 * hm * f1, f1, x1_pow)
            }
            Method::Heun => {
                // eq (25): Euler predictor, trapezoid corrector.
                let v_pred = v + hm * f;
                let x1 = x + 0.5 * h * (v + v_pred);
                let x1_pow = self.carried_pow(&c, x1);
                let f1 = c.force_with_pow(x1_pow, v_pred);
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
                let force = |xs: f64, vs: f64, from: &PowNear| {
                    let p = if near {
                        from.x_pow_alpha(&c, cf, xs)
                    } else {
                        c.x_pow_alpha(xs)
                    };
                    c.force_with_pow(p, vs)
                };
                let k1 = hm * force(x, v, &self.pow_ref);
                let l1 = h * v;
                let x2 = x + 0.5 * l1;
                let x2_pow = if near {
                    self.pow_ref.x_pow_alpha(&c, cf, x2)
                } else {
                    c.x_pow_alpha(x2)
                };
                let at_x2 = PowNear::new(x2, x2_pow);
                let k2 = hm * -c.k * x2_pow * (1.0 + c.mu * (v + 0.5 * k1));
                let l2 = h * (v + 0.5 * k1);
                let k3 = hm * force(x + 0.5 * l2, v + 0.5 * k2, &at_x2);
                let l3 = h * (v + 0.5 * k2);
                let x4 = x + l3;
                let x4_pow = if near {
                    at_x2.x_pow_alpha(&c, cf, x4)
                } else {
                    c.x_pow_alpha(x4)
                };
                self.pow_ref = PowNear::new(x4, x4_pow);
                let k4 = hm * -c.k * x4_pow * (1.0 + c.mu * (v + k3));
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
                let f1 = newton::solve_am1(&c, xa, va, c1, c2, f, near, &mut self.newton);
                let x1 = xa + c2 * f1;
                // x₁ is a Newton step from the last point evaluated.
                (x1, va + c1 * f1, f1, self.hybrid_guess_pow(&c, x1))
            }
        };
        // x^α of the state left by this step, where known: carried to the next.
        let mut pow_now = x1_pow;
        self.n += 1;
        self.x = x1;
        self.v = v1;
        self.f = f1;
        if x1 > 0.0 && self.scheme.correction.hybrid() {
            // Section IV-A1: keep v from the integrator, put x back on the curve (3),
            // and make the force handed to the next step that of the corrected state
            // (x^α from the same series as x, no second powf). A force left over from the
            // uncorrected x can lock explicit methods into a 2-cycle at large steps.
            match self.hybrid.correct(&self.an, v1, x1, x1_pow) {
                Some((xc, xc_pow)) => {
                    self.x = xc;
                    self.f = c.force_with_pow(xc_pow, v1);
                    pow_now = xc_pow;
                }
                None => self.x = 0.0,
            }
        }
        if self.near_pow && matches!(self.scheme.method, Method::Verlet | Method::Heun) {
            self.pow_ref = PowNear::new(self.x, pow_now);
        }
        if self.n == DURATION_CHECK_AFTER {
            self.check_duration();
        }
        if !(self.v.abs() <= self.v_runaway && self.x.is_finite()) || self.n >= self.max_samples {
            self.runaway = true;
            self.x = 0.0;
            self.v = if self.v_target.is_nan() {
                self.an.v_out()
            } else {
                self.v_target
            };
            self.in_contact = false;
            return false;
        }
        if self.x <= 0.0 {
            self.in_contact = false;
            if self.scheme.correction.clamp() {
                // Section IV-A2: set v_out at detachment and close the loop at x = 0.
                self.v = self.v_target;
                self.x = 0.0;
            }
            self.f = 0.0;
            return false;
        }
        true
    }
}
