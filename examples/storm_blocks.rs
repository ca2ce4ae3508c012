//! Storm per-block times (least of 3 plays) by block index mod 11 (the key cycle).
use rebound::engine::levels::LevelWorker;
use rebound::engine::{Coupling, Engine, EngineParams};
use std::hint::black_box;
use std::time::Instant;
fn play(p: &EngineParams, fs: f64, block: usize) -> Vec<f64> {
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    let (_worker, link) = LevelWorker::spawn();
    e.use_level_worker(link);
    while !e.levels_ready() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (mut l, mut r) = (vec![0f32; block], vec![0f32; block]);
    let mut times = Vec::new();
    let mut key = 0u32;
    for _ in 0..(2.0 * fs / block as f64) as usize {
        let t = Instant::now();
        for _ in 0..16 {
            key = (key + 37) % 88;
            e.note_on(21 + key as u8, 0.5 + (key % 8) as f32 / 16.0, 0, None);
        }
        e.render(black_box(&mut l), black_box(&mut r));
        times.push(t.elapsed().as_secs_f64());
    }
    times
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let gravity = a.get(1).is_some_and(|s| s == "g");
    let two = a.get(1).is_some_and(|s| s == "t");
    let (fs, block) = (192_000.0, 256);
    let p = EngineParams {
        hardness_ms: 10.0,
        humanize: 1.0,
        voices: 16,
        bouncing: gravity,
        gravity_in_contact: gravity,
        coupling: if two {
            Coupling::TwoWay
        } else {
            Coupling::Rigid
        },
        ..Default::default()
    };
    let plays: Vec<Vec<f64>> = (0..3).map(|_| play(&p, fs, block)).collect();
    let times: Vec<f64> = (0..plays[0].len())
        .map(|b| plays.iter().map(|t| t[b]).fold(f64::INFINITY, f64::min))
        .collect();
    let mut by = vec![vec![]; 11];
    for (i, t) in times.iter().enumerate() {
        by[i % 11].push(*t * 1e6);
    }
    for (k, v) in by.iter_mut().enumerate() {
        v.sort_by(f64::total_cmp);
        println!(
            "phase {k:2}: min {:.0} median {:.0} max {:.0}",
            v[0],
            v[v.len() / 2],
            v[v.len() - 1]
        );
    }
    let mut idx: Vec<usize> = (0..times.len()).collect();
    idx.sort_by(|&a, &b| times[b].total_cmp(&times[a]));
    println!(
        "worst blocks: {:?}",
        idx.iter()
            .take(15)
            .map(|&i| (i, (times[i] * 1e6) as u32))
            .collect::<Vec<_>>()
    );
}
