//! Running the `rebound` binary in tests: with a time limit, and the shared checks of its
//! output.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for `paper` and `render` in a debug build on a shared machine.
pub const SLOW: Duration = Duration::from_secs(300);
/// What a refused argument, or a single impact inside the ranges, may take: a run
/// that used to hang is killed here and fails its test instead of hanging it.
pub const PROMPT: Duration = Duration::from_secs(20);

pub fn rebound(args: &[&str]) -> (i32, String, String) {
    rebound_within(SLOW, args)
}

/// Runs the CLI, killing it and failing the test if it is still running after `limit`.
pub fn rebound_within(limit: Duration, args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rebound"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drained on their own threads so a long output cannot fill a pipe and stall it.
    let drain = |mut r: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            r.read_to_end(&mut buf).ok();
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!("{args:?}: still running after {limit:?}, killed");
        }
        thread::sleep(Duration::from_millis(5));
    };
    (
        status.code().unwrap_or(-1),
        out.join().unwrap(),
        err.join().unwrap(),
    )
}

/// Asserts a refusal: status 2, nothing on stdout, clap's `error: …` on stderr whose
/// first line names `name`. Returns that first line.
pub fn assert_refused(args: &[&str], name: &str) -> String {
    let (code, stdout, stderr) = rebound_within(PROMPT, args);
    assert_eq!(code, 2, "{args:?}: status {code}, stderr {stderr}");
    assert!(stdout.is_empty(), "{args:?}: printed {stdout}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let first = stderr.lines().next().unwrap_or("").to_string();
    assert!(
        first.starts_with("error: ") && first.contains(&format!("'{name}")),
        "{args:?}: {stderr}"
    );
    first
}

/// The number after `"key":` in flat JSON output (the first occurrence from `from`).
pub fn json_num(json: &str, key: &str) -> f64 {
    json_num_all(json, key)
        .first()
        .copied()
        .unwrap_or_else(|| panic!("no number for {key} in {json}"))
}

/// Every number given for `key`, in order (`null` as NaN).
pub fn json_num_all(json: &str, key: &str) -> Vec<f64> {
    let pat = format!("\"{key}\":");
    json.match_indices(&pat)
        .map(|(i, _)| {
            let rest = &json[i + pat.len()..];
            let end = rest.find([',', '}', ']']).unwrap_or(rest.len());
            let text = &rest[..end];
            if text == "null" {
                f64::NAN
            } else {
                text.parse()
                    .unwrap_or_else(|e| panic!("{key}: '{text}': {e}"))
            }
        })
        .collect()
}

pub fn json_bool_all(json: &str, key: &str) -> Vec<bool> {
    let pat = format!("\"{key}\":");
    json.match_indices(&pat)
        .map(|(i, _)| json[i + pat.len()..].starts_with("true"))
        .collect()
}

/// `sequence --gravity-in-contact --json` with `extra` options.
pub fn train_json(extra: &[&str]) -> String {
    let mut args = vec!["sequence", "--gravity-in-contact", "--json"];
    args.extend(extra);
    let (code, stdout, stderr) = rebound_within(PROMPT, &args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// Runs `rebound render --midi MID --out OUT --fs 44100` with `extra` options and
/// asserts it succeeded quietly; its standard output.
pub fn render_midi(mid: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> String {
    let mut args = vec![
        "render",
        "--midi",
        mid.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--fs",
        "44100",
    ];
    args.extend(extra);
    let (code, stdout, stderr) = rebound(&args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    stdout
}

/// The left channel of a stereo WAV, and its rate.
pub fn read_left(path: &std::path::Path) -> (Vec<f32>, u32) {
    let (spec, s) = read_wav(path);
    assert_eq!(spec.channels, 2);
    (s.chunks(2).map(|c| c[0]).collect(), spec.sample_rate)
}

/// Reads a WAV: its spec and its samples as f32 (24-bit PCM scaled to ±1).
pub fn read_wav(path: &std::path::Path) -> (hound::WavSpec, Vec<f32>) {
    let mut r = hound::WavReader::open(path).unwrap();
    let spec = r.spec();
    let samples = match spec.sample_format {
        hound::SampleFormat::Float => r.samples::<f32>().map(Result::unwrap).collect(),
        hound::SampleFormat::Int => r
            .samples::<i32>()
            .map(|s| s.unwrap() as f32 / 8_388_607.0)
            .collect(),
    };
    (spec, samples)
}

/// The documented validity ranges of `simulate` and `sequence` (docs/model.md), written out
/// here apart from the source so that a changed range fails these tests:
/// option, smallest and largest accepted value, the range as the messages print it.
pub const RANGES: [(&str, f64, f64, &str); 9] = [
    ("k", 1e2, 1e12, "100 to 1e12 N/m^alpha"),
    ("mu", 1e-4, 10.0, "1e-4 to 10 s/m"),
    ("restitution", 0.05, 0.99, "0.05 to 0.99"),
    ("alpha", 1.0, 3.0, "1 to 3"),
    ("mass", 1e-4, 1.0, "1e-4 to 1 kg"),
    ("v-in", 1e-3, 50.0, "1e-3 to 50 m/s"),
    ("fs", 22_050.0, 768_000.0, "22050 to 768000 Hz"),
    ("gravity", 0.1, 100.0, "0.1 to 100 m/s^2"),
    ("impacts", 1.0, 100_000.0, "1 to 100000"),
];
