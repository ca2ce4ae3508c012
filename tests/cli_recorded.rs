//! The Recorded body through the CLI: `rebound render --body-file` plays a body file's
//! partials (found again in the render at their frequencies, T60s and relative levels:
//! the reference strike plays the recording's balance back); the built-in body is the
//! fit of the repository's own recording, and sounds like it in 1/3-octave bands; a
//! user preset keeps its body; a bad body file is refused.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/rng.rs"]
mod rng;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;
use rebound::model::body::WINE_GLASS;
use rng::Rng;
use rustfft::{FftPlanner, num_complex::Complex};
use std::f64::consts::TAU;
use std::path::Path;

const RECORDING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/recordings/wine-glass.wav"
);

/// (Hz, T60 s, amplitude) of a body file's partials: far apart, up to where the
/// reference mallet is 40 dB down.
const PARTIALS: [(f64, f64, f64); 3] = [(500.0, 1.5, 1.0), (2500.0, 0.8, 0.5), (6000.0, 0.4, 0.25)];

/// A body file as `rebound fit` writes one (its extra fields are ignored).
fn write_body(path: &Path, partials: &[(f64, f64, f64)], version: u32) {
    let modes: Vec<serde_json::Value> = partials
        .iter()
        .map(|&(f, t60, a)| {
            serde_json::json!({"freq_hz": f, "t60_s": t60, "level_db": 0.0, "amplitude": a, "phase": 0.0})
        })
        .collect();
    let body = serde_json::json!({"version": version, "fs": 48000.0, "onset_s": 0.0,
        "modes": modes, "residual_db": -40.0, "noise_floor_db": -60.0});
    std::fs::write(path, body.to_string()).unwrap();
}

/// `rebound fit --json` of `wav`: its modes' (Hz, T60 s, level dB).
fn fitted(wav: &Path) -> Vec<(f64, f64, f64)> {
    let (code, out, err) = rebound(&["fit", wav.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let num = |m: &serde_json::Value, k: &str| m[k].as_f64().unwrap();
    v["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (num(m, "freq_hz"), num(m, "t60_s"), num(m, "level_db")))
        .collect()
}

fn nearest(modes: &[(f64, f64, f64)], f: f64) -> (f64, f64, f64) {
    *modes
        .iter()
        .min_by(|a, b| (a.0 - f).abs().total_cmp(&(b.0 - f).abs()))
        .expect("modes found")
}

fn render(out: &Path, extra: &[&str]) {
    let mut args = vec![
        "render",
        "--out",
        out.to_str().unwrap(),
        "--velocity",
        "127",
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = rebound(&args);
    assert_eq!(code, 0, "{err}");
}

/// A body file's partials, struck at full velocity on the default patch (the reference
/// strike) with key tracking off and the body alone, are in the render where the file
/// puts them: frequency within 0.2 %, T60 within 10 %, level against the first within
/// 1.5 dB. Without the reference mallet taken out, the 6 kHz partial would come out
/// about 40 dB down.
#[test]
fn a_body_file_plays_its_partials() {
    let dir = scratch::dir("cli_recorded");
    let (body, wav) = (dir.path().join("body.json"), dir.path().join("out.wav"));
    write_body(&body, &PARTIALS, 1);
    let b = body.to_str().unwrap();
    render(&wav, &["--body-file", b, "--key-track", "0", "--mix", "1"]);
    let modes = fitted(&wav);
    let first = nearest(&modes, PARTIALS[0].0).2;
    for &(f, t60, a) in &PARTIALS {
        let (g, u, l) = nearest(&modes, f);
        assert!((g / f - 1.0).abs() < 2e-3, "{f} Hz: {g}");
        assert!((u / t60 - 1.0).abs() < 0.1, "{f} Hz: T60 {u}");
        let want = 20.0 * (a / PARTIALS[0].2).log10();
        assert!((l - first - want).abs() < 1.5, "{f} Hz: {} dB", l - first);
    }
    // Key tracking moves every partial together: an octave up, each at twice its
    // frequency.
    render(&wav, &["--body-file", b, "--mix", "1", "--note", "72"]);
    let up = fitted(&wav);
    for &(f, _, _) in &PARTIALS {
        let g = nearest(&up, 2.0 * f).0;
        assert!(
            (g / (2.0 * f) - 1.0).abs() < 2e-3,
            "{f} Hz an octave up: {g}"
        );
    }
}

/// The built-in body (Body at Recorded with nothing loaded) is the fit of the
/// repository's recording, and the recording's own fit again finds those partials.
#[test]
fn the_built_in_body_is_the_shipped_recordings_fit() {
    let modes = fitted(Path::new(RECORDING));
    assert_eq!(modes.len(), WINE_GLASS.len(), "{modes:?}");
    for &(f, t60, _) in &WINE_GLASS {
        let (g, u, _) = nearest(&modes, f);
        assert!(
            (g / f - 1.0).abs() < 1e-6 && (u / t60 - 1.0).abs() < 1e-4,
            "{f}: {g} {u}"
        );
    }
}

/// The mono samples of a WAV from the first above a tenth of its peak.
fn from_onset(path: &Path) -> (Vec<f64>, f64) {
    let (spec, x) = read_wav(path);
    let ch = usize::from(spec.channels);
    let mono: Vec<f64> = x
        .chunks(ch)
        .map(|c| c.iter().map(|&s| f64::from(s)).sum::<f64>() / ch as f64)
        .collect();
    let peak = mono.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    let on = mono.iter().position(|s| s.abs() > 0.1 * peak).unwrap();
    (mono[on..].to_vec(), f64::from(spec.sample_rate))
}

/// Energy in dB of each 1/3-octave band from 100 Hz to 12.5 kHz (centres 1 kHz ·
/// 2^(k/3), k = −10 … 11) over 20 ms–1 s after the onset, relative to the loudest band.
fn third_octaves(x: &[f64], fs: f64) -> Vec<f64> {
    let seg = &x[(0.02 * fs) as usize..(1.0 * fs) as usize];
    let n = seg.len().next_power_of_two() * 2;
    let mut buf: Vec<Complex<f64>> = (0..n)
        .map(|i| Complex::new(seg.get(i).copied().unwrap_or(0.0), 0.0))
        .collect();
    FftPlanner::new().plan_fft_forward(n).process(&mut buf);
    let bands: Vec<f64> = (-10..=11)
        .map(|k| {
            let c = 1000.0 * 2f64.powf(k as f64 / 3.0);
            let (lo, hi) = (c / 2f64.powf(1.0 / 6.0), c * 2f64.powf(1.0 / 6.0));
            let bin = |f: f64| (f * n as f64 / fs) as usize;
            buf[bin(lo)..bin(hi)]
                .iter()
                .map(|z| z.norm_sqr())
                .sum::<f64>()
        })
        .collect();
    let top = bands.iter().fold(0.0f64, |m, &b| m.max(b));
    bands.iter().map(|b| 10.0 * (b / top).log10()).collect()
}

/// `recording` fitted (`rebound fit`) and struck through its body (key tracking 0,
/// Body mix 1, the reference strike), in `dir`: the 1/3-octave spectra of both over
/// 20 ms–1 s and their RMS difference in dB over the bands within 45 dB of the
/// recording's loudest, with how many bands that is.
fn struck_through_fit(recording: &Path, dir: &Path) -> (f64, usize, Vec<f64>, Vec<f64>) {
    let (body, wav) = (dir.join("fitted.json"), dir.join("struck.wav"));
    let r = recording.to_str().unwrap();
    let (code, _, err) = rebound(&["fit", r, "--out", body.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let b = body.to_str().unwrap();
    let args = [
        "--body-file",
        b,
        "--key-track",
        "0",
        "--mix",
        "1",
        "--duration",
        "1.5",
    ];
    render(&wav, &args);
    let (rec, fs) = from_onset(recording);
    let (a, b) = (
        third_octaves(&rec, fs),
        third_octaves(&from_onset(&wav).0, fs),
    );
    let held: Vec<f64> = a
        .iter()
        .zip(&b)
        .filter(|(x, _)| **x > -45.0)
        .map(|(x, y)| x - y)
        .collect();
    let rms = (held.iter().map(|d| d * d).sum::<f64>() / held.len() as f64).sqrt();
    (rms, held.len(), a, b)
}

/// The recording struck through its fitted body (key tracking 0, Body mix 1, the
/// reference strike) has the recording's 1/3-octave spectrum over 20 ms–1 s: within
/// 2 dB RMS over the bands that hold a partial (within 45 dB of the loudest; the
/// others hold the recording's room noise, which a body does not play).
#[test]
fn the_body_sounds_like_its_recording() {
    let dir = scratch::dir("cli_recorded_thirds");
    let (rms, bands, a, b) = struck_through_fit(Path::new(RECORDING), dir.path());
    assert!(bands >= 6, "{a:?}");
    assert!(rms < 2.0, "{rms} dB RMS: recording {a:?}, body {b:?}");
}

/// A recording with more partials than the bank holds (40, from 150 Hz to 11 kHz,
/// levels 0 to −30 dB, T60 0.2–3 s, noise at −60 dB), made here: struck through its
/// fitted body it keeps its 1/3-octave balance within 5 dB RMS over the bands within
/// 45 dB of the loudest (4.3 dB measured), the partials kept by band each carrying its
/// band's energy; kept by energy alone, bands went silent (11.8 dB).
#[test]
fn a_dense_recording_keeps_its_balance() {
    let dir = scratch::dir("cli_recorded_dense");
    let rec = dir.path().join("dense.wav");
    let fs = 48_000.0;
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let partials: Vec<(f64, f64, f64, f64)> = (0..40)
        .map(|i| {
            let f = 150.0 * (11_000.0f64 / 150.0).powf((i as f64 + 0.5 * rng.next()) / 40.0);
            let level = 10f64.powf(-30.0 * rng.next() / 20.0);
            (f, 0.2 + 2.8 * rng.next(), level, TAU * rng.next())
        })
        .collect();
    let mut x: Vec<f64> = (0..(2.0 * fs) as usize)
        .map(|n| {
            let t = n as f64 / fs;
            partials
                .iter()
                .map(|&(f, t60, a, ph)| a * (-6.9078 * t / t60).exp() * (TAU * f * t + ph).sin())
                .sum()
        })
        .collect();
    let peak = x.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    for s in &mut x {
        *s = 0.5 * *s / peak + 0.5e-3 * (2.0 * rng.next() - 1.0);
    }
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 48_000,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut w = hound::WavWriter::create(&rec, spec).unwrap();
    for s in &x {
        w.write_sample(*s as f32).unwrap();
    }
    w.finalize().unwrap();
    let (rms, bands, a, b) = struck_through_fit(&rec, dir.path());
    assert!(bands >= 15, "{a:?}");
    assert!(rms < 5.0, "{rms} dB RMS: recording {a:?}, body {b:?}");
}

/// A user preset saved with a body file keeps the partials, and renders bit for bit
/// as the body file does, in a process that never read the file.
#[test]
fn a_user_preset_keeps_its_body() {
    let dir = scratch::dir("cli_recorded_preset");
    let (body, a, b) = (
        dir.path().join("b.json"),
        dir.path().join("a.wav"),
        dir.path().join("b.wav"),
    );
    write_body(&body, &PARTIALS, 1);
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rebound"))
            .args(args)
            .env("REBOUND_PRESET_DIR", dir.path().join("presets"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());
    run(&[
        "render",
        "--body-file",
        body.to_str().unwrap(),
        "--out",
        a_s,
        "--save-preset",
        "Three partials",
    ]);
    std::fs::remove_file(&body).unwrap();
    run(&["render", "--preset", "Three partials", "--out", b_s]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let saved = std::fs::read_to_string(dir.path().join("presets/three-partials.json")).unwrap();
    assert!(
        saved.contains("\"recorded\"") && saved.contains("2500.0"),
        "{saved}"
    );
}

/// A body file that is missing, not JSON, of another version or without one usable
/// partial is refused with a message, never a panic.
#[test]
fn a_bad_body_file_is_refused() {
    let dir = scratch::dir("cli_recorded_bad");
    let p = |name: &str| dir.path().join(name);
    std::fs::write(p("junk.json"), "{ not json").unwrap();
    write_body(&p("v2.json"), &PARTIALS, 2);
    write_body(
        &p("none.json"),
        &[(f64::MAX, -1.0, 1.0), (440.0, 1.0, 0.0)],
        1,
    );
    let out = p("out.wav");
    for (file, says) in [
        (p("missing.json"), "cannot read"),
        (p("junk.json"), "not a body file"),
        (p("v2.json"), "version 2"),
        (p("none.json"), "no partial"),
    ] {
        let args = [
            "render",
            "--body-file",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        let (code, stdout, stderr) = rebound_within(PROMPT, &args);
        assert_eq!(code, 2, "{file:?}: {stdout}");
        assert!(
            stderr.contains("--body-file") && stderr.contains(says) && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}
