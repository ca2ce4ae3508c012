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
use crate::engine::level::law;
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

    /// What its contact has spent, in the units of a crumple's budget (the strike's own
    /// counts: `Bouncer::contact_work`, `TwoWay::work`).
    fn work(&self) -> u64 {
        match self {
            Interrupted::Wall(b) => b.contact_work(),
            Interrupted::TwoWay(t) => t.work(),
        }
    }

    /// One sample while the striker still presses: what it did and the striker's mass;
    /// `None` once it has left the body. `HERE`: the wall contact's step in line (see
    /// `Bouncer::step_contact`).
    #[inline(always)]
    fn step<const HERE: bool>(&mut self) -> Option<(BounceSample, f64)> {
        match self {
            Interrupted::Wall(b) => {
                if b.phase() != Phase::Contact {
                    return None;
                }
                let s = match b.step_contact::<HERE>() {
                    Ok(s) => s,
                    Err(rest) => {
                        let latch = b.latch();
                        b.step_rest(rest, || latch)
                    }
                };
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
    gain: law::Gains,
    /// Normalised impulse the contact may still deliver (see `Voice::tick`).
    budget: f64,
    /// The fade's raised cosine.
    fade: Fade,
    /// Its last dry sample after the mix, handed to the de-click if it is cut after all.
    pub last_dry: f64,
}

impl Tail {
    pub(super) fn new(
        contact: Interrupted,
        norm: Norm,
        gain: law::Gains,
        budget: f64,
        last_dry: f64,
        fs: f64,
    ) -> Self {
        let len = FADE_OF_CONTACT * contact.contact_time() * fs;
        Self {
            // A contact of under a sample, or a bound that is not a number, fades at once.
            fade: Fade::new(if len > 1.0 { 1.0 / len } else { 1.0 }),
            contact,
            norm,
            gain,
            budget,
            last_dry,
        }
    }

    /// What the interrupted contact has spent so far, its strike's part before the
    /// interruption included.
    pub(super) fn work(&self) -> u64 {
        self.contact.work()
    }

    /// One sample of the interrupted contact: its normalised force, and what it puts
    /// into the dry path and the body's drive at its gains. `None` once it has left the
    /// wall (the sample it leaves in still counts). `HERE` as for
    /// [`Interrupted::step`].
    #[inline(always)]
    pub(super) fn tick<const HERE: bool>(&mut self, fs: f64) -> Option<(f64, f64, f64)> {
        if self.fade.t >= 1.0 {
            return None;
        }
        let (s, mass) = self.contact.step::<HERE>()?;
        let u = self.fade.next() * excitation(mass * s.dv * fs, &self.norm, &mut self.budget);
        Some((
            u,
            self.gain.dry * u,
            self.gain.body * u * self.norm.body_drive,
        ))
    }
}

/// The raised cosine `½(1 + cos πt)` from 1 down to 0 as `t` goes from 0 to 1 by `dt` a
/// sample. `cos πt` is turned by `πdt` each sample (a rotation: four products where a
/// `cos` was a fifth of a tail's sample). Its rounding adds up: within 1e-16 of the
/// cosine per sample of the fade (1e-11 over a second at 384 kHz).
#[derive(Clone, Copy, Debug)]
struct Fade {
    t: f64,
    dt: f64,
    /// `(cos πt, sin πt)`, and the turn `(cos πdt, sin πdt)`.
    at: (f64, f64),
    turn: (f64, f64),
}

impl Fade {
    fn new(dt: f64) -> Self {
        let (s, c) = (PI * dt).sin_cos();
        Self {
            t: 0.0,
            dt,
            at: (1.0, 0.0),
            turn: (c, s),
        }
    }

    /// The next sample's gain: `½(1 + cos πt)` at `t + dt`, 0 from `t = 1` on.
    #[inline(always)]
    fn next(&mut self) -> f64 {
        self.t += self.dt;
        let ((c, s), (tc, ts)) = (self.at, self.turn);
        self.at = (c * tc - s * ts, s * tc + c * ts);
        if self.t >= 1.0 {
            0.0
        } else {
            0.5 * (1.0 + self.at.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The turned cosine stays on the raised cosine over fades from one sample to 26 s
    /// at 384 kHz, and ends at 0.
    #[test]
    fn the_fade_is_the_raised_cosine() {
        for len in [1.0, 1.5, 2.0, 7.3, 100.0, 4096.5, 384_000.0, 1e7] {
            let dt = 1.0 / len;
            let mut fade = Fade::new(dt);
            let (mut t, mut worst, mut last) = (0.0f64, 0.0f64, 1.0);
            while t < 1.0 {
                t += dt;
                let want = 0.5 * (1.0 + (PI * t.min(1.0)).cos());
                last = fade.next();
                worst = worst.max((last - want).abs());
            }
            assert!(
                worst < 1e-16 * len.max(1e3),
                "fade over {len} samples errs by {worst:e}"
            );
            assert_eq!(last, 0.0, "fade over {len} samples ends at {last}");
        }
    }
}
