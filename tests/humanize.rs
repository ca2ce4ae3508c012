//! Humanize: the same seed and input reproduce a render bit for bit, two successive
//! identical notes differ when the amount is above 0, an amount of 0 gives identical
//! hits, and `reset` restarts the sequence (an offline bounce is reproducible).

use rebound::engine::{Engine, EngineParams, NoteSpec, render};
use rebound::model::body::BodyType;

const GAP: usize = 2400;

fn notes(keys: &[u8]) -> Vec<NoteSpec> {
    keys.iter()
        .enumerate()
        .map(|(i, &key)| NoteSpec {
            at: i * GAP,
            key,
            velocity: 0.8,
            off: None,
        })
        .collect()
}

fn bits(x: &[f32]) -> Vec<u32> {
    x.iter().map(|s| s.to_bits()).collect()
}

#[test]
fn the_same_seed_and_input_reproduce_the_render_bit_for_bit() {
    let p = EngineParams {
        humanize: 1.0,
        seed: 42.0,
        ..EngineParams::default()
    };
    let n = notes(&[60, 60, 64, 60]);
    let a = render(&p, 48_000.0, &n, 5 * GAP);
    let b = render(&p, 48_000.0, &n, 5 * GAP);
    assert!(a.peak() > 0.01);
    assert_eq!(bits(&a.left), bits(&b.left));
    assert_eq!(bits(&a.right), bits(&b.right));
    // Another seed, another performance.
    let c = render(&EngineParams { seed: 43.0, ..p }, 48_000.0, &n, 5 * GAP);
    assert_ne!(bits(&a.left), bits(&c.left));
}

/// The wall force of each of two successive hits of the same key (no body and no
/// bouncing: each hit's force is its own, zero between them).
fn two_hits(p: &EngineParams) -> (Vec<u32>, Vec<u32>) {
    let p = EngineParams {
        body: BodyType::None,
        bouncing: false,
        ..*p
    };
    let r = render(&p, 48_000.0, &notes(&[60, 60]), 2 * GAP);
    assert!(r.force.iter().any(|&f| f > 0.1), "no hit");
    (bits(&r.force[..GAP]), bits(&r.force[GAP..]))
}

#[test]
fn successive_identical_notes_differ_when_humanized_and_not_at_0() {
    let (a, b) = two_hits(&EngineParams {
        humanize: 0.0,
        ..EngineParams::default()
    });
    assert_eq!(a, b, "amount 0: the hits differ");
    for amount in [0.05, 0.5, 1.0] {
        let (a, b) = two_hits(&EngineParams {
            humanize: amount,
            ..EngineParams::default()
        });
        assert_ne!(a, b, "amount {amount}: the hits are identical");
    }
}

/// The strike position moves too: two hits differ in the body's sound even with the
/// contact itself the same (the force's jitter aside, the body is struck elsewhere).
#[test]
fn humanized_hits_on_a_body_differ_and_amount_0_hits_match() {
    let fs = 48_000.0;
    // Each hit on its own voice (two channels), so the second rings alone after the
    // first has been rendered away: hit 2 = (both) − (first alone), to rounding.
    let hit = |amount: f64| -> (Vec<f32>, Vec<f32>) {
        let p = EngineParams {
            humanize: amount,
            body: BodyType::Bar,
            mix: 1.0,
            ..EngineParams::default()
        };
        let run = |second: bool| {
            let mut e = Engine::new(fs);
            e.set_params(&p);
            e.set_sample_rate(fs);
            let (mut l, mut r) = (vec![0.0f32; 2 * GAP], vec![0.0f32; 2 * GAP]);
            e.note_on(60, 0.8, 0, None);
            e.render(&mut l[..GAP], &mut r[..GAP]);
            if second {
                e.note_on(60, 0.8, 1, None);
            }
            e.render(&mut l[GAP..], &mut r[GAP..]);
            l
        };
        let (both, first) = (run(true), run(false));
        let second: Vec<f32> = both[GAP..]
            .iter()
            .zip(&first[GAP..])
            .map(|(a, b)| a - b)
            .collect();
        (first[..GAP].to_vec(), second)
    };
    let diff = |(a, b): (Vec<f32>, Vec<f32>)| {
        let peak = a.iter().fold(0f32, |m, s| m.max(s.abs()));
        let d = a
            .iter()
            .zip(&b)
            .fold(0f32, |m, (x, y)| m.max((x - y).abs()));
        d / peak
    };
    let same = diff(hit(0.0));
    assert!(same < 1e-4, "amount 0: hits differ by {same}");
    let apart = diff(hit(1.0));
    assert!(apart > 1e-2, "amount 1: hits differ by only {apart}");
}

#[test]
fn reset_restarts_the_sequence() {
    let p = EngineParams {
        humanize: 1.0,
        seed: 7.0,
        body: BodyType::None,
        ..EngineParams::default()
    };
    let fs = 48_000.0;
    let mut e = Engine::new(fs);
    e.set_params(&p);
    e.set_sample_rate(fs);
    let take = |e: &mut Engine| {
        let (mut l, mut r, mut f) = (vec![0.0f32; GAP], vec![0.0f32; GAP], vec![0.0f32; GAP]);
        e.note_on(60, 0.8, 0, None);
        e.render_with_force(&mut l, &mut r, Some(&mut f));
        bits(&f)
    };
    let first = take(&mut e);
    let second = take(&mut e);
    assert_ne!(first, second, "successive hits identical");
    e.reset();
    assert_eq!(take(&mut e), first, "reset did not restart the sequence");
    assert_eq!(take(&mut e), second);
}
