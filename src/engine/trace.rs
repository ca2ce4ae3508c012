//! The live trace of the last contact, as the editor plots it, and the recorder that
//! fills it sample by sample.
//!
//! Everything the editor shows of the last contact travels in one [`ContactTrace`]
//! (plain `Copy` data, no heap), copied into a triple buffer at each publication: the
//! trajectory and the figures of one contact stay consistent with each other, and the
//! audio thread never blocks. Plugin-wide counters (guard events, voices) are atomics
//! in the editor's shared state.

use super::params::EngineParams;
use crate::model::load::SETTLE_ZETA;
use crate::model::{BounceSample, Bouncer, Contact, Scheme, Train};

/// Points kept of the last contact's trajectory (decimated by 2 when full).
pub const TRACE_POINTS: usize = 512;
/// Bounces kept in the residual-energy drift trace.
pub const TRACE_BOUNCES: usize = 64;

/// Which bouncing the last note did ([`Train`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BounceMode {
    /// A single impact.
    Off,
    /// Gravity in free flight only (the core paper's Section IV-B2).
    FlightOnly,
    /// Gravity during contact too (seed 001).
    InContact,
}

impl BounceMode {
    pub fn of(train: &Train) -> Self {
        match (train.gravity, train.in_contact) {
            (None, _) => BounceMode::Off,
            (Some(_), false) => BounceMode::FlightOnly,
            (Some(_), true) => BounceMode::InContact,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            BounceMode::Off => "off",
            BounceMode::FlightOnly => "flight only",
            BounceMode::InContact => "in contact",
        }
    }
}

/// Where the last note's train is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RestState {
    /// Bouncing off: one impact.
    Single,
    /// Still bouncing (in contact or in flight).
    Bouncing,
    /// Gravity in contact: the load-aware energy went negative, the mass can no longer
    /// leave the wall and is settling.
    Sticking,
    /// The train ended with the mass at rest on the wall, at `x̄ = (m g/k)^{1/α}` (m):
    /// settled there (gravity in contact), or stopped by the load-aware sticking rule
    /// (flight only).
    Resting { x_rest: f64 },
    /// The train ended otherwise (impact limit, bounces shorter than a sample).
    Ended,
}

/// The last contact, as the editor plots it: trajectory, analytic reference data and
/// the figures integrators are compared by. Plain data, copied through a triple buffer.
#[derive(Clone, Debug)]
pub struct ContactTrace {
    /// Bumped at each publication.
    pub seq: u64,
    pub fs: f64,
    /// The recorded contact (its `mu` is the one it latched: in restitution mode the μ
    /// the restitution implied at its `v_in`).
    pub contact: Contact,
    pub scheme: Scheme,
    pub v_in: f64,
    /// The recorded contact was under gravity during contact: `h` is then the
    /// load-aware Hamiltonian `½ m v² + k x^{α+1}/(α+1) − m g x` over `H₀ = ½ m v_in²`
    /// and `d` the energy dissipated so far over `H₀` (eq (20) does not hold).
    pub load: bool,
    /// Gravity of the recorded contact (m/s², 0 without load).
    pub load_g: f64,
    /// Trajectory points (v, x, H_sim / H₀, D / H₀), every `stride`-th sample.
    pub len: usize,
    pub stride: usize,
    pub v: [f32; TRACE_POINTS],
    pub x: [f32; TRACE_POINTS],
    pub h: [f32; TRACE_POINTS],
    pub d: [f32; TRACE_POINTS],
    /// Contact time in samples.
    pub samples: u64,
    /// Largest |H_sim − H(v)| / |ΔH_τ| over the contact, % (eq 27, exact v_out); under
    /// load, the model's load-aware drift `|H + D − H₀|` over the exact contact's
    /// dissipated energy, %.
    pub dev_h_pct: f64,
    /// 100 (v_out,sim − v_out) / v_out against the exact root of eq (6) (eq 28); under
    /// load against the exact load-aware exit (NaN when the exact mass sticks).
    pub err_vout_pct: f64,
    /// The contact went numerically wild and was ended by the core's guard.
    pub runaway: bool,
    pub newton_mean: f64,
    pub newton_max: u32,
    /// Per bounce: residual energy after it against the exact chain, %; when
    /// `drift_load`, the load-aware energy drift of each contact, %.
    pub bounces: usize,
    pub drift_pct: [f32; TRACE_BOUNCES],
    pub drift_load: bool,
    /// Count of guard events (runaway or non-finite output) so far.
    pub guard_events: u64,
    /// The last contact of the note (recorded or not: late small bounces are not
    /// plotted, but these figures follow every contact).
    pub last: LastContact,
    pub bounce: BounceMode,
    /// Gravity of the train, m/s² (0 when not bouncing).
    pub gravity: f64,
    pub rest: RestState,
}

/// Figures of the last contact, whatever its size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastContact {
    /// Its number in the train (1 for the strike).
    pub impact: u32,
    pub v_in: f64,
    /// The restitution obtained, `−v_out/v_in` (0 for a mass that stayed on the wall).
    pub e: f64,
    /// The exact restitution of the contact it latched: eq (6)'s, or the load-aware
    /// exit's under gravity in contact (0 when the exact mass sticks).
    pub e_exact: f64,
    /// The μ the contact used (s/m).
    pub mu: f64,
    /// `Some(e)` when the damping came from a restitution (seed 000).
    pub restitution: Option<f64>,
    /// Under gravity in contact: `Impact::load_drift()`, %; NaN otherwise.
    pub load_drift_pct: f64,
}

impl Default for LastContact {
    fn default() -> Self {
        Self {
            impact: 0,
            v_in: 0.0,
            e: f64::NAN,
            e_exact: f64::NAN,
            mu: f64::NAN,
            restitution: None,
            load_drift_pct: f64::NAN,
        }
    }
}

impl Default for ContactTrace {
    fn default() -> Self {
        let p = EngineParams::default();
        let latch = super::voice::latch_of(&p);
        let train = super::voice::train_of(&p);
        Self {
            seq: 0,
            fs: 48000.0,
            contact: latch.contact,
            scheme: latch.scheme,
            v_in: 0.0,
            load: false,
            load_g: 0.0,
            len: 0,
            stride: 1,
            v: [0.0; TRACE_POINTS],
            x: [0.0; TRACE_POINTS],
            h: [0.0; TRACE_POINTS],
            d: [0.0; TRACE_POINTS],
            samples: 0,
            dev_h_pct: 0.0,
            err_vout_pct: 0.0,
            runaway: false,
            newton_mean: 0.0,
            newton_max: 0,
            bounces: 0,
            drift_pct: [0.0; TRACE_BOUNCES],
            drift_load: false,
            guard_events: 0,
            last: LastContact::default(),
            bounce: BounceMode::of(&train),
            gravity: train.gravity.unwrap_or(0.0),
            rest: RestState::Single,
        }
    }
}

/// Records the contact of the most recently struck voice.
pub(super) struct Tracer {
    pub(super) slot: Option<usize>,
    pub(super) work: ContactTrace,
    /// v_in of the note's first impact, and of the exact bounce chain.
    pub(super) v_first: f64,
    pub(super) v_chain: f64,
    /// Whether the impact in progress is recorded (tiny late bounces are not).
    pub(super) recording: bool,
    pub(super) counter: usize,
    /// Largest |H_sim − H(v)| of the impact in progress, J.
    pub(super) max_dev: f64,
    pub(super) h0: f64,
    /// Under load: energy dissipated so far in the recorded contact (J, trapezoid over
    /// samples) and the dissipation rate at the last sample (W).
    pub(super) dissipated: f64,
    pub(super) rate: f64,
    /// The restitution the contact in progress latched its damping from.
    pub(super) restitution: Option<f64>,
}

impl Tracer {
    pub(super) fn new() -> Self {
        Self {
            slot: None,
            work: ContactTrace::default(),
            v_first: 0.0,
            v_chain: 0.0,
            recording: false,
            counter: 0,
            max_dev: 0.0,
            h0: 1.0,
            dissipated: 0.0,
            rate: 0.0,
            restitution: None,
        }
    }

    /// A new note in `slot`: its train is `train_of(p)`.
    pub(super) fn follow(&mut self, slot: usize, p: &EngineParams) {
        let train = super::voice::train_of(p);
        self.slot = Some(slot);
        self.v_first = 0.0;
        self.v_chain = 0.0;
        self.recording = false;
        let w = &mut self.work;
        w.bounces = 0;
        w.drift_load = false;
        w.bounce = BounceMode::of(&train);
        w.gravity = train.gravity.unwrap_or(0.0);
        w.rest = match w.bounce {
            BounceMode::Off => RestState::Single,
            _ => RestState::Bouncing,
        };
    }

    fn push(&mut self, v: f64, x: f64, h: f64, d: f64) {
        self.counter += 1;
        if !(self.counter - 1).is_multiple_of(self.work.stride) {
            return;
        }
        let w = &mut self.work;
        if w.len == TRACE_POINTS {
            for i in 0..TRACE_POINTS / 2 {
                w.v[i] = w.v[2 * i];
                w.x[i] = w.x[2 * i];
                w.h[i] = w.h[2 * i];
                w.d[i] = w.d[2 * i];
            }
            w.len = TRACE_POINTS / 2;
            w.stride *= 2;
            if !(self.counter - 1).is_multiple_of(w.stride) {
                return;
            }
        }
        w.v[w.len] = v as f32;
        w.x[w.len] = x as f32;
        w.h[w.len] = h as f32;
        w.d[w.len] = d as f32;
        w.len += 1;
    }

    /// Records one sample of the followed voice's train `b`, which did `s`; `p` are
    /// the parameters the voice latched a new contact from in this sample
    /// (`latch_of(p)`). Returns true when the trace should be published: at each
    /// detachment, when the mass gets trapped, and when the train ends in flight.
    pub(super) fn sample(
        &mut self,
        b: &Bouncer,
        s: &BounceSample,
        p: &EngineParams,
        fs: f64,
    ) -> bool {
        let imp = b.impact();
        let an = *imp.analytic();
        let c = an.contact;
        let g = imp.gravity();
        if s.onset {
            self.restitution = super::physical::restitution_of(p);
            self.work.bounce = BounceMode::of(&b.train());
            self.work.gravity = b.train().gravity.unwrap_or(0.0);
            if self.v_first == 0.0 {
                self.v_first = an.v_in;
                self.v_chain = an.v_in;
            }
            self.recording = an.v_in >= 0.1 * self.v_first;
            if self.recording {
                let w = &mut self.work;
                w.len = 0;
                w.stride = 1;
                self.counter = 0;
                self.max_dev = 0.0;
                self.h0 = an.h_0().max(f64::MIN_POSITIVE);
                self.dissipated = 0.0;
                self.rate = 0.0;
                w.contact = c;
                w.scheme = imp.scheme();
                w.v_in = an.v_in;
                w.fs = fs;
                w.load = g > 0.0;
                w.load_g = g;
                self.push(an.v_in, 0.0, 1.0, 0.0);
            }
        }
        if self.recording {
            let (x, v) = (imp.x(), imp.v());
            let (h, d) = if g > 0.0 {
                // The load-aware balance: H falls by what the damping (and, once the
                // mass is trapped, the settling drag) dissipates.
                let xp = if x > 0.0 { c.x_pow_alpha(x) } else { 0.0 };
                let h = 0.5 * c.mass * v * v + c.k * x.max(0.0) * xp / (c.alpha + 1.0)
                    - c.mass * g * x.max(0.0);
                let drag = if imp.trapped() {
                    let x_rest = crate::model::load::x_rest(c.k, c.alpha, c.mass, g);
                    let k_eq = c.k * c.alpha * x_rest.powf(c.alpha - 1.0);
                    2.0 * SETTLE_ZETA * (c.mass * k_eq).sqrt()
                } else {
                    0.0
                };
                let rate = (c.mu * c.k * xp + drag) * v * v;
                let from = if s.onset { imp.start_fraction() } else { 0.0 };
                let to = if s.detached { imp.exit_fraction() } else { 1.0 };
                self.dissipated += 0.5 * (to - from).max(0.0) / fs * (rate + self.rate);
                self.rate = rate;
                (h / self.h0, self.dissipated / self.h0)
            } else {
                if imp.in_contact() {
                    let dev = an.hamiltonian_deviation(x, v).abs();
                    if dev.is_finite() {
                        self.max_dev = self.max_dev.max(dev);
                    }
                }
                (c.hamiltonian(x, v) / self.h0, 0.0)
            };
            self.push(v, x, h, d);
        }
        let mut publish = false;
        if g > 0.0
            && imp.trapped()
            && !s.detached
            && !b.is_done()
            && self.work.rest != RestState::Sticking
        {
            self.work.rest = RestState::Sticking;
            publish = true;
        }
        if s.detached {
            self.detached(b, fs);
            publish = true;
        } else if b.is_done() && matches!(self.work.rest, RestState::Bouncing) {
            // The train ended in flight (the next bounce would be under a sample).
            self.work.rest = rest_of(b);
            publish = true;
        }
        publish
    }

    /// The figures of a contact that just ended.
    fn detached(&mut self, b: &Bouncer, _fs: f64) {
        let imp = b.impact();
        let an = *imp.analytic();
        let g = imp.gravity();
        let v_sim = imp.v();
        // The exact exit of the contact latched: eq (6), or the load-aware one.
        let exact = match imp.load_exit() {
            Some(x) if g > 0.0 => -x.e * an.v_in,
            _ => an.v_out(),
        };
        let t = self;
        if t.recording {
            let w = &mut t.work;
            w.samples = imp.samples();
            if g > 0.0 {
                w.dev_h_pct = 100.0 * imp.load_drift();
                w.err_vout_pct = if exact != 0.0 {
                    100.0 * (v_sim - exact) / exact
                } else {
                    f64::NAN
                };
            } else {
                // Eqs (27) and (28) as `rebound simulate` measures them (metrics.rs).
                w.dev_h_pct = 100.0 * t.max_dev / an.delta_h_tau(exact).abs();
                w.err_vout_pct = 100.0 * (v_sim - exact) / exact;
            }
            w.runaway = imp.runaway();
            w.newton_mean = imp.newton.mean();
            w.newton_max = imp.newton.max;
        }
        let w = &mut t.work;
        w.last = LastContact {
            impact: b.impacts(),
            v_in: an.v_in,
            e: if imp.rested() { 0.0 } else { -v_sim / an.v_in },
            e_exact: -exact / an.v_in,
            mu: an.contact.mu,
            restitution: t.restitution,
            load_drift_pct: if g > 0.0 {
                100.0 * imp.load_drift()
            } else {
                f64::NAN
            },
        };
        if g > 0.0 {
            // Under load the per-bounce figure is the model's own energy balance.
            w.drift_load = true;
            if w.bounces < TRACE_BOUNCES {
                w.drift_pct[w.bounces] = (100.0 * imp.load_drift()) as f32;
                w.bounces += 1;
            }
        } else {
            // Exact chain: each bounce of the analytic model starts at the previous
            // exact |v_out| with the contact latched for this impact (in restitution
            // mode the exact chain loses the factor e at every bounce).
            let v_exact_chain = match t.restitution {
                Some(e) => e * t.v_chain,
                None => an.contact.impact(t.v_chain).v_out().abs(),
            };
            t.v_chain = v_exact_chain;
            if w.bounces < TRACE_BOUNCES {
                let e = (v_sim * v_sim) / (v_exact_chain * v_exact_chain) - 1.0;
                w.drift_pct[w.bounces] = (100.0 * e) as f32;
                w.bounces += 1;
            }
        }
        w.rest = if b.is_done() {
            rest_of(b)
        } else {
            RestState::Bouncing
        };
    }
}

/// The rest state of a train.
fn rest_of(b: &Bouncer) -> RestState {
    if b.train().gravity.is_none() {
        RestState::Single
    } else if !b.is_done() {
        RestState::Bouncing
    } else {
        match b.rest_position() {
            Some(x_rest) => RestState::Resting { x_rest },
            None => RestState::Ended,
        }
    }
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
