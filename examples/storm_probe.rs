use rebound::engine::levels::LevelWorker;
use rebound::engine::{Engine, EngineParams};
use std::hint::black_box;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let fs: f64 = a.get(1).map(|s| s.parse().unwrap()).unwrap_or(192_000.0);
    let block: usize = a.get(2).map(|s| s.parse().unwrap()).unwrap_or(256);
    let secs: f64 = a.get(3).map(|s| s.parse().unwrap()).unwrap_or(0.5);
    let voices: usize = a.get(4).map(|s| s.parse().unwrap()).unwrap_or(64);
    let gravity = a.get(5).is_some_and(|s| s == "g");
    let p = EngineParams {
        hardness_ms: 10.0,
        humanize: 1.0,
        voices,
        bouncing: gravity,
        gravity_in_contact: gravity,
        coupling: if a.get(6).is_some() {
            rebound::engine::Coupling::TwoWay
        } else {
            Default::default()
        },
        ..Default::default()
    };
    let mut e = Engine::new(fs);
    e.set_params(&p);
    e.set_sample_rate(fs);
    let (_worker, link) = LevelWorker::spawn();
    e.use_level_worker(link);
    while !e.levels_ready() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (mut l, mut r) = (vec![0f32; block], vec![0f32; block]);
    let mut key = 0u32;
    let mut sum = 0.0f64;
    let t = std::time::Instant::now();
    for _ in 0..(secs * fs / block as f64) as usize {
        for _ in 0..16 {
            key = (key + 37) % 88;
            e.note_on(21 + key as u8, 0.5 + (key % 8) as f32 / 16.0, 0, None);
        }
        e.render(black_box(&mut l), black_box(&mut r));
        sum += l.iter().map(|x| *x as f64).sum::<f64>();
    }
    eprintln!(
        "{:?} per block {:?} sum {sum}",
        t.elapsed(),
        t.elapsed() / ((secs * fs / block as f64) as u32)
    );
}
