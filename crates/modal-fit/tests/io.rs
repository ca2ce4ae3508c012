//! Reading files and writing body files: WAV in its integer and float forms, FLAC,
//! the errors a bad file gives, and the JSON round trip.

mod common;

use common::{Rng, compare, random_partials, render};
use modal_fit::{BodyFile, FitError, FitOptions, Recording, fit, read_audio};
use std::path::Path;

const FS: u32 = 48_000;

/// A strike (stereo, the right channel at half level) of 2 s, and its partials.
fn strike() -> (Vec<f64>, Vec<f64>, Vec<common::Partial>) {
    let mut rng = Rng::new(42);
    let partials = random_partials(&mut rng, 0.5);
    let left = render(&partials, f64::from(FS), 0.0, 2.0, 0.5e-3, &mut rng);
    let right: Vec<f64> = left.iter().map(|x| 0.5 * x).collect();
    (left, right, partials)
}

fn write_wav(path: &Path, spec: hound::WavSpec, left: &[f64], right: &[f64]) {
    let mut w = hound::WavWriter::create(path, spec).expect("create wav");
    for (l, r) in left.iter().zip(right) {
        for x in [l, r] {
            match spec.sample_format {
                hound::SampleFormat::Float => w.write_sample(*x as f32).expect("write"),
                hound::SampleFormat::Int => {
                    let full = f64::from(1u32 << (spec.bits_per_sample - 1));
                    w.write_sample((x * full).round() as i32).expect("write");
                }
            }
        }
    }
    w.finalize().expect("finalize");
}

fn check_fit(rec: &Recording, partials: &[common::Partial], what: &str) {
    assert_eq!(rec.fs, f64::from(FS), "{what}");
    assert_eq!(rec.channels.len(), 2, "{what}");
    let f = fit(rec, &FitOptions::default()).expect("fit");
    // The RMS of full and half level is √(5/8) of the left channel's amplitude; the
    // levels relative to the strongest are unchanged.
    let e = compare(&f, partials);
    println!("{what}: {e:?}");
    assert!(e.pass(), "{what}: {e:?}");
}

#[test]
fn wav_int16_int24_and_float32_read_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (left, right, partials) = strike();
    for (bits, format) in [
        (16, hound::SampleFormat::Int),
        (24, hound::SampleFormat::Int),
        (32, hound::SampleFormat::Float),
    ] {
        let path = dir.path().join(format!("strike{bits}.wav"));
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: FS,
            bits_per_sample: bits,
            sample_format: format,
        };
        write_wav(&path, spec, &left, &right);
        let rec = read_audio(&path).expect("read wav");
        let tolerance = if bits == 16 { 1.0 / 32768.0 } else { 1e-6 };
        assert!(
            (rec.channels[0][100] - left[100]).abs() <= tolerance,
            "{bits}-bit sample value"
        );
        check_fit(&rec, &partials, &format!("{bits}-bit WAV"));
    }
}

#[test]
fn flac_reads_back() {
    use flacenc::component::BitRepr;
    use flacenc::error::Verify;
    let dir = tempfile::tempdir().expect("tempdir");
    let (left, right, partials) = strike();
    let interleaved: Vec<i32> = left
        .iter()
        .zip(&right)
        .flat_map(|(l, r)| [(l * 32768.0).round() as i32, (r * 32768.0).round() as i32])
        .collect();
    let config = flacenc::config::Encoder::default()
        .into_verified()
        .expect("config");
    let source = flacenc::source::MemSource::from_samples(&interleaved, 2, 16, FS as usize);
    let stream =
        flacenc::encode_with_fixed_block_size(&config, source, config.block_size).expect("encode");
    let mut sink = flacenc::bitsink::ByteSink::new();
    stream.write(&mut sink).expect("write stream");
    // Named .wav on purpose: the format is told by the file's first bytes.
    let path = dir.path().join("strike-really-flac.wav");
    std::fs::write(&path, sink.as_slice()).expect("write flac");
    let rec = read_audio(&path).expect("read flac");
    assert_eq!(rec.len(), left.len());
    assert_eq!(
        rec.channels[1][1000],
        f64::from(interleaved[2001]) / 32768.0
    );
    check_fit(&rec, &partials, "FLAC");
}

#[test]
fn bad_files_give_errors_not_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = read_audio(&dir.path().join("nothing-here.wav"));
    assert!(matches!(missing, Err(FitError::Io { .. })), "{missing:?}");

    let empty = dir.path().join("empty.wav");
    std::fs::write(&empty, b"").expect("write");
    let e = read_audio(&empty).expect_err("empty file");
    assert!(e.to_string().contains("empty"), "{e}");

    let garbage = dir.path().join("garbage.flac");
    let mut rng = Rng::new(5);
    let bytes: Vec<u8> = (0..4096).map(|_| (rng.uniform() * 256.0) as u8).collect();
    std::fs::write(&garbage, &bytes).expect("write");
    assert!(matches!(read_audio(&garbage), Err(FitError::Format { .. })));

    let truncated = dir.path().join("truncated.wav");
    std::fs::write(&truncated, b"RIFF\x24\x00\x00\x00WAVEfmt ").expect("write");
    assert!(matches!(
        read_audio(&truncated),
        Err(FitError::Format { .. })
    ));

    let no_samples = dir.path().join("no-samples.wav");
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: FS,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    hound::WavWriter::create(&no_samples, spec)
        .expect("create")
        .finalize()
        .expect("finalize");
    assert!(matches!(read_audio(&no_samples), Err(FitError::Empty)));
}

#[test]
fn silence_and_broken_recordings_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let silent = dir.path().join("silent.wav");
    let zeros = vec![0.0; 48_000];
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: FS,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    write_wav(&silent, spec, &zeros, &zeros);
    let rec = read_audio(&silent).expect("read");
    assert!(matches!(
        fit(&rec, &FitOptions::default()),
        Err(FitError::NoSignal)
    ));

    let opts = FitOptions::default();
    let zero_rate = Recording {
        fs: 0.0,
        channels: vec![vec![0.1; 100]],
    };
    assert!(matches!(
        fit(&zero_rate, &opts),
        Err(FitError::SampleRate(_))
    ));
    let nothing = Recording {
        fs: 48_000.0,
        channels: vec![],
    };
    assert!(matches!(fit(&nothing, &opts), Err(FitError::Empty)));
    let nan = Recording {
        fs: 48_000.0,
        channels: vec![vec![0.1, f64::NAN, 0.2]],
    };
    assert!(matches!(fit(&nan, &opts), Err(FitError::BadSamples(_))));
    let ragged = Recording {
        fs: 48_000.0,
        channels: vec![vec![0.1; 10], vec![0.1; 9]],
    };
    assert!(matches!(fit(&ragged, &opts), Err(FitError::BadSamples(_))));
}

#[test]
fn very_short_recordings_give_no_modes_and_finite_numbers() {
    for n in [1, 10, 200, 2000] {
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3 + 1.0).sin() * 0.5).collect();
        let f = fit(
            &Recording {
                fs: 48_000.0,
                channels: vec![x],
            },
            &FitOptions::default(),
        )
        .expect("fit");
        assert!(
            f.residual_db.is_finite() && f.noise_floor_db.is_finite(),
            "{n} samples: {f:?}"
        );
        assert!(
            f.modes
                .iter()
                .all(|m| m.freq_hz.is_finite() && m.t60_s.is_finite() && m.level_db.is_finite())
        );
    }
}

#[test]
fn body_file_round_trips_bit_for_bit() {
    let (left, _, _) = strike();
    let f = fit(
        &Recording {
            fs: f64::from(FS),
            channels: vec![left],
        },
        &FitOptions::default(),
    )
    .expect("fit");
    let body = BodyFile::new(f);
    let json = body.to_json();
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(value["version"], 1);
    assert!(value["modes"][0]["freq_hz"].is_f64() && value["modes"][0]["t60_s"].is_f64());
    let back = BodyFile::from_json(&json).expect("parse");
    assert_eq!(back, body);
    for (a, b) in back.fit.modes.iter().zip(&body.fit.modes) {
        assert_eq!(a.freq_hz.to_bits(), b.freq_hz.to_bits());
        assert_eq!(a.phase.to_bits(), b.phase.to_bits());
    }
    let wrong = json.replacen("\"version\": 1", "\"version\": 2", 1);
    assert!(matches!(
        BodyFile::from_json(&wrong),
        Err(FitError::BodyFile(_))
    ));
    assert!(matches!(
        BodyFile::from_json("{\"version\": 1}"),
        Err(FitError::BodyFile(_))
    ));
}
