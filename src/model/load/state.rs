//! The per-contact state of gravity during contact kept by `Impact`: the load, the
//! trap and the settling of a mass that cannot leave, and the energy balance.

use super::outcome::{LoadExit, x_rest};
use crate::model::contact::Contact;

/// Damping ratio of the settling of a trapped mass: a documented rule, not seed 001's
/// physics. Once the load-aware energy is negative the mass can never leave; left to
/// the contact's own damping it would rock in the well at `ω_eq` and decay at only
/// `μ g/2` (seconds at the defaults, days at μ = 1e-4, g = 0.1). A drag giving this
/// ratio at the rest point settles it within about `28/ω_eq` to [`REST_FORCE`].
pub const SETTLE_ZETA: f64 = 0.5;
/// The settling is over, and the mass put at rest at `x̄`, when the amplitude of the
/// force about the static load is below this fraction of `m g`: at most 120 dB under
/// the load, which itself is below any strike's peak force.
pub const REST_FORCE: f64 = 1e-6;

/// The per-contact state of gravity during contact, kept by `Impact`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loaded {
    /// Gravity, m/s² (0: the paper's contact, all of this inert).
    pub g: f64,
    /// The load `m g`, N.
    pub force: f64,
    /// The settling drag (N·s/m): 0 until the mass is trapped.
    pub drag: f64,
    /// The exact outcome, once solved (`None` while the solve is in progress: the
    /// contact does not stick on its account meanwhile).
    pub exit: Option<LoadExit>,
    /// The load-aware energy went negative: the mass can no longer leave.
    pub trapped: bool,
    /// Settled: the contact ended at rest at `x̄`.
    pub rested: bool,
    pub x_rest: f64,
    /// Stiffness at rest `k α x̄^{α−1}`, N/m.
    k_eq: f64,
    /// The Hamiltonian at rest, `H(x̄, 0)`: the bottom of the well.
    h_rest: f64,
    /// `H(0) = ½ m v_in²`.
    h0: f64,
    /// Energy dissipated so far (`∫ (μ k x^α + drag) v² dt`), and its last rate.
    dissipated: f64,
    rate: f64,
    /// Energy the exact contact dissipates (the scale of the drift; NaN until the exit
    /// is known).
    delta_h: f64,
    /// Largest `|H + D − H(0)|` so far, J (read relative to `delta_h`: [`Self::max_dev`]).
    max_abs_dev: f64,
}

impl Loaded {
    /// The load on a contact at `v_in`, its exit not known yet ([`Self::set_exit`]).
    pub fn new(c: &Contact, v_in: f64, g: f64) -> Self {
        let x_rest = x_rest(c.k, c.alpha, c.mass, g);
        let mut l = Self {
            g,
            force: c.mass * g,
            x_rest,
            k_eq: c.k * c.alpha * x_rest.powf(c.alpha - 1.0),
            h0: 0.5 * c.mass * v_in * v_in,
            delta_h: f64::NAN,
            ..Self::default()
        };
        let rest_pow = if x_rest > 0.0 {
            x_rest.powf(c.alpha)
        } else {
            0.0
        };
        l.h_rest = l.hamiltonian(c, x_rest, rest_pow, 0.0);
        l
    }

    /// The exact outcome, once solved: it sets the scale of the drift.
    pub fn set_exit(&mut self, c: &Contact, v_in: f64, exit: LoadExit) {
        let v_out = exit.e * v_in;
        self.exit = Some(exit);
        // What the contact dissipates: down to ½ m v_out², or for a mass that sticks,
        // to the bottom of the well, H(x̄) = −α/(α+1) m g x̄.
        self.delta_h = if exit.sticks {
            self.h0 + c.alpha / (c.alpha + 1.0) * c.mass * self.g * self.x_rest
        } else {
            self.h0 - 0.5 * c.mass * v_out * v_out
        }
        .max(f64::MIN_POSITIVE);
    }

    /// Largest `|H + D − H(0)|` so far, relative to the energy the exact contact
    /// dissipates (NaN until the exit is known).
    pub fn max_dev(&self) -> f64 {
        if self.max_abs_dev == 0.0 {
            0.0
        } else {
            self.max_abs_dev / self.delta_h
        }
    }

    /// The load-aware Hamiltonian `H = ½ m v² + k x^{α+1}/(α+1) − m g x` (seed 001's
    /// energy in physical units), from `x^α` at hand.
    #[inline]
    pub fn hamiltonian(&self, c: &Contact, x: f64, x_pow: f64, v: f64) -> f64 {
        // The load's potential holds on both sides of the wall (a step that ends past
        // it has flown the rest of its length); the spring's only in contact.
        let spring = if x > 0.0 {
            c.k * x * x_pow / (c.alpha + 1.0)
        } else {
            0.0
        };
        0.5 * c.mass * v * v + spring - self.force * x
    }

    /// After a step of length `h` to `(x, v)`: the dissipated energy (trapezoid), the
    /// drift of `H + D` and the trap test. Returns true when the mass just got trapped.
    #[inline]
    pub fn observe(&mut self, c: &Contact, h: f64, x: f64, x_pow: f64, v: f64) -> bool {
        let rate = (c.mu * c.k * x_pow + self.drag) * v * v;
        self.dissipated += 0.5 * h * (rate + self.rate);
        self.rate = rate;
        let hx = self.hamiltonian(c, x, x_pow, v);
        let dev = (hx + self.dissipated - self.h0).abs();
        if dev > self.max_abs_dev {
            self.max_abs_dev = dev;
        }
        if !self.trapped && hx < 0.0 && x > 0.0 {
            self.trapped = true;
            self.drag = 2.0 * SETTLE_ZETA * (c.mass * self.k_eq).sqrt();
            return true;
        }
        false
    }

    /// Seconds the settling of a trapped mass may take, with margin.
    pub fn settle_bound(&self, c: &Contact) -> f64 {
        let omega = (self.k_eq / c.mass).sqrt();
        4.0 * (1.0 / REST_FORCE).ln() / (SETTLE_ZETA * omega)
    }

    /// True once a trapped mass that is overdamped at rest (`g μ > 2 ω_eq`: it creeps
    /// to `x̄`, it does not rock) is on its slow manifold: the net force on it under
    /// [`REST_FORCE`]·`m g`. The wall then holds the load, and what is left is a creep
    /// toward `x̄` whose force the body cannot hear (`m v'`, far below), yet which would
    /// take seconds of steps to reach [`settled`](Self::settled)'s energy.
    pub fn creeps(&self, c: &Contact, x_pow: f64, v: f64) -> bool {
        let overdamped = self.g * c.mu > 2.0 * (self.k_eq / c.mass).sqrt();
        let net = self.force - c.k * x_pow * (1.0 + c.mu * v) - self.drag * v;
        self.trapped && overdamped && net.abs() <= REST_FORCE * self.force
    }

    /// True once a trapped mass rocks with a force amplitude under [`REST_FORCE`]·`m g`.
    pub fn settled(&self, c: &Contact, x: f64, v: f64) -> bool {
        if !self.trapped {
            return false;
        }
        let x_pow = if x > 0.0 { x.powf(c.alpha) } else { 0.0 };
        let e = self.hamiltonian(c, x, x_pow, v) - self.h_rest;
        let amp = (2.0 * e.max(0.0) * self.k_eq).sqrt();
        amp <= REST_FORCE * self.force
    }
}
