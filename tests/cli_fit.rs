//! `rebound fit`: the modes of a recording made here (three decaying partials, a noise
//! floor, silence before the strike, stereo), found as the recording holds them and
//! written to a body file that reads back; a file that is not audio is refused.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;

const FS: u32 = 48_000;
/// (Hz, T60 s, amplitude) of the partials.
const PARTIALS: [(f64, f64, f64); 3] = [(523.0, 1.2, 0.5), (1410.0, 0.4, 0.2), (3350.0, 0.15, 0.1)];
const PRE_ROLL: f64 = 0.2;

/// The recording: a strike after [`PRE_ROLL`] s, noise 60 dB under the loudest
/// partial, the right channel at half the left's level.
fn write_strike(path: &std::path::Path) {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: FS,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for n in 0..(2.0 * f64::from(FS)) as usize {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let noise = 5e-4 * ((seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5);
        let t = n as f64 / f64::from(FS) - PRE_ROLL;
        let x: f64 = if t < 0.0 {
            0.0
        } else {
            PARTIALS
                .iter()
                .map(|&(f, t60, a)| {
                    a * (-t * 1000f64.ln() / t60).exp() * (2.0 * std::f64::consts::PI * f * t).sin()
                })
                .sum()
        };
        w.write_sample((x + noise) as f32).unwrap();
        w.write_sample((0.5 * x + noise) as f32).unwrap();
    }
    w.finalize().unwrap();
}

#[test]
fn the_partials_of_a_recording_are_found_and_written() {
    let dir = scratch::dir("cli_fit");
    let wav = dir.path().join("strike.wav");
    let body = dir.path().join("body.json");
    write_strike(&wav);
    let (code, stdout, stderr) = rebound_within(
        SLOW,
        &[
            "fit",
            wav.to_str().unwrap(),
            "--out",
            body.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let written = std::fs::read_to_string(&body).unwrap();
    assert_eq!(stdout.trim(), written.trim(), "--json prints the body file");
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    let modes = v["modes"].as_array().expect("a list of modes");
    let all = |k: &str| -> Vec<f64> { modes.iter().map(|m| m[k].as_f64().unwrap()).collect() };
    let (freqs, t60s, levels) = (all("freq_hz"), all("t60_s"), all("level_db"));
    let onset = v["onset_s"].as_f64().unwrap();
    assert!((onset - PRE_ROLL).abs() < 2e-3, "{written}");
    for &(f, t60, a) in &PARTIALS {
        let i = (0..freqs.len())
            .min_by(|&i, &j| (freqs[i] - f).abs().total_cmp(&(freqs[j] - f).abs()))
            .expect("modes found");
        let level = 20.0 * (a / PARTIALS[0].2).log10();
        assert!((freqs[i] / f - 1.0).abs() < 2e-3, "{f} Hz: {}", freqs[i]);
        assert!(
            (t60s[i] / t60 - 1.0).abs() < 0.15,
            "{f} Hz: T60 {}",
            t60s[i]
        );
        assert!((levels[i] - level).abs() < 3.0, "{f} Hz: {} dB", levels[i]);
    }
    // Nothing else as loud as the quietest partial (−14 dB).
    let loud = levels.iter().filter(|&&l| l > -20.0).count();
    assert_eq!(loud, PARTIALS.len(), "{written}");
    // The table names every mode, and --modes keeps the strongest.
    let (code, table, _) = rebound_within(SLOW, &["fit", wav.to_str().unwrap(), "--modes", "1"]);
    assert_eq!(code, 0);
    assert!(
        table.contains("1 modes") && table.contains("523."),
        "{table}"
    );
}

#[test]
fn what_is_not_a_recording_is_refused() {
    let dir = scratch::dir("cli_fit_bad");
    let junk = dir.path().join("junk.wav");
    std::fs::write(&junk, b"not a wave file at all").unwrap();
    for args in [
        vec!["fit", junk.to_str().unwrap()],
        vec!["fit", "/nonexistent/strike.wav"],
        vec!["fit", junk.to_str().unwrap(), "--modes", "0"],
    ] {
        let (code, stdout, stderr) = rebound_within(PROMPT, &args);
        assert_eq!(code, 2, "{args:?}: {stdout}");
        assert!(
            stderr.starts_with("error:") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
}
