//! The per-mode powers of a body's frequency ratios a retune reads, shared by the
//! model bodies' tables (`modes`) and a recorded body's own (`recorded`).

use super::limits::MODES;

/// What a retune needs of one body kind's frequency ratios (which depend on the kind
/// alone, not on the position): per mode `ln ratio`, so that the brightness tilt
/// `ratio^tilt` is one `exp`, and `ratio^{decay_exponent}`, the factor by which the
/// mode decays faster than the fundamental (`decay_t60`), with its inverse
/// `ratio^{−decay_exponent}`, the mode's T60 over the fundamental's (what a strike's
/// modes read). A note-on retunes all sixteen modes, and two `powf` a mode were a
/// third of a retune.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioPowers {
    pub ln: [f64; MODES],
    pub decay: [f64; MODES],
    pub t60: [f64; MODES],
}
