//! What ends or damps a voice, and the body's retune to the settings of the moment.

use super::settings::body_settings;
use super::{DECLICK_TIME, STEAL_FADE_TIME, Voice};
use crate::engine::params::EngineParams;

impl Voice {
    /// Fades the voice out over [`STEAL_FADE_TIME`]; it ends when the fade does.
    ///
    /// The contact is lifted at once, on the rigid wall and two-way alike, so that a
    /// stolen voice costs a body's share, not a contact's (a storm of new keys steals
    /// a voice per note; a two-way contact is the dearer of the two). The contact's
    /// last force is held, on the body and in the dry sound, and goes out with the
    /// fade: the body stays where the force held it (let go at once, it would spring
    /// back, a pluck) and the dry sound ramps down as smoothly as the contact's own
    /// fade would. (A two-way contact's modes are the contact's view of the surface;
    /// what sounds is the body the force drives, as on the wall.)
    pub fn release_fast(&mut self) {
        if self.active && !self.is_fading() {
            self.fade_step = 1.0 / (STEAL_FADE_TIME * self.fs).max(1.0);
            if self.pressing() {
                if let Some(old) = self.tail.take() {
                    self.declick += old.last_dry;
                }
                self.declick += self.last_dry;
                self.last_dry = 0.0;
                self.declick_coef = 1.0;
                self.held_drive = self.last_drive;
            }
            self.bouncer = None;
            self.two_way = None;
            self.crumple = None;
            self.rolling = None;
        }
    }

    /// A hand on the object (note-off in Damp mode): no impact after the contact in
    /// progress, which finishes undamped (its pulse is not cut, and the body hears the
    /// force as it was tuned to); from its end, or at once in a flight or after the
    /// last bounce, every mode of the body, and the retrigger de-click, decays with T60
    /// at most `t60` s, continuing from where it is (no step). The voice then ends as
    /// any other, once below −120 dB. A stolen (fading) or idle voice is left alone.
    pub fn damp(&mut self, t60: f64) {
        if !self.active || self.is_fading() || self.is_damped() {
            return;
        }
        self.pending_damp = Some(if t60 > 1e-4 { t60 } else { 1e-4 });
        self.hand_on();
    }

    /// True once [`damp`](Self::damp)ed (until re-struck).
    pub fn is_damped(&self) -> bool {
        self.damped || self.pending_damp.is_some()
    }

    /// Applies a pending damp once the voice is out of contact: drops the bouncer (no
    /// further impacts) and damps the body and the de-click.
    #[inline]
    pub(super) fn hand_on(&mut self) {
        let Some(t60) = self.pending_damp else {
            return;
        };
        if self.pressing() {
            return;
        }
        self.pending_damp = None;
        self.damped = true;
        self.bouncer = None;
        self.two_way = None;
        self.body.damp(t60);
        let coef = (-(1000f64.ln()) / (t60 * self.fs)).exp();
        self.declick_coef = self.declick_coef.min(coef);
    }

    /// Silences the voice at once.
    pub fn kill(&mut self) {
        self.active = false;
        self.damped = false;
        self.pending_damp = None;
        self.declick_coef = (-1.0 / (DECLICK_TIME * self.fs)).exp();
        self.bouncer = None;
        self.two_way = None;
        self.crumple = None;
        self.rolling = None;
        self.silence_sound();
        self.last_dry = 0.0;
        self.last_drive = 0.0;
        self.held_drive = 0.0;
        self.fade = 1.0;
        self.fade_step = 0.0;
    }

    /// Ends whatever still sounds (a previous strike's tail, the body's ringing, the
    /// ceiling's gain, the declick): what a kill and a strike of a silent voice share.
    #[inline]
    pub(super) fn silence_sound(&mut self) {
        self.tail = None;
        self.body.reset();
        self.ceiling.reset();
        self.declick = 0.0;
        self.last_out = 0.0;
    }

    /// Retunes the body to the current (smoothed) settings: control rate.
    /// A contact in progress keeps the body it was calibrated for (see `calibrate`): a
    /// retune waits for its end, a few milliseconds at most for a playable contact.
    pub fn update_body(&mut self, p: &EngineParams) {
        if self.pressing() {
            self.body_stale = true;
            return;
        }
        self.retune_body(&self.own(p, &self.jitter));
    }

    /// Retunes the body to `own` (the voice's own parameters) where they moved it.
    pub(super) fn retune_body(&mut self, own: &EngineParams) {
        self.body_stale = false;
        let st = body_settings(own, self.key);
        if st != self.body.settings() {
            self.body.retune(st, self.fs);
        }
    }
}
