//! Every parameter of the instrument as a plain value, its default and its limits: the
//! one framework-free spec the plugin's ranges, the engine's clamping and the CLI's
//! checks are built from.

use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};

mod kinds;
pub use kinds::{Controls, Coupling, Gesture, ModWheel, NoteOff};

/// Most voices a user can ask for.
pub const MAX_VOICES: usize = 64;

/// Every parameter of the instrument as a plain value (the plugin converts its
/// parameters to this once per block; the CLI builds it from options).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EngineParams {
    /// Impact speed at velocity 0 and 1, m/s.
    pub v_min: f64,
    pub v_max: f64,
    /// Exponent of the velocity curve (1 = linear).
    pub velocity_curve: f64,
    /// Striking mass, kg.
    pub mass: f64,
    /// Which controls set the contact: Hardness and Bounciness (the contact time at
    /// `v_max` and the restitution, mapped to `k` and `μ`), or `k` and `μ` themselves.
    pub controls: Controls,
    /// Hardness: the contact time at `v_max`, ms (eq 9 inverted to `k`).
    pub hardness_ms: f64,
    /// Stiffness, N/m^α (expert controls).
    pub k: f64,
    pub alpha: f64,
    /// Damping ratio μ = λ/k, s/m (unless set from the restitution).
    pub mu: f64,
    /// Damping from a coefficient of restitution (seed 000) instead of `mu`: each
    /// strike gets the μ that leaves at `−restitution · v_in`.
    pub from_restitution: bool,
    /// Coefficient of restitution `e`.
    pub restitution: f64,
    pub method: Method,
    pub correction: Correction,
    pub clamp_target: ClampTarget,
    pub bouncing: bool,
    /// Gravity acts during contact too (seed 001): bounces lose more at low speed and
    /// the train comes to rest.
    pub gravity_in_contact: bool,
    /// m/s².
    pub gravity: f64,
    pub body: BodyType,
    /// Body fundamental at middle C (key 60), Hz.
    pub body_freq: f64,
    /// 0 = every key the same pitch, 1 = the note sets the fundamental.
    pub key_track: f64,
    /// T60 of the fundamental, s.
    pub t60: f64,
    pub brightness: f64,
    pub position: f64,
    /// 0 = dry force pulse, 1 = body only.
    pub mix: f64,
    pub gain_db: f64,
    pub voices: usize,
    /// What a note-off does (Ring: nothing; Damp: see [`NoteOff`]).
    pub note_off: NoteOff,
    /// Damp mode: every mode of the body decays with T60 at most this, s.
    pub release: f64,
    /// What the striker meets: a rigid wall (the paper's model) or the body's surface,
    /// which moves under it (see [`Coupling`]).
    pub coupling: Coupling,
    /// The body's mass with two-way coupling, kg: each mode weighs `M / φ_k²` at the
    /// strike point (`body::strike_modes`).
    pub body_mass: f64,
    /// Stereo width: 0 = mono, 1 = the full spread of pan and pickups.
    pub width: f64,
    /// Key spread: how far the keys fan out across the image from middle C (0 = every
    /// key in the centre, 1 = keys three octaves off at the edge), scaled by `width`.
    pub key_spread: f64,
    /// Humanize amount: 0 = identical hits, 1 = the largest per-hit jitter.
    pub humanize: f64,
    /// Humanize seed (a whole number): the same seed and input give the same render.
    pub seed: f64,
    /// What the mod wheel (CC 1) moves.
    pub mod_wheel: ModWheel,
    /// How far the mod wheel moves it, 0–1.
    pub mod_depth: f64,
    /// Pitch-bend range for the body, semitones (48 for MPE controllers).
    pub bend_range: f64,
    /// Per-bounce irregularity of a bouncing train, 0–1 (0: the exact geometric
    /// chain; see `model::irregular`), drawn from the Seed.
    pub irregularity: f64,
    /// Velocity → Hardness, 0–1 (Playable controls): a note at a fraction `r` of the
    /// full-velocity speed has its contact time lengthened (see `humanize::Jitter`).
    pub velocity_hardness: f64,
    /// What a note plays: one strike (and its bounces), or a crumpling train of strikes
    /// while the key is held (see [`Gesture`]).
    pub gesture: Gesture,
    /// Crumple: mean events per second while the key is held.
    pub crumple_rate: f64,
    /// Crumple: the exponent `τ` of the events' energy law `p(E) ∝ E^−τ`
    /// (`model::crumple`): larger, fewer loud events.
    pub crumple_tau: f64,
    /// Roll: the ball's radius; Scrape: the probe tip's, mm.
    pub radius_mm: f64,
    /// Roll and Scrape: the surface's RMS height, µm, and the exponent `β` of its
    /// `1/f^β` spectrum (`model::surface`).
    pub roughness_um: f64,
    pub roughness_beta: f64,
    /// The recorded body played with Body at Recorded: its index in the process's
    /// table (`body::register`; 0, none). Not a host parameter: the plugin's state
    /// and a preset hold the partials themselves, and register them when loaded.
    pub recording: u16,
}

impl Default for EngineParams {
    fn default() -> Self {
        Self {
            v_min: 0.1,
            v_max: 2.0,
            velocity_curve: 1.0,
            mass: 0.01,
            controls: Controls::Playable,
            hardness_ms: 0.6,
            k: 1e7,
            alpha: 1.5,
            mu: 0.5,
            from_restitution: false,
            restitution: 0.7,
            method: Method::Verlet,
            correction: Correction::Both,
            clamp_target: ClampTarget::Exact,
            bouncing: false,
            gravity_in_contact: false,
            gravity: 9.81,
            body: BodyType::Bar,
            body_freq: 440.0,
            key_track: 1.0,
            t60: 1.0,
            brightness: 0.5,
            position: 0.3,
            mix: 0.7,
            gain_db: 0.0,
            voices: 16,
            note_off: NoteOff::Ring,
            release: 0.08,
            coupling: Coupling::Rigid,
            body_mass: 0.5,
            width: 0.7,
            key_spread: 0.6,
            humanize: 0.0,
            seed: 1.0,
            mod_wheel: ModWheel::Off,
            mod_depth: 0.5,
            bend_range: 2.0,
            irregularity: 0.0,
            velocity_hardness: 0.5,
            gesture: Gesture::Strike,
            crumple_rate: 40.0,
            crumple_tau: 1.4,
            radius_mm: 8.0,
            roughness_um: 5.0,
            roughness_beta: 1.5,
            recording: 0,
        }
    }
}

/// Lowest and highest value of every number in [`EngineParams`] (the enums take any
/// variant): the one spec the plugin's ranges are built from and the engine clamps to.
pub const LIMITS: [EngineParams; 2] = [
    EngineParams {
        v_min: 1e-3,
        v_max: 1e-3,
        velocity_curve: 0.25,
        mass: 1e-4,
        controls: Controls::Playable,
        hardness_ms: 0.02,
        k: 1e2,
        alpha: 1.0,
        mu: 1e-4,
        from_restitution: false,
        restitution: 0.05,
        method: Method::Verlet,
        correction: Correction::Both,
        clamp_target: ClampTarget::Exact,
        bouncing: false,
        gravity_in_contact: false,
        gravity: 0.1,
        body: BodyType::Bar,
        body_freq: 20.0,
        key_track: 0.0,
        t60: 0.01,
        brightness: 0.0,
        position: 0.0,
        mix: 0.0,
        gain_db: -48.0,
        voices: 1,
        note_off: NoteOff::Ring,
        release: 0.005,
        coupling: Coupling::Rigid,
        body_mass: 1e-3,
        width: 0.0,
        key_spread: 0.0,
        humanize: 0.0,
        seed: 0.0,
        mod_wheel: ModWheel::Off,
        mod_depth: 0.0,
        bend_range: 0.0,
        irregularity: 0.0,
        velocity_hardness: 0.0,
        gesture: Gesture::Strike,
        crumple_rate: 1.0,
        crumple_tau: 1.0,
        radius_mm: 0.1,
        roughness_um: 0.1,
        roughness_beta: 0.0,
        recording: 0,
    },
    EngineParams {
        v_min: 50.0,
        v_max: 50.0,
        velocity_curve: 4.0,
        mass: 1.0,
        controls: Controls::Playable,
        hardness_ms: 10.0,
        k: 1e12,
        alpha: 3.0,
        mu: 10.0,
        from_restitution: false,
        restitution: 0.99,
        method: Method::Verlet,
        correction: Correction::Both,
        clamp_target: ClampTarget::Exact,
        bouncing: false,
        gravity_in_contact: false,
        gravity: 100.0,
        body: BodyType::Bar,
        body_freq: 5000.0,
        key_track: 1.0,
        t60: 10.0,
        brightness: 1.0,
        position: 1.0,
        mix: 1.0,
        gain_db: 12.0,
        voices: MAX_VOICES,
        note_off: NoteOff::Ring,
        release: 2.0,
        coupling: Coupling::Rigid,
        body_mass: 10.0,
        width: 1.0,
        key_spread: 1.0,
        humanize: 1.0,
        seed: 9999.0,
        mod_wheel: ModWheel::Off,
        mod_depth: 1.0,
        bend_range: 48.0,
        irregularity: 1.0,
        velocity_hardness: 1.0,
        gesture: Gesture::Strike,
        crumple_rate: 500.0,
        crumple_tau: 3.0,
        radius_mm: 50.0,
        roughness_um: 100.0,
        roughness_beta: 2.0,
        recording: 0,
    },
];

/// `v` inside `[lo, hi]`; NaN becomes `default`. `max`/`min` never panic (unlike
/// `clamp`), whatever the bounds.
pub fn within(v: f64, lo: f64, hi: f64, default: f64) -> f64 {
    if v.is_nan() {
        default
    } else {
        v.max(lo).min(hi)
    }
}

impl EngineParams {
    /// These parameters with every number inside [`LIMITS`] and NaN at its default.
    pub fn within_limits(&self) -> Self {
        let (lo, hi, d) = (&LIMITS[0], &LIMITS[1], Self::default());
        let f = |v: fn(&Self) -> f64| within(v(self), v(lo), v(hi), v(&d));
        Self {
            v_min: f(|p| p.v_min),
            v_max: f(|p| p.v_max),
            velocity_curve: f(|p| p.velocity_curve),
            mass: f(|p| p.mass),
            k: f(|p| p.k),
            alpha: f(|p| p.alpha),
            mu: f(|p| p.mu),
            restitution: f(|p| p.restitution),
            gravity: f(|p| p.gravity),
            body_freq: f(|p| p.body_freq),
            key_track: f(|p| p.key_track),
            t60: f(|p| p.t60),
            brightness: f(|p| p.brightness),
            position: f(|p| p.position),
            mix: f(|p| p.mix),
            gain_db: f(|p| p.gain_db),
            voices: self.voices.clamp(lo.voices, hi.voices),
            release: f(|p| p.release),
            body_mass: f(|p| p.body_mass),
            hardness_ms: f(|p| p.hardness_ms),
            width: f(|p| p.width),
            key_spread: f(|p| p.key_spread),
            humanize: f(|p| p.humanize),
            seed: f(|p| p.seed).round(),
            mod_depth: f(|p| p.mod_depth),
            bend_range: f(|p| p.bend_range),
            irregularity: f(|p| p.irregularity),
            velocity_hardness: f(|p| p.velocity_hardness),
            crumple_rate: f(|p| p.crumple_rate),
            crumple_tau: f(|p| p.crumple_tau),
            radius_mm: f(|p| p.radius_mm),
            roughness_um: f(|p| p.roughness_um),
            roughness_beta: f(|p| p.roughness_beta),
            ..*self
        }
    }
}
