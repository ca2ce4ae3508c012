//! A render's tail to the last voice's end (`Engine::render_while_sounding`, what
//! `rebound render --midi` plays after its last event) is what a loop rendering one
//! sample at a time while a voice sounds gives: the same samples, the same length, and
//! an engine left in the same state (its clock, its ended voices, what it renders next).

use rebound::engine::{Engine, EngineParams};
use rebound::model::body::BodyType;

const FS: f64 = 48_000.0;

/// An engine whose voices end at different samples: three keys struck apart, one
/// released (its damping), with a short ring so the tail is a few thousand samples.
fn playing(p: &EngineParams) -> Engine {
    let mut e = Engine::new(FS);
    e.set_params(p);
    e.set_sample_rate(FS);
    e.prepare_levels([40, 60, 90]);
    let (mut l, mut r) = (vec![0.0; 700], vec![0.0; 700]);
    for (key, vel) in [(40, 0.9), (60, 0.5), (90, 1.0)] {
        e.note_on(key, vel, 0, None);
        // Uneven pieces, so the tail starts inside a control period.
        e.render(&mut l[..333], &mut r[..333]);
    }
    e.note_off(Some(60), Some(0), None);
    e.render(&mut l, &mut r);
    // The mix and the width glide through the tail.
    e.set_params(&EngineParams {
        mix: 0.4,
        width: 0.6,
        ..*p
    });
    e
}

/// The reference: one sample at a time while a voice sounds.
fn tail_by_samples(e: &mut Engine, with_force: bool) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut l, mut r, mut f) = (Vec::new(), Vec::new(), Vec::new());
    while e.active_voices() > 0 {
        let (mut a, mut b, mut c) = ([0.0], [0.0], [0.0]);
        e.render_with_force(&mut a, &mut b, with_force.then_some(&mut c[..]));
        l.push(a[0]);
        r.push(b[0]);
        f.push(c[0]);
    }
    (l, r, f)
}

/// The same through `render_while_sounding`, in pieces of `piece` samples.
fn tail_by_blocks(
    e: &mut Engine,
    piece: usize,
    with_force: bool,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut l, mut r, mut f) = (Vec::new(), Vec::new(), Vec::new());
    loop {
        let at = l.len();
        l.resize(at + piece, 0.0);
        r.resize(at + piece, 0.0);
        f.resize(at + piece, 0.0);
        let force = with_force.then_some(&mut f[at..]);
        let done = e.render_while_sounding(&mut l[at..], &mut r[at..], force);
        assert!(done <= piece);
        l.truncate(at + done);
        r.truncate(at + done);
        f.truncate(at + done);
        if done < piece {
            return (l, r, f);
        }
    }
}

#[test]
fn the_tail_in_blocks_is_the_tail_sample_by_sample() {
    for body in [BodyType::Bar, BodyType::Bell, BodyType::Plate] {
        let p = EngineParams {
            body,
            t60: 0.05,
            ..Default::default()
        };
        for (piece, with_force) in [(1, false), (7, true), (32, false), (500, true)] {
            let mut a = playing(&p);
            let mut b = playing(&p);
            assert!(a.active_voices() > 0, "{body:?}: nothing left to ring");
            let by_samples = tail_by_samples(&mut a, with_force);
            let by_blocks = tail_by_blocks(&mut b, piece, with_force);
            let what = format!("{body:?}, pieces of {piece}");
            assert!(
                by_samples.0.len() > 100,
                "{what}: a tail of {}",
                by_samples.0.len()
            );
            assert_eq!(by_blocks.0.len(), by_samples.0.len(), "{what}: length");
            assert_eq!(by_blocks, by_samples, "{what}: samples");
            assert_eq!(b.active_voices(), 0, "{what}");
            assert_eq!(b.clock(), a.clock(), "{what}: clock");
            let ends = |e: &Engine| {
                e.terminated()
                    .iter()
                    .map(|t| (t.at, t.key))
                    .collect::<Vec<_>>()
            };
            assert_eq!(ends(&b), ends(&a), "{what}: ended voices");
            // Nothing sounds now: a block renders nothing, and the engine then goes on
            // as the sample-by-sample one does (smoothers, control period, output stage).
            let (mut l, mut r) = ([0.0; 5], [0.0; 5]);
            assert_eq!(b.render_while_sounding(&mut l, &mut r, None), 0, "{what}");
            let next = |e: &mut Engine| {
                e.note_on(72, 0.8, 0, None);
                let (mut l, mut r) = (vec![0.0; 300], vec![0.0; 300]);
                e.render(&mut l, &mut r);
                (l, r)
            };
            assert_eq!(next(&mut b), next(&mut a), "{what}: what follows");
        }
    }
}
