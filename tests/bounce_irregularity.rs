//! Per-bounce irregularity (`model::irregular`, the Irregularity parameter):
//!
//! - at 0 a train is today's exact chain, bit for bit (the bouncer with and without
//!   it, and the engine's render);
//! - above 0 its bounce intervals vary: the ratio of each interval to the one before
//!   spreads by at least 0.02 (standard deviation) at 30 %, where the exact chain's
//!   ratios spread by the sample grid's rounding alone;
//! - the same Seed gives the same train and render, another Seed another, and a
//!   host's reset starts the trains over;
//! - every factory preset that sets Irregularity spreads its ratios by 0.02 or more.

use rebound::analysis::{force_onsets, interval_ratios, spread};
use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::model::{BounceSample, Bouncer, Irregularity};
use rebound::voice::{latch_of, train_of};

const FS: f64 = 192_000.0;

/// A ball dropped on a floor: Playable, Bounciness 0.8, flight-only gravity.
fn ball() -> EngineParams {
    EngineParams {
        bouncing: true,
        restitution: 0.8,
        hardness_ms: 0.3,
        v_max: 2.0,
        ..Default::default()
    }
}

fn run(p: &EngineParams, irregular: Option<Irregularity>) -> Vec<BounceSample> {
    let latch = latch_of(p);
    let mut b = Bouncer::new(latch, p.v_max, FS, train_of(p));
    if let Some(r) = irregular {
        b = b.with_irregularity(r);
    }
    let mut out = Vec::new();
    while !b.is_done() && out.len() < (4.0 * FS) as usize {
        out.push(b.step(|| latch));
    }
    out
}

/// The ratios of each bounce interval to the one before (the first twelve,
/// where the intervals are many samples long).
fn ratios(train: &[BounceSample]) -> Vec<f64> {
    let onsets: Vec<usize> = (0..train.len()).filter(|&i| train[i].onset).collect();
    interval_ratios(&onsets, 13)
}

#[test]
fn zero_is_the_exact_chain_bit_for_bit() {
    let p = ball();
    let exact = run(&p, None);
    assert!(exact.iter().filter(|s| s.onset).count() > 8);
    for seed in [0, 1, 9999] {
        assert_eq!(run(&p, Some(Irregularity::new(0.0, seed))), exact);
    }
    // Through the engine: Irregularity 0 at any Seed renders the same samples.
    let note = [NoteSpec {
        at: 0,
        key: 60,
        velocity: 1.0,
        off: None,
    }];
    let a = render(&p, 48_000.0, &note, 48_000);
    let b = render(&EngineParams { seed: 77.0, ..p }, 48_000.0, &note, 48_000);
    assert_eq!((a.left, a.right), (b.left, b.right));
}

#[test]
fn irregularity_varies_the_intervals_reproducibly() {
    let p = ball();
    let exact = spread(&ratios(&run(&p, None)));
    let mut spreads = Vec::new();
    for seed in 1..=8u64 {
        let r = ratios(&run(&p, Some(Irregularity::new(0.3, seed))));
        spreads.push(spread(&r));
    }
    let least = spreads.iter().cloned().fold(f64::MAX, f64::min);
    eprintln!("ratio spread: exact chain {exact:.5}, at 30 % over 8 seeds {spreads:.3?}");
    assert!(exact < 0.005, "{exact}");
    assert!(least >= 0.02, "{spreads:?}");
    // The same seed, the same train; another seed, another.
    let one = run(&p, Some(Irregularity::new(0.3, 5)));
    assert_eq!(run(&p, Some(Irregularity::new(0.3, 5))), one);
    assert_ne!(run(&p, Some(Irregularity::new(0.3, 6))), one);
    // Through the engine, by the Seed parameter.
    let q = EngineParams {
        irregularity: 0.3,
        ..p
    };
    let note = [NoteSpec {
        at: 0,
        key: 60,
        velocity: 1.0,
        off: None,
    }];
    let a = render(&q, 48_000.0, &note, 48_000);
    let again = render(&q, 48_000.0, &note, 48_000);
    let other = render(&EngineParams { seed: 2.0, ..q }, 48_000.0, &note, 48_000);
    assert_eq!(a.left, again.left);
    assert_ne!(a.left, other.left);
}

/// A host's reset (a new playback, an export) starts the trains over: after it the same
/// notes bounce as they did the first time, as a fresh instance would play them.
#[test]
fn a_reset_replays_the_same_trains() {
    use rebound::engine::Engine;
    let p = EngineParams {
        irregularity: 0.5,
        ..ball()
    };
    let play = |e: &mut Engine| {
        e.note_on(60, 1.0, 0, None);
        let (mut l, mut r) = (vec![0f32; 48_000], vec![0f32; 48_000]);
        e.render(&mut l, &mut r);
        l
    };
    let mut e = Engine::new(48_000.0);
    e.set_params(&p);
    e.set_sample_rate(48_000.0);
    e.prepare_levels([60]);
    let first = play(&mut e);
    let second = play(&mut e);
    assert_ne!(first, second, "a second note bounces its own way");
    e.reset();
    assert_eq!(
        play(&mut e),
        first,
        "after a reset the first note's train again"
    );
}

/// The factory presets that set Irregularity vary their trains by the same measure:
/// the first thirteen intervals' successive ratios spread by at least 0.02.
#[test]
fn the_bouncing_presets_bounce_irregularly() {
    let mut n = 0;
    for p in rebound::preset::factory()
        .iter()
        .filter(|p| p.params.irregularity > 0.0)
    {
        let note = [NoteSpec {
            at: 0,
            key: 60,
            velocity: 1.0,
            off: None,
        }];
        let force = render(&p.params, 48_000.0, &note, 4 * 48_000).force;
        let r = interval_ratios(&force_onsets(&force), 13);
        let s = spread(&r);
        eprintln!("{}: {} ratios, spread {s:.3}", p.name, r.len());
        assert!(r.len() >= 4 && s >= 0.02, "{}: {s:.4}", p.name);
        n += 1;
    }
    assert!(n >= 4, "{n} presets with Irregularity");
}
