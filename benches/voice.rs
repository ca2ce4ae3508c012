//! Cost of the full voice (contact + 16-mode body) per sample, of a ringing voice, of a
//! note-on (reading the level table, fresh or stale), and of 64 ringing voices as a
//! fraction of real time at 48 kHz. The voice and the 64 voices are timed on the bank's
//! vector path and on its portable scalar loop in the same run (`vector/`, `portable/`).

use criterion::{Criterion, Throughput, criterion_group};
use rebound::engine::level::{LevelWorker, Levels};
use rebound::engine::{Controls, Coupling, Engine, EngineParams};
use rebound::model::body::{BodyType, force_portable};
use rebound::model::scheme::by_name;
use rebound::model::{Correction, Method};
use rebound::voice::{Voice, VoiceSample};
use std::hint::black_box;
use std::time::Instant;

const FS: f64 = 48000.0;

type Group<'a> = criterion::BenchmarkGroup<'a, criterion::measurement::WallTime>;

fn soft_params(method: Method) -> EngineParams {
    // k = 1e4 makes the contact last ~10 ms: every benchmarked sample is in contact.
    EngineParams {
        body: BodyType::Bar,
        controls: Controls::Expert,
        k: 1e4,
        method,
        correction: Correction::Both,
        ..Default::default()
    }
}

/// The bank's two paths, timed in the same run: the process's (AVX2/FMA where the CPU
/// has them) and the portable scalar loop (`force_portable`), each over voices and
/// engines made for it.
const PATHS: [(&str, bool); 2] = [("vector", false), ("portable", true)];

/// One voice in contact: struck, ticked through its contact, struck again when the
/// contact ends (so each strike's set-up, the contact's normalisation and the body's
/// retune, is spread over its contact, and only one contact runs at a time).
/// `restruck_256`: the former figure's bench, struck every 256 samples, so that each
/// strike interrupts the contact before and the voice runs two contacts (the fading
/// one in its tail) most of the time.
fn bench_voice(c: &mut Criterion) {
    let mut g = c.benchmark_group("voice");
    g.throughput(Throughput::Elements(1));
    for (path, portable) in PATHS {
        force_portable(portable);
        for method in Method::ALL {
            let name = format!("in_contact_16_modes/{path}/{}", method.name());
            in_contact(&mut g, &name, soft_params(method));
        }
        let name = format!("in_contact_16_modes_per_call/{path}/verlet");
        in_contact_per_call(&mut g, &name, soft_params(Method::Verlet));
        // The default patch's contact (Hardness 0.6 ms, about 34 samples at 48 kHz).
        let name = format!("in_contact_default_patch/{path}");
        in_contact(&mut g, &name, EngineParams::default());
        let p = soft_params(Method::Verlet);
        g.bench_function(format!("restruck_256/{path}/verlet"), |b| {
            let (mut v, mut levels) = struck(&p);
            let mut n = 0;
            b.iter(|| {
                n += 1;
                if n % 256 == 0 || !v.in_contact() {
                    v.strike_with(&p, 60, 1.0, 0, 0.7, &mut levels);
                }
                black_box(v.tick_with(&p, 0.7, Some(&mut levels)))
            });
        });
        let p = EngineParams {
            t60: 10.0,
            ..Default::default()
        };
        g.bench_function(format!("ringing_16_modes/{path}"), |b| {
            let mut v = Voice::new(FS);
            v.strike(&p, 60, 1.0, 0);
            while v.in_contact() {
                let _ = v.tick(&p, 0.7);
            }
            b.iter(|| black_box(v.tick(&p, 0.7)));
        });
    }
    force_portable(false);
    g.finish();
}

/// One voice of patch `p` in contact, struck again when its contact ends, played as
/// the engine plays a voice: a run of samples at a time (`Voice::run`).
fn in_contact(g: &mut Group, name: &str, p: EngineParams) {
    g.bench_function(name, |b| {
        let (mut v, mut levels) = struck(&p);
        b.iter_custom(|iters| {
            let t = Instant::now();
            contact_run(&mut v, &p, &mut levels, iters, |s| {
                black_box(s);
            });
            t.elapsed()
        });
    });
}

/// The same, a call of `Voice::tick_with` per sample (what a caller that plays a voice
/// sample by sample pays).
fn in_contact_per_call(g: &mut Group, name: &str, p: EngineParams) {
    g.bench_function(name, |b| {
        let (mut v, mut levels) = struck(&p);
        b.iter(|| black_box(call_sample(&mut v, &p, &mut levels)));
    });
}

/// A voice of patch `p` struck on key 60 at full velocity, and the level table (made
/// on demand) it reads.
fn struck(p: &EngineParams) -> (Voice, Levels) {
    let mut levels = Levels::on_demand(FS);
    levels.set(p, FS);
    let mut v = Voice::new(FS);
    v.strike_with(p, 60, 1.0, 0, 0.7, &mut levels);
    (v, levels)
}

/// Strikes `v` again where its contact has ended.
fn keep_in_contact(v: &mut Voice, p: &EngineParams, levels: &mut Levels) {
    if !v.in_contact() {
        v.strike_with(p, 60, 1.0, 0, 0.7, levels);
    }
}

/// One sample of `v` through `Voice::tick_with`, struck again first where its contact
/// has ended.
fn call_sample(v: &mut Voice, p: &EngineParams, levels: &mut Levels) -> Option<VoiceSample> {
    keep_in_contact(v, p, levels);
    v.tick_with(p, 0.7, Some(levels))
}

/// `n` samples of `v` (patch `p`) in contact, each handed to `each`: struck again,
/// inside the caller's clock, after the sample its contact ended in; played in runs
/// (`Voice::run`), each until the contact ends.
fn contact_run(
    v: &mut Voice,
    p: &EngineParams,
    levels: &mut Levels,
    n: u64,
    mut each: impl FnMut(Option<VoiceSample>),
) {
    let mut left = n as usize;
    while left > 0 {
        keep_in_contact(v, p, levels);
        left -= v.run(p, 0.7, Some(&mut *levels), left, |s, v| {
            each(s);
            v.in_contact()
        });
    }
}

/// A note-on through the engine, timed inside the clock, reading the level table
/// (`engine::level`): 16 voices, so most note-ons also steal. `table`: every key's
/// entry made (offline, before the first note); `humanized`: the same at Humanize
/// 100 %, every hit different; `stale`: a worker makes the tables and the patch
/// changes before every note, so each note-on is served by the previous table while
/// the worker (on the other core) makes the new one. Compare with the time of a
/// block: 64 samples at 48 kHz are 1.33 ms, at 192 kHz 0.33 ms.
fn bench_note_on(c: &mut Criterion) {
    let mut g = c.benchmark_group("note_on");
    for (fs, hardness) in [(FS, 0.6), (FS, 10.0), (192_000.0, 0.6), (192_000.0, 10.0)] {
        let p = EngineParams {
            hardness_ms: hardness,
            ..Default::default()
        };
        let label = format!("{}k/{hardness}ms", (fs / 1000.0) as u32);
        for (name, humanize) in [("table", 0.0), ("humanized", 1.0)] {
            let q = EngineParams { humanize, ..p };
            let mut e = Engine::new(fs);
            e.set_params(&q);
            e.set_sample_rate(fs);
            e.prepare_levels(0..128);
            let mut key = 0u8;
            g.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    key = (key + 7) % 128;
                    e.note_on(black_box(key), 1.0, 0, None)
                })
            });
        }
        let mut e = Engine::new(fs);
        e.set_params(&p);
        e.set_sample_rate(fs);
        let (_worker, link) = LevelWorker::spawn().expect("the level worker starts");
        e.use_level_worker(link);
        let mut n = 0u32;
        g.bench_function(format!("stale/{label}"), |b| {
            b.iter(|| {
                n += 1;
                e.set_params(&EngineParams {
                    hardness_ms: hardness * (1.0 + 1e-3 * (n % 64) as f64),
                    ..p
                });
                e.note_on(black_box((n % 128) as u8), 1.0, 0, None)
            })
        });
    }
    g.finish();
}

/// 64 ringing voices through the engine (allocation, smoothing, DC blocker, guard), on
/// each of the bank's paths: prints the fraction of one core at 48 kHz.
fn bench_engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(512));
    for (path, portable) in PATHS {
        force_portable(portable);
        ringing_engine(&mut g, path);
    }
    force_portable(false);
    g.finish();
}

fn ringing_engine(g: &mut Group, path: &str) {
    let p = EngineParams {
        t60: 10.0,
        voices: 64,
        ..Default::default()
    };
    let mut e = Engine::new(FS);
    e.set_params(&p);
    e.set_sample_rate(FS);
    for k in 0..64 {
        e.note_on(30 + k as u8, 1.0, 0, None);
    }
    let mut buf = vec![0.0f32; 512];
    let mut right = vec![0.0f32; 512];
    for _ in 0..8 {
        e.render(&mut buf, &mut right);
    }
    assert_eq!(e.active_voices(), 64);
    // Criterion renders minutes of audio: with T60 = 10 s the voices would ring below
    // −120 dB and end after ~20 s, and the figure would measure silence. Re-strike any
    // that ended (rare: once per ~1900 blocks, so the contacts cost nothing here).
    let keep_ringing = |e: &mut Engine| {
        if e.active_voices() < 64 {
            for k in 0..64 {
                e.note_on(30 + k as u8, 1.0, 0, None);
            }
        }
    };
    g.bench_function(format!("64_ringing_voices_block_512/{path}"), |b| {
        b.iter(|| {
            keep_ringing(&mut e);
            e.render(black_box(&mut buf), black_box(&mut right))
        })
    });
    // A direct real-time figure: one second of audio, 64 voices sounding throughout.
    keep_ringing(&mut e);
    for _ in 0..64 {
        e.render(&mut buf, &mut right);
    }
    let t = Instant::now();
    let blocks = (FS as usize) / 512;
    for _ in 0..blocks {
        e.render(&mut buf, &mut right);
    }
    assert_eq!(e.active_voices(), 64, "voices ended during the measurement");
    let secs = t.elapsed().as_secs_f64() * FS / (blocks * 512) as f64;
    eprintln!(
        "64 ringing voices at 48 kHz, {path}: {:.1} % of one core",
        100.0 * secs
    );
}

/// A note through the engine with two-way coupling against the same note on the rigid
/// wall, same body: each iteration strikes one fresh voice (its level table made
/// beforehand) and renders 0.256 s of it in blocks of 512, so the figure is what a
/// voice costs over a note: the contact, the bounces if any, and the ring. `in_contact`
/// is the voice's cost per sample while the striker touches the body (re-struck when
/// the contact ends), where the coupled system is paid in full. Prints the ratios.
fn bench_coupling(c: &mut Criterion) {
    let mut g = c.benchmark_group("coupling");
    let patches = [
        ("default", EngineParams::default()),
        (
            "light_body",
            EngineParams {
                body_mass: 0.01,
                ..Default::default()
            },
        ),
        (
            "bouncing",
            EngineParams {
                bouncing: true,
                ..Default::default()
            },
        ),
    ];
    for (name, p) in patches {
        let mut times = [0.0; 2];
        for (i, coupling) in [Coupling::Rigid, Coupling::TwoWay].into_iter().enumerate() {
            let q = EngineParams { coupling, ..p };
            let mut e = Engine::new(FS);
            e.set_params(&q);
            e.set_sample_rate(FS);
            e.prepare_levels(60..61);
            let mut buf = vec![0.0f32; 512];
            let mut right = vec![0.0f32; 512];
            let mut note = || {
                e.reset();
                e.note_on(60, 1.0, 0, None);
                for _ in 0..24 {
                    e.render(black_box(&mut buf), black_box(&mut right));
                }
            };
            g.bench_function(format!("note_256ms/{name}/{coupling:?}"), |b| {
                b.iter(&mut note)
            });
            times[i] = seconds_per(2000, note);
        }
        eprintln!(
            "note of 0.256 s, {name}: two-way / rigid wall = {:.2}",
            times[1] / times[0]
        );
    }
    let mut per_sample = [0.0; 2];
    for (i, coupling) in [Coupling::Rigid, Coupling::TwoWay].into_iter().enumerate() {
        let p = EngineParams {
            coupling,
            ..Default::default()
        };
        let (mut v, mut levels) = struck(&p);
        let mut sample = || {
            black_box(call_sample(&mut v, &p, &mut levels));
        };
        g.bench_function(format!("in_contact/{coupling:?}"), |b| b.iter(&mut sample));
        per_sample[i] = seconds_per(1_000_000, sample);
    }
    eprintln!(
        "in contact, per sample: two-way / rigid wall = {:.2}",
        per_sample[1] / per_sample[0]
    );
    g.finish();
}

/// Mean seconds of `n` calls of `f` (a direct figure for a ratio, after criterion's).
fn seconds_per(n: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() / n as f64
}

criterion_group!(
    benches,
    bench_voice,
    bench_note_on,
    bench_engine,
    bench_coupling
);

/// `voice loop [samples] [verlet|heun|rk4|am1|default] [per_call]`: the `in_contact`
/// loop alone (`per_call`: `in_contact_per_call`'s), outside criterion, for alternating
/// builds and for callgrind. Prints ns per sample
/// (wall clock) and a checksum of every output bit, so two builds can be shown to
/// play the same samples.
fn contact_loop(args: &[String]) {
    let n: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let which = args.get(1).map_or("verlet", String::as_str);
    let p = match by_name(&Method::ALL, Method::name, which) {
        Some(m) => soft_params(m),
        None if which == "default" => EngineParams::default(),
        None => panic!("unknown patch {which}: verlet, heun, rk4, am1 or default"),
    };
    let (mut v, mut levels) = struck(&p);
    let (mut sum, mut bits) = (0.0, 0u64);
    let mut read = |s: Option<VoiceSample>| {
        let s = black_box(s).unwrap_or_default();
        sum += s.out;
        bits = bits.rotate_left(7) ^ s.out.to_bits() ^ s.side.to_bits().rotate_left(29);
    };
    let t = Instant::now();
    if args.get(2).is_some_and(|a| a == "per_call") {
        for _ in 0..n {
            read(call_sample(&mut v, &p, &mut levels));
        }
    } else {
        contact_run(&mut v, &p, &mut levels, n, read);
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / n as f64;
    println!("{which}: {ns:.1} ns/sample, sum {sum:e}, bits {bits:016x}");
}

fn main() {
    // `cargo bench` adds `--bench` after the arguments given it.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("loop") {
        contact_loop(&args[1..]);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
