//! Rolling and scraping: the Hunt–Crossley contact of eq (1) between a mass and a
//! surface that moves under it, pressed by a load (a rolling ball's weight `m g`, as in
//! seed 001's gravity in contact, or the hand's force on a probe).
//!
//! The mass's lowest point is at height `y` (up), the surface under it at `s(t)`, the
//! [`Surface`](super::surface::Surface) envelope at the path point the mass has reached.
//! The compression is `δ = s − y`, and the contact force on the mass, up,
//! `F = k δ^α (1 + μ δ̇)` (eq 1 with `δ̇ = ṡ − ẏ`; never below 0: it pushes, it does
//! not pull), so `m ÿ = F − L`. Over a bump taken fast the surface falls away faster
//! than the load can follow, and the mass flies: its flight is the exact parabola
//! under the load, and it lands where that parabola meets the surface (a quadratic in
//! the sample, the surface linear across it), at its own sub-sample instant.
//!
//! **Energy balance.** With `E = ½ m ẏ² + L y + k δ^{α+1}/(α + 1)` (eqs 11, 13 and
//! the load's potential), `dE/dt = F ṡ − P_d`, where `F ṡ` is the power the moving
//! surface puts in and `P_d = (F − k δ^α) δ̇ ≥ 0` what the contact's damping takes
//! (eq 1: `k δ^α μ δ̇²`). So `E + D − W` stays at its start, `D` and `W` the integrals
//! of the two; [`Rolling::drift`] is how far the method's steps leave it, as the
//! Hamiltonian drift of a strike reports the integrator's error.

use super::alpha_pow::AlphaPow;
use super::contact::Contact;

/// `h λ` past which an explicit step's damping is taken split after all (its
/// predicted velocity is stable below 2).
const LAMBDA_LIMIT: f64 = 1.0;

mod plan;
mod rigid;
mod split;
pub use plan::{Damping, MAX_STEPS, plan_for, static_compression, steps_for};

/// The contact of a mass pressed onto a moving surface.
#[derive(Clone, Copy, Debug)]
pub struct Rolling {
    pub contact: Contact,
    /// The load pressing the mass down, N ([`set_load`](Self::set_load) moves it).
    load: f64,
    /// Height and vertical velocity of the mass's lowest point.
    pub y: f64,
    pub w: f64,
    /// The contact force at the state (0 in flight), `δ^α` there, and the
    /// acceleration `(F − L)/m` (kept, so a step's chain starts without a division).
    f: f64,
    d_pow: f64,
    acc: f64,
    /// `1 / m`.
    inv_m: f64,
    /// Damping owed, s: a split step's closing half, taken with the next step's
    /// opening half (`split.rs`).
    pending: f64,
    /// The energy at the start, and what the damping took and the surface put in.
    e0: f64,
    dissipated: f64,
    work: f64,
    /// Steps a sample, how they take the damping, a step's length and the rate.
    steps: u32,
    damping: Damping,
    dt: f64,
    /// `δ^α` past which an explicit step's damping would be stiff (`h λ >`
    /// [`LAMBDA_LIMIT`]: a landing pressed deeper than its plan foresaw), and such a
    /// step is split instead.
    stiff_pow: f64,
    fs: f64,
    /// `δ^α` from its tables (or the exact form where α has one).
    pow: AlphaPow,
    /// Landings after a flight, and the last one's instant in samples from the start.
    pub landings: u32,
    pub last_landing: f64,
    samples: u64,
}

impl Rolling {
    /// A mass at rest on the surface at height `s0`, under the load `load`, stepped
    /// `fs` times a second.
    ///
    /// A contact stiffer than its steps can follow is rigid ([`Damping::Rigid`]), and
    /// rests on the surface.
    pub fn new(contact: Contact, load: f64, s0: f64, fs: f64) -> Self {
        let load = if load.is_finite() { load.max(0.0) } else { 0.0 };
        let (steps, damping) = plan_for(&contact, load, fs);
        let delta = match damping {
            Damping::Rigid => 0.0,
            _ => static_compression(&contact, load),
        };
        let pow = AlphaPow::new(contact.alpha);
        let mut r = Self {
            contact,
            load,
            y: s0 - delta,
            w: 0.0,
            f: load,
            d_pow: if delta > 0.0 { pow.pow(delta) } else { 0.0 },
            // At rest: the force is the load's.
            acc: 0.0,
            inv_m: 1.0 / contact.mass,
            pending: 0.0,
            e0: 0.0,
            dissipated: 0.0,
            work: 0.0,
            steps,
            damping,
            dt: 1.0 / (fs * steps as f64),
            stiff_pow: f64::INFINITY,
            fs,
            pow,
            landings: 0,
            last_landing: f64::NAN,
            samples: 0,
        };
        r.e0 = r.energy(s0);
        r.stiff_pow = r.stiff_pow_for();
        r
    }

    /// Taken rigid from here on, at rest on the surface at `s0` (a rigid contact has
    /// no compression).
    fn rest_rigid(&mut self, s0: f64) {
        (self.y, self.d_pow, self.damping) = (s0, 0.0, Damping::Rigid);
        (self.steps, self.dt) = (1, 1.0 / self.fs);
        self.e0 = self.energy(s0);
    }

    fn stiff_pow_for(&self) -> f64 {
        let c = &self.contact;
        let limit = LAMBDA_LIMIT * c.mass / (self.dt * c.k * c.mu);
        if limit.is_nan() { f64::INFINITY } else { limit }
    }

    /// These steps made for a load up to `most` (a scrape pressed harder later): the
    /// more steps of the two plans, split if either is, rigid if either is.
    pub fn stepped_for(mut self, most: f64) -> Self {
        let (steps, damping) = plan_for(&self.contact, most, self.fs);
        if self.damping == Damping::Rigid {
            return self;
        }
        if damping == Damping::Rigid {
            // Rigid for the hardest press: at rest on the same surface height.
            let s0 = self.y + static_compression(&self.contact, self.load);
            self.rest_rigid(s0);
            return self;
        }
        self.steps = self.steps.max(steps);
        if damping == Damping::Split {
            self.damping = Damping::Split;
        }
        self.dt = 1.0 / (self.fs * self.steps as f64);
        self.stiff_pow = self.stiff_pow_for();
        self
    }

    /// A new load: the work it does on the balance (its potential `L y` moves by
    /// `ΔL y` at the height now) is counted with the surface's.
    pub fn set_load(&mut self, load: f64) {
        let load = if load.is_finite() { load.max(0.0) } else { 0.0 };
        self.work += (load - self.load) * self.y;
        self.load = load;
        self.acc = (self.f - load) / self.contact.mass;
    }

    /// One sample with the surface going from `s0` to `s1` under the mass: returns the
    /// contact force averaged over the sample (the impulse it gave, × fs), N. In line
    /// in the voice's sample, so it is compiled for the voice's path.
    #[inline(always)]
    pub fn sample(&mut self, s0: f64, s1: f64) -> f64 {
        if self.damping == Damping::Rigid {
            return self.rigid_sample(s0, s1);
        }
        let (n, dt, fs) = (self.steps, self.dt, self.fs);
        // The surface's speed over the sample, and its rise a step.
        let sdot = (s1 - s0) * fs;
        let ds = sdot * dt;
        let w0 = self.w;
        for i in 0..n {
            let a = s0 + ds * i as f64;
            self.step(a, sdot, dt, i, n);
        }
        self.settle(sdot);
        self.samples += 1;
        // m Δw = ∫(F − L) dt over the sample.
        self.contact.mass * (self.w - w0) * fs + self.load
    }

    /// One step of `dt` with the surface at `s` moving at `sdot`: in flight the exact
    /// parabola to the landing (then the rest of the step in contact), in contact
    /// velocity Verlet (eq 24) on the compression.
    #[inline]
    fn step(&mut self, s: f64, sdot: f64, dt: f64, i: u32, n: u32) {
        let g = self.load / self.contact.mass;
        if s - self.y > 0.0 || self.f > 0.0 {
            self.contact_step(s, sdot, dt);
            return;
        }
        // Flight: y + w t − g t²/2 = s + ṡ t first at t in (0, dt]?
        self.settle(sdot);
        match self.landing(s, sdot, dt, g) {
            Some(t) => {
                self.fly(t, g);
                self.landings += 1;
                self.last_landing = (self.samples as f64) + (i as f64 + t / dt) / n as f64;
                self.contact_step(s + sdot * t, sdot, dt - t);
            }
            None => self.fly(dt, g),
        }
    }

    /// When a mass in flight meets the surface at `s` (moving at `sdot`) within `dt`,
    /// if it does: where `y + w t − g t²/2 = s + ṡ t` first.
    #[inline]
    fn landing(&self, s: f64, sdot: f64, dt: f64, g: f64) -> Option<f64> {
        let (a, b, c) = (0.5 * g, sdot - self.w, s - self.y);
        // The gap `c + b t + a t²` starts at `c ≤ 0` and is convex (`a ≥ 0`): it has
        // closed by `dt` only if it is not clearly below 0 there. Most flight steps end
        // here, without the root's square root and divisions; the margin, far above
        // the sum's rounding, leaves every step near a landing to the root.
        let end = c + b * dt + a * dt * dt;
        if end < -1e-9 * (c.abs() + (b * dt).abs() + a * dt * dt) {
            return None;
        }
        first_root(a, b, c, dt)
    }

    #[inline]
    fn fly(&mut self, t: f64, g: f64) {
        self.y += self.w * t - 0.5 * g * t * t;
        self.w -= g * t;
    }

    /// One step of the mass in contact, the surface linear over it, by the contact's
    /// [`Damping`].
    #[inline]
    fn contact_step(&mut self, s: f64, sdot: f64, dt: f64) {
        if dt <= 0.0 {
            return;
        }
        match self.damping {
            Damping::Explicit if self.d_pow <= self.stiff_pow => {
                self.settle(sdot);
                self.verlet_step(s, sdot, dt)
            }
            // A split plan, or an explicit step whose damping is stiff here (a rigid
            // contact takes no steps).
            _ => self.split_step(s, sdot, dt),
        }
    }

    /// Velocity Verlet (eq 24) with the damping from the predicted velocity. `δ^α` is
    /// taken once a step: the end's is the next step's start.
    #[inline]
    fn verlet_step(&mut self, s: f64, sdot: f64, dt: f64) {
        let (m, k) = (self.contact.mass, self.contact.k);
        let (f0, dd0) = (self.f, sdot - self.w);
        let spring0 = k * self.d_pow;
        let a0 = self.acc;
        let y1 = self.y + (dt * self.w + 0.5 * dt * dt * a0);
        let d1 = s + sdot * dt - y1;
        let d_pow1 = if d1 > 0.0 { self.pow.pow(d1) } else { 0.0 };
        if d_pow1 > self.stiff_pow {
            // Pressed deeper than the plan foresaw: this step's damping is stiff.
            self.split_step(s, sdot, dt);
            return;
        }
        (self.y, self.d_pow) = (y1, d_pow1);
        let w_pred = self.w + dt * a0;
        let spring1 = k * self.d_pow;
        // Eq (1), never pulling.
        let f1 = (spring1 * (1.0 + self.contact.mu * (sdot - w_pred))).max(0.0);
        let a1 = (f1 - self.load) / m;
        self.w += 0.5 * dt * (a0 + a1);
        self.f = f1;
        self.acc = a1;
        let dd1 = sdot - self.w;
        // The balance's integrals by the trapezoid rule over the step.
        let (p0, p1) = ((f0 - spring0) * dd0, (f1 - spring1) * dd1);
        self.dissipated += 0.5 * dt * (p0 + p1);
        self.work += 0.5 * dt * (f0 + f1) * sdot;
    }

    /// `E` of the balance with the surface at `s`.
    pub fn energy(&self, s: f64) -> f64 {
        let c = &self.contact;
        let d = s - self.y;
        let v = c.k * pos_pow(d, c.alpha + 1.0) / (c.alpha + 1.0);
        0.5 * c.mass * self.w * self.w + self.load * self.y + v
    }

    /// `E + D − W − E₀` with the surface at `s`: what the steps have gained or lost,
    /// J (0 for an exact integration).
    pub fn drift(&self, s: f64) -> f64 {
        self.energy(s) + self.dissipated - self.work - self.e0
    }

    /// The scale [`drift`](Self::drift) is read against: the largest of the energies
    /// moved (the surface's work, the damping's, the start).
    pub fn energy_scale(&self) -> f64 {
        self.work
            .abs()
            .max(self.dissipated.abs())
            .max(self.e0.abs())
    }

    /// True while the surface presses the mass.
    pub fn touching(&self) -> bool {
        self.f > 0.0
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn damping(&self) -> Damping {
        self.damping
    }

    pub fn load(&self) -> f64 {
        self.load
    }
}

/// `x^p` for `x > 0`, else 0.
#[inline]
fn pos_pow(x: f64, p: f64) -> f64 {
    if x > 0.0 { x.powf(p) } else { 0.0 }
}

/// The least root of `a t² + b t + c` in `(0, t_max]` (`a ≥ 0`, `c < 0` or not).
fn first_root(a: f64, b: f64, c: f64, t_max: f64) -> Option<f64> {
    let t = if a > 0.0 {
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return None;
        }
        // The stable form of the smaller positive root.
        let q = -0.5 * (b + b.signum() * disc.sqrt());
        let (r1, r2) = (q / a, if q != 0.0 { c / q } else { f64::INFINITY });
        [r1, r2]
            .into_iter()
            .filter(|r| *r > 0.0)
            .fold(f64::INFINITY, f64::min)
    } else if b != 0.0 {
        -c / b
    } else {
        return None;
    };
    (t > 0.0 && t <= t_max).then_some(t)
}

#[cfg(test)]
mod tests;
