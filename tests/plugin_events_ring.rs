//! Expression during a note's ring, through the real `process()`: each event acts at
//! its own sample for any host block size (a retuned body changes the very next output
//! sample), one that comes during a contact lands on the first sample after it, and the
//! 0.5 a VST3 host restores into nice-plug's hidden MIDI CC stand-ins is not played.

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::expression::PolyTarget;
use rebound::engine::spec;
use rebound::engine::{CC_MOD_WHEEL, CC_TIMBRE};
use rebound::model::Phase;

mod support;
use support::*;

const ID: i32 = 7;
const KEY: u8 = 60;
const CH: u8 = 2;

/// The note, at the render's first sample.
fn note() -> NoteEvent<()> {
    NoteEvent::NoteOn {
        timing: 0,
        voice_id: VoiceID::ID(ID),
        channel: Channel::Number(CH),
        key: Key::Number(KEY),
        velocity: 1.0,
    }
}

fn poly_mod(at: u32, target: PolyTarget, offset: f32) -> NoteEvent<()> {
    NoteEvent::PolyModulation {
        timing: at,
        voice_id: ID,
        poly_modulation_id: target.id(),
        normalized_offset: offset,
    }
}

/// The expression event's sample: well into the ring, off the control grid and off
/// every block boundary.
const AT: u32 = 28813;
const LONG: usize = AT as usize + 2000;

fn wheel_on_pitch(p: &Rebound) {
    let params = p.rebound_params();
    let choice = spec::choice("mwheel").unwrap();
    let i = choice.choices.iter().position(|n| *n == "pitch").unwrap();
    let last = (choice.choices.len() - 1) as f32;
    set_norm(&params, "mwheel", i as f32 / last);
    set_norm(&params, "mwamt", 1.0);
}

fn ringing(block: usize, events: &[NoteEvent<()>]) -> Vec<f32> {
    let mut p = activated(48000.0, block as u32);
    wheel_on_pitch(&p);
    let mut all = vec![note()];
    all.extend_from_slice(events);
    render(&mut p, block, LONG, &all)
}

/// A pitch bend, pressure, CC 74, mod wheel, tuning or body poly-mod during the ring
/// leaves every sample before its own bit for bit and changes the sample it is at: a
/// retuned body (pitch, decay, pickup weights) changes the very next output sample. The
/// same for host blocks of 64, 1000 and 4096 samples, whose renders are identical.
#[test]
fn expression_changes_a_ringing_body_at_its_own_sample() {
    let c = Channel::Number(CH);
    let k = Key::Number(KEY);
    let events = [
        NoteEvent::MidiPitchBend {
            timing: AT,
            channel: CH,
            value: 0.9,
        },
        NoteEvent::MidiChannelPressure {
            timing: AT,
            channel: CH,
            pressure: 1.0,
        },
        NoteEvent::MidiCC {
            timing: AT,
            channel: CH,
            cc: CC_TIMBRE,
            value: 1.0,
        },
        NoteEvent::MidiCC {
            timing: AT,
            channel: 0,
            cc: CC_MOD_WHEEL,
            value: 0.3,
        },
        NoteEvent::PolyTuning {
            timing: AT,
            voice_id: VoiceID::ID(ID),
            channel: c,
            key: k,
            tuning: 1.0,
        },
        poly_mod(AT, PolyTarget::BodyPitch, 0.1),
        poly_mod(AT, PolyTarget::Position, 0.2),
    ];
    let reference = ringing(64, &[]);
    for ev in events {
        let mut renders = Vec::new();
        for block in [64, 1000, 4096] {
            let with = ringing(block, &[ev]);
            let first = first_difference(&reference, &with, LONG);
            assert_eq!(first, Some(AT as usize), "{ev:?}, blocks of {block}");
            renders.push(with);
        }
        assert!(
            renders.windows(2).all(|w| w[0] == w[1]),
            "{ev:?}: the block size changed the render"
        );
    }
}

/// nice-plug's VST3 wrapper reports 0.5 for its hidden MIDI CC stand-ins, so a host
/// restoring them sends channel pressure and CCs of exactly 0.5: not played. A real
/// MIDI value next to it (64/127) still is.
#[test]
fn restored_midi_cc_stand_ins_at_one_half_are_not_played() {
    let at = AT - 20000;
    let pressure = |v: f32| NoteEvent::MidiChannelPressure {
        timing: at,
        channel: CH,
        pressure: v,
    };
    let cc = |n: u8, v: f32| NoteEvent::MidiCC {
        timing: at,
        channel: CH,
        cc: n,
        value: v,
    };
    let reference = ringing(1000, &[]);
    let stand_ins = [
        pressure(0.5),
        cc(CC_MOD_WHEEL, 0.5),
        cc(CC_TIMBRE, 0.5),
        // An RPN select and data entry of 64 would otherwise be read too.
        cc(101, 0.5),
        cc(100, 0.5),
        cc(6, 0.5),
    ];
    assert!(
        ringing(1000, &stand_ins) == reference,
        "a stand-in was played"
    );
    for ev in [pressure(64.0 / 127.0), cc(CC_MOD_WHEEL, 64.0 / 127.0)] {
        assert!(ringing(1000, &[ev]) != reference, "{ev:?} was ignored");
    }
}

/// A bend during a long contact leaves the contact and its body alone (the strike is
/// calibrated for the body it started with) and retunes the body on the first sample
/// after the contact, not at the next 32-sample control tick.
#[test]
fn expression_during_a_contact_lands_when_the_contact_ends() {
    let bend = NoteEvent::MidiPitchBend {
        timing: 40,
        channel: CH,
        value: 0.9,
    };
    let total = 2400;
    // A long contact; whether the voice presses before each sample.
    let voice = |events: &[NoteEvent<()>]| {
        let mut p = activated(48000.0, 1);
        set_norm(&p.rebound_params(), "hard", 0.95);
        let mut contact = Vec::new();
        let (mut l, r, _) = run_with(&mut p, 1, total, events, |p, _| {
            let v = p.engine().voice_by_id(ID);
            contact.push(v.is_some_and(|v| {
                v.bouncer()
                    .is_some_and(|b| matches!(b.phase(), Phase::Contact))
            }));
        });
        l.extend(r);
        (l, contact)
    };
    let (reference, contact) = voice(&[note()]);
    let (bent, _) = voice(&[note(), bend]);
    // The first sample rendered after the contact ended.
    let end = contact.iter().skip(2).position(|&c| !c).unwrap() + 2;
    assert!(end > 100 && end % 32 != 0, "contact ends at {end}");
    assert_eq!(first_difference(&reference, &bent, total), Some(end));
}
