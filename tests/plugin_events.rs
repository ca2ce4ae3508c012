//! Every event of a timestamp acts before its strikes, through the real `process()`: in
//! whatever order the host lists them, the events of a note-on's sample shape its strike
//! (CLAP poly-mods and note expressions sent after it its first contact, level and pan;
//! channel expression too); a poly-mod reaches its voice ID only; and a dense event
//! stream does not allocate. Expression during the ring: `plugin_events_ring`.

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use rebound::engine::expression::PolyTarget;
use rebound::engine::{CC_MOD_WHEEL, CC_TIMBRE};

mod support;
use support::*;

/// The note's sample: inside a block, off the engine's 32-sample control grid.
const ON: u32 = 77;
const ID: i32 = 7;
const KEY: u8 = 60;
const CH: u8 = 2;

fn note() -> NoteEvent<()> {
    NoteEvent::NoteOn {
        timing: ON,
        voice_id: VoiceID::ID(ID),
        channel: Channel::Number(CH),
        key: Key::Number(KEY),
        velocity: 1.0,
    }
}

fn poly_mod(at: u32, id: i32, target: PolyTarget, offset: f32) -> NoteEvent<()> {
    NoteEvent::PolyModulation {
        timing: at,
        voice_id: id,
        poly_modulation_id: target.id(),
        normalized_offset: offset,
    }
}

const TOTAL: usize = 4800;

fn strike(events: &[NoteEvent<()>]) -> Vec<f32> {
    render(&mut activated(48000.0, 64), 64, TOTAL, events)
}

/// [`strike`] with Expert contact controls, where the mass sets the contact's length
/// (in Playable ones Hardness does, whatever the mass, and the level is calibrated).
fn strike_expert(events: &[NoteEvent<()>]) -> Vec<f32> {
    let mut p = activated(48000.0, 64);
    set_norm(&p.rebound_params(), "controls", 1.0);
    render(&mut p, 64, TOTAL, events)
}

/// A note's poly-mod sent after its note-on, at its sample, shapes its first contact
/// from its first sample, as the same poly-mod sent before the note-on does.
#[test]
fn a_poly_mod_at_its_note_on_shapes_the_strike_in_either_order() {
    let mut all = Vec::new();
    for (t, off) in [
        (PolyTarget::Hardness, 0.3f32),
        (PolyTarget::Mass, 0.3),
        (PolyTarget::Bounciness, -0.4),
        (PolyTarget::Position, 0.5),
        (PolyTarget::BodyPitch, 0.2),
    ] {
        let pm = poly_mod(ON, ID, t, off);
        all.push(pm);
        let strike = if t == PolyTarget::Mass {
            strike_expert
        } else {
            strike
        };
        let alone = strike(&[note()]);
        let after = strike(&[note(), pm]);
        let before = strike(&[pm, note()]);
        assert!(
            after == before,
            "{t:?}: the order within the timestamp matters"
        );
        let first = first_difference(&alone, &after, TOTAL);
        assert!(
            first.is_some_and(|n| n <= ON as usize + 2),
            "{t:?}: the strike did not take it (first change at {first:?}, note at {ON})"
        );
    }
    let mut after = vec![note()];
    after.extend(&all);
    let mut before = all.clone();
    before.push(note());
    assert!(strike(&after) == strike(&before), "all five");
    let alone = strike(&[note()]);
    // Position moves the pan, which is latched at the strike: the image differs from
    // the first sample.
    let pan = strike(&[note(), poly_mod(ON, ID, PolyTarget::Position, 0.5)]);
    let side = |x: &[f32], n: usize| x[n] - x[TOTAL + n];
    let n = ON as usize;
    assert_ne!(
        side(&alone, n),
        side(&pan, n),
        "the pan was latched without it"
    );
}

/// Channel and per-note expression of the note-on's timestamp reaches its strike
/// whether the host lists it before or after the note-on.
#[test]
fn every_event_of_a_timestamp_acts_before_the_strike() {
    let c = Channel::Number(CH);
    let k = Key::Number(KEY);
    let v = VoiceID::ID(ID);
    let events = [
        NoteEvent::MidiPitchBend {
            timing: ON,
            channel: CH,
            value: 0.9,
        },
        NoteEvent::MidiChannelPressure {
            timing: ON,
            channel: CH,
            pressure: 0.8,
        },
        NoteEvent::MidiCC {
            timing: ON,
            channel: CH,
            cc: CC_TIMBRE,
            value: 0.9,
        },
        NoteEvent::PolyPressure {
            timing: ON,
            voice_id: VoiceID::Wildcard,
            channel: c,
            key: k,
            pressure: 0.8,
        },
        NoteEvent::PolyTuning {
            timing: ON,
            voice_id: v,
            channel: c,
            key: k,
            tuning: 3.0,
        },
        NoteEvent::PolyBrightness {
            timing: ON,
            voice_id: v,
            channel: c,
            key: k,
            brightness: 0.1,
        },
    ];
    let alone = strike(&[note()]);
    for ev in events {
        let before = strike(&[ev, note()]);
        let after = strike(&[note(), ev]);
        assert!(before != alone, "{ev:?} changed nothing");
        assert!(
            before == after,
            "{ev:?}: the order within the timestamp matters"
        );
    }
}

/// A poly-mod reaches the voice with its ID only, not a note that has none.
#[test]
fn a_poly_mod_by_id_leaves_a_note_without_an_id_alone() {
    let anon = NoteEvent::NoteOn {
        timing: ON,
        voice_id: VoiceID::Wildcard,
        channel: Channel::Number(CH),
        key: Key::Number(KEY),
        velocity: 1.0,
    };
    let alone = strike(&[anon]);
    for at in [ON, ON + 500] {
        let pm = poly_mod(at, ID, PolyTarget::BodyPitch, 0.4);
        assert!(strike(&[anon, pm]) == alone, "at {at}");
    }
}

/// 2000 MIDI events in one block (notes, bends, CCs, pressure; one timestamp holding
/// more than the plugin gathers at once) while 16 voices are poly-modulated every 32
/// samples: not one allocation inside `process()`.
#[test]
fn a_dense_event_stream_does_not_allocate() {
    const BLOCK: usize = 4096;
    let mut p = activated(48000.0, BLOCK as u32);
    set_norm(&p.rebound_params(), "noteoff", 1.0);
    let mut rng = Rng(0x5eed);
    let mut events: Vec<NoteEvent<()>> = (0..16)
        .map(|i| NoteEvent::NoteOn {
            timing: 0,
            voice_id: VoiceID::ID(i),
            channel: Channel::Number(i as u8),
            key: Key::Number(40 + 2 * i as u8),
            velocity: 0.8,
        })
        .collect();
    for i in 0..2000u32 {
        // A crowd at sample 1000, the rest spread over the block.
        let at = if i < 400 {
            1000
        } else {
            rng.below(BLOCK as u64) as u32
        };
        let ch = rng.below(16) as u8;
        let key = Key::Number(36 + rng.below(48) as u8);
        let v = rng.unit();
        events.push(match i % 5 {
            0 => NoteEvent::NoteOn {
                timing: at,
                voice_id: VoiceID::ID(100 + i as i32),
                channel: Channel::Number(ch),
                key,
                velocity: v,
            },
            1 => NoteEvent::NoteOff {
                timing: at,
                voice_id: VoiceID::Wildcard,
                channel: Channel::Number(ch),
                key,
                velocity: 0.0,
            },
            2 => NoteEvent::MidiPitchBend {
                timing: at,
                channel: ch,
                value: v,
            },
            3 => NoteEvent::MidiCC {
                timing: at,
                channel: ch,
                cc: [CC_MOD_WHEEL, CC_TIMBRE, 6, 101][i as usize / 5 % 4],
                value: v,
            },
            _ => NoteEvent::MidiChannelPressure {
                timing: at,
                channel: ch,
                pressure: v,
            },
        });
    }
    for at in (0..3 * BLOCK as u32).step_by(32) {
        for id in 0..16 {
            let t = PolyTarget::ALL[rng.below(5) as usize];
            events.push(poly_mod(at, id, t, rng.unit() - 0.5));
        }
    }
    events.sort_by_key(|e| e.timing());
    let before = alloc_violations();
    let out = render(&mut p, BLOCK, 3 * BLOCK, &events);
    assert_eq!(
        alloc_violations() - before,
        0,
        "allocations inside process()"
    );
    assert!(out.iter().any(|&s| s != 0.0));
    assert_eq!(p.engine().guard_events(), 0);
}
