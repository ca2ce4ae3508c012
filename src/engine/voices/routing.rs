//! Routing expression events to the voices they address: CLAP poly-mod by voice ID,
//! per-note expression by voice ID or key and channel, MPE channel messages to every
//! voice on the channel (an MPE zone's master channel's bend, pressure and timbre to
//! every voice of the zone, see `mpe`), the mod wheel to all. Each voice then applies
//! its [`Expression`] in `Voice::own`, and each addressed voice's body is retuned at the
//! event's sample. Allocation-free; every value from a host is made sane here or in
//! `Expression::take` (NaN → neutral, clamped), so no voice ever sees a bad one.

use super::Engine;
use crate::engine::expression::mpe::{Zone, ZoneChange};
use crate::engine::expression::{ChannelExpression, Expression, NoteExpression, sane};
use crate::engine::voice::Voice;
use crate::engine::voices::addressing::{CC_MOD_WHEEL, CC_SUSTAIN, CC_TIMBRE, addresses};

impl Engine {
    /// The expression a note starting now on `channel` gets.
    pub(super) fn new_expression(&self, channel: u8) -> Expression {
        let mut e = Expression::new(self.channels[channel as usize % 16], self.wheel);
        self.zone_part(channel, &mut e);
        e
    }

    /// Sets what a note on `channel` takes from its MPE zone: the master channel's bend,
    /// pressure and timbre, and the zone's bend ranges (nothing outside a zone). A note
    /// on the master channel itself has the master's pressure and timbre as its own
    /// channel's already, so it does not take them twice.
    fn zone_part(&self, channel: u8, e: &mut Expression) {
        e.zone = match self.zones.zone_of(channel) {
            Some(z) => {
                let master = z.master_channel();
                let mut zone = if channel % 16 == master {
                    ChannelExpression::default()
                } else {
                    self.channels[master as usize]
                };
                // The master's bend is the zone's alone (`pitch_bend` keeps it apart).
                zone.bend = self.zone_bend[z.index()];
                zone
            }
            None => ChannelExpression::default(),
        };
        e.ranges = self.zones.ranges_of(channel);
    }

    /// Hands every voice its zone's part anew, after the zones or a master channel's
    /// expression moved, and retunes the sounding ones at once (see `each_voice`).
    fn update_zone_parts(&mut self) {
        let p = self.body_params_now();
        self.epoch += 1;
        for i in 0..self.voices.len() {
            let mut e = self.voices[i].expression;
            self.zone_part(self.voices[i].channel, &mut e);
            let v = &mut self.voices[i];
            v.expression = e;
            if v.is_active() {
                v.update_body(&p);
            }
        }
    }

    /// The sounding voices (for tests and meters).
    pub fn voices(&self) -> impl Iterator<Item = &Voice> {
        self.voices.iter().filter(|v| v.is_active())
    }

    /// The sounding voice with host voice ID `id`.
    pub fn voice_by_id(&self, id: i32) -> Option<&Voice> {
        self.voices().find(|v| v.voice_id == Some(id))
    }

    /// Hands `f` the expression of every sounding voice `hit` picks, and retunes their
    /// bodies at once: an expression event acts at its own sample, not at the next
    /// control tick (a contact in progress still keeps its body: `Voice::update_body`).
    fn each_voice(&mut self, hit: impl Fn(&Voice) -> bool, f: impl Fn(&mut Expression)) {
        let p = self.body_params_now();
        self.epoch += 1;
        for v in self.voices.iter_mut() {
            if v.is_active() && hit(v) {
                f(&mut v.expression);
                v.update_body(&p);
            }
        }
    }

    fn each_addressed(
        &mut self,
        voice_id: Option<i32>,
        key: Option<u8>,
        channel: Option<u8>,
        f: impl Fn(&mut Expression),
    ) {
        self.each_voice(|v| addresses(v, voice_id, key, channel), f);
    }

    /// CLAP polyphonic modulation: the voice `voice_id`'s normalised offset of the
    /// parameter with poly-mod id `target` (a `PolyTarget`). It replaces the previous
    /// offset; contact parameters take it from the next contact (latched at onset). It
    /// reaches only the voice with that ID: a note without one (a VST3 or pad note) is
    /// not the one a host modulates by ID.
    pub fn poly_modulation(&mut self, voice_id: i32, target: u32, offset: f32) {
        let x = NoteExpression::PolyMod { target, offset };
        self.each_voice(|v| v.voice_id == Some(voice_id), |e| e.take(x));
    }

    /// A note's own expression event for the voices it addresses (see [`addresses`]).
    pub fn note_expression(
        &mut self,
        voice_id: Option<i32>,
        key: Option<u8>,
        channel: Option<u8>,
        x: NoteExpression,
    ) {
        self.each_addressed(voice_id, key, channel, |e| e.take(x));
    }

    /// Polyphonic key pressure in `[0, 1]`: damps the addressed note's body.
    pub fn poly_pressure(
        &mut self,
        voice_id: Option<i32>,
        key: Option<u8>,
        channel: Option<u8>,
        pressure: f32,
    ) {
        self.note_expression(voice_id, key, channel, NoteExpression::Pressure(pressure));
    }

    /// Per-note tuning, semitones: bends the addressed note's body.
    pub fn poly_tuning(
        &mut self,
        voice_id: Option<i32>,
        key: Option<u8>,
        channel: Option<u8>,
        tuning: f32,
    ) {
        self.note_expression(voice_id, key, channel, NoteExpression::Tuning(tuning));
    }

    /// Per-note brightness in `[0, 1]` (CLAP note expression): the note's timbre.
    pub fn poly_brightness(
        &mut self,
        voice_id: Option<i32>,
        key: Option<u8>,
        channel: Option<u8>,
        brightness: f32,
    ) {
        let x = NoteExpression::Brightness(brightness);
        self.note_expression(voice_id, key, channel, x);
    }

    /// Sets `channel`'s expression and hands it to the voices on it.
    fn set_channel(&mut self, channel: u8, f: impl Fn(&mut ChannelExpression)) {
        let ch = channel as usize % 16;
        f(&mut self.channels[ch]);
        let c = self.channels[ch];
        self.each_addressed(None, None, Some(ch as u8), |e| e.channel = c);
    }

    /// Sets `channel`'s expression as [`set_channel`](Self::set_channel) does; on an MPE
    /// zone's master channel it then reaches every note of the zone.
    fn set_channel_or_zone(&mut self, channel: u8, f: impl Fn(&mut ChannelExpression)) {
        self.set_channel(channel, f);
        if self.zones.master(channel % 16).is_some() {
            self.update_zone_parts();
        }
    }

    /// Channel pressure in `[0, 1]` (MPE pressure): damps the notes on `channel`. On an
    /// MPE zone's master channel it damps every note of the zone, the larger of it and
    /// each note's own pressure acting.
    pub fn channel_pressure(&mut self, channel: u8, pressure: f32) {
        let p = sane(pressure, 0.0, 1.0, 0.0);
        self.set_channel_or_zone(channel, |c| c.pressure = p);
    }

    /// Pitch bend, normalised `[0, 1]` with 0.5 = none: bends the bodies of the notes
    /// on `channel` by up to ± the bend range.
    /// On an MPE zone's master channel it bends every note of the zone instead, by up
    /// to ± the zone's master bend range, on top of each note's own channel bend (by up
    /// to ± the zone's member bend range).
    pub fn pitch_bend(&mut self, channel: u8, value: f32) {
        let b = sane(value, 0.0, 1.0, 0.5) * 2.0 - 1.0;
        let Some(zone) = self.zones.master(channel % 16) else {
            self.set_channel(channel, |c| c.bend = b);
            return;
        };
        self.zone_bend[zone.index()] = b;
        self.update_zone_parts();
    }

    /// A control change, normalised `[0, 1]`: CC 74 (timbre) moves the strike position
    /// of the notes on `channel` (on an MPE zone's master channel, of every note of the
    /// zone, its offset adding to each note's own); CC 1 (mod wheel) moves its target on
    /// every note; CC 64 is the sustain pedal ([`Engine::sustain_pedal`]); an MPE
    /// Configuration Message (RPN 6) sets the zones, and their
    /// masters' bend, pressure and timbre start over; RPN 0 in a zone sets its bend
    /// ranges (see `mpe`).
    pub fn control_change(&mut self, channel: u8, cc: u8, value: f32) {
        let seven = (sane(value, 0.0, 1.0, 0.0) * 127.0).round() as u8;
        let was_master = Zone::ALL.map(|z| self.zones.master(z.master_channel()).is_some());
        match self.zones.control_change(channel % 16, cc, seven) {
            ZoneChange::None => {}
            ZoneChange::Selected => return,
            change => {
                if change == ZoneChange::Zones {
                    self.zone_bend = [0.0; 2];
                    // The masters' pressure and timbre start over with their bends, on
                    // each channel that was or now is a master.
                    for (z, was) in Zone::ALL.into_iter().zip(was_master) {
                        let c = z.master_channel();
                        if was || self.zones.master(c).is_some() {
                            let neutral = ChannelExpression::default();
                            self.set_channel(c, |e| {
                                e.pressure = neutral.pressure;
                                e.timbre = neutral.timbre;
                            });
                        }
                    }
                }
                // Every sounding note takes its zone's (new) ranges from now on.
                self.update_zone_parts();
                return;
            }
        }
        match cc {
            CC_TIMBRE => {
                let t = sane(value, 0.0, 1.0, 0.5);
                self.set_channel_or_zone(channel, |c| c.timbre = t);
            }
            CC_MOD_WHEEL => {
                let w = sane(value, 0.0, 1.0, 0.0);
                self.wheel = w;
                self.each_addressed(None, None, None, |e| e.wheel = w);
            }
            CC_SUSTAIN => self.sustain_pedal(channel, seven >= 64),
            _ => {}
        }
    }
}
