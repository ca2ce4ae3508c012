//! Worst-case block times: a 16-voice chord, every voice at full velocity, at the
//! corner patches of the contact, against the default patch. Each patch is played
//! `REPEATS` times; every 512-sample block at 48 kHz is timed (the first with the
//! chord's note-ons inside its clock), and the worst block and the median block are
//! printed with the worst block's share of its real-time budget.
//!
//! Then the note storm: 16 new-key, fully humanized notes at the start of every block,
//! at Hardness 10 ms, with and without gravity in contact, at 48 kHz in blocks of 128
//! and 192 kHz in blocks of 256, with 64 voices and with the plugin's default 16 (and
//! the same storms two-way), through an engine whose level tables a background
//! worker makes (as the plugin's in real time), note-ons inside the clock; each block
//! the least of three plays of the same storm, and the worst block of one play.
//!
//! `cargo bench --bench worst_case`.

#[path = "common/random_patches.rs"]
mod random_patches;

use random_patches::{NOTES, random_notes};
use rebound::engine::level::LevelWorker;
use rebound::engine::{Controls, Coupling, Engine, EngineParams};
use rebound::model::{Correction, Method};
use std::hint::black_box;
use std::time::Instant;

const FS: f64 = 48_000.0;
const BLOCK: usize = 512;
const REPEATS: usize = 20;
/// Blocks timed per chord: 0.5 s, every contact of the corner patches included.
const BLOCKS: usize = 47;

fn patches() -> Vec<(String, EngineParams)> {
    let default = EngineParams {
        voices: 16,
        ..Default::default()
    };
    // The corner patches below set k and μ: Expert controls.
    let base = EngineParams {
        controls: Controls::Expert,
        ..default
    };
    let mut out = vec![("default patch".to_string(), default)];
    // Bouncing: every onset solves the load-aware exit (gravity in contact), or the
    // sticking rule (flight only); slow strikes under strong gravity take the most steps
    // and bounce fastest.
    for (name, in_contact) in [
        ("gravity in contact, 1 mm/s, g 100", true),
        ("flight only, g 100, mu 10", false),
    ] {
        out.push((
            name.to_string(),
            EngineParams {
                bouncing: true,
                gravity_in_contact: in_contact,
                gravity: 100.0,
                v_min: 1e-3,
                v_max: if in_contact { 1e-3 } else { 2.0 },
                mu: if in_contact { 0.5 } else { 10.0 },
                ..base
            },
        ));
    }
    for method in Method::ALL {
        let name = |s: &str| format!("{s}, {}", method.name());
        out.push((
            name("mu 10, 50 m/s, both"),
            EngineParams {
                mu: 10.0,
                v_max: 50.0,
                method,
                ..base
            },
        ));
        out.push((
            name("k 1e2, alpha 3, both"),
            EngineParams {
                k: 1e2,
                alpha: 3.0,
                method,
                ..base
            },
        ));
        out.push((
            name("k 1e12, 50 m/s, none"),
            EngineParams {
                k: 1e12,
                v_max: 50.0,
                mass: 1e-4,
                alpha: 1.0,
                correction: Correction::None,
                method,
                ..base
            },
        ));
    }
    out
}

fn main() {
    // `cargo bench --bench worst_case -- SECTION…` runs the named sections only
    // (chord, storm, note-on); without one, all three. `worst` adds to the note-on
    // section the ten slowest first notes after a patch change, with their patches.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |name: &str| args.is_empty() || args.iter().any(|a| a == name);
    if wants("chord") {
        chord();
    }
    if wants("storm") {
        storm();
    }
    if wants("note-on") || args.iter().any(|a| a == "worst") {
        random_note_ons(args.iter().any(|a| a == "worst"));
    }
}

/// The 16-voice chord at the corner patches (see the module doc).
fn chord() {
    let mut buf = vec![0.0f32; BLOCK];
    let mut right = vec![0.0f32; BLOCK];
    let budget = BLOCK as f64 / FS;
    let mut default_worst = f64::NAN;
    println!(
        "{:<28} {:>12} {:>12} {:>10} {:>10}",
        "patch (16-voice chord)", "worst µs", "median µs", "% budget", "× default"
    );
    for (name, p) in patches() {
        let mut times = Vec::with_capacity(REPEATS * BLOCKS);
        for _ in 0..REPEATS {
            let mut e = Engine::new(FS);
            e.set_params(&p);
            e.set_sample_rate(FS);
            // As an offline render does: the chord's levels before its first note.
            e.prepare_levels(48..64);
            for b in 0..BLOCKS {
                let t = Instant::now();
                if b == 0 {
                    for k in 0..16u8 {
                        e.note_on(48 + k, 1.0, 0, None);
                    }
                }
                e.render(black_box(&mut buf), black_box(&mut right));
                times.push(t.elapsed().as_secs_f64());
            }
        }
        times.sort_by(f64::total_cmp);
        let worst = times[times.len() - 1];
        let median = times[times.len() / 2];
        if default_worst.is_nan() {
            default_worst = worst;
        }
        println!(
            "{:<28} {:>12.1} {:>12.1} {:>10.1} {:>10.1}",
            name,
            worst * 1e6,
            median * 1e6,
            100.0 * worst / budget,
            worst / default_worst
        );
    }
}

/// Runs of the note-on section: each note-on's time is the least over them, so that a
/// preemption of this thread on a shared machine (one note-on in thousands taking
/// milliseconds) is not taken for the note-on's cost.
const NOTE_ON_RUNS: usize = 3;

/// Note-ons over 1000 random patches at 48 and 192 kHz, each timed on its own: the
/// patch changes just before its notes (a table being made: the previous one serves),
/// then 16 notes on random keys at random velocities, Humanize as drawn. The same
/// patches and notes in each of [`NOTE_ON_RUNS`] runs, on a new engine each time.
fn random_note_ons(worst: bool) {
    println!();
    println!(
        "{:<40} {:>10} {:>10} {:>10}",
        "note-on, 1000 random patches", "worst µs", "p99 µs", "median µs"
    );
    for fs in [48_000.0, 192_000.0] {
        let (mut times, notes) = note_on_times(fs);
        for _ in 1..NOTE_ON_RUNS {
            for (t, again) in times.iter_mut().zip(note_on_times(fs).0) {
                *t = t.min(again);
            }
        }
        // Every note-on, then apart the first after each patch change (the patch's
        // strike set-up and table are new to it) and the other fifteen.
        let first = |i: usize| i.is_multiple_of(NOTES);
        let rate = format!("{} kHz", fs / 1000.0);
        quantiles(&rate, times.clone());
        let pick = |want: bool| -> Vec<f64> {
            let kept = times.iter().enumerate().filter(|(i, _)| first(*i) == want);
            kept.map(|(_, t)| *t).collect()
        };
        quantiles(&format!("{rate}, first after a patch change"), pick(true));
        quantiles(&format!("{rate}, the other notes"), pick(false));
        if worst {
            slowest_first_notes(&times, &notes);
        }
    }
}

/// Prints the ten slowest first notes after a patch change: which patch (its index
/// among the 1000), key and velocity, and what of the patch shapes a note-on's work.
fn slowest_first_notes(times: &[f64], notes: &[(EngineParams, u8, f32)]) {
    let mut first: Vec<usize> = (0..times.len()).step_by(NOTES).collect();
    first.sort_by(|&a, &b| times[b].total_cmp(&times[a]));
    for &i in first.iter().take(10) {
        let (p, key, velocity) = &notes[i];
        println!(
            "  {:6.2} µs  patch {:3}  key {key:3}  velocity {velocity:.2}  {:?} {:?}{}{}  humanize {:.2}",
            times[i] * 1e6,
            i / NOTES,
            p.coupling,
            p.body,
            if p.bouncing { ", bouncing" } else { "" },
            if p.gravity_in_contact {
                ", gravity in contact"
            } else {
                ""
            },
            p.humanize
        );
    }
}

/// Prints the worst, 99th percentile and median of `times` (s) in µs.
fn quantiles(name: &str, mut times: Vec<f64>) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize] * 1e6;
    println!(
        "{:<40} {:>10.2} {:>10.2} {:>10.2}",
        name,
        at(1.0),
        at(0.99),
        at(0.5)
    );
}

/// One run of [`random_note_ons`] at `fs`: every note-on's time, in order, and its
/// patch, key and velocity.
fn note_on_times(fs: f64) -> (Vec<f64>, Vec<(EngineParams, u8, f32)>) {
    let mut e = Engine::new(fs);
    e.set_sample_rate(fs);
    let (_worker, link) = LevelWorker::spawn().expect("the level worker starts");
    e.use_level_worker(link);
    let (mut l, mut r) = (vec![0f32; 64], vec![0f32; 64]);
    let mut times = Vec::with_capacity(16_000);
    let mut notes = Vec::with_capacity(16_000);
    for (p, keys) in random_notes() {
        e.set_params(&p);
        e.render(&mut l, &mut r);
        for (key, velocity) in keys {
            let t = Instant::now();
            e.note_on(black_box(key), velocity, 0, None);
            times.push(t.elapsed().as_secs_f64());
            notes.push((p, key, velocity));
        }
        e.render(&mut l, &mut r);
    }
    (times, notes)
}

/// Plays of the note storm: each block's time is the least over them (every play is
/// the same blocks of the same notes), so that a preemption of the bench's thread on
/// this shared machine does not show as the block's cost. The worst of one play is
/// printed too.
const STORM_RUNS: usize = 3;

/// The note storm (see the module doc): the worst and median block, note-ons
/// included, against the block's real-time budget.
fn storm() {
    println!();
    println!(
        "{:<40} {:>10} {:>10} {:>10} {:>14}",
        "note storm (16 new keys a block)", "worst µs", "median µs", "% budget", "1 play worst"
    );
    // 64 voices: four blocks' notes sound at once, each in its 10 ms contact. Then the
    // plugin's default 16, where each block's notes steal the block before's.
    for (voices, fs, block) in [
        (64, 48_000.0, 128usize),
        (64, 192_000.0, 256),
        (16, 48_000.0, 128),
        (16, 192_000.0, 256),
    ] {
        // The default patch, with gravity in contact, and two-way (the dearer contact).
        for (kind, gravity, coupling) in [
            ("", false, Coupling::Rigid),
            (", gravity", true, Coupling::Rigid),
            (", two-way", false, Coupling::TwoWay),
        ] {
            let p = EngineParams {
                hardness_ms: 10.0,
                humanize: 1.0,
                voices,
                bouncing: gravity,
                gravity_in_contact: gravity,
                coupling,
                ..Default::default()
            };
            let name = format!("{voices} voices, {} kHz / {block}{kind}", fs / 1000.0);
            // `STORM=…` plays only the row of that name (to profile one).
            if std::env::var("STORM").is_ok_and(|only| only != name) {
                continue;
            }
            storm_row(&name, &p, fs, block);
        }
    }
}

/// One line of the storm's table: [`STORM_RUNS`] plays, each block's least.
fn storm_row(name: &str, p: &EngineParams, fs: f64, block: usize) {
    let plays: Vec<Vec<f64>> = (0..STORM_RUNS).map(|_| storm_play(p, fs, block)).collect();
    let one_play = plays[0].iter().copied().fold(0.0, f64::max);
    let mut times: Vec<f64> = (0..plays[0].len())
        .map(|b| plays.iter().map(|t| t[b]).fold(f64::INFINITY, f64::min))
        .collect();
    times.sort_by(f64::total_cmp);
    let (worst, median) = (times[times.len() - 1], times[times.len() / 2]);
    println!(
        "{:<40} {:>10.1} {:>10.1} {:>10.1} {:>14.1}",
        name,
        worst * 1e6,
        median * 1e6,
        100.0 * worst / (block as f64 / fs),
        one_play * 1e6
    );
}

/// One play of the storm: 2 s of blocks, each block's time with its 16 note-ons.
fn storm_play(p: &EngineParams, fs: f64, block: usize) -> Vec<f64> {
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    let (_worker, link) = LevelWorker::spawn().expect("the level worker starts");
    e.use_level_worker(link);
    // The patch is loaded before it is played: its table is made first.
    while !e.levels_ready() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (mut l, mut r) = (vec![0f32; block], vec![0f32; block]);
    let mut times = Vec::new();
    let mut key = 0u32;
    for _ in 0..(2.0 * fs / block as f64) as usize {
        let t = Instant::now();
        for _ in 0..16 {
            key = (key + 37) % 88;
            e.note_on(21 + key as u8, 0.5 + (key % 8) as f32 / 16.0, 0, None);
        }
        e.render(black_box(&mut l), black_box(&mut r));
        times.push(t.elapsed().as_secs_f64());
    }
    times
}
