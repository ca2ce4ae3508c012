//! The host's parameter groups (CLAP groups, VST3 units), the editor's groups: each
//! struct is one group, nested in [`super::ReboundParams`]. IDs are the parameters'
//! own, so nesting changes nothing a session saved.

use super::build::{number_param, poly_param, spec_of};
use super::choices::DampingChoice;
use crate::engine::EngineParams;
use crate::engine::expression::PolyTarget;
use crate::engine::{Controls, Coupling, Gesture, ModWheel, NoteOff};
use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};
use nice_plug::prelude::*;

/// What strikes: the contact law's controls and the striker's mass.
#[derive(Params)]
pub struct StrikerParams {
    /// Hardness & Bounciness, or the expert Stiffness & Damping.
    #[id = "controls"]
    pub controls: EnumParam<Controls>,
    /// Contact time at the max strike speed (eq 9 inverted to `k`).
    #[id = "hard"]
    pub hardness: FloatParam,
    /// Contact stiffness `k` of `k x^α (1 + μ v)`.
    #[id = "k"]
    pub stiffness: FloatParam,
    /// Contact exponent `α` (1 = linear spring, 1.5 = Hertz sphere).
    #[id = "alpha"]
    pub alpha: FloatParam,
    /// Hunt–Crossley damping `μ = λ/k`.
    #[id = "mu"]
    pub damping: FloatParam,
    /// Damping from `μ` or from a restitution `e`.
    #[id = "dmode"]
    pub damping_mode: EnumParam<DampingChoice>,
    /// Coefficient of restitution `e = −v_out/v_in` in restitution mode.
    #[id = "rest"]
    pub restitution: FloatParam,
    /// The striking mass.
    #[id = "mass"]
    pub mass: FloatParam,
}

impl StrikerParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            controls: EnumParam::new("Contact controls", Controls::Playable),
            hardness: poly_param(PolyTarget::Hardness),
            stiffness: number_param("k"),
            alpha: number_param("alpha"),
            damping: number_param("mu"),
            damping_mode: EnumParam::new("Damping from", DampingChoice::Mu),
            restitution: poly_param(PolyTarget::Bounciness),
            mass: poly_param(PolyTarget::Mass),
        }
    }
}

/// How key velocity plays the strike.
#[derive(Params)]
pub struct VelocityParams {
    /// Impact speed at MIDI velocity 0.
    #[id = "vmin"]
    pub v_min: FloatParam,
    /// Impact speed at full MIDI velocity.
    #[id = "vmax"]
    pub v_max: FloatParam,
    /// Exponent of the velocity-to-speed curve (1 = linear, > 1 = soft notes softer).
    #[id = "vcurve"]
    pub velocity_curve: FloatParam,
    /// How much a softer note's contact lengthens (timbre with velocity).
    #[id = "velhard"]
    pub velocity_hardness: FloatParam,
}

impl VelocityParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            v_min: number_param("vmin"),
            v_max: number_param("vmax"),
            velocity_curve: number_param("vcurve"),
            velocity_hardness: number_param("velhard"),
        }
    }
}

/// Bouncing under gravity.
#[derive(Params)]
pub struct BounceParams {
    /// One note becomes a bouncing-ball sequence under gravity (free flight only).
    #[id = "bounce"]
    pub bouncing: BoolParam,
    #[id = "grav"]
    pub gravity: FloatParam,
    /// Gravity acts during contact too (seed 001): slow bounces lose more, and the
    /// train comes to rest on the surface.
    #[id = "gcont"]
    pub gravity_in_contact: BoolParam,
    /// Per-bounce irregularity of a bouncing train (0 = the exact chain, as sessions
    /// saved before it played).
    #[id = "irreg"]
    pub irregularity: FloatParam,
}

impl BounceParams {
    pub(super) fn new(d: &EngineParams) -> Self {
        Self {
            bouncing: BoolParam::new("Bouncing", d.bouncing),
            gravity: number_param("grav"),
            gravity_in_contact: BoolParam::new("Gravity in contact", d.gravity_in_contact),
            irregularity: number_param("irreg"),
        }
    }
}

/// What releasing a key does.
#[derive(Params)]
pub struct KeyReleaseParams {
    /// What releasing the key does: Ring on (a struck object does not stop), or Damp it
    /// like a hand on it (no further bounces, the body dies away over Release).
    #[id = "noteoff"]
    pub note_off: EnumParam<NoteOff>,
    /// Damp mode: time for the body to fall 60 dB after the key is released.
    #[id = "release"]
    pub release: FloatParam,
}

impl KeyReleaseParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            note_off: EnumParam::new("Note off", NoteOff::Ring),
            release: number_param("release"),
        }
    }
}

/// What rings (smoothed in the engine).
#[derive(Params)]
pub struct BodyParams {
    #[id = "body"]
    pub body: EnumParam<BodyType>,
    /// Fundamental at middle C; key tracking moves it with the note.
    #[id = "bfreq"]
    pub body_freq: FloatParam,
    /// How far the note sets the fundamental (100 % = equal temperament).
    #[id = "ktrack"]
    pub key_track: FloatParam,
    /// Decay time to −60 dB of the fundamental (upper modes decay faster by material).
    #[id = "t60"]
    pub t60: FloatParam,
    /// Spectral tilt of the mode gains (50 % = as the strike excites them).
    #[id = "bright"]
    pub brightness: FloatParam,
    /// Strike point from the centre (0 %) to the edge (100 %).
    #[id = "pos"]
    pub position: FloatParam,
    /// Body against the dry force pulse.
    #[id = "mix"]
    pub mix: FloatParam,
    /// What the striker meets: a rigid wall, or the body's surface moving under it.
    #[id = "coupling"]
    pub coupling: EnumParam<Coupling>,
    /// Two-way coupling: the body's mass (latched at each strike).
    #[id = "bmass"]
    pub body_mass: FloatParam,
}

impl BodyParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            body: EnumParam::new("Body", BodyType::Bar),
            body_freq: poly_param(PolyTarget::BodyPitch),
            key_track: number_param("ktrack"),
            t60: number_param("t60"),
            brightness: number_param("bright"),
            position: poly_param(PolyTarget::Position),
            mix: number_param("mix"),
            coupling: EnumParam::new("Coupling", Coupling::Rigid),
            body_mass: number_param("bmass"),
        }
    }
}

/// Level, width and polyphony (smoothed in the engine).
#[derive(Params)]
pub struct OutputParams {
    #[id = "gain"]
    pub gain: FloatParam,
    /// Stereo width of pan and pickups (0 = mono).
    #[id = "width"]
    pub width: FloatParam,
    /// How far the keys fan out from middle C across the image.
    #[id = "kspread"]
    pub key_spread: FloatParam,
    /// Polyphony; the oldest voice is stolen with a short fade beyond it.
    #[id = "voices"]
    pub voices: IntParam,
}

impl OutputParams {
    pub(super) fn new(d: &EngineParams) -> Self {
        Self {
            gain: number_param("gain"),
            width: number_param("width"),
            key_spread: number_param("kspread"),
            voices: {
                let n = spec_of("voices");
                let (lo, hi) = n.range();
                IntParam::new(
                    n.name,
                    d.voices as i32,
                    IntRange::Linear {
                        min: lo as i32,
                        max: hi as i32,
                    },
                )
            },
        }
    }
}

/// Per-hit variation and what expression moves.
#[derive(Params)]
pub struct VariationParams {
    /// Per-hit jitter of speed, strike position and hardness.
    #[id = "human"]
    pub humanize: FloatParam,
    /// The humanize seed: the same seed and input render the same.
    #[id = "seed"]
    pub seed: FloatParam,
    /// What the mod wheel moves, and how far.
    #[id = "mwheel"]
    pub mod_wheel: EnumParam<ModWheel>,
    #[id = "mwamt"]
    pub mod_depth: FloatParam,
    /// Pitch-bend range of the body (48 semitones for MPE).
    #[id = "bend"]
    pub bend_range: FloatParam,
}

impl VariationParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            humanize: number_param("human"),
            seed: number_param("seed"),
            mod_wheel: EnumParam::new("Mod wheel", ModWheel::Off),
            mod_depth: number_param("mwamt"),
            bend_range: number_param("bend"),
        }
    }
}

/// The numerical method and the paper's corrections (latched at each contact's onset).
#[derive(Params)]
pub struct SolverParams {
    #[id = "method"]
    pub integrator: EnumParam<Method>,
    #[id = "corr"]
    pub correction: EnumParam<Correction>,
    /// What the clamp sets at detachment: eq (7) or the exact root of eq (6).
    #[id = "clamp"]
    pub clamp_target: EnumParam<ClampTarget>,
}

impl SolverParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            integrator: EnumParam::new("Integrator", Method::Verlet),
            correction: EnumParam::new("Correction", Correction::Both),
            clamp_target: EnumParam::new("Exit target", ClampTarget::Exact),
        }
    }
}

/// What a note plays with the contact: one strike, or a train of them while held.
#[derive(Params)]
pub struct GestureParams {
    #[id = "gesture"]
    pub gesture: EnumParam<Gesture>,
    /// Crumple: mean strikes a second, and the exponent of their energy law.
    #[id = "crate"]
    pub crumple_rate: FloatParam,
    #[id = "ctau"]
    pub crumple_tau: FloatParam,
    /// Roll and Scrape: the ball's (or probe's) radius, and the surface.
    #[id = "radius"]
    pub radius: FloatParam,
    #[id = "rough"]
    pub roughness: FloatParam,
    #[id = "rbeta"]
    pub roughness_beta: FloatParam,
}

impl GestureParams {
    pub(super) fn new(_: &EngineParams) -> Self {
        Self {
            gesture: EnumParam::new("Gesture", Gesture::Strike),
            crumple_rate: number_param("crate"),
            crumple_tau: number_param("ctau"),
            radius: number_param("radius"),
            roughness: number_param("rough"),
            roughness_beta: number_param("rbeta"),
        }
    }
}
