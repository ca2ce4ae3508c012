//! The live trace of the last contact, as the editor plots it.
//!
//! Everything the editor shows of the last contact travels in one [`ContactTrace`]
//! (plain `Copy` data, no heap), copied into a triple buffer at each publication: the
//! trajectory and the figures of one contact stay consistent with each other, and the
//! audio thread never blocks. Plugin-wide counters (guard events, voices) are atomics
//! in the editor's shared state. The recorder that fills it is `trace`.

pub(super) mod recorder;

use crate::engine::params::EngineParams;
use crate::model::{Contact, Scheme, Train};

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
    /// The recorded strike was two-way (Coupling Two-way: the body gives): `x` is the
    /// striker's `x_s`, `w` the body's surface under it (`δ = x_s − w` the
    /// compression), `h` the coupled system's energy (striker, contact and modes) over
    /// `H₀ = ½ m v_in²`, falling by what the contact's and the modes' damping take, and
    /// `d` 0. The strike is recorded from its onset until the striker is clear of the
    /// body, micro-contacts included; eq (3), (6) and (20) do not hold.
    pub two_way: bool,
    /// Trajectory points (v, x, H_sim / H₀, D / H₀, and the surface `w`: 0 on the rigid
    /// wall), every `stride`-th sample.
    pub len: usize,
    pub stride: usize,
    pub v: [f32; TRACE_POINTS],
    pub x: [f32; TRACE_POINTS],
    pub h: [f32; TRACE_POINTS],
    pub d: [f32; TRACE_POINTS],
    pub w: [f32; TRACE_POINTS],
    /// Contact time in samples (two-way: samples with `δ > 0`).
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
        let latch = crate::engine::voice::latch_of(&p);
        let train = crate::engine::voice::train_of(&p);
        Self {
            seq: 0,
            fs: 48000.0,
            contact: latch.contact,
            scheme: latch.scheme,
            v_in: 0.0,
            load: false,
            load_g: 0.0,
            two_way: false,
            len: 0,
            stride: 1,
            v: [0.0; TRACE_POINTS],
            x: [0.0; TRACE_POINTS],
            h: [0.0; TRACE_POINTS],
            d: [0.0; TRACE_POINTS],
            w: [0.0; TRACE_POINTS],
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
