//! The level tables: made by a background worker in real time, on demand offline, and
//! the same either way; a note-on reads them and plays nothing ahead.

use rebound::engine::{Engine, EngineParams};
use rebound::model::body::BodyType;
use std::time::{Duration, Instant};

/// Waits (on this test's thread, not an audio thread) until `e`'s worker has made every
/// key's entry for the patch now.
fn wait_ready(e: &mut Engine) {
    let start = Instant::now();
    while !e.levels_ready() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the level worker did not finish"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn play(e: &mut Engine, notes: &[(u8, f32)], seconds: f64) -> Vec<f32> {
    let n = (seconds * e.sample_rate()) as usize;
    let (mut l, mut r) = (vec![0f32; n], vec![0f32; n]);
    let step = n / notes.len().max(1);
    for (i, &(key, velocity)) in notes.iter().enumerate() {
        e.note_on(key, velocity, 0, None);
        let span = i * step..(i + 1) * step;
        e.render(&mut l[span.clone()], &mut r[span]);
    }
    l.iter().zip(&r).flat_map(|(a, b)| [*a, *b]).collect()
}

fn engine(
    p: &EngineParams,
    fs: f64,
    worker: bool,
) -> (Engine, Option<rebound::engine::levels::LevelWorker>) {
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    let w = worker.then(|| {
        let (w, link) = rebound::engine::levels::LevelWorker::spawn();
        e.use_level_worker(link);
        w
    });
    (e, w)
}

/// A table made by the worker equals one made on demand, entry for entry: a render
/// once the worker is done is bit-identical to an offline one (humanized and bent
/// notes included, which read between keys).
#[test]
fn the_worker_makes_the_tables_made_on_demand() {
    let notes = [(36, 1.0), (60, 1.0), (61, 0.5), (84, 0.8), (60, 0.3)];
    for (p, fs) in [
        (EngineParams::default(), 48_000.0),
        (
            EngineParams {
                body: BodyType::Plate,
                hardness_ms: 2.0,
                mix: 0.4,
                humanize: 0.7,
                bouncing: true,
                ..Default::default()
            },
            96_000.0,
        ),
    ] {
        let (mut offline, _) = engine(&p, fs, false);
        let (mut realtime, _worker) = engine(&p, fs, true);
        assert!(realtime.has_level_worker());
        wait_ready(&mut realtime);
        let a = play(&mut offline, &notes, 0.3);
        let b = play(&mut realtime, &notes, 0.3);
        assert!(a.iter().any(|x| x.abs() > 0.01), "silent render");
        let same = a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(
            same,
            "worker and on-demand renders differ for {p:?} at {fs} Hz"
        );
        // The engine's voices never calibrate a strike themselves.
        assert_eq!(realtime.voices().map(|v| v.calibrations()).sum::<u64>(), 0);
        assert_eq!(offline.voices().map(|v| v.calibrations()).sum::<u64>(), 0);
    }
}

/// Right after a patch change the worker has made nothing for it yet: a note then
/// plays at once with the previous patch's gains (it waits for nothing, and makes
/// nothing itself), finite and under 0 dBFS; once the worker is done, the same note
/// plays at the new patch's own level.
#[test]
fn the_previous_table_serves_while_the_new_one_is_made() {
    let fs = 48_000.0;
    let p = EngineParams::default();
    let (mut e, _worker) = engine(&p, fs, true);
    wait_ready(&mut e);
    let q = EngineParams {
        body: BodyType::Bell,
        hardness_ms: 3.0,
        ..p
    };
    e.set_params(&q);
    let early = play(&mut e, &[(60, 1.0)], 0.3);
    let peak = early.iter().fold(0f32, |m, x| m.max(x.abs()));
    assert!(peak.is_finite() && peak > 0.0 && peak <= 1.0, "peak {peak}");
    assert_eq!(e.calibrations(), 0, "a note-on made an entry itself");
    wait_ready(&mut e);
    e.reset();
    let (mut offline, _) = engine(&q, fs, false);
    let a = play(&mut offline, &[(60, 1.0)], 0.3);
    let b = play(&mut e, &[(60, 1.0)], 0.3);
    let pk = |v: &[f32]| v.iter().fold(0f32, |m, x| m.max(x.abs()));
    let db = 20.0 * (pk(&b) / pk(&a)).log10();
    assert!(db.abs() < 0.05, "after the worker: {db:.3} dB from offline");
}
