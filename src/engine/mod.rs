//! The voice engine: voice allocation and stealing (`voices`), the voice itself
//! (`voice`), what moves one note away from the patch (`expression`), the calibrated
//! level (`level`), the smoothed output stage (`output`), the parameters (`params`,
//! `spec`), the smoothing (`smoothing`), the live trace of the last contact (`trace`)
//! and offline rendering (`offline`). It knows nothing of the plugin framework, so the
//! plugin's `process()` and the command-line renderer ([`render`]) run the same code.
//!
//! All memory is allocated in [`Engine::new`]; every method a host calls per block is
//! allocation-free.

pub mod expression;
pub mod level;
mod offline;
mod output;
mod params;
mod physical;
pub mod recording;
mod smoothing;
pub mod spec;
mod trace;
pub mod voice;
mod voices;

pub use offline::{NoteSpec, Rendered, render, render_with_progress};
pub use output::RUNAWAY;
pub use params::{
    Controls, Coupling, EngineParams, Gesture, LIMITS, MAX_VOICES, ModWheel, NoteOff, within,
};
pub use physical::{Physical, physical, restitution_of, stiffness};
pub use smoothing::SMOOTHING_TIME;
pub use trace::{BounceMode, ContactTrace, LastContact, RestState, TRACE_BOUNCES, TRACE_POINTS};
pub use voices::addressing::{CC_MOD_WHEEL, CC_SUSTAIN, CC_TIMBRE, reaches};
pub use voices::{Engine, Terminated};
