//! The editor's Recorded-body loader, without a window: a recording is fitted into a
//! body with its spectrum for the plot, a body file is read as it is, and a file that
//! is neither is refused with a sentence for the status line.

use rebound::editor::plots::partials::stems;
use rebound::editor::recorded::load;
use rebound::model::body::{WINE_GLASS, recorded};
use std::path::Path;

const RECORDING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/recordings/wine-glass.wav"
);

/// The shipped recording fits to the built-in body's partials, with the recording's spectrum at 0 dB on its strongest partial; the stems
/// put the strongest partial at 0 dB.
#[test]
fn a_recording_loads_as_its_fitted_body_and_spectrum() {
    let l = load(Path::new(RECORDING)).unwrap();
    assert_eq!(l.body.count, WINE_GLASS.len());
    // The built-in glass is this recording's fit (to rounding: the FFT's path may
    // differ on another CPU, and then so may the last bits).
    for &(f, t60, _) in &WINE_GLASS {
        let p = l.body.partials[..l.body.count]
            .iter()
            .find(|p| (p.freq_hz / f - 1.0).abs() < 1e-6)
            .unwrap_or_else(|| panic!("{f} Hz not found"));
        assert!((p.t60_s / t60 - 1.0).abs() < 1e-4, "{f} Hz: {}", p.t60_s);
    }
    assert_eq!(l.source, "wine-glass.wav");
    let top = l
        .spectrum
        .iter()
        .max_by(|a, b| a[1].total_cmp(&b[1]))
        .unwrap();
    assert_eq!(top[1], 0.0);
    assert!((10f64.powf(top[0]) / 784.0 - 1.0).abs() < 0.02, "{top:?}");
    let s = stems(&l.body);
    assert_eq!(s.len(), WINE_GLASS.len());
    assert_eq!(s.iter().fold(f64::NEG_INFINITY, |m, p| m.max(p[1])), 0.0);
    assert!(s.iter().all(|p| p[1] <= 0.0 && p[1] > -40.0), "{s:?}");
}

/// A body file loads as its partials, registered, with no spectrum.
#[test]
fn a_body_file_loads_as_its_partials() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pipe.json");
    std::fs::write(
        &path,
        r#"{"version": 1, "modes": [
            {"freq_hz": 180.0, "t60_s": 2.0, "amplitude": 0.2},
            {"freq_hz": 497.0, "t60_s": 1.1, "amplitude": 0.1}]}"#,
    )
    .unwrap();
    let l = load(&path).unwrap();
    assert!(l.spectrum.is_empty());
    assert_eq!((l.body.count, l.body.f_ref), (2, 180.0));
    assert_eq!(recorded(l.index), Some(&l.body));
}

/// What is neither a recording nor a body file is refused, in one sentence.
#[test]
fn a_bad_file_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.wav");
    std::fs::write(&junk, b"nothing").unwrap();
    let bad_json = dir.path().join("bad.json");
    std::fs::write(&bad_json, b"{}").unwrap();
    for p in [
        junk.as_path(),
        bad_json.as_path(),
        Path::new("/nonexistent/x.flac"),
    ] {
        let e = load(p).err().unwrap_or_else(|| panic!("{p:?} loaded"));
        assert!(!e.is_empty() && !e.contains('\n'), "{e}");
    }
}
