//! The acceptance scenario over many seeds: 8 partials 100 Hz–12 kHz, T60 0.05–3 s,
//! levels 0 to −30 dB, white noise 60 dB below the strongest partial, 48 kHz.

mod common;

use common::{Errors, Rng, compare, mono, random_partials, render};
use modal_fit::{FitOptions, fit};

const FS: f64 = 48_000.0;

#[test]
fn twenty_four_seeds_meet_the_acceptance_bar() {
    let mut worst = Errors {
        spurious_db: f64::NEG_INFINITY,
        ..Errors::default()
    };
    let mut failures = Vec::new();
    for seed in 1..=24u64 {
        let mut rng = Rng::new(seed);
        let partials = random_partials(&mut rng, 0.5);
        let x = render(&partials, FS, 0.0, 2.5, 0.5e-3, &mut rng);
        let f = fit(&mono(FS, x), &FitOptions::default()).expect("fit");
        let e = compare(&f, &partials);
        println!(
            "seed {seed:2}: freq {:.4} %, T60 {:.2} %, level {:.2} dB, spurious {:.1} dB, missed {}, {} modes, residual {:.1} dB, noise {:.1} dB",
            e.freq_pct,
            e.t60_pct,
            e.level_db,
            e.spurious_db,
            e.missed,
            f.modes.len(),
            f.residual_db,
            f.noise_floor_db
        );
        if !e.pass() {
            failures.push((seed, e, partials, f.modes));
        }
        worst = worst.worst(e);
    }
    println!("worst: {worst:?}");
    for (seed, e, p, m) in &failures {
        println!("FAIL seed {seed}: {e:?}\n truth {p:#?}\n found {m:#?}");
    }
    assert!(failures.is_empty(), "{} seeds failed", failures.len());
}

/// Many more seeds and variations (record length, sample rate, noise level); run with
/// `MODAL_FIT_SEEDS=500 cargo test --release --test synthetic -- --ignored --nocapture`.
#[test]
#[ignore = "long: a sweep for the README's accuracy figures"]
fn sweep() {
    let seeds: u64 = std::env::var("MODAL_FIT_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    for (fs, pre, len, noise) in [
        (48_000.0, 0.0, 2.5, 0.5e-3),
        (48_000.0, 0.2, 2.5, 0.5e-3),
        (48_000.0, 0.0, 1.0, 0.5e-3),
        (44_100.0, 0.0, 4.0, 0.5e-3),
        (96_000.0, 0.0, 2.0, 0.5e-3),
        (48_000.0, 0.0, 2.0, 1e-3),
    ] {
        let mut worst = Errors {
            spurious_db: f64::NEG_INFINITY,
            ..Errors::default()
        };
        let mut failed = 0;
        let t0 = std::time::Instant::now();
        for seed in 1..=seeds {
            let mut rng = Rng::new(seed + 1000);
            let partials = random_partials(&mut rng, 0.5);
            let x = render(&partials, fs, pre, len, noise, &mut rng);
            let f = fit(&mono(fs, x), &FitOptions::default()).expect("fit");
            let e = compare(&f, &partials);
            if !e.pass() {
                failed += 1;
                println!(
                    "FAIL fs {fs} len {len} seed {seed}: {e:?}\n truth {partials:?}\n found {:?}",
                    f.modes
                );
            }
            worst = worst.worst(e);
        }
        println!(
            "fs {fs} pre-roll {pre} s len {len} s noise {noise}: {failed}/{seeds} failed, worst {worst:?}, {:.3} s per fit",
            t0.elapsed().as_secs_f64() / seeds as f64
        );
    }
}
