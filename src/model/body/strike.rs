//! The body as the striker meets it: each mode's frequency, decay and effective mass at
//! the strike point, for the two-way contact (`model::coupled`).
//!
//! A mode normalised over the body's mass `M` (`∫ ρ φ_k² dV = M`) acts at a point where
//! its shape is `φ_k` like a mass `m_k = M / φ_k²` on a spring: where the mode barely
//! moves it is heavy, at an antinode it is as light as the body. `φ_k` is the same
//! excitation at the strike position that the one-way body drives the mode with
//! ([`mode_shape`]), so a mode the one-way body hears loudly pushes back hard.

use super::limits::{BAND_LIMIT, MODES};
use super::modes::{BodySettings, BodyType, decay_t60, mode_shape, plate_modes};

/// One mode at the strike point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrikeMode {
    pub f_hz: f64,
    /// Decay to −60 dB, s.
    pub t60_s: f64,
    /// Effective mass at the strike point, kg.
    pub mass_kg: f64,
}

impl StrikeMode {
    const NONE: StrikeMode = StrikeMode {
        f_hz: 0.0,
        t60_s: 0.0,
        mass_kg: f64::INFINITY,
    };
}

/// The modes of `st` at its strike position for a body of `body_mass` kg: the first
/// `count` entries, in the body's mode order. Modes above [`BAND_LIMIT`] (silent in the
/// one-way body too) and modes that do not move at the strike point are left out.
pub fn strike_modes(st: &BodySettings, body_mass: f64) -> ([StrikeMode; MODES], usize) {
    let mut out = [StrikeMode::NONE; MODES];
    let mut n = 0;
    let positive = |a: f64| a > 0.0;
    if st.kind == BodyType::None || !positive(body_mass) || !positive(st.f1) {
        return (out, 0);
    }
    // The plate's mode order is a search (a few thousand operations, per strike): only
    // a plate uses it.
    let plate = if st.kind == BodyType::Plate {
        plate_modes()
    } else {
        [(0, 0, 1.0); MODES]
    };
    for k in 0..MODES {
        let (ratio, shape) = mode_shape(st.kind, k, st.position, &plate);
        let f = st.f1 * ratio;
        if !(f.is_finite() && f > 0.0 && f <= BAND_LIMIT && shape > 0.0) {
            continue;
        }
        out[n] = StrikeMode {
            f_hz: f,
            t60_s: decay_t60(st, ratio),
            mass_kg: body_mass / (shape * shape),
        };
        n += 1;
    }
    (out, n)
}
