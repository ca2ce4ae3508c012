//! A voice's strike: its own parameters, its level, its contact and body set up at the
//! note-on (nothing simulated ahead).

use super::crumple::Crumpling;
use super::roll::RollVoice;
use super::settings::{
    body_settings, gesture_seed, latch_cached, train_of, train_seed, velocity_to_speed,
};
use super::tail::{Interrupted, Tail};
use super::two_way::TwoWay;
use super::{DECLICK_TIME, StrikeSetup, Voice};
use crate::engine::expression::Expression;
use crate::engine::expression::humanize::Jitter;
use crate::engine::level::law::{self, GainSource};
use crate::engine::output::{edge_side, pan_of};
use crate::engine::params::EngineParams;
use crate::model::body::BodySettings;
use crate::model::{Bouncer, Contact, Irregularity};

impl StrikeSetup {
    /// This set-up made ready for the patch `p` at `fs` before its first note: eq (9)'s
    /// unit time, eq (19)'s root (remembered by `restitution` for every later contact
    /// of the patch), the body's per-patch poles, a bouncing patch's power tables
    /// (`load::ExitSolve::prime`) and the contact's normalisation at the top speed, the
    /// very numbers that note's strike would solve for them (the same functions of the
    /// same inputs, cached: the note then reads them). A patch change pays for them
    /// once, not the first note after it; a note whose own contact differs (expression)
    /// solves its own as before, and one that differs in stiffness alone (a humanized
    /// hit) scales these.
    ///
    /// The poles are those a note struck before the next control tick retunes at: the
    /// patch's body kind at the T60 and Brightness of `smoothed` (the engine's glide,
    /// whose ticks make the poles as it moves; see `Engine::control_tick`).
    pub fn prime(&mut self, p: &EngineParams, smoothed: &EngineParams, fs: f64) {
        let latch = latch_cached(p, &mut self.unit);
        let v_max = p.v_max.max(p.v_min);
        let contact = latch.contact_at(v_max);
        self.norm.latch(contact, v_max, fs);
        let st = BodySettings {
            t60: smoothed.t60,
            brightness: smoothed.brightness,
            ..body_settings(p, 60)
        };
        crate::model::body::prime_retune(&st, fs);
        if train_of(p).gravity.is_some() {
            // A bouncing strike's onsets solve their exits at the contact's α.
            crate::model::load::ExitSolve::prime(contact.alpha);
        }
    }
}

impl Voice {
    /// Starts (or re-strikes) this voice, calibrated by playing its strike first on a
    /// copy of itself: for a voice on its own (tests, tools), never on the audio thread,
    /// where the engine strikes with the gains of its level table
    /// ([`strike_with`](Self::strike_with)).
    pub fn strike(&mut self, p: &EngineParams, key: u8, velocity: f64, now: u64) {
        let mut scratch = *self;
        let own = self.own(p, &self.jitter);
        let entry = scratch.entry_of(&law::level_params(level_of(&own, p)), key);
        self.calibrations = scratch.calibrations;
        self.start(p, key, velocity, now);
        self.gain = entry.strike;
    }

    /// Starts (or re-strikes) this voice with the gains `level` has for it at the
    /// smoothed `mix`. On a re-strike the body keeps ringing, like a real object struck
    /// again, and the dry pulse of a contact still in progress is handed to the
    /// de-click so the output stays continuous.
    pub fn strike_with(
        &mut self,
        p: &EngineParams,
        key: u8,
        velocity: f64,
        now: u64,
        mix: f64,
        levels: &mut dyn GainSource,
    ) {
        let own = self.own(p, &self.jitter);
        let (gain, fresh) = levels.fresh_gains(key, level_of(&own, p), p, mix);
        self.start(p, key, velocity, now);
        self.gain = gain;
        if let Some(r) = self.rolling.as_mut()
            && !fresh
        {
            r.regain = super::roll::Regain::Asking;
        }
    }

    /// This voice's strike set-up, for the next strike on any voice.
    pub fn setup(&self) -> StrikeSetup {
        StrikeSetup {
            unit: self.unit,
            norm: self.norm,
        }
    }

    /// Takes another voice's strike set-up before a strike (each part is used only when
    /// it was made for what this strike asks, see `latch`).
    pub fn take_setup(&mut self, s: &StrikeSetup) {
        self.unit = s.unit;
        if s.norm.fs == self.fs {
            self.norm = s.norm;
        }
    }

    /// Starts the strike itself (see [`strike`](Self::strike)), at the current gain.
    pub(super) fn start(&mut self, p: &EngineParams, key: u8, velocity: f64, now: u64) {
        let p = &self.own(p, &self.jitter);
        // The strike speed is the note's, not a parameter: its jitter applies here.
        let v_in = velocity_to_speed(p, velocity) * self.jitter.speed;
        self.start_own(p, key, v_in, now);
        // On the contact `start_own` latched (at the top speed) for the normalisation.
        let seed = gesture_seed(p, key, now);
        self.rolling = RollVoice::new(p, &self.norm, v_in, seed);
        if self.rolling.is_some() {
            // No strike: the striker is set down on the surface.
            self.bouncer = None;
            self.two_way = None;
        }
        // A calibration measures a crumple's own strike, the train's hardest event (a
        // roll or scrape it plays as it is: its level is its own).
        self.crumple = if self.probing {
            None
        } else {
            Crumpling::new(p, key, now, v_in, self.fs)
        };
    }

    /// The strike of [`start`](Self::start) at speed `v_in` with the voice's own
    /// parameters `p`: a note's, or an event of its crumpling train.
    pub(super) fn start_own(&mut self, p: &EngineParams, key: u8, v_in: f64, now: u64) {
        self.own_memo = None;
        let restrike = self.active && !self.is_fading() && self.key == key;
        if restrike && self.touching() {
            // The contact in progress finishes into the body (see `tail`); one that an
            // earlier re-strike interrupted is cut, through the de-click.
            if let Some(old) = self.tail {
                self.declick += old.last_dry;
            }
            let contact = match (self.two_way.filter(|t| t.touching()), self.bouncer) {
                (Some(t), _) => Some(Interrupted::TwoWay(t)),
                (None, Some(b)) => Some(Interrupted::Wall(b)),
                (None, None) => None,
            };
            if let Some(c) = contact {
                self.tail = Some(Tail::new(
                    c,
                    self.norm,
                    self.gain,
                    self.budget,
                    self.last_dry,
                    self.fs,
                ));
            }
        } else if restrike {
            self.declick += self.last_dry;
        } else {
            self.silence_sound();
        }
        self.last_dry = 0.0;
        self.key = key;
        self.pan = pan_of(key, p.key_spread);
        self.edge = edge_side(self.pan);
        self.started = now;
        self.fade = 1.0;
        self.fade_step = 0.0;
        self.active = true;
        if self.is_damped() {
            // A re-strike of a damped voice: the hand comes off.
            self.damped = false;
            self.pending_damp = None;
            self.body.undamp();
            self.declick_coef = (-1.0 / (DECLICK_TIME * self.fs)).exp();
        }
        let latch = latch_cached(p, &mut self.unit);
        let v_max = p.v_max.max(p.v_min);
        self.latch(latch.contact_at(v_max), v_max);
        let st = body_settings(p, key);
        let (fs, cache) = (self.fs, &mut self.strike_modes);
        self.two_way = TwoWay::new(p, &st, &latch, v_in, fs, train_of(p), cache);
        // The rigid wall's strike, where the two-way one is not played.
        self.bouncer = self.two_way.is_none().then(|| {
            let irregular = Irregularity::new(p.irregularity, train_seed(p.seed, key, now));
            Bouncer::strided(latch, v_in, self.fs, train_of(p)).with_irregularity(irregular)
        });
        self.body.retune(st, self.fs);
        self.body_stale = false;
    }

    /// The parameters this voice plays with: the engine's, moved by this note's own
    /// expression and humanize jitter. Every use of the parameters in a voice goes
    /// through here.
    #[inline]
    pub fn own(&self, p: &EngineParams, jitter: &Jitter) -> EngineParams {
        jitter.apply(&self.expression.apply(p))
    }

    /// [`own`](Self::own), remembered for the engine's `epoch` (which it moves whenever
    /// the parameters, the smoothed body parameters or any voice's expression change),
    /// for what latches the parameters during a note (an onset, its gains, a retune):
    /// the bounces of one epoch share one copy of the patch and its moves. Without an
    /// epoch (a voice on its own, the calibration) it is made at each call. `None` when
    /// it is `p` itself (no expression, no jitter).
    #[inline]
    pub(super) fn own_now(&mut self, p: &EngineParams, epoch: Option<u64>) -> Option<EngineParams> {
        own_params(&self.expression, &self.jitter, &mut self.own_memo, epoch, p)
    }

    pub(super) fn latch(&mut self, contact: Contact, v_max: f64) {
        self.norm.latch(contact, v_max, self.fs);
    }
}

/// [`Voice::own_now`] on the voice's fields, for a caller that holds others.
#[inline]
pub(super) fn own_params(
    expression: &Expression,
    jitter: &Jitter,
    memo: &mut Option<(u64, EngineParams)>,
    epoch: Option<u64>,
    p: &EngineParams,
) -> Option<EngineParams> {
    if expression.is_neutral() && *jitter == Jitter::NONE {
        return None;
    }
    if let (Some(e), Some((at, out))) = (epoch, *memo)
        && at == e
    {
        return Some(out);
    }
    let out = jitter.apply(&expression.apply(p));
    *memo = epoch.map(|e| (e, out));
    Some(out)
}

/// The parameters a note's gains are made for: its own (a strike's level is made for
/// the contact it latched, whatever moved it), but a roll's or a scrape's the patch's.
/// Velocity → Hardness softens a slow roll's contact, which is how its velocity is
/// heard: a roll's level hardly follows its speed once the ball hops from peak to
/// peak (`docs/gestures.md`), so gains made for each note's own contact would level
/// every velocity to the same.
fn level_of<'a>(own: &'a EngineParams, p: &'a EngineParams) -> &'a EngineParams {
    if own.gesture.on_surface() { p } else { own }
}

#[cfg(test)]
mod tests {
    use crate::engine::level::LevelWorker;
    use crate::engine::{Engine, EngineParams};
    use crate::model::body::poles_made;

    /// A note struck at a patch change, before any sample, and one struck while T60
    /// and Brightness glide find the body's poles made: the patch change made those of
    /// the settings before the glide, each control tick those of the glide.
    #[test]
    fn a_note_after_a_patch_change_finds_its_poles_made() {
        let fs = 48_000.0;
        let (mut l, mut r) = (vec![0f32; 64], vec![0f32; 64]);
        let b = EngineParams {
            t60: 0.3,
            brightness: 0.8,
            ..Default::default()
        };
        for glide in [false, true] {
            let mut e = Engine::new(fs);
            // The levels from a worker: a calibration on this thread makes poles too.
            let (_worker, link) = LevelWorker::spawn().expect("the level worker starts");
            e.use_level_worker(link);
            e.render(&mut l, &mut r);
            e.set_params(&b);
            if glide {
                e.render(&mut l, &mut r);
            }
            let before = poles_made();
            e.note_on(60, 1.0, 0, None);
            assert_eq!(poles_made(), before, "glide {glide}");
        }
    }
}
