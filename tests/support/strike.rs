//! One full-velocity note 60 through the engine, ten samples in: what the level tests
//! strike.

use rebound::engine::{EngineParams, NoteSpec, Rendered, render};

/// The note held for `seconds` of output at `fs`.
pub fn strike(p: &EngineParams, fs: f64, seconds: f64) -> Rendered {
    render(
        p,
        fs,
        &[NoteSpec {
            at: 10,
            key: 60,
            velocity: 1.0,
            off: None,
        }],
        (seconds * fs) as usize,
    )
}
