//! The body as the striker meets it: each mode's frequency, decay and effective mass at
//! the strike point, for the two-way contact (`model::coupled`).
//!
//! A mode normalised over the body's mass `M` (`∫ ρ φ_k² dV = M`) acts at a point where
//! its shape is `φ_k` like a mass `m_k = M / φ_k²` on a spring: where the mode barely
//! moves it is heavy, at an antinode it is as light as the body. `φ_k` is the same
//! excitation at the strike position that the one-way body drives the mode with
//! ([`mode_shape`]), so a mode the one-way body hears loudly pushes back hard.

use super::limits::{BAND_LIMIT, MODES};
use super::modes::{BodySettings, BodyType, mode_shape, plate_modes, ratio_powers};
use std::sync::OnceLock;

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

/// What a strike's modes take from the body kind and the strike position alone, not
/// from the key, the decay or the body's mass: per mode its frequency ratio, its decay
/// factor `ratio^{−e}` (`decay_t60`) and its shape at the strike point. A voice keeps
/// these and makes a strike's modes from them with a few products a mode, so a new key
/// costs no mode search, trigonometry or power.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrikeShapes {
    kind: BodyType,
    recording: u16,
    position: f64,
    ratio: [f64; MODES],
    decay: [f64; MODES],
    shape: [f64; MODES],
}

impl StrikeShapes {
    /// The shapes of `kind` (and `recording`, a recorded body's) struck at `position`.
    pub fn new(kind: BodyType, recording: u16, position: f64) -> Self {
        let plate = plate_table();
        let mut out = Self {
            kind,
            recording,
            position,
            ratio: [0.0; MODES],
            // The kind's (made once per process): a mode's ratio, and so its factor,
            // does not depend on the strike position.
            decay: ratio_powers(kind, recording).t60,
            shape: [0.0; MODES],
        };
        for k in 0..MODES {
            (out.ratio[k], out.shape[k]) = mode_shape(kind, recording, k, position, plate);
        }
        out
    }

    /// True when these are the shapes of `kind` (and `recording`) at `position`.
    pub fn is_for(&self, kind: BodyType, recording: u16, position: f64) -> bool {
        self.kind == kind && self.recording == recording && self.position == position
    }

    /// The modes of `st` (of these shapes' kind and position) for a body of
    /// `body_mass` kg, as [`strike_modes`].
    pub fn modes(&self, st: &BodySettings, body_mass: f64) -> ([StrikeMode; MODES], usize) {
        let mut out = [StrikeMode::NONE; MODES];
        let mut n = 0;
        let positive = |a: f64| a > 0.0;
        if st.kind == BodyType::None || !positive(body_mass) || !positive(st.f1) {
            return (out, 0);
        }
        let t60 = st.t60.max(1e-4);
        for k in 0..MODES {
            let (ratio, shape) = (self.ratio[k], self.shape[k]);
            let f = st.f1 * ratio;
            if !(f.is_finite() && f > 0.0 && f <= BAND_LIMIT && shape > 0.0) {
                continue;
            }
            out[n] = StrikeMode {
                f_hz: f,
                t60_s: t60 * self.decay[k],
                mass_kg: body_mass / (shape * shape),
            };
            n += 1;
        }
        (out, n)
    }
}

/// The plate's mode order ([`plate_modes`], a search), made once per process
/// ([`prepare`]).
fn plate_table() -> &'static [(u32, u32, f64); MODES] {
    static TABLE: OnceLock<[(u32, u32, f64); MODES]> = OnceLock::new();
    TABLE.get_or_init(plate_modes)
}

/// Makes the table [`StrikeShapes::new`] reads (off the audio thread, where bodies are
/// made).
pub(super) fn prepare() {
    plate_table();
}

/// The modes of `st` at its strike position for a body of `body_mass` kg: the first
/// `count` entries, in the body's mode order. Modes above [`BAND_LIMIT`] (silent in the
/// one-way body too) and modes that do not move at the strike point are left out.
pub fn strike_modes(st: &BodySettings, body_mass: f64) -> ([StrikeMode; MODES], usize) {
    StrikeShapes::new(st.kind, st.recording, st.position).modes(st, body_mass)
}

#[cfg(test)]
mod tests {
    use super::super::modes::decay_t60;
    use super::*;

    /// The modes from the shapes kept per kind and position, bit for bit those made
    /// mode by mode from the body's laws ([`mode_shape`], [`decay_t60`]), for every
    /// kind over positions, keys, decays and masses.
    #[test]
    fn shapes_give_the_modes_of_the_laws() {
        let plate = plate_modes();
        for kind in BodyType::ALL {
            for position in [0.0, 0.13, 0.5, 0.77, 1.0] {
                let shapes = StrikeShapes::new(kind, 0, position);
                for (f1, t60, mass) in [(27.5, 0.05, 0.01), (440.0, 3.0, 0.2), (4186.0, 1e-5, 2.0)]
                {
                    let st = BodySettings {
                        kind,
                        f1,
                        t60,
                        brightness: 0.5,
                        position,
                        recording: 0,
                    };
                    let (got, n) = shapes.modes(&st, mass);
                    let mut i = 0;
                    for k in 0..MODES {
                        let (ratio, shape) = mode_shape(kind, 0, k, position, &plate);
                        let f = f1 * ratio;
                        let heard = f.is_finite() && f > 0.0 && f <= BAND_LIMIT && shape > 0.0;
                        if kind == BodyType::None || !heard {
                            continue;
                        }
                        let want = (f, decay_t60(&st, ratio), mass / (shape * shape));
                        let m = got[i];
                        assert_eq!(
                            (m.f_hz.to_bits(), m.t60_s.to_bits(), m.mass_kg.to_bits()),
                            (want.0.to_bits(), want.1.to_bits(), want.2.to_bits()),
                            "{kind:?} at {position}, mode {k}"
                        );
                        i += 1;
                    }
                    assert_eq!(n, i, "{kind:?} at {position}");
                }
            }
        }
    }
}
