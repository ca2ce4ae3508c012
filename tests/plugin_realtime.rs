//! The plugin in real time: a background worker makes the level tables, the audio
//! thread reads them and plays no strike ahead; offline (a host's bounce) no worker
//! runs and each entry is made before the note that needs it. Both play the same notes
//! the same, bit for bit, once the worker is done.

mod support;

use nice_plug::prelude::{Plugin, ProcessMode};
use rebound::engine::level::law::{TARGET_PEAK_DB, calibrations_on_this_thread};
use support::*;

const FS: f32 = 48_000.0;
const BLOCK: usize = 256;

fn wait_ready(p: &mut rebound::plugin::Rebound) {
    wait_until(|| p.levels_ready(), "the level worker");
}

/// A non-default patch, set as a host's automation sets it.
fn patch(p: &rebound::plugin::Rebound) {
    let params = p.rebound_params();
    set_norm(&params, "hard", 0.8);
    set_plain(&params, "pos", 0.6);
    set_plain(&params, "human", 0.4);
}

/// `notes` rendered for `total` samples by an offline plugin and by a real-time one
/// whose level worker has made its tables, each with `set` applied: the real-time
/// render is checked not to allocate nor make a table entry on the audio thread.
fn offline_and_realtime(
    set: impl Fn(&rebound::plugin::Rebound),
    notes: &[nice_plug::prelude::NoteEvent<()>],
    total: usize,
) -> (Vec<f32>, Vec<f32>) {
    let mut offline = activated_in(FS, BLOCK as u32, ProcessMode::Offline);
    assert!(!offline.engine().has_level_worker());
    set(&offline);
    // The same first block as the real-time plugin's below (the glides start alike).
    render(&mut offline, BLOCK, BLOCK, &[]);
    offline.reset();
    let a = render(&mut offline, BLOCK, total, notes);

    let mut realtime = activated_in(FS, BLOCK as u32, ProcessMode::Realtime);
    assert!(realtime.engine().has_level_worker());
    set(&realtime);
    // The patch reaches the engine (and its worker) with the first block.
    render(&mut realtime, BLOCK, BLOCK, &[]);
    wait_ready(&mut realtime);
    realtime.reset();
    let before = alloc_violations();
    let made = calibrations_on_this_thread();
    let b = render(&mut realtime, BLOCK, total, notes);
    assert_eq!(alloc_violations(), before, "process() allocated");
    assert_eq!(
        calibrations_on_this_thread(),
        made,
        "process() made an entry"
    );
    (a, b)
}

#[test]
fn real_time_plays_what_offline_plays_once_its_tables_are_made() {
    let notes = [
        note_on(100, 48, 1.0),
        note_on(5000, 60, 0.7),
        note_on(9000, 73, 0.4),
    ];
    let total = 24_000;
    let (a, b) = offline_and_realtime(patch, &notes, total);
    assert!(a.iter().any(|x| x.abs() > 0.01), "silent");
    assert_eq!(first_difference(&a, &b, total), None);
}

/// Right after a patch change a real-time note plays at once, from the previous
/// table (no allocation, no strike played ahead, finite and under 0 dBFS), and once the
/// worker is done a full-velocity note peaks at −10 ±2 dBFS; a host's switch to
/// offline rendering stops the worker, and back to real time starts one.
#[test]
fn a_note_right_after_a_patch_change_plays_from_the_previous_table() {
    let mut p = activated_in(FS, BLOCK as u32, ProcessMode::Realtime);
    render(&mut p, BLOCK, BLOCK, &[]);
    wait_ready(&mut p);
    patch(&p);
    let before = alloc_violations();
    let made = calibrations_on_this_thread();
    let y = render(&mut p, BLOCK, 12_000, &[note_on(0, 60, 1.0)]);
    assert_eq!(alloc_violations(), before, "process() allocated");
    // The worker's entries count on its own thread: any here were made by process().
    assert_eq!(
        calibrations_on_this_thread(),
        made,
        "a note-on made a table entry on the audio thread"
    );
    let peak = y.iter().fold(0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.01 && peak <= 1.0, "peak {peak}");
    // Once the worker has made the patch's table, an unjittered full-velocity note
    // plays at the calibrated level (docs/sound.md: −10 ±2 dBFS); the note above,
    // at the previous patch's gains, is not calibrated for this patch.
    set_plain(&p.rebound_params(), "human", 0.0);
    wait_ready(&mut p);
    p.reset();
    let y = render(&mut p, BLOCK, 12_000, &[note_on(0, 60, 1.0)]);
    let db = 20.0 * y.iter().fold(0f32, |m, s| m.max(s.abs())).log10() as f64;
    assert!(
        (db - TARGET_PEAK_DB).abs() <= 2.0,
        "calibrated note: {db:.2} dBFS"
    );
    activate(&mut p, FS, BLOCK as u32, ProcessMode::Offline);
    assert!(!p.engine().has_level_worker());
    activate(&mut p, 96_000.0, BLOCK as u32, ProcessMode::Realtime);
    assert!(p.engine().has_level_worker());
    render(&mut p, BLOCK, BLOCK, &[]);
    wait_ready(&mut p);
}

/// Two-way coupling in real time, bouncing: no allocation, and the same output as
/// offline once the tables are made.
#[test]
fn two_way_coupling_plays_in_real_time_without_allocating() {
    let two_way = |p: &rebound::plugin::Rebound| {
        let params = p.rebound_params();
        set_norm(&params, "coupling", 1.0);
        set_norm(&params, "bmass", 0.1);
        set_norm(&params, "bounce", 1.0);
    };
    let notes = [note_on(100, 48, 1.0), note_on(7000, 67, 0.6)];
    let total = 24_000;
    let (a, b) = offline_and_realtime(two_way, &notes, total);
    assert!(a.iter().all(|x| x.is_finite()) && a.iter().any(|x| x.abs() > 0.01));
    assert_eq!(first_difference(&a, &b, total), None);
}
