//! The contact a re-strike interrupts, on the rigid wall or two-way. Cutting it would
//! step the force the body hears: a step rings every mode, and at the soft end of
//! Hardness the body's calibrated gain (which lifts a slow pulse's faint ringing to full
//! level) turns that into a bang far over the target. The interrupted contact instead
//! goes on, at the gains and normalisation it started with, while its force fades out
//! over half its contact time (a raised cosine: a ramp as slow as the pulse itself,
//! which the body hears no louder than the pulse), or until it leaves the wall (two-way:
//! until striker and surface part), whichever comes first; its bounces, if any, are the
//! new strike's business. Fading rather than finishing keeps a double trigger (the same
//! key twice within a contact, as drum pads send) near one strike's level instead of
//! two.

use super::norm::{Norm, excitation};
use super::two_way::TwoWay;
use crate::engine::level;
use crate::model::tau::contact_time_bound;
use crate::model::{BounceSample, Bouncer, Phase};
use std::f64::consts::PI;

/// The fade lasts this fraction of the interrupted contact's time (its closed-form
/// bound, eq 9: at least the contact time).
const FADE_OF_CONTACT: f64 = 0.5;

/// The contact interrupted: on the rigid wall, or two-way (the coupled system goes on
/// as it was, the body's surface moving under the striker, until they part).
// Held inline, as the voice holds its strike: boxing would allocate on the audio thread.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(super) enum Interrupted {
    Wall(Bouncer),
    TwoWay(TwoWay),
}

impl Interrupted {
    /// Its contact time's closed-form bound (eq 9) for the contact it latched, s: the
    /// rigid wall's also for a two-way contact (the scale of the fade, not its end).
    fn contact_time(&self) -> f64 {
        match self {
            Interrupted::Wall(b) => contact_time_bound(b.impact().analytic()),
            Interrupted::TwoWay(t) => contact_time_bound(&t.analytic()),
        }
    }

    /// One sample while the striker still presses: what it did and the striker's mass;
    /// `None` once it has left the body.
    #[inline]
    fn step(&mut self) -> Option<(BounceSample, f64)> {
        match self {
            Interrupted::Wall(b) => {
                if b.phase() != Phase::Contact {
                    return None;
                }
                let latch = b.latch();
                let s = b.step(|| latch);
                Some((s, b.impact().analytic().contact.mass))
            }
            Interrupted::TwoWay(t) => {
                if !t.touching() {
                    return None;
                }
                Some((t.step(), t.analytic().contact.mass))
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Tail {
    contact: Interrupted,
    norm: Norm,
    gain: level::Gains,
    /// Normalised impulse the contact may still deliver (see `Voice::tick`).
    budget: f64,
    /// Fade phase, 0 → 1, and its step per sample.
    t: f64,
    dt: f64,
    /// Its last dry sample after the mix, handed to the de-click if it is cut after all.
    pub last_dry: f64,
}

impl Tail {
    pub(super) fn new(
        contact: Interrupted,
        norm: Norm,
        gain: level::Gains,
        budget: f64,
        last_dry: f64,
        fs: f64,
    ) -> Self {
        let len = FADE_OF_CONTACT * contact.contact_time() * fs;
        Self {
            t: 0.0,
            // A contact of under a sample, or a bound that is not a number, fades at once.
            dt: if len > 1.0 { 1.0 / len } else { 1.0 },
            contact,
            norm,
            gain,
            budget,
            last_dry,
        }
    }

    /// One sample of the interrupted contact: its normalised force, and what it puts
    /// into the dry path and the body's drive at its gains. `None` once it has left the
    /// wall (the sample it leaves in still counts).
    #[inline]
    pub(super) fn tick(&mut self, fs: f64) -> Option<(f64, f64, f64)> {
        if self.t >= 1.0 {
            return None;
        }
        let (s, mass) = self.contact.step()?;
        self.t += self.dt;
        let fade = 0.5 * (1.0 + (PI * self.t.min(1.0)).cos());
        let u = fade * excitation(mass * s.dv * fs, &self.norm, &mut self.budget);
        Some((
            u,
            self.gain.dry * u,
            self.gain.body * u * self.norm.body_drive,
        ))
    }
}
