//! The implicit methods on the coupled state: the paper's AM1 (trapezoid, eq (23)) and
//! a discrete-gradient scheme with an exact energy balance.
//!
//! Both treat the modes by the trapezoid rule, so every mode's new state is linear in
//! the one unknown the contact adds, and the step reduces to a scalar equation on the
//! contact: AM1's delay-free loop becomes eq (23)'s with the striker's `1/m` replaced by
//! `S = 1/m + Σ 1/(m_k D_k)`, `D_k = 1 + h σ_k + h² ω_k²/4` (the body giving way under
//! the force), solved by the same safeguarded Newton (`newton::solve_am1`).
//!
//! The discrete-gradient scheme (Chatziioannou & van Walstijn, "Energy conserving
//! schemes for the simulation of musical instrument contact dynamics", JSV 2015): the
//! linear parts by the midpoint rule, and the contact force over the step
//!
//! `F = Ḡ (1 + μ Δδ/h)`,  `Ḡ = (V(δ_{n+1}) − V(δ_n)) / (δ_{n+1} − δ_n)`,
//!
//! the discrete gradient of the contact potential `V(δ) = k δ₊^{α+1}/(α+1)` (their
//! eq (13)-type gradient; here the paper's eq (13) potential) times Hunt–Crossley's
//! damping factor on the discrete rate. Multiplying each update by its midpoint velocity
//! and summing gives, exactly,
//!
//! `H_{n+1} − H_n = −μ Ḡ Δδ²/h − h Σ 2 σ_k m_k ū_k²`,
//!
//! every term of the right side the scheme's own dissipation, never positive (`Ḡ ≥ 0`
//! since `V` is nondecreasing). Onset and separation need no event: `V` is 0 for
//! `δ ≤ 0`, and `Ḡ` spans the crossing. `Δδ` solves a scalar equation (`solve_dg`).

use super::explicit::Accel;
use super::system::{Coupled, ModeCoefs, State, lane_sum, potential_and_slope};
use crate::model::body::MODES;
use crate::model::contact::pow_alpha;
use crate::model::newton::{self, Bracket, NewtonStats};

/// Below this `|Δδ|`, relative to `δ`, `Ḡ` is taken as `V'` at the midpoint (the
/// quotient would lose digits to cancellation; the two differ by `O(Δδ²)`).
const DG_TINY: f64 = 1e-7;
/// Most Newton iterations on the discrete-gradient equation (quadratic convergence
/// takes 3–6; bisection steps, if ever, a few dozen).
const DG_MAX_ITERS: u32 = 100;

/// The discrete gradient `Ḡ` between `δ₀` (with `V(δ₀) = v0`) and `δ₁`, and its
/// derivative in `δ₁`.
#[inline]
fn gradient(c: &crate::model::Contact, d0: f64, v0: f64, d1: f64) -> (f64, f64) {
    if d0 <= 0.0 && d1 <= 0.0 {
        return (0.0, 0.0);
    }
    let delta = d1 - d0;
    if delta.abs() <= DG_TINY * d0.abs().max(d1.abs()) {
        let dm = d0 + 0.5 * delta;
        if dm <= 0.0 {
            return (0.0, 0.0);
        }
        let p = c.k * pow_alpha(dm, c.alpha);
        return (p, 0.5 * c.alpha * p / dm);
    }
    let (v1, s1) = potential_and_slope(c, d1);
    let g = (v1 - v0) / delta;
    (g, (s1 - g) / delta)
}

/// Solves `R(Δ) = Δ − Δ_free + β Ḡ(Δ) (1 + μ Δ/h) = 0` for the step's `Δδ`, and returns
/// `(Δδ, Ḡ)`. On `Δ ≥ −h/μ` (the force pushes) `R` is increasing; past it (the body
/// runs away faster than `1/μ` and Hunt–Crossley's force pulls) the root lies in
/// `[Δ_free, −h/μ]`. Newton, with bisection on the bracket where it strays.
fn solve_dg(
    c: &crate::model::Contact,
    d0: f64,
    h: f64,
    free: f64,
    beta: f64,
    start: f64,
) -> (f64, f64) {
    let (v0, _) = potential_and_slope(c, d0);
    let mu_h = c.mu / h;
    let force = |x: f64| {
        let (g, gp) = gradient(c, d0, v0, d0 + x);
        (g, g * (1.0 + mu_h * x), gp)
    };
    let (g_free, f_free, _) = force(free);
    if g_free == 0.0 && d0 <= 0.0 {
        return (free, 0.0);
    }
    let v_lim = if c.mu > 0.0 {
        -h / c.mu
    } else {
        f64::NEG_INFINITY
    };
    let mut b = if free >= v_lim {
        Bracket {
            lo: (free - beta * f_free.max(0.0)).max(v_lim),
            hi: free,
        }
    } else {
        Bracket {
            lo: free,
            hi: v_lim,
        }
    };
    let mut x = b.inside_or_mid(start);
    let mut g_out = g_free;
    let scale = d0.abs().max(free.abs());
    for _ in 0..DG_MAX_ITERS {
        let (g, f, gp) = force(x);
        g_out = g;
        let r = x - free + beta * f;
        if r == 0.0 {
            break;
        }
        b.narrow(x, r < 0.0);
        let slope = 1.0 + beta * (gp * (1.0 + mu_h * x) + g * mu_h);
        let next = b.step(x, r, slope);
        let done = (next - x).abs() <= 1e-15 * scale || b.hi - b.lo <= 1e-16 * scale;
        x = next;
        if done {
            g_out = force(x).0;
            break;
        }
    }
    (x, g_out)
}

/// What one implicit step reports: the contact force it applied and the energy its
/// damping took (exact for the discrete gradient; 0 for AM1, whose dissipation the
/// caller estimates).
pub(super) struct Implicit {
    pub force: f64,
    pub dissipated: f64,
}

impl Coupled {
    /// AM1, eq (23), on the coupled state; `a0` the last step's accelerations, which the
    /// returned ones replace.
    pub(super) fn am1_step(
        &self,
        k: &ModeCoefs,
        s: &mut State,
        a0: &Accel,
        h: f64,
        stats: &mut NewtonStats,
    ) -> Accel {
        let (c1, c2) = (0.5 * h, 0.25 * h * h);
        let xa = s.x + h * s.v + c2 * a0.striker;
        let va = s.v + c1 * a0.striker;
        let (mut wa, mut ua) = ([0.0; MODES], [0.0; MODES]);
        let mut free = [0.0; MODES];
        let mut gain = [0.0; MODES];
        for i in 0..k.lanes {
            let d = k.den[i];
            let (w, u, a) = (s.w[i], s.u[i], a0.modes[i]);
            let r = k.omega2[i] * (w + h * u + c2 * a) + k.damp[i] * (u + c1 * a);
            free[i] = -r / d;
            gain[i] = k.inv_mass[i] / d;
            wa[i] = w + h * u + c2 * (a + free[i]);
            ua[i] = u + c1 * (a + free[i]);
        }
        let inv_m = 1.0 / self.contact.mass + lane_sum(&gain, k.lanes);
        let (sw, su) = (lane_sum(&wa, k.lanes), lane_sum(&ua, k.lanes));
        // The force on the striker, `f = −F`.
        let f = newton::solve_am1(
            &self.contact,
            xa - sw,
            va - su,
            c1 * inv_m,
            c2 * inv_m,
            -a0.force,
            None,
            (0.0, 0.0),
            stats,
        );
        let force = -f;
        let a_s = f / self.contact.mass;
        s.x = xa + c2 * a_s;
        s.v = va + c1 * a_s;
        let mut a1 = Accel {
            striker: a_s,
            modes: [0.0; MODES],
            force,
        };
        for i in 0..k.lanes {
            a1.modes[i] = free[i] + force * gain[i];
            s.w[i] = wa[i] + c2 * force * gain[i];
            s.u[i] = ua[i] + c1 * force * gain[i];
        }
        a1
    }

    /// One discrete-gradient step (module doc). `start` is a first guess at `Δδ` (the
    /// last step's), replaced by this step's.
    pub(super) fn dg_step(
        &self,
        k: &ModeCoefs,
        s: &mut State,
        h: f64,
        start: &mut f64,
    ) -> Implicit {
        let m = self.contact.mass;
        let (d0, _) = s.delta(self.modes.n);
        // ū_k = (2 u_k − h ω_k² w_k + h F / m_k) / (2 D_k) = base_k + F gain_k.
        let (mut base, mut gain, mut mobility) = ([0.0; MODES], [0.0; MODES], [0.0; MODES]);
        for i in 0..k.lanes {
            let d = k.den[i];
            base[i] = (2.0 * s.u[i] - h * k.omega2[i] * s.w[i]) / (2.0 * d);
            gain[i] = 0.5 * h * k.inv_mass[i] / d;
            mobility[i] = k.inv_mass[i] / d;
        }
        let free = s.v - lane_sum(&base, k.lanes);
        let inv_m = 1.0 / m + lane_sum(&mobility, k.lanes);
        // Δδ = h (v̄ − Σ ū_k) = Δ_free − β F.
        let beta = 0.5 * h * h * inv_m;
        let (delta, g) = solve_dg(&self.contact, d0, h, h * free, beta, *start);
        *start = delta;
        let force = g * (1.0 + self.contact.mu * delta / h);
        let v_bar = s.v - 0.5 * h * force / m;
        s.x += h * v_bar;
        s.v = 2.0 * v_bar - s.v;
        let mut modal = 0.0;
        for i in 0..k.lanes {
            let u_bar = base[i] + force * gain[i];
            s.w[i] += h * u_bar;
            s.u[i] = 2.0 * u_bar - s.u[i];
            if k.inv_mass[i] > 0.0 {
                modal += k.damp[i] * u_bar * u_bar / k.inv_mass[i];
            }
        }
        let contact = if delta != 0.0 {
            self.contact.mu * g * delta * delta / h
        } else {
            0.0
        };
        Implicit {
            force,
            dissipated: contact + h * modal,
        }
    }
}
