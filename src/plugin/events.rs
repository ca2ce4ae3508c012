//! The plugin's events: taken one timestamp at a time, so that every event of a
//! timestamp acts before the strike of a note-on among them (hosts send a note's CLAP
//! poly-mods and note expressions right after its note-on, at its sample), and mapped
//! onto the engine. Allocation-free: the batch is a buffer made with the plugin.

use super::Rebound;
use crate::engine::expression::NoteExpression;
use crate::engine::reaches;
use nice_plug::prelude::*;

/// Most events of one timestamp taken together; past this they are handled in order as
/// they come (a note-on then misses what is sent after it), without allocating.
pub(super) const BATCH: usize = 256;

/// True for the value nice-plug's VST3 wrapper reports for each of its hidden MIDI CC
/// stand-in parameters (`getParamNormalized` has no value for them and answers 0.5), so
/// a host that saves and restores them, as Ardour does, sends every CC and channel
/// pressure at exactly 0.5 when a session reopens: pressure 64 (the default patch rang
/// ~4.5x shorter) and mod wheel 64. No MIDI message maps there (k/127 never equals 1/2,
/// nor does a 14-bit value), so such a value is a restored stand-in, not a controller.
fn restored_stand_in(value: f32) -> bool {
    value == 0.5
}

fn is_note(e: &NoteEvent<()>) -> bool {
    matches!(
        e,
        NoteEvent::NoteOn { .. } | NoteEvent::NoteOff { .. } | NoteEvent::Choke { .. }
    )
}

/// The note's own expression in `e`, when `e` addresses the note `(id, key, channel)`:
/// a poly-mod by its voice ID alone, the rest as they address a sounding voice.
fn own_part(e: &NoteEvent<()>, note: (Option<i32>, u8, u8)) -> Option<NoteExpression> {
    let (x, id, key, ch) = match *e {
        NoteEvent::PolyModulation {
            voice_id,
            poly_modulation_id,
            normalized_offset,
            ..
        } => {
            let x = NoteExpression::PolyMod {
                target: poly_modulation_id,
                offset: normalized_offset,
            };
            return (note.0 == Some(voice_id)).then_some(x);
        }
        NoteEvent::PolyPressure {
            voice_id,
            channel,
            key,
            pressure,
            ..
        } => (NoteExpression::Pressure(pressure), voice_id, key, channel),
        NoteEvent::PolyTuning {
            voice_id,
            channel,
            key,
            tuning,
            ..
        } => (NoteExpression::Tuning(tuning), voice_id, key, channel),
        NoteEvent::PolyBrightness {
            voice_id,
            channel,
            key,
            brightness,
            ..
        } => (
            NoteExpression::Brightness(brightness),
            voice_id,
            key,
            channel,
        ),
        _ => return None,
    };
    reaches(note, id.id(), key.number(), ch.number()).then_some(x)
}

impl Rebound {
    /// Handles `first` and the events after it of the same timestamp; returns the next
    /// event, of a later one. With a note-on among them, the expression comes first, in
    /// order, then the note events in order, each note-on starting with the per-note
    /// expression of the whole timestamp that addresses it: its contact, level, pan
    /// and body are then those of everything sent at its sample, in whatever order.
    /// Voice ends are reported after each event (the engine's list is bounded).
    pub(super) fn handle_timestamp(
        &mut self,
        first: NoteEvent<()>,
        start: u64,
        len: usize,
        context: &mut impl ProcessContext<Self>,
    ) -> Option<NoteEvent<()>> {
        let t = first.timing();
        self.batch.clear();
        self.batch.push(first);
        let mut next = context.next_event();
        while let Some(e) = next
            && e.timing() == t
            && self.batch.len() < BATCH
        {
            self.batch.push(e);
            next = context.next_event();
        }
        let full = next.is_some_and(|e| e.timing() == t);
        let note_on = |e: &NoteEvent<()>| matches!(e, NoteEvent::NoteOn { .. });
        if full || !self.batch.iter().any(note_on) {
            for i in 0..self.batch.len() {
                let e = self.batch[i];
                self.handle_event(&e, false);
                self.report_terminated(start, len, context);
            }
            while let Some(e) = next
                && e.timing() == t
            {
                self.handle_event(&e, false);
                self.report_terminated(start, len, context);
                next = context.next_event();
            }
            return next;
        }
        for notes in [false, true] {
            for i in 0..self.batch.len() {
                let e = self.batch[i];
                if is_note(&e) == notes {
                    self.handle_event(&e, true);
                    self.report_terminated(start, len, context);
                }
            }
        }
        next
    }

    /// One event; a note-on takes the per-note expression of the batch when `batched`.
    fn handle_event(&mut self, event: &NoteEvent<()>, batched: bool) {
        match *event {
            NoteEvent::NoteOn {
                timing,
                key,
                velocity,
                channel,
                voice_id,
            } => {
                self.capture.arm(timing as usize);
                let key = key.number_or_middle_c();
                let channel = channel.number().unwrap_or(0);
                let id = voice_id.id();
                let batch: &[NoteEvent<()>] = if batched { &self.batch } else { &[] };
                self.engine.note_on_with(key, velocity, channel, id, |own| {
                    for x in batch.iter().filter_map(|e| own_part(e, (id, key, channel))) {
                        own.take(x);
                    }
                });
            }
            // Ring mode ignores it (a struck object does not stop when the key is
            // released); Damp mode damps the note's voice.
            NoteEvent::NoteOff {
                key,
                channel,
                voice_id,
                ..
            } => {
                self.engine
                    .note_off(key.number(), channel.number(), voice_id.id());
            }
            NoteEvent::Choke {
                key,
                channel,
                voice_id,
                ..
            } => {
                self.engine
                    .choke(key.number(), channel.number(), voice_id.id());
            }
            _ => self.handle_expression(event),
        }
    }

    /// Expression: CLAP poly-mod and note expressions, MPE channel messages, mod wheel.
    /// `MonoAutomation` needs nothing: the parameter already has its new value, which
    /// every voice reads at the next block with its poly-mod offsets kept.
    fn handle_expression(&mut self, event: &NoteEvent<()>) {
        let e = &mut self.engine;
        match *event {
            NoteEvent::PolyModulation {
                voice_id,
                poly_modulation_id,
                normalized_offset,
                ..
            } => e.poly_modulation(voice_id, poly_modulation_id, normalized_offset),
            NoteEvent::PolyPressure {
                voice_id,
                channel,
                key,
                pressure,
                ..
            } => e.poly_pressure(voice_id.id(), key.number(), channel.number(), pressure),
            NoteEvent::PolyTuning {
                voice_id,
                channel,
                key,
                tuning,
                ..
            } => e.poly_tuning(voice_id.id(), key.number(), channel.number(), tuning),
            NoteEvent::PolyBrightness {
                voice_id,
                channel,
                key,
                brightness,
                ..
            } => e.poly_brightness(voice_id.id(), key.number(), channel.number(), brightness),
            NoteEvent::MidiChannelPressure { pressure, .. } if restored_stand_in(pressure) => {}
            NoteEvent::MidiCC { value, .. } if restored_stand_in(value) => {}
            NoteEvent::MidiChannelPressure {
                channel, pressure, ..
            } => e.channel_pressure(channel, pressure),
            NoteEvent::MidiPitchBend { channel, value, .. } => e.pitch_bend(channel, value),
            NoteEvent::MidiCC {
                channel, cc, value, ..
            } => e.control_change(channel, cc, value),
            _ => {}
        }
    }
}
