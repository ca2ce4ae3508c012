//! MPE zones through the engine: after an MPE Configuration Message (RPN 6) a zone's
//! master channel bends every note of its zone by ±2 semitones, on top of each note's
//! own channel bend (±48), and no note outside it; its channel pressure and CC 74
//! (timbre) reach every note of the zone too, combined with each note's own; RPN 0 sets
//! the bend ranges for the whole zone; without a configuration, channel 1's bend,
//! pressure and timbre are channel 1's alone. Read from what each voice plays
//! (`Voice::own`), and heard in the output.

use rebound::engine::expression::mpe::{MASTER_BEND_RANGE, MEMBER_BEND_RANGE};
use rebound::engine::expression::{PRESSURE_DAMP, TIMBRE_SPAN};
use rebound::engine::{CC_TIMBRE, Engine, EngineParams};

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

/// The parameters the voice on `channel` plays.
fn own(e: &Engine, channel: u8) -> EngineParams {
    let v = e.voices().find(|v| v.channel == channel).unwrap();
    v.own(e.params(), &v.jitter)
}

/// The body pitch the voice on `channel` plays, in semitones from the patch's.
fn semitones(e: &Engine, channel: u8) -> f64 {
    12.0 * (own(e, channel).body_freq / e.params().body_freq).log2()
}

/// The pressure that damps the voice on `channel` (from its T60; within 1e-6 of the
/// one sent, which arrives as an `f32`).
fn pressure(e: &Engine, channel: u8) -> f64 {
    (own(e, channel).t60 / e.params().t60).ln() / PRESSURE_DAMP.ln()
}

/// The timbre that moves the voice on `channel` (from its strike position; the patch's
/// is 0.3, so a timbre in [0.3, 1] is not clipped).
fn timbre(e: &Engine, channel: u8) -> f64 {
    0.5 + (own(e, channel).position - e.params().position) / (2.0 * TIMBRE_SPAN)
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

#[test]
fn a_zone_master_s_pressure_damps_every_note_of_the_zone_with_each_note_s_own() {
    let mut e = engine();
    mcm(&mut e, 0, 15);
    e.note_on(60, 1.0, 1, None);
    e.note_on(64, 1.0, 5, None);
    e.channel_pressure(5, 0.3);
    e.channel_pressure(0, 0.6);
    // The larger of the zone's and the note's own acts.
    assert!((pressure(&e, 1) - 0.6).abs() < 1e-6);
    assert!((pressure(&e, 5) - 0.6).abs() < 1e-6);
    e.channel_pressure(5, 0.9);
    assert!((pressure(&e, 5) - 0.9).abs() < 1e-6);
    assert!(
        (pressure(&e, 1) - 0.6).abs() < 1e-6,
        "the note's own stays its own"
    );
    // A note struck later in the zone starts with the zone's pressure.
    e.note_on(67, 1.0, 9, None);
    assert!((pressure(&e, 9) - 0.6).abs() < 1e-6);
    e.channel_pressure(0, 0.0);
    assert_eq!(own(&e, 1), *e.params());
    assert!((pressure(&e, 5) - 0.9).abs() < 1e-6);
}

#[test]
fn a_zone_master_s_timbre_adds_its_offset_to_each_note_s_own() {
    let mut e = engine();
    mcm(&mut e, 0, 15);
    e.note_on(60, 1.0, 1, None);
    e.note_on(64, 1.0, 5, None);
    e.control_change(5, CC_TIMBRE, 0.75);
    e.control_change(0, CC_TIMBRE, 0.625);
    assert!((timbre(&e, 1) - 0.625).abs() < 1e-9);
    assert!((timbre(&e, 5) - 0.875).abs() < 1e-9);
    // A note struck later in the zone starts with the zone's timbre.
    e.note_on(67, 1.0, 9, None);
    assert!((timbre(&e, 9) - 0.625).abs() < 1e-9);
    // The sum is held within the timbre's range.
    e.control_change(0, CC_TIMBRE, 1.0);
    assert!((timbre(&e, 5) - 1.0).abs() < 1e-9);
    // A note on the master channel itself takes the master's timbre once.
    e.note_on(72, 1.0, 0, None);
    assert!((timbre(&e, 0) - 1.0).abs() < 1e-9);
    e.control_change(0, CC_TIMBRE, 0.5);
    assert_eq!(own(&e, 1), *e.params());
    assert_eq!(own(&e, 0), *e.params());
}

/// Renders `n` samples of the left channel.
fn render(e: &mut Engine, n: usize) -> Vec<f32> {
    let (mut l, mut r) = (vec![0.0f32; n], vec![0.0f32; n]);
    e.render(&mut l, &mut r);
    l
}

fn energy(y: &[f32]) -> f64 {
    y.iter().map(|&s| (s as f64).powi(2)).sum()
}

#[test]
fn a_zone_master_s_pressure_and_timbre_change_what_a_sounding_note_plays() {
    let play = |master: &dyn Fn(&mut Engine)| {
        let mut e = engine();
        mcm(&mut e, 0, 15);
        e.note_on(60, 1.0, 3, None);
        let mut y = render(&mut e, 4800);
        master(&mut e);
        y.extend(render(&mut e, 43_200));
        y
    };
    let dry = play(&|_| {});
    let pressed = play(&|e| e.channel_pressure(0, 1.0));
    let timbred = play(&|e| e.control_change(0, CC_TIMBRE, 1.0));
    assert_eq!(dry[..4800], pressed[..4800]);
    let tail = 24_000..;
    assert!(
        energy(&pressed[tail.clone()]) < 0.01 * energy(&dry[tail.clone()]),
        "pressure damps the body: {} vs {}",
        energy(&pressed[tail.clone()]),
        energy(&dry[tail])
    );
    assert_ne!(dry, timbred, "timbre moves the strike position");
}

#[test]
fn outside_a_zone_pressure_and_timbre_stay_on_their_channel() {
    // No configuration: channel 1 is a channel like any other.
    let mut e = engine();
    e.note_on(60, 1.0, 0, None);
    e.note_on(64, 1.0, 3, None);
    e.channel_pressure(0, 1.0);
    e.control_change(0, CC_TIMBRE, 1.0);
    assert!((pressure(&e, 0) - 1.0).abs() < 1e-6);
    assert!((timbre(&e, 0) - 1.0).abs() < 1e-9);
    assert_eq!(own(&e, 3), *e.params());
    // A lower zone of 5 members: channel 11 is outside it, and channel 16 no master.
    let mut e = engine();
    mcm(&mut e, 0, 5);
    e.note_on(60, 1.0, 10, None);
    e.note_on(64, 1.0, 15, None);
    e.channel_pressure(0, 1.0);
    e.control_change(0, CC_TIMBRE, 1.0);
    assert_eq!(own(&e, 10), *e.params());
    e.channel_pressure(15, 0.5);
    assert!((pressure(&e, 15) - 0.5).abs() < 1e-6);
    assert_eq!(own(&e, 10), *e.params());
}

#[test]
fn a_new_configuration_starts_the_masters_pressure_and_timbre_over() {
    let mut e = engine();
    mcm(&mut e, 0, 10);
    mcm(&mut e, 15, 3);
    e.note_on(60, 1.0, 3, None);
    e.note_on(64, 1.0, 13, None);
    e.channel_pressure(3, 0.2);
    for master in [0, 15] {
        e.channel_pressure(master, 0.7);
        e.control_change(master, CC_TIMBRE, 0.75);
    }
    assert!((pressure(&e, 3) - 0.7).abs() < 1e-6);
    assert!((timbre(&e, 13) - 0.75).abs() < 1e-9);
    mcm(&mut e, 0, 10);
    // Both zones start over, as their bends do; a member's own pressure stays.
    assert!((pressure(&e, 3) - 0.2).abs() < 1e-6);
    assert!((timbre(&e, 3) - 0.5).abs() < 1e-9);
    assert_eq!(own(&e, 13), *e.params());
    e.note_on(67, 1.0, 5, None);
    assert_eq!(own(&e, 5), *e.params());
}
