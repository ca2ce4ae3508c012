//! MPE zones through the engine: after an MPE Configuration Message (RPN 6) a zone's
//! master channel bends every note of its zone by ±2 semitones, on top of each note's
//! own channel bend (±48), and no note outside it; RPN 0 sets those ranges for the
//! whole zone; without a configuration, channel 1's bend is channel 1's alone, by the
//! Bend range parameter. Read from what each voice plays (`Voice::own`).

use rebound::engine::mpe::{MASTER_BEND_RANGE, MEMBER_BEND_RANGE};
use rebound::engine::{Engine, EngineParams};

const FS: f64 = 48_000.0;

fn engine() -> Engine {
    let mut e = Engine::new(FS);
    e.set_params(&EngineParams {
        bend_range: 48.0,
        key_track: 0.0,
        ..Default::default()
    });
    e
}

/// The MPE Configuration Message on `channel` (0 or 15) for `members` channels.
fn mcm(e: &mut Engine, channel: u8, members: u8) {
    e.control_change(channel, 101, 0.0);
    e.control_change(channel, 100, 6.0 / 127.0);
    e.control_change(channel, 6, members as f32 / 127.0);
}

/// The body pitch the voice on `channel` plays, in semitones from the patch's.
fn semitones(e: &Engine, channel: u8) -> f64 {
    let v = e.voices().find(|v| v.channel == channel).unwrap();
    let f = v.own(e.params(), &v.jitter).body_freq;
    12.0 * (f / e.params().body_freq).log2()
}

/// A pitch-bend value for `x` in [-1, 1].
fn bend(x: f32) -> f32 {
    0.5 * (x + 1.0)
}

#[test]
fn without_zones_channel_one_bends_only_its_own_notes() {
    let mut e = engine();
    e.note_on(60, 1.0, 0, None);
    e.note_on(64, 1.0, 3, None);
    e.pitch_bend(0, bend(1.0));
    assert!((semitones(&e, 0) - 48.0).abs() < 1e-9);
    assert_eq!(semitones(&e, 3), 0.0);
}

#[test]
fn a_lower_zone_master_bends_every_note_of_the_zone_on_top_of_its_own() {
    let mut e = engine();
    mcm(&mut e, 0, 15);
    e.note_on(60, 1.0, 1, None);
    e.note_on(64, 1.0, 5, None);
    e.pitch_bend(5, bend(0.5)); // the note's own bend: +24 st at a 48 st range
    e.pitch_bend(0, bend(1.0)); // the zone's: +2 st
    assert!((semitones(&e, 1) - MASTER_BEND_RANGE).abs() < 1e-9);
    assert!((semitones(&e, 5) - (24.0 + MASTER_BEND_RANGE)).abs() < 1e-9);
    // A note struck later in the zone starts with the zone's bend.
    e.note_on(67, 1.0, 9, None);
    assert!((semitones(&e, 9) - MASTER_BEND_RANGE).abs() < 1e-9);
    e.pitch_bend(0, bend(-1.0));
    assert!((semitones(&e, 1) + MASTER_BEND_RANGE).abs() < 1e-9);
}

#[test]
fn an_upper_zone_master_leaves_the_lower_zone_alone() {
    let mut e = engine();
    mcm(&mut e, 0, 10);
    mcm(&mut e, 15, 3); // members are channels 13–15 (indices 12–14)
    e.note_on(60, 1.0, 2, None);
    e.note_on(64, 1.0, 12, None);
    e.pitch_bend(15, bend(1.0));
    assert_eq!(semitones(&e, 2), 0.0);
    assert!((semitones(&e, 12) - MASTER_BEND_RANGE).abs() < 1e-9);
    // A new configuration starts the zones' bends over.
    mcm(&mut e, 15, 3);
    assert_eq!(semitones(&e, 12), 0.0);
}

/// RPN 0 (pitch-bend sensitivity) on `channel`: `semitones` and `cents`.
fn bend_range(e: &mut Engine, channel: u8, semitones: u8, cents: u8) {
    e.control_change(channel, 101, 0.0);
    e.control_change(channel, 100, 0.0);
    e.control_change(channel, 6, semitones as f32 / 127.0);
    e.control_change(channel, 38, cents as f32 / 127.0);
}

#[test]
fn rpn_0_sets_the_zones_bend_ranges_for_sounding_and_later_notes() {
    // The Bend range parameter at its default (2 st): a zone does not use it.
    let mut e = Engine::new(FS);
    e.set_params(&EngineParams {
        key_track: 0.0,
        ..Default::default()
    });
    mcm(&mut e, 0, 15);
    e.note_on(60, 1.0, 1, None);
    e.note_on(64, 1.0, 5, None);
    e.pitch_bend(1, bend(1.0));
    assert!((semitones(&e, 1) - MEMBER_BEND_RANGE).abs() < 1e-9);
    // RPN 0 on another member sets every member's range, the sounding notes' too.
    bend_range(&mut e, 5, 12, 0);
    assert!((semitones(&e, 1) - 12.0).abs() < 1e-9);
    e.note_on(67, 1.0, 9, None);
    e.pitch_bend(9, bend(-0.5));
    assert!((semitones(&e, 9) + 6.0).abs() < 1e-9);
    // RPN 0 on the master sets the zone-wide range, cents included.
    bend_range(&mut e, 0, 7, 25);
    e.pitch_bend(0, bend(1.0));
    assert!((semitones(&e, 5) - 7.25).abs() < 1e-9);
    assert!((semitones(&e, 1) - (12.0 + 7.25)).abs() < 1e-9);
    // A new configuration message puts RP-053's defaults back.
    mcm(&mut e, 0, 15);
    e.pitch_bend(1, bend(1.0));
    e.pitch_bend(0, bend(1.0));
    assert!((semitones(&e, 1) - (MEMBER_BEND_RANGE + MASTER_BEND_RANGE)).abs() < 1e-9);
}

#[test]
fn rpn_0_outside_a_zone_leaves_the_bend_range_parameter_in_charge() {
    let mut e = engine();
    e.note_on(60, 1.0, 3, None);
    bend_range(&mut e, 3, 12, 0);
    e.pitch_bend(3, bend(1.0));
    assert!((semitones(&e, 3) - e.params().bend_range).abs() < 1e-9);
}
