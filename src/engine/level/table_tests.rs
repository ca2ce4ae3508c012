//! The level table's keys and lookups.

use super::*;
use crate::engine::level::law::level_params;

#[test]
fn level_params_ignore_what_cannot_change_a_strike() {
    let p = EngineParams::default();
    let q = EngineParams {
        gain_db: -12.0,
        width: 0.0,
        seed: 7.0,
        release: 1.0,
        bend_range: 48.0,
        humanize: 1.0,
        v_min: 0.01,
        velocity_curve: 2.0,
        ..p
    };
    assert_eq!(level_params(&p), level_params(&q));
    // The full-velocity speed is the larger of the two, either way round.
    let swapped = EngineParams {
        v_min: p.v_max,
        v_max: p.v_min,
        ..p
    };
    assert_eq!(level_params(&p), level_params(&swapped));
    let hard = EngineParams {
        hardness_ms: 2.0,
        ..p
    };
    assert_ne!(level_params(&p), level_params(&hard));
}

#[test]
fn a_bent_note_reads_between_its_neighbours() {
    let p = EngineParams::default();
    let own = EngineParams {
        body_freq: p.body_freq * 2f64.powf(0.5 / 12.0),
        ..p
    };
    assert!((sounding_key(&p, &own, 60) - 60.5).abs() < 1e-12);
    let flat = EngineParams {
        key_track: 0.0,
        ..p
    };
    assert_eq!(sounding_key(&flat, &own, 60), 60.0);
    let mut t = LevelTable::default();
    let e = |g: f64| Entry {
        strike: Gains { dry: g, body: g },
        glide: Gains { dry: g, body: g },
    };
    t.entries[60] = Some(e(1.0));
    t.entries[61] = Some(e(4.0));
    let none = Deviation::default();
    let g = t.gains(60.5, &none, 0.7, 0.7).unwrap();
    assert!((g.dry - 2.0).abs() < 1e-12, "{g:?}");
    // A key with no entry takes the nearest one.
    assert!((t.gains(70.0, &none, 0.7, 0.7).unwrap().dry - 4.0).abs() < 1e-12);
    assert_eq!(LevelTable::default().gains(60.0, &none, 0.7, 0.7), None);
}

/// The nearest-key search over the made keys finds what the search over every key
/// finds, bit for bit, and reads no key outside them.
#[test]
fn the_nearest_made_key_is_the_nearest_key() {
    use std::cell::Cell;
    let p = EngineParams::default();
    let none = Deviation::default();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..40 {
        let mut entries = [None; KEYS];
        let mut keys = [0u64; 2];
        for _ in 0..(state % 5) {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (state >> 33) as usize % KEYS;
            let g = (k + 1) as f64;
            let e = Entry {
                strike: Gains { dry: g, body: g },
                glide: Gains { dry: g, body: g },
            };
            entries[k] = Some(e);
            keys[k / 64] |= 1 << (k % 64);
        }
        let (outside, asked) = (Cell::new(0), Cell::new(0));
        let masked = Lookup {
            params: &p,
            entry: |k: usize| {
                // (The note's own key is read whatever the mask says.)
                if k != asked.get() && keys[k / 64] >> (k % 64) & 1 == 0 {
                    outside.set(outside.get() + 1);
                }
                entries[k]
            },
            keys,
        };
        let every = Lookup {
            params: &p,
            entry: |k: usize| entries[k],
            keys: ALL_KEYS,
        };
        for key in 0..KEYS {
            asked.set(key);
            let at = key as f64;
            let (a, b) = (
                masked.gains(at, &none, 0.5, 0.5),
                every.gains(at, &none, 0.5, 0.5),
            );
            assert_eq!(
                a.map(|g| g.dry.to_bits()),
                b.map(|g| g.dry.to_bits()),
                "{key}"
            );
        }
        assert_eq!(outside.get(), 0, "reads of keys never made");
    }
}
