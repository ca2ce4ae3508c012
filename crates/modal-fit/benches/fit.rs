//! What a fit costs: 2 s of 48 kHz mono holding eight decaying partials (100 Hz–12 kHz,
//! T60 0.05–3 s, 0 to −30 dB) in noise 60 dB down, fitted five times; prints the least
//! and the most. A timing, not a test: the machine here is shared.
//!
//! `cargo bench -p modal-fit --bench fit`.

use modal_fit::{FitOptions, Recording, fit};
use std::f64::consts::PI;
use std::time::Instant;

const FS: f64 = 48_000.0;
const RUNS: usize = 5;

/// `(Hz, T60 s, dB)`: spread over the range the fit's accuracy is stated for.
const PARTIALS: [(f64, f64, f64); 8] = [
    (131.0, 2.7, -4.0),
    (347.0, 0.9, 0.0),
    (802.0, 1.6, -12.0),
    (1_530.0, 0.35, -21.0),
    (2_940.0, 0.6, -9.0),
    (4_870.0, 0.12, -27.0),
    (7_410.0, 0.05, -16.0),
    (11_200.0, 0.2, -30.0),
];

fn recording() -> Recording {
    let n = (2.0 * FS) as usize;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut noise = || {
        // Uniform (xorshift64), not Gaussian, which the fit does not need: an RMS of
        // 0.49e-3, 60 dB under the loudest partial's 0.5.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1.7e-3
    };
    let x = (0..n)
        .map(|i| {
            let t = i as f64 / FS;
            let ring: f64 = PARTIALS
                .iter()
                .map(|&(f, t60, db)| {
                    0.5 * 10f64.powf(db / 20.0)
                        * (-t * 1000f64.ln() / t60).exp()
                        * (2.0 * PI * f * t).cos()
                })
                .sum();
            ring + noise()
        })
        .collect();
    Recording {
        fs: FS,
        channels: vec![x],
    }
}

fn main() {
    let rec = recording();
    let mut times = Vec::new();
    let mut found = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let f = fit(&rec, &FitOptions::default()).expect("fit");
        times.push(t.elapsed().as_secs_f64());
        found = f.modes.len();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "fit of 2 s at 48 kHz: {:.3} s least, {:.3} s most of {RUNS}, {found} modes",
        times[0],
        times[RUNS - 1]
    );
}
