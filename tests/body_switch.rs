//! Proves that switching the body type while a voice rings does not click, including
//! to and from None: the largest second difference of the output from the switch to
//! the end of its crossfade is at most [`LIMIT`] times the largest of the ringing
//! before the switch or after the crossfade. The second difference, not the first,
//! because a step of height `a` shows in it as `a` but a ringing mode of amplitude `a`
//! only as `a ω²` (ω in rad/sample), so a step stands out of a ringing low note.

use rebound::engine::{Engine, EngineParams};
use rebound::model::body::BodyType;

const FS: f64 = 48_000.0;
/// A switch clicks when its curvature is this many times that of the ringing on
/// either side of it.
const LIMIT: f64 = 2.0;

fn ms(t: f64) -> usize {
    (t * 1e-3 * FS) as usize
}

/// Largest second difference `|x[n+1] − 2x[n] + x[n−1]|`: a step of height `a` shows
/// as `a`, a ringing mode of amplitude `a` and `ω` rad/sample only as `a ω²`.
fn max_curvature(x: &[f32]) -> f64 {
    x.windows(3)
        .map(|w| (w[2] as f64 - 2.0 * w[1] as f64 + w[0] as f64).abs())
        .fold(0.0, f64::max)
}

/// Strikes `key` on `from`, lets it ring `ring_ms`, then switches the body through each
/// of `to` in turn (`gap_ms` apart). Returns the largest curvature of the ringing: in
/// the 20 ms before the first switch, from the first switch to 12 ms after the last
/// (the crossfade is 10 ms), and 12 to 40 ms after the last.
fn switch(from: BodyType, to: &[BodyType], key: u8, ring_ms: f64, gap_ms: f64) -> [f64; 3] {
    let mut e = Engine::new(FS);
    let mut p = EngineParams {
        body: from,
        mix: 1.0,
        ..Default::default()
    };
    e.set_params(&p);
    e.set_sample_rate(FS);
    e.note_on(key, 1.0, 0, None);
    let mut x = vec![0.0f32; ms(ring_ms)];
    e.render_mono(&mut x);
    let switch_at = x.len();
    for (i, &b) in to.iter().enumerate() {
        p.body = b;
        e.set_params(&p);
        let len = if i + 1 == to.len() { 40.0 } else { gap_ms };
        let mut block = vec![0.0f32; ms(len)];
        e.render_mono(&mut block);
        x.extend_from_slice(&block);
    }
    let settled = x.len() - ms(28.0);
    [
        max_curvature(&x[switch_at - ms(20.0)..switch_at]),
        // From two samples before the switch, so a step at the switch counts.
        max_curvature(&x[switch_at - 2..settled]),
        max_curvature(&x[settled..]),
    ]
}

/// The click ratio of one switch, and a failure message when it is a click.
fn click(from: BodyType, to: &[BodyType], key: u8, ring_ms: f64, gap_ms: f64) -> Option<String> {
    let [before, around, after] = switch(from, to, key, ring_ms, gap_ms);
    let base = before.max(after);
    let ratio = around / base;
    let names: Vec<&str> = to.iter().map(|b| b.name()).collect();
    let line = format!(
        "{} -> {} (note {key}): {around:.2e} / ringing {base:.2e} = {ratio:.2} \
         (before {before:.2e}, after {after:.2e})",
        from.name(),
        names.join(" -> ")
    );
    eprintln!("{line}");
    assert!(
        before > 1e-6,
        "the voice must ring before the switch: {before:e}"
    );
    (ratio > LIMIT).then_some(line)
}

fn assert_no_clicks(clicks: Vec<Option<String>>) {
    let bad: Vec<String> = clicks.into_iter().flatten().collect();
    assert!(bad.is_empty(), "clicks: {bad:#?}");
}

#[test]
fn switching_between_bodies_while_ringing_does_not_click() {
    let mut clicks = Vec::new();
    for from in BodyType::ALL {
        if from == BodyType::None {
            continue;
        }
        for to in BodyType::ALL {
            if to == from {
                continue;
            }
            for key in [48, 72] {
                clicks.push(click(from, &[to], key, 60.0, 0.0));
            }
        }
    }
    assert_no_clicks(clicks);
}

#[test]
fn switching_to_none_and_back_does_not_click() {
    // To None, then back after the fade-out is over: the body must neither stop
    // dead nor resume the ringing it had when it was silenced.
    let mut clicks = Vec::new();
    for body in [BodyType::Bar, BodyType::Bell] {
        clicks.push(click(body, &[BodyType::None, body], 60, 60.0, 50.0));
        // Back again before the fade-out is over.
        clicks.push(click(body, &[BodyType::None, body], 60, 60.0, 3.0));
    }
    assert_no_clicks(clicks);
}

#[test]
fn switching_again_during_a_switch_does_not_click() {
    assert_no_clicks(vec![click(
        BodyType::Bar,
        &[BodyType::Plate, BodyType::Bell, BodyType::WoodBlock],
        60,
        60.0,
        2.0,
    )]);
}
