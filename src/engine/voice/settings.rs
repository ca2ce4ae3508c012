//! What the parameters ask of a voice's model: the contact and scheme (Hardness turned
//! into `k`), the latch of a contact's onset, the bouncing, the body for a key and the
//! strike speed for a velocity. Plain functions of [`EngineParams`], shared by the voice,
//! the level calibration, the CLI and the tests.

use crate::engine::params::EngineParams;
use crate::engine::physical::{restitution_of, stiffness};
use crate::model::body::BodySettings;
use crate::model::hardness::UnitTime;
use crate::model::{Contact, Latch, Scheme, Train};

/// The contact and scheme the parameters ask for now (in Playable mode `k` from
/// Hardness; `μ` is `p.mu`, which a restitution overrides per strike, see [`latch_of`]).
/// Not for the audio thread: see [`latch_cached`].
pub fn contact_of(p: &EngineParams) -> (Contact, Scheme) {
    contact_cached(p, &mut UnitTime::default())
}

pub(super) fn contact_cached(p: &EngineParams, unit: &mut UnitTime) -> (Contact, Scheme) {
    (
        Contact::new(stiffness(p, unit), p.mu, p.alpha, p.mass),
        Scheme::new(p.method, p.correction, p.clamp_target),
    )
}

/// What a contact starting now latches: the contact, the scheme, and the restitution
/// the damping comes from where it does (always Bounciness in Playable mode). Not for
/// the audio thread: see [`latch_cached`].
pub fn latch_of(p: &EngineParams) -> Latch {
    latch_cached(p, &mut UnitTime::default())
}

/// [`latch_of`] with the eq (9) quadrature behind Hardness cached in `unit`: free
/// unless Bounciness or Shape changed since the last call.
pub fn latch_cached(p: &EngineParams, unit: &mut UnitTime) -> Latch {
    let (contact, scheme) = contact_cached(p, unit);
    Latch {
        contact,
        scheme,
        restitution: restitution_of(p),
    }
}

/// The bouncing the parameters ask for.
pub fn train_of(p: &EngineParams) -> Train {
    Train {
        gravity: p.bouncing.then_some(p.gravity),
        in_contact: p.gravity_in_contact,
    }
}

/// The draw of a train's irregularity: the Seed, the key and the note's place in the
/// engine's sequence of note-ons, so each note bounces its own way and the same seed
/// and notes give the same render.
pub fn train_seed(seed: f64, key: u8, note: u64) -> u64 {
    let seed = if seed.is_finite() && seed > 0.0 {
        seed as u64
    } else {
        0
    };
    crate::model::irregular::splitmix64((seed << 32) ^ ((key as u64) << 56) ^ note)
}

/// The draw of a held gesture (a crumple's train, a roll's surface) for a note on
/// `key` at engine time `note`: from the Seed and the key, so a session renders the
/// same whatever was played before (and a calibration plays the note's own surface);
/// with Humanize on, each note draws its own.
pub fn gesture_seed(p: &EngineParams, key: u8, note: u64) -> u64 {
    train_seed(p.seed, key, if p.humanize > 0.0 { note } else { 0 })
}

/// The body the parameters ask for, for MIDI `key`.
pub fn body_settings(p: &EngineParams, key: u8) -> BodySettings {
    let f1 = p.body_freq * 2f64.powf(p.key_track * (key as f64 - 60.0) / 12.0);
    BodySettings {
        kind: p.body,
        f1,
        t60: p.t60,
        brightness: p.brightness,
        position: p.position,
        recording: p.recording,
    }
}

/// The impact speed for a MIDI velocity in `[0, 1]`: `v_min + (v_max − v_min) vel^curve`.
pub fn velocity_to_speed(p: &EngineParams, velocity: f64) -> f64 {
    let (lo, hi) = if p.v_min <= p.v_max {
        (p.v_min, p.v_max)
    } else {
        (p.v_max, p.v_min)
    };
    lo + (hi - lo) * velocity.clamp(0.0, 1.0).powf(p.velocity_curve)
}
