//! Headroom, and no distortion inside the plugin: a full-velocity strike peaks at the
//! calibrated −10 dBFS, so chords have room; nothing in the engine clips or limits a
//! musical signal (the output passes values over 0 dBFS as they are; the voices'
//! guard and the output's only act over +24 dBFS or on a value that is not a number).
//!
//! - Four-note chords at velocity 100 on the default patch (close and open voicings,
//!   low and high) stay under 0 dBFS on both channels, sample and true peak.
//! - A 16-note chord at velocity 127 (keys 48–78 in steps of 2) goes over 0 dBFS with
//!   no sample clipped or limited: no guard event, no voice guard engaged, and the
//!   output is the plain sum (its peak is over 0 dBFS, where a clip would have held it).
//! - A dense, loud synthetic song (chords and runs at velocities up to 127 on the
//!   loudest presets) renders without a guard event or an engaged voice guard.

use rebound::engine::{Engine, EngineParams};
use rebound::loudness::measure;
use rebound::preset;

const FS: f64 = 48_000.0;

/// Plays `keys` together at MIDI velocity `vel` on `p` for `seconds`; returns the
/// stereo output and the engine (for its guard counters).
fn chord(p: &EngineParams, keys: &[u8], vel: u8, seconds: f64) -> (Vec<f32>, Vec<f32>, Engine) {
    let mut e = Engine::new(FS);
    e.set_params(p);
    e.set_sample_rate(FS);
    e.prepare_levels(keys.iter().copied());
    for &k in keys {
        e.note_on(k, vel as f32 / 127.0, 0, None);
    }
    let n = (seconds * FS) as usize;
    let (mut l, mut r) = (vec![0f32; n], vec![0f32; n]);
    e.render(&mut l, &mut r);
    (l, r, e)
}

#[test]
fn four_note_chords_at_velocity_100_stay_under_0_dbfs() {
    let p = EngineParams::default();
    let mut worst = f64::MIN;
    for keys in rebound::engine::level::law::HEADROOM_CHORDS {
        let (l, r, e) = chord(&p, &keys, 100, 1.5);
        let m = measure(FS as u32, &l, &r).unwrap();
        eprintln!(
            "{keys:?}: peak {:.2} dBFS, true peak {:.2} dBTP, momentary max {:.1} LUFS",
            m.sample_peak_db, m.true_peak_db, m.momentary_max
        );
        assert_eq!((e.guard_events(), e.ceiling_engagements()), (0, 0));
        assert!(m.true_peak_db < 0.0, "{keys:?}: {:.2} dBTP", m.true_peak_db);
        worst = worst.max(m.true_peak_db);
    }
    eprintln!("loudest four-note chord: {worst:.2} dBTP");
}

#[test]
fn a_full_velocity_16_note_chord_is_neither_clipped_nor_limited() {
    let keys: Vec<u8> = (48..=78).step_by(2).collect();
    assert_eq!(keys.len(), 16);
    for (name, p) in [("default", EngineParams::default())]
        .into_iter()
        .chain(["Bell strike", "Soft mallet on a metal bar"].map(|n| (n, preset_params(n))))
    {
        let (l, r, e) = chord(&p, &keys, 127, 2.0);
        let m = measure(FS as u32, &l, &r).unwrap();
        eprintln!(
            "{name}: peak {:.2} dBFS, true peak {:.2} dBTP, {} samples over 0 dBFS, momentary max {:.1} LUFS",
            m.sample_peak_db, m.true_peak_db, m.over_full_scale, m.momentary_max
        );
        assert_eq!(e.guard_events(), 0, "{name}");
        assert_eq!(e.ceiling_engagements(), 0, "{name}: a voice was limited");
        assert!(l.iter().chain(&r).all(|s| s.is_finite()));
        // What the output stage saw is what left it: nothing held at a threshold.
        assert_eq!(e.output_peak() as f32, peak(&l).max(peak(&r)), "{name}");
    }
}

fn peak(x: &[f32]) -> f32 {
    x.iter().fold(0f32, |m, s| m.max(s.abs()))
}

fn preset_params(name: &str) -> EngineParams {
    preset::factory()
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no factory preset {name}"))
        .params
}

/// A small, reproducible pseudo-random song: 40 s of chords (3–6 notes) and runs at
/// velocities 90–127, every key 36–96, on the default patch and the presets whose
/// chords summed loudest.
#[test]
fn a_dense_loud_song_is_neither_clipped_nor_limited() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for (name, p) in [("default", EngineParams::default())]
        .into_iter()
        .chain(["Bell strike", "Soft mallet on a metal bar"].map(|n| (n, preset_params(n))))
    {
        let mut e = Engine::new(FS);
        e.set_params(&p);
        e.set_sample_rate(FS);
        e.prepare_levels(36..=96);
        let step = (0.125 * FS) as usize;
        let (mut l, mut r) = (vec![0f32; step], vec![0f32; step]);
        let (mut top, mut over) = (0f32, 0usize);
        for _ in 0..320 {
            let notes = 1 + rnd(6);
            for _ in 0..notes {
                let key = 36 + rnd(61) as u8;
                let vel = 90 + rnd(38) as u8;
                e.note_on(key, vel as f32 / 127.0, 0, None);
            }
            e.render(&mut l, &mut r);
            top = top.max(peak(&l)).max(peak(&r));
            over += l.iter().chain(&r).filter(|s| s.abs() > 1.0).count();
            if rnd(4) == 0 {
                e.note_off(None, None, None);
            }
        }
        eprintln!(
            "{name}: 40 s, peak {:.2} dBFS, {over} samples over 0 dBFS",
            20.0 * (top as f64).log10()
        );
        assert_eq!(e.guard_events(), 0, "{name}");
        assert_eq!(e.ceiling_engagements(), 0, "{name}: a voice was limited");
    }
}
