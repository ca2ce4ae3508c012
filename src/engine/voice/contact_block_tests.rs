//! A voice's chunk played a stage at a time (`Voice::contact_into`) is the chunk its
//! samples play one by one (`Voice::tick_with`), bit for bit.

use super::*;
use crate::engine::level::Levels;
use crate::engine::voice::VoiceSample;
use crate::engine::{Controls, Coupling, Gesture};
use crate::model::{Correction, Method};

const CHUNK: usize = 32;

/// `(mid, side, force)` of each sample as the engine's sums read them, until the voice
/// ends: one by one.
fn one_by_one(
    mut v: Voice,
    p: &EngineParams,
    mix: f64,
    levels: &mut Levels,
    n: usize,
) -> Vec<[u64; 3]> {
    let mut out = Vec::new();
    for _ in 0..n {
        let Some(VoiceSample {
            out: y,
            side,
            force,
            ..
        }) = v.tick_with(p, mix, Some(levels))
        else {
            break;
        };
        out.push([
            (0.0 + y).to_bits(),
            (0.0 + side).to_bits(),
            (0.0 + force).to_bits(),
        ]);
        if !v.is_active() {
            break;
        }
    }
    out
}

/// The same, a chunk at a time while the voice's chunk [`Voice::contact_blocks`], one
/// by one otherwise; and how many chunks went a stage at a time.
fn by_chunks(
    mut v: Voice,
    p: &EngineParams,
    mix: f64,
    levels: &mut Levels,
    n: usize,
) -> (Vec<[u64; 3]>, usize) {
    let (mut out, mut blocks) = (Vec::new(), 0);
    while out.len() < n {
        if !v.contact_blocks() {
            let rest = one_by_one(v, p, mix, levels, CHUNK);
            let ended = rest.len() < CHUNK;
            for _ in 0..rest.len() {
                v.tick_with(p, mix, Some(levels));
            }
            out.extend(rest);
            if ended {
                break;
            }
            continue;
        }
        blocks += 1;
        let (mut mid, mut side, mut force) = ([0.0; CHUNK], [0.0; CHUNK], [0.0; CHUNK]);
        let sums = ChunkSums {
            mid: &mut mid,
            side: &mut side,
            force: &mut force,
        };
        let ended = v.contact_into(p, &[mix; CHUNK], levels, sums);
        let upto = ended.map_or(CHUNK, |(j, guard)| j + usize::from(!guard));
        for j in 0..upto {
            out.push([mid[j].to_bits(), side[j].to_bits(), force[j].to_bits()]);
        }
        if ended.is_some() {
            break;
        }
    }
    out.truncate(n);
    (out, blocks)
}

/// Rigid, soft, bouncing, long at 192 kHz, two-way, rolling and scraping patches.
fn cases() -> [(EngineParams, f64); 8] {
    let soft = EngineParams {
        controls: Controls::Expert,
        k: 1e4,
        method: Method::Rk4,
        correction: Correction::Both,
        ..Default::default()
    };
    let bouncing = EngineParams {
        bouncing: true,
        humanize: 1.0,
        ..Default::default()
    };
    let long = EngineParams {
        hardness_ms: 10.0,
        ..Default::default()
    };
    [
        (EngineParams::default(), 48_000.0),
        (soft, 48_000.0),
        (bouncing, 48_000.0),
        (long, 192_000.0),
        (bouncing, 96_000.0),
        (
            EngineParams {
                coupling: Coupling::TwoWay,
                ..long
            },
            48_000.0,
        ),
        (
            EngineParams {
                gesture: Gesture::Roll,
                ..Default::default()
            },
            48_000.0,
        ),
        (
            EngineParams {
                gesture: Gesture::Scrape,
                humanize: 1.0,
                ..Default::default()
            },
            96_000.0,
        ),
    ]
}

#[test]
fn a_chunk_a_stage_at_a_time_plays_its_samples() {
    let cases = cases();
    for (i, (p, fs)) in cases.iter().enumerate() {
        let (p, fs) = (*p, *fs);
        let mut levels = Levels::on_demand(fs);
        levels.set(&p, fs);
        let mut v = Voice::new(fs);
        v.strike_with(&p, 60, 1.0, 0, 0.7, &mut levels);
        // Into the contact, then struck again: the first contact plays on as a tail.
        for _ in 0..40 {
            v.tick_with(&p, 0.7, Some(&mut levels));
        }
        v.strike_with(&p, 60, 0.8, 40, 0.7, &mut levels);
        // A knob moved during the contact: the body's retune waits for its end (a
        // control tick marks it), and lands inside a chunk.
        let q = EngineParams {
            brightness: 0.3 + 0.5 * p.brightness,
            position: 0.5 * p.position,
            ..p
        };
        v.update_body(&q);
        // A scrape's key comes up: its probe stops and lifts within the comparison.
        if p.gesture == Gesture::Scrape {
            v.release_gesture();
        }
        let n = (0.5 * fs) as usize;
        let a = one_by_one(v, &q, 0.7, &mut levels, n);
        let (b, blocks) = by_chunks(v, &q, 0.7, &mut levels, n);
        assert_eq!(a.len(), b.len(), "case {i}");
        let first_apart = a.iter().zip(&b).position(|(x, y)| x != y);
        assert_eq!(first_apart, None, "case {i}");
        let two_way = p.coupling == Coupling::TwoWay;
        assert!(
            two_way || blocks > 4,
            "case {i}: {blocks} chunks a stage at a time"
        );
    }
}
