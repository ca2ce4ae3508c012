//! Loudness across the keyboard (`engine::level::law::keyboard_cut`): the default patch at
//! full velocity, note 36 to 96, keeps its maximum momentary loudness (BS.1770, 400 ms,
//! measured by the `ebur128` crate on the rendered stereo) within ±3 LU of the middle
//! of its range, with middle C as calibrated (its peak at the target) and no key
//! louder than middle C by more than the calibration's reading can miss.

use rebound::engine::level::law::TARGET_PEAK_DB;
use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::loudness::measure;

const FS: f64 = 48_000.0;

fn note(p: &EngineParams, key: u8) -> (f64, f64) {
    let n = NoteSpec {
        at: 0,
        key,
        velocity: 1.0,
        off: None,
    };
    let r = render(p, FS, &[n], (2.0 * FS) as usize);
    let m = measure(FS as u32, &r.left, &r.right).unwrap();
    (m.momentary_max, m.true_peak_db)
}

#[test]
fn the_default_patch_keeps_its_loudness_across_the_keyboard() {
    let p = EngineParams::default();
    let rows: Vec<(u8, f64, f64)> = (36..=96)
        .step_by(4)
        .map(|k| {
            let (l, tp) = note(&p, k);
            eprintln!("note {k}: {l:.1} LUFS momentary max, {tp:.2} dBTP");
            (k, l, tp)
        })
        .collect();
    let (lo, hi) = rows
        .iter()
        .fold((f64::MAX, f64::MIN), |a, r| (a.0.min(r.1), a.1.max(r.1)));
    eprintln!(
        "notes 36–96: {lo:.1} … {hi:.1} LUFS, a {:.1} LU span",
        hi - lo
    );
    assert!(hi - lo <= 6.0, "a {:.1} LU span: over ±3 LU", hi - lo);
    // Middle C is the reference: its peak is the calibrated one.
    let c = rows.iter().find(|r| r.0 == 60).unwrap();
    assert!(
        (c.2 - TARGET_PEAK_DB).abs() < 1.0,
        "note 60: {:.2} dBTP",
        c.2
    );
    // Only cut: no key peaks over the target.
    for (k, _, tp) in &rows {
        assert!(*tp <= TARGET_PEAK_DB + 1.0, "note {k}: {tp:.2} dBTP");
    }
}
