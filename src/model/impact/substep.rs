//! One step of the four methods (eqs 23–26) and the corrections of Section IV-A.

use super::*;

impl Impact {
    /// One step of the method and the corrections.
    #[inline(always)]
    pub(super) fn substep(&mut self) -> bool {
        self.substep_on::<false>()
    }

    /// [`substep`](Self::substep), by the damping-exact step where `DAMPED` (see
    /// `damped`): the same guards, exit and corrections after it.
    #[inline(always)]
    pub(super) fn substep_on<const DAMPED: bool>(&mut self) -> bool {
        let c = self.an.contact;
        let (x, v, f, h, hm) = (self.x, self.v, self.f, self.h, self.h_m);
        self.theta = 1.0;
        if self.near_pow && self.steps.is_multiple_of(POW_ANCHOR_EVERY) {
            // No known point: this sample's powers are evaluated directly.
            self.pow_ref = PowNear::NONE;
        }
        // `x1_pow` is x₁^α where the method computed it (NaN where not).
        let (x1, v1, f1, x1_pow) = if DAMPED {
            self.step_damped(&c, x, v, h)
        } else {
            self.step_method(&c, (x, v, f), (h, hm))
        };
        // x^α of the state left by this step, where known: carried to the next.
        let mut pow_now = x1_pow;
        self.steps += 1;
        self.x = x1;
        self.v = v1;
        self.f = f1;
        if x1 > 0.0 && self.hybrid_on {
            pow_now = self.hybrid_fix(&c, (x, v), (x1, v1), x1_pow, pow_now);
        }
        if !DAMPED && self.near_pow && matches!(self.scheme.method, Method::Verlet | Method::Heun) {
            self.pow_ref = PowNear::new(self.x, pow_now);
        }
        // Nearly every step: no runaway, still inside the wall, no load. One branch for
        // the three checks below, which give `true` then.
        let inside = self.x > 0.0 && self.x < f64::INFINITY;
        let loaded = self.load.g > 0.0;
        if self.v.abs() <= self.v_runaway && inside && !loaded {
            return true;
        }
        if !(self.v.abs() <= self.v_runaway && self.x.is_finite()) {
            self.theta = 1.0;
            self.end(self.v_target, true);
            return false;
        }
        if loaded && self.held_at_wall(&c, h) {
            return true;
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

    /// One step of the patch's method, eqs (23)–(26): `(x₁, v₁, f₁, x₁^α)`.
    #[inline(always)]
    fn step_method(
        &mut self,
        c: &Contact,
        (x, v, f): (f64, f64, f64),
        (h, hm): (f64, f64),
    ) -> (f64, f64, f64, f64) {
        match self.scheme.method {
            Method::Verlet => {
                // eq (24): the force is evaluated once, at the predicted velocity.
                let x1 = x + h * v + 0.5 * h * hm * f;
                let v_half = v + 0.5 * hm * f;
                let x1_pow = self.carried_pow(c, x1);
                let f1 = c.force_with_pow(x1_pow, v_half) + self.ext(v_half);
                (x1, v_half + 0.5 * hm * f1, f1, x1_pow)
            }
            Method::Heun => {
                // eq (25): Euler predictor, trapezoid corrector.
                let v_pred = v + hm * f;
                let x1 = x + 0.5 * h * (v + v_pred);
                let x1_pow = self.carried_pow(c, x1);
                let f1 = c.force_with_pow(x1_pow, v_pred) + self.ext(v_pred);
                self.v_pred = v_pred;
                (x1, v + 0.5 * hm * (f + f1), f1, x1_pow)
            }
            Method::Rk4 => self.step_rk4(c, x, v, h, hm),
            Method::Am1 => self.step_am1(c, x, v, f, h, hm),
        }
    }

    /// eq (26), with k_i, l_i as the increments of v and x. For a general α the powers
    /// at this step's x and at x₂ come from the last x₄ (a second- and a first-order
    /// step away), and at x₃ and x₄ from x₂, by series (see `PowNear`); x₄ is the point
    /// carried to the next step. With an exact power every stage is direct.
    #[inline(always)]
    fn step_rk4(&mut self, c: &Contact, x: f64, v: f64, h: f64, hm: f64) -> (f64, f64, f64, f64) {
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
        (x1, v1, 0.0, self.hybrid_guess_pow(c, x1))
    }

    /// eq (23): x₁ = x + h v + h²/(4m)(f₁ + f), v₁ = v + h/(2m)(f₁ + f), with
    /// f₁ = F(x₁, v₁) solved by Newton on the delay-free loop.
    #[inline(always)]
    fn step_am1(
        &mut self,
        c: &Contact,
        x: f64,
        v: f64,
        f: f64,
        h: f64,
        hm: f64,
    ) -> (f64, f64, f64, f64) {
        let c1 = 0.5 * hm;
        let c2 = 0.25 * h * hm;
        let xa = x + h * v + c2 * f;
        let va = v + c1 * f;
        let near = self
            .near_pow
            .then_some((&self.pow_coeffs, &mut self.pow_ref));
        let ext = (self.load.force, self.load.drag);
        let f1 = newton::solve_am1(c, xa, va, c1, c2, f, near, ext, &mut self.newton);
        let x1 = xa + c2 * f1;
        // x₁ is a Newton step from the last point evaluated.
        (x1, va + c1 * f1, f1, self.hybrid_guess_pow(c, x1))
    }

    /// Section IV-A1 after a step from `(x, v)` to `(x1, v1)`: keep v from the
    /// integrator, put x back on the curve (3), and make the force handed to the next
    /// step that of the corrected state (x^α from the same series as x, no second
    /// powf). A force left over from the uncorrected x can lock explicit methods into a
    /// 2-cycle at large steps. Returns x^α of the state left (`pow_now` unless moved).
    #[inline(always)]
    fn hybrid_fix(
        &mut self,
        c: &Contact,
        (x, v): (f64, f64),
        (x1, v1): (f64, f64),
        x1_pow: f64,
        pow_now: f64,
    ) -> f64 {
        let h = self.h;
        match self.hybrid.correct(&self.an, v, v1, x1, x1_pow) {
            Fix::OnCurve(xc, xc_pow) => {
                self.x = xc;
                self.f = c.force_with_pow(xc_pow, v1);
                return xc_pow;
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
        pow_now
    }

    /// Under load: watches for trapping, and holds at the wall a mass that cannot
    /// leave or is still moving in. True when it held it (the step is over).
    #[inline(always)]
    fn held_at_wall(&mut self, c: &Contact, h: f64) -> bool {
        let xp = if self.x > 0.0 {
            self.carried_pow(c, self.x)
        } else {
            0.0
        };
        if self.load.observe(c, h, self.x, xp, self.v) {
            self.trap();
        }
        let sticks = self.load.trapped || self.load.exit.is_some_and(|e| e.sticks);
        let held = sticks && (self.scheme.correction.clamp() || self.load.trapped);
        if self.x <= 0.0 && (held || self.v >= 0.0) {
            // A mass that cannot leave stays at the wall and settles (seed 001,
            // eqs 21–22): the step that would have taken it out ends at x = 0.
            // So does one still moving in (a coarse step can put x past the wall
            // while the load drives v inward).
            self.x = 0.0;
            self.v = self.v.max(0.0);
            self.f = self.load.force;
            return true;
        }
        false
    }
}
