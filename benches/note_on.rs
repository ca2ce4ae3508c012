//! The note-on's own cost under criterion, over 1000 random patches (the full ranges)
//! at 48 and 192 kHz: what a note-on computes, with its code and data in cache, as
//! criterion times every routine. Three kinds of note, each timed alone:
//!
//! - **first**: the first note after a patch change (the patch's strike set-up and
//!   level table are new to the engine);
//! - **new key**: a note on a key not sounding, the patch unchanged;
//! - **re-strike**: the same note again while its voice sounds (the strike in progress
//!   finishes into the body).
//!
//! A screening pass times every patch's notes, each the least of [`SCREEN_PLAYS`]
//! plays; criterion then measures the [`WORST`] slowest of each kind at each rate.
//! The single-shot, cold-cache times of the same notes (every note-on timed once, in
//! a stream of patches) are `cargo bench --bench worst_case -- note-on`.
//!
//! `cargo bench --bench note_on`.

#[path = "common/random_patches.rs"]
mod random_patches;

use criterion::{Criterion, criterion_group, criterion_main};
use random_patches::{NOTES, PATCHES, random_notes};
use rebound::engine::level::LevelWorker;
use rebound::engine::{Engine, EngineParams};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Plays of each note in the screening pass; a note's time is the least of them.
const SCREEN_PLAYS: usize = 5;
/// Notes of each kind measured by criterion at each rate.
const WORST: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    First,
    NewKey,
    Restrike,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::First, Kind::NewKey, Kind::Restrike];

    fn name(self) -> &'static str {
        match self {
            Kind::First => "first",
            Kind::NewKey => "new key",
            Kind::Restrike => "re-strike",
        }
    }
}

/// One note of the set: its patch's index and its own among the patch's notes.
#[derive(Clone, Copy)]
struct Note {
    patch: usize,
    note: usize,
}

/// An engine as the plugin runs it: its level tables made by a background worker.
struct Player {
    engine: Engine,
    set: Vec<(EngineParams, [(u8, f32); NOTES])>,
    _worker: LevelWorker,
}

impl Player {
    fn new(fs: f64) -> Self {
        let mut engine = Engine::new(fs);
        engine.set_sample_rate(fs);
        let (worker, link) = LevelWorker::spawn().expect("the level worker starts");
        engine.use_level_worker(link);
        Player {
            engine,
            set: random_notes(),
            _worker: worker,
        }
    }

    /// Sets up the note's kind (untimed), then times its note-on.
    fn time(&mut self, kind: Kind, n: Note) -> Duration {
        let (p, notes) = &self.set[n.patch];
        let (key, velocity) = notes[n.note];
        let e = &mut self.engine;
        match kind {
            Kind::First => {
                // Another patch played first, so that this one is a change; then a
                // block between the change and the note, as in a host.
                let (mut l, mut r) = ([0f32; 64], [0f32; 64]);
                e.set_params(&self.set[(n.patch + 1) % PATCHES].0);
                e.note_on(60, 0.5, 0, None);
                e.render(&mut l, &mut r);
                e.set_params(p);
                e.render(&mut l, &mut r);
                e.choke(Some(key), None, None);
            }
            Kind::NewKey => {
                e.set_params(p);
                e.choke(Some(key), None, None);
            }
            Kind::Restrike => {
                e.set_params(p);
            }
        }
        let t = Instant::now();
        e.note_on(black_box(key), velocity, 0, None);
        t.elapsed()
    }

    /// The slowest notes of `kind`, each timed as the least of [`SCREEN_PLAYS`] plays,
    /// slowest first with their times.
    fn screen(&mut self, kind: Kind) -> Vec<(Duration, Note)> {
        let mut times = Vec::with_capacity(PATCHES * NOTES);
        for patch in 0..PATCHES {
            for note in 0..NOTES {
                let n = Note { patch, note };
                // A re-strike strikes a voice that sounds.
                if kind == Kind::Restrike {
                    self.time(Kind::NewKey, n);
                }
                let t = (0..SCREEN_PLAYS).map(|_| self.time(kind, n)).min();
                times.push((t.unwrap_or_default(), n));
            }
        }
        times.sort_by_key(|t| std::cmp::Reverse(t.0));
        times
    }
}

fn note_ons(c: &mut Criterion) {
    for fs in [48_000.0, 192_000.0] {
        let mut player = Player::new(fs);
        let mut group = c.benchmark_group(format!("note_on/{} kHz", fs / 1000.0));
        for kind in Kind::ALL {
            let screened = player.screen(kind);
            let at = |q: f64| screened[((screened.len() - 1) as f64 * q) as usize].0;
            eprintln!(
                "{} kHz, {}: screened worst {:.2} µs, p99 {:.2} µs, median {:.2} µs",
                fs / 1000.0,
                kind.name(),
                at(0.0).as_secs_f64() * 1e6,
                at(0.01).as_secs_f64() * 1e6,
                at(0.5).as_secs_f64() * 1e6
            );
            for &(_, n) in screened.iter().take(WORST) {
                let (p, notes) = &player.set[n.patch];
                let name = format!(
                    "{} patch {} key {} ({:?} {:?})",
                    kind.name(),
                    n.patch,
                    notes[n.note].0,
                    p.coupling,
                    p.body
                );
                group.bench_function(name, |b| {
                    b.iter_custom(|iters| (0..iters).map(|_| player.time(kind, n)).sum())
                });
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // Each iteration does untimed set-up beside its timed note-on: short windows keep
    // the run to a few minutes.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = note_ons
}
criterion_main!(benches);
