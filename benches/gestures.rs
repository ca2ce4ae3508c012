//! What a held gesture costs against a strike: 16 notes (keys 48–63, velocity 100)
//! held 2 s at 48 kHz on the default patch, each gesture (and a roll at 50 m/s), the
//! least of [`RUNS`] renders
//! (note-ons inside the clock), and each against Strike.
//!
//! `cargo bench --bench gestures`.

use rebound::engine::{Engine, EngineParams, Gesture};
use std::hint::black_box;
use std::time::Instant;

const FS: f64 = 48_000.0;
const BLOCK: usize = 256;
const RUNS: usize = 5;

fn play(p: &EngineParams) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..RUNS {
        let mut e = Engine::new(FS);
        e.set_params(p);
        e.set_sample_rate(FS);
        // As an offline render does: the levels before the first note.
        e.prepare_levels(48..64);
        let (mut l, mut r) = (vec![0f32; BLOCK], vec![0f32; BLOCK]);
        let t = Instant::now();
        for k in 0..16u8 {
            e.note_on(48 + k, 100.0 / 127.0, 0, None);
        }
        for _ in 0..(2.0 * FS) as usize / BLOCK {
            e.render(black_box(&mut l), black_box(&mut r));
        }
        best = best.min(t.elapsed().as_secs_f64());
        // What was timed: no note cut by the guard, and a held roll or scrape
        // sounding to the end, all 16.
        assert_eq!(e.guard_events(), 0, "{:?}: guard events", p.gesture);
        if p.gesture.on_surface() {
            assert_eq!(e.active_voices(), 16, "{:?}: voices at the end", p.gesture);
        }
    }
    best
}

fn main() {
    println!("{:<10} {:>10} {:>12}", "gesture", "ms / 2 s", "× Strike");
    let mut strike = f64::NAN;
    for g in Gesture::ALL {
        let p = EngineParams {
            gesture: g,
            voices: 16,
            ..Default::default()
        };
        let t = play(&p);
        if g == Gesture::Strike {
            strike = t;
        }
        row(&format!("{g:?}"), t, strike);
    }
    // The fastest a roll goes (Strike speed max at its top): the surface's grid
    // coarsens with the speed, so this costs about what the default roll does.
    let fast = EngineParams {
        gesture: Gesture::Roll,
        voices: 16,
        v_max: 50.0,
        ..Default::default()
    };
    row("Roll 50m/s", play(&fast), strike);
}

/// A line of the table: the render's time and its ratio to Strike's.
fn row(name: &str, t: f64, strike: f64) {
    println!("{name:<10} {:>10.1} {:>12.2}", t * 1e3, t / strike);
}
