//! Note events: a note-on finds its voice (re-strike, steal, free slot) and strikes it
//! with its own expression and jitter; note-offs and chokes find voices as
//! `addressing` says.

use super::{Engine, SLOTS};
use crate::engine::expression::Expression;
use crate::engine::expression::humanize::Jitter;
use crate::engine::params::{Controls, NoteOff};
use crate::engine::voices::addressing::addresses;

impl Engine {
    /// Starts a note now (before the next rendered sample). `velocity` in `[0, 1]`.
    pub fn note_on(&mut self, key: u8, velocity: f32, channel: u8, voice_id: Option<i32>) {
        self.note_on_with(key, velocity, channel, voice_id, |_| {});
    }

    /// Starts a note as [`note_on`](Self::note_on) does, `own` first setting its own
    /// expression: the per-note events a host sends at a note-on's timestamp (CLAP
    /// poly-mod and note expressions, poly pressure) then shape its strike (contact,
    /// level, pan and body), not only what comes after it.
    pub fn note_on_with(
        &mut self,
        key: u8,
        velocity: f32,
        channel: u8,
        voice_id: Option<i32>,
        own: impl FnOnce(&mut Expression),
    ) {
        let mut expression = self.new_expression(channel);
        own(&mut expression);
        let velocity = if velocity.is_nan() {
            0.0
        } else {
            velocity.clamp(0.0, 1.0)
        };
        self.now += 1;
        let p = self.body_params_now();
        // The mix the strike starts with (it differs from the patch's while Mix or Body
        // glides; see `level::Entry::glide`).
        let mix = self.mix.value;
        let jitter = self.note_jitter(velocity);
        // A note on a sounding key re-strikes that voice.
        if let Some(i) = self.sounding(key, channel) {
            if self.voices[i].voice_id != voice_id {
                self.report(i);
                self.voices[i].voice_id = voice_id;
            }
            // (Its own memo goes with the strike: `Voice::start` clears it; the other
            // voices' stay good.)
            self.voices[i].expression = expression;
            self.voices[i].jitter = jitter;
            self.voices[i].sustained = false;
            self.voices[i].take_setup(&self.setup);
            self.voices[i].strike_with(&p, key, velocity as f64, self.now, mix, &mut self.levels);
            self.setup = self.voices[i].setup();
            self.trace_voice(i);
            return;
        }
        self.steal_if_full();
        let slot = self.free_slot(key);
        let v = &mut self.voices[slot];
        v.channel = channel;
        v.voice_id = voice_id;
        v.sustained = false;
        v.expression = expression;
        v.jitter = jitter;
        v.take_setup(&self.setup);
        v.strike_with(&p, key, velocity as f64, self.now, mix, &mut self.levels);
        self.setup = v.setup();
        self.trace_voice(slot);
    }

    /// A key's release. In Ring mode ([`NoteOff::Ring`]) nothing happens; in Damp mode
    /// the note's voice is damped ([`Voice::damp`]) with T60 = Release. The voice is
    /// found as a note-on finds one to re-strike: by the host's voice ID when both the
    /// note-off and the voice have one, else by key and channel, where `None` (a CLAP
    /// wildcard) matches any. A voice being stolen fades on.
    /// A held gesture (a crumpling train) stops at the note-off, or when the pedal
    /// holding it comes up, in either mode.
    pub fn note_off(&mut self, key: Option<u8>, channel: Option<u8>, voice_id: Option<i32>) {
        let damp = self.params.note_off != NoteOff::Ring;
        let release = self.params.release;
        let pedal = self.sustain_by_channel();
        for v in self.voices.iter_mut() {
            if addresses(v, voice_id, key, channel) && !v.is_fading() {
                if pedal[usize::from(v.channel % 16)] {
                    v.sustained = true;
                } else {
                    v.release_gesture();
                    if damp {
                        v.damp(release);
                    }
                }
            }
        }
    }

    /// The sustain pedal (CC 64) on `channel`, down at `value` ≥ 64/127: while it is
    /// down a note-off leaves its note sounding; when it comes up every note it held
    /// is released as its note-off would have done. On an MPE zone's master channel it
    /// holds every note of the zone.
    pub fn sustain_pedal(&mut self, channel: u8, down: bool) {
        let was = self.sustain_by_channel();
        self.sustain[usize::from(channel % 16)] = down;
        if down {
            return;
        }
        let now = self.sustain_by_channel();
        let release = self.params.release;
        let damp = self.params.note_off != NoteOff::Ring;
        for v in self.voices.iter_mut() {
            let ch = usize::from(v.channel % 16);
            if v.sustained && was[ch] && !now[ch] {
                v.sustained = false;
                v.release_gesture();
                if damp && !v.is_fading() {
                    v.damp(release);
                }
            }
        }
    }

    /// Whether a pedal holds each channel's notes: its own, or its MPE zone master's.
    fn sustain_by_channel(&self) -> [bool; 16] {
        std::array::from_fn(|ch| {
            let zone = self.zones.zone_of(ch as u8);
            self.sustain[ch] || zone.is_some_and(|z| self.sustain[usize::from(z.master_channel())])
        })
    }

    /// A choke ends every voice it addresses with the short fade, whatever the note-off
    /// mode. It finds them as a note-off does, so a wildcard (`None`) key, channel or
    /// voice ID chokes every voice that matches the rest.
    pub fn choke(&mut self, key: Option<u8>, channel: Option<u8>, voice_id: Option<i32>) {
        for v in self.voices.iter_mut() {
            if addresses(v, voice_id, key, channel) && !v.is_fading() {
                v.release_fast();
            }
        }
    }

    /// One humanize draw per note-on, whichever voice plays it, and the contact time
    /// Velocity → Hardness gives a softer note (a Playable control: Expert controls
    /// play the contact law as set).
    fn note_jitter(&mut self, velocity: f32) -> Jitter {
        let top = self.params.v_max.max(self.params.v_min);
        let ratio = crate::voice::velocity_to_speed(&self.params, velocity as f64) / top;
        let amount = match self.params.controls {
            Controls::Playable => self.params.velocity_hardness,
            Controls::Expert => 0.0,
        };
        self.humanizer
            .draw(&self.params)
            .with_velocity_hardness(ratio, amount, self.params.alpha)
    }

    /// The held voice sounding `key` on `channel`, if any.
    fn sounding(&self, key: u8, channel: u8) -> Option<usize> {
        self.voices
            .iter()
            .position(|v| v.is_active() && !v.is_fading() && v.key == key && v.channel == channel)
    }

    /// Steals the oldest held voice when the user's count is reached.
    fn steal_if_full(&mut self) {
        let held = self
            .voices
            .iter()
            .filter(|v| v.is_active() && !v.is_fading())
            .count();
        if held >= self.params.voices {
            let mut oldest: Option<usize> = None;
            for (i, v) in self.voices.iter().enumerate() {
                if v.is_active()
                    && !v.is_fading()
                    && oldest.is_none_or(|o| v.started < self.voices[o].started)
                {
                    oldest = Some(i);
                }
            }
            if let Some(o) = oldest {
                self.voices[o].release_fast();
            }
        }
    }

    /// The slot a new note takes.
    fn free_slot(&mut self, key: u8) -> usize {
        // A free slot: the one that last played this key, whose level calibration is
        // then most likely still good (a melody costs cache lookups, not probes: see
        // `Voice::strike`), else the one idle longest (the free slots keep the
        // calibrations of the keys played last).
        let idle = self
            .voices
            .iter()
            .position(|v| !v.is_active() && v.key == key)
            .or_else(|| {
                (0..SLOTS)
                    .filter(|&i| !self.voices[i].is_active())
                    .min_by_key(|&i| self.voices[i].started)
            });
        match idle {
            Some(i) => i,
            None => {
                // Every slot fading: take the one nearest its end.
                let mut best = 0;
                for (i, v) in self.voices.iter().enumerate() {
                    if v.fade_level() < self.voices[best].fade_level() {
                        best = i;
                    }
                }
                self.report(best);
                self.voices[best].kill();
                best
            }
        }
    }
}
