//! The editor's non-GUI logic: the strike pad's velocity mapping and its lock-free
//! handoff to `process()`, the capture of the last note (triple buffer, read while the
//! audio thread writes), the level meter, the spectrum and waveform reductions, and the
//! preset browser's loading of every parameter.

use proptest::prelude::*;
use rebound::analysis::{fft, spectrum_db};
use rebound::editor::meter::{Ballistics, FALL_DB_PER_S, HOLD_S, METER_FLOOR_DB, dbfs};
use rebound::editor::pad::{PAD_MIN_VELOCITY, velocity_at};
use rebound::editor::plots::wave::envelope;
use rebound::engine::spec::{self, Scale};
use rebound::engine::{EngineParams, LIMITS};
use rebound::handoff::capture::{CAPTURE_LEN, Capture};
use rebound::handoff::pad::{PAD_QUEUE, PadEvent, pad_channel};
use rebound::handoff::peak::PeakMeter;
use rebound::params::{EDITOR_SIZE, ReboundParams};

mod support;
use support::*;
#[path = "support/host_values.rs"]
mod host_values;
use host_values::set_through_host;

// ---- Strike pad ----

#[test]
fn pad_velocity_is_full_at_the_top_and_least_at_the_bottom() {
    assert_eq!(velocity_at(0.0), 1.0);
    assert_eq!(velocity_at(1.0), PAD_MIN_VELOCITY);
    assert_eq!(velocity_at(-3.0), 1.0);
    assert_eq!(velocity_at(7.0), PAD_MIN_VELOCITY);
    let mid = velocity_at(f32::NAN);
    assert!(mid > PAD_MIN_VELOCITY && mid < 1.0, "{mid}");
}

proptest! {
    /// Over every f32: finite, in range, and higher on the pad (smaller y) never softer.
    #[test]
    fn pad_velocity_is_monotone_and_in_range(a in any::<f32>(), b in any::<f32>()) {
        let (va, vb) = (velocity_at(a), velocity_at(b));
        for v in [va, vb] {
            prop_assert!(v.is_finite() && (PAD_MIN_VELOCITY..=1.0).contains(&v), "{v}");
        }
        if a < b && !a.is_nan() && !b.is_nan() {
            prop_assert!(va >= vb, "{a} → {va}, {b} → {vb}");
        }
    }

    /// Every key and velocity comes out of the ring as it went in, in order.
    #[test]
    fn pad_events_survive_the_ring(key in 0u8..128, velocity in 0.0f32..=1.0) {
        let (tx, mut rx) = pad_channel();
        let (on, off) = (PadEvent::On { key, velocity }, PadEvent::Off { key });
        prop_assert!(tx.push(on));
        prop_assert!(tx.push(off));
        prop_assert_eq!(rx.pop(), Some(on));
        prop_assert_eq!(rx.pop(), Some(off));
        prop_assert_eq!(rx.pop(), None);
    }
}

#[test]
fn pad_ring_is_fifo_and_refuses_when_full() {
    let (q, mut rx) = pad_channel();
    // Several laps, so the indices wrap around the ring.
    for lap in 0..3u8 {
        for i in 0..PAD_QUEUE {
            assert!(
                q.push(PadEvent::Off {
                    key: (i % 128) as u8
                }),
                "lap {lap} slot {i}"
            );
        }
        assert!(!q.push(PadEvent::Off { key: 1 }), "a full ring took a note");
        for i in 0..PAD_QUEUE {
            assert_eq!(
                rx.pop(),
                Some(PadEvent::Off {
                    key: (i % 128) as u8
                })
            );
        }
        assert_eq!(rx.pop(), None);
    }
}

/// Notes pushed from another thread all arrive, in order, while `pop` runs concurrently.
#[test]
fn pad_ring_hands_over_across_threads() {
    let (q, mut rx) = pad_channel();
    let producer = {
        std::thread::spawn(move || {
            for i in 0..20_000u32 {
                let e = PadEvent::On {
                    key: (i % 128) as u8,
                    velocity: (i % 1000) as f32 / 999.0,
                };
                while !q.push(e) {
                    std::thread::yield_now();
                }
            }
        })
    };
    let mut next = 0u32;
    while next < 20_000 {
        if let Some(PadEvent::On { key, velocity }) = rx.pop() {
            assert_eq!(key, (next % 128) as u8);
            assert!((velocity - (next % 1000) as f32 / 999.0).abs() < 1e-4);
            next += 1;
        } else {
            std::thread::yield_now();
        }
    }
    producer.join().unwrap();
    assert_eq!(rx.pop(), None);
}

/// A pad note plays from the next block's first sample, louder when struck higher, and
/// without an allocation in `process()`.
#[test]
fn pad_notes_play_in_process() {
    let peak = |velocity: Option<f32>| {
        let mut p = activated(48000.0, 256);
        let shared = p.editor_shared();
        let mut ctx = TestProcess::new();
        let before = alloc_violations();
        process(&mut p, &mut ctx, 256, &[]);
        if let Some(v) = velocity {
            assert!(shared.pad.push(PadEvent::On {
                key: 60,
                velocity: v
            }));
        }
        let b = process(&mut p, &mut ctx, 256, &[]);
        let mut m = b.left.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        for _ in 0..20 {
            let b = process(&mut p, &mut ctx, 256, &[]);
            m = m.max(b.left.iter().fold(0.0f32, |m, s| m.max(s.abs())));
        }
        assert_eq!(alloc_violations(), before, "allocation in process()");
        (b.left[0], m)
    };
    let (_, silent) = peak(None);
    assert_eq!(silent, 0.0);
    let (first, hard) = peak(Some(velocity_at(0.0)));
    assert!(
        first.abs() > 0.0,
        "the pad note did not start at the block's first sample"
    );
    let (_, soft) = peak(Some(velocity_at(0.9)));
    assert!(hard > soft * 1.5 && soft > 0.0, "hard {hard} soft {soft}");
}

// ---- Capture of the last note ----

fn read_capture(p: &rebound::Rebound) -> Capture {
    let shared = p.editor_shared();
    let mut out = shared.capture.lock().unwrap();
    out.read().clone()
}

/// The capture is the mid signal from the note's exact sample, across block boundaries;
/// a second note restarts it.
#[test]
fn capture_starts_at_the_note_and_restarts_on_the_next() {
    for block in [1usize, 64, 1000] {
        let mut p = activated(48000.0, block as u32);
        let total = CAPTURE_LEN + 3000;
        let (l, r, _) = run(&mut p, block, total, &[note_on(100, 60, 0.9)]);
        let c = read_capture(&p);
        assert_eq!((c.seq, c.len, c.fs), (1, CAPTURE_LEN, 48000.0));
        let rec = c.recorded();
        assert!(rec.iter().any(|s| *s != 0.0));
        for (i, s) in rec.iter().enumerate() {
            let mid = (l[100 + i] + r[100 + i]) * 0.5;
            assert_eq!(*s, mid, "block {block}, sample {i}");
        }
        // A second note: the capture restarts there, still recording.
        let mut ctx = TestProcess::new();
        let mut e = note_on(10, 64, 0.5);
        e.subtract_timing(0);
        let b = process(&mut p, &mut ctx, 500, &[e]);
        let c = read_capture(&p);
        assert_eq!((c.seq, c.len), (2, 490), "block {block}");
        for (i, s) in c.recorded().iter().enumerate() {
            assert_eq!(*s, (b.left[10 + i] + b.right[10 + i]) * 0.5);
        }
    }
}

/// The GUI reads while the audio thread records: every snapshot it sees is a prefix of
/// the finished capture (never torn), and the length only grows.
#[test]
fn capture_reads_are_consistent_while_recording() {
    let mut p = activated(48000.0, 64);
    let shared = p.editor_shared();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (shared, stop) = (shared.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut out = shared.capture.lock().unwrap();
                let c = out.read();
                if c.seq == 1 && seen.last().is_none_or(|s: &Vec<f32>| s.len() != c.len) {
                    seen.push(c.recorded().to_vec());
                }
                drop(out);
                std::thread::yield_now();
            }
            seen
        })
    };
    let mut ctx = TestProcess::new();
    process(&mut p, &mut ctx, 64, &[note_on(0, 60, 1.0)]);
    for _ in 0..CAPTURE_LEN / 64 + 4 {
        process(&mut p, &mut ctx, 64, &[]);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let seen = reader.join().unwrap();
    let fin = read_capture(&p);
    assert_eq!(fin.len, CAPTURE_LEN);
    let mut last = 0;
    for s in &seen {
        assert!(s.len() >= last, "the capture shrank");
        last = s.len();
        assert_eq!(s.as_slice(), &fin.recorded()[..s.len()], "a torn snapshot");
    }
}

// ---- Meter ----

#[test]
fn meter_keeps_the_largest_peak_until_taken() {
    let m = PeakMeter::default();
    assert_eq!(m.take(), 0.0);
    for v in [0.25f32, 0.9, 0.5, f32::NAN, -3.0, f32::INFINITY] {
        m.record(v);
    }
    assert_eq!(m.take(), 0.9);
    assert_eq!(m.take(), 0.0);
}

proptest! {
    /// Over any sequence of finite peaks, take() returns exactly their maximum.
    #[test]
    fn meter_take_is_the_maximum(v in prop::collection::vec(0.0f32..1e6, 1..40)) {
        let m = PeakMeter::default();
        for x in &v {
            m.record(*x);
        }
        let max = v.iter().fold(0.0f32, |a, b| a.max(*b));
        prop_assert_eq!(m.take(), max);
    }
}

/// process() feeds the meter the block's true peak over both channels.
#[test]
fn meter_reads_the_output_peak() {
    let mut p = activated(44100.0, 128);
    let shared = p.editor_shared();
    let mut ctx = TestProcess::new();
    let b = process(&mut p, &mut ctx, 128, &[note_on(5, 72, 1.0)]);
    let peak = b
        .left
        .iter()
        .chain(&b.right)
        .fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.0);
    assert_eq!(shared.meter.take(), peak);
}

#[test]
fn meter_ballistics_attack_fall_and_hold() {
    let mut b = Ballistics::default();
    assert_eq!(b.level_db, METER_FLOOR_DB);
    b.update(0.5, 0.01);
    let db = dbfs(0.5);
    assert!((db + 6.0206).abs() < 1e-3, "{db}");
    assert_eq!((b.level_db, b.hold_db), (db, db), "instant attack");
    // Silence for half a second: the bar falls at its rate, the hold stays.
    for _ in 0..50 {
        b.update(0.0, 0.01);
    }
    assert!(
        (b.level_db - (db - FALL_DB_PER_S * 0.5)).abs() < 1e-3,
        "{}",
        b.level_db
    );
    assert_eq!(b.hold_db, db);
    // Past the hold time the mark drops to the bar.
    for _ in 0..(HOLD_S * 100.0) as usize + 10 {
        b.update(0.0, 0.01);
    }
    assert!(b.hold_db < db - 10.0 && b.hold_db == b.level_db);
    b.update(f32::NAN, f32::NAN);
    assert!(b.level_db.is_finite() && b.hold_db.is_finite());
}

// ---- Spectrum and waveform ----

#[test]
fn fft_matches_the_dft() {
    let mut rng = Rng(7);
    let n = 64;
    let x: Vec<f64> = (0..n).map(|_| rng.unit() as f64 * 2.0 - 1.0).collect();
    let (mut re, mut im) = (x.clone(), vec![0.0; n]);
    fft(&mut re, &mut im);
    for k in 0..n {
        let (mut dr, mut di) = (0.0, 0.0);
        for (j, v) in x.iter().enumerate() {
            let a = -2.0 * std::f64::consts::PI * (k * j) as f64 / n as f64;
            dr += v * a.cos();
            di += v * a.sin();
        }
        assert!(
            (re[k] - dr).abs() < 1e-9 && (im[k] - di).abs() < 1e-9,
            "bin {k}"
        );
    }
}

/// A full-scale sine reads 0 dBFS at its frequency; one 20 dB down reads −20.
#[test]
fn spectrum_reads_a_sine_at_its_level_and_frequency() {
    let fs = 48000.0;
    let n = 8192;
    for (f, amp, want_db) in [(1000.0, 1.0f32, 0.0), (3000.0, 0.1, -20.0)] {
        // On a bin: f = k fs / n.
        let k = (f * n as f64 / fs).round();
        let f = k * fs / n as f64;
        let x: Vec<f32> = (0..n)
            .map(|i| amp * (2.0 * std::f64::consts::PI * f * i as f64 / fs).sin() as f32)
            .collect();
        let s = spectrum_db(&x, fs);
        assert_eq!(s.len(), n / 2 + 1);
        let top = s
            .iter()
            .fold([0.0, -1e9], |m, p| if p[1] > m[1] { *p } else { m });
        assert!((top[0] - f).abs() < 1e-9, "peak at {} Hz, want {f}", top[0]);
        assert!(
            (top[1] - want_db).abs() < 0.1,
            "{} dB, want {want_db}",
            top[1]
        );
    }
}

proptest! {
    /// The envelope keeps the signal's extremes and its time span, whatever the length.
    #[test]
    fn envelope_keeps_the_extremes(x in prop::collection::vec(-2.0f32..2.0, 1..5000), cols in 1usize..300) {
        let e = envelope(&x, 48000.0, cols);
        prop_assert!(e.len() <= 2 * cols && !e.is_empty());
        let lo = x.iter().fold(f32::INFINITY, |m, v| m.min(*v)) as f64;
        let hi = x.iter().fold(f32::NEG_INFINITY, |m, v| m.max(*v)) as f64;
        prop_assert!(e.iter().any(|p| p[1] == lo) && e.iter().any(|p| p[1] == hi));
        prop_assert!(e.iter().all(|p| p[1] >= lo && p[1] <= hi));
        let t_end = (x.len() - 1) as f64 / 48000.0 * 1e3;
        prop_assert!((e.last().unwrap()[0] - t_end).abs() < 1e-9);
    }
}

// ---- Browser and size ----

/// Loads `want` as the browser does (`preset::plugin::apply_with_setter`: each plain
/// value to its normalised value) and reads it back through the engine parameters.
fn load_and_read(want: &EngineParams) -> EngineParams {
    let params = ReboundParams::default();
    set_through_host(&params, want);
    params.engine_params()
}

/// Every parameter of every factory preset, and of both range ends, reaches the plugin
/// through the setter's normalised values: numbers to f32 precision (through the log10
/// of the logarithmic ones), every choice exactly.
#[test]
fn browser_loads_every_parameter() {
    let mut mixed = EngineParams::default();
    for (i, n) in spec::NUMBERS.iter().enumerate() {
        (n.set)(&mut mixed, (n.get)(&LIMITS[i % 2]));
    }
    for (i, c) in spec::CHOICES.iter().enumerate() {
        (c.set)(&mut mixed, if i % 2 == 0 { usize::MAX } else { 0 });
    }
    let mut cases = vec![LIMITS[0], LIMITS[1], mixed];
    cases.extend(rebound::preset::factory().iter().map(|p| p.params));
    assert!(cases.len() >= 3 + 16);
    for want in cases {
        let got = load_and_read(&want);
        for n in &spec::NUMBERS {
            let (w, g) = ((n.get)(&want), (n.get)(&got));
            // A linear value's normalised f32 is good to about two of its ulps at 1
            // over the range (a preset's Gain of 0.2 dB over −48–12 dB comes back
            // 1e-6 off).
            let (lo, hi) = n.range();
            let tol = match n.scale {
                Scale::Log => w.abs() * 1e-5,
                _ => w.abs().max(1.0) * 1e-6 + (hi - lo) * 2.4e-7,
            };
            assert!((w - g).abs() <= tol, "{}: want {w}, got {g}", n.id);
        }
        for c in &spec::CHOICES {
            assert_eq!((c.get)(&want), (c.get)(&got), "{}", c.id);
        }
    }
}

/// The browser lists each category once, factory order first, user ones after.
#[test]
fn browser_lists_each_category_once() {
    use rebound::editor::browser::categories;
    let mut all = rebound::preset::factory().to_vec();
    let d = EngineParams::default();
    all.push(rebound::preset::Preset::new("a", "User", "", d));
    all.push(rebound::preset::Preset::new("b", "Bounce", "", d));
    all.push(rebound::preset::Preset::new("c", "User", "", d));
    let cats = categories(&all);
    let mut sorted = cats.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), cats.len(), "{cats:?}");
    assert_eq!(cats.last(), Some(&"User"));
    for p in &all {
        assert!(cats.contains(&p.category.as_str()));
    }
}

#[test]
fn editor_opens_at_the_default_size() {
    assert_eq!(EDITOR_SIZE, (1200, 760));
    assert_eq!(ReboundParams::default().editor_size.size(), EDITOR_SIZE);
}

/// The always-visible readout shows engine::physical's k, μ, τ and e, in both modes.
#[test]
fn physical_readout_shows_the_engine_values() {
    let mut expert = EngineParams::default();
    (spec::choice("controls").unwrap().set)(&mut expert, 1);
    expert.k = 3.5e8;
    for p in [EngineParams::default(), expert] {
        let ph = rebound::engine::physical(&p);
        let text = rebound::editor::readouts::physical_text(&p);
        for want in [
            format!("k {:.3e}", ph.k),
            format!("μ {:.3e}", ph.mu),
            format!("τ {:.3} ms", ph.tau_ms),
            format!("e {:.3}", ph.e),
        ] {
            assert!(text.contains(&want), "{text} lacks {want}");
        }
    }
}
