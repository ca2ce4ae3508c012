//! Proves the command-line tool's contract: bad arguments give clap's error (its first
//! line `error: …` names the argument) and exit status 2, never a panic; `--version`
//! and every subcommand's `--help` exit 0, the help giving every option's unit and
//! range; good arguments print what they say.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;
use std::time::{Duration, Instant};

#[test]
fn bad_arguments_exit_2_naming_the_argument() {
    let cases: &[(&[&str], &str)] = &[
        (&["simulate", "--method", "euler"], "--method"),
        (&["simulate", "--mass", "-1"], "--mass"),
        (&["simulate", "--k", "0"], "--k"),
        (&["simulate", "--k", "-5"], "--k"),
        (&["simulate", "--alpha", "0.5"], "--alpha"),
        (&["simulate", "--mu", "abc"], "--mu"),
        (&["simulate", "--v-in"], "--v-in"),
        (&["simulate", "--fs", "nan"], "--fs"),
        (&["simulate", "--correction", "all"], "--correction"),
        (&["simulate", "--clamp-target", "close"], "--clamp-target"),
        (&["simulate", "--bogus", "1"], "--bogus"),
        (&["simulate", "--k", "1e7", "--k", "1e8"], "--k"),
        (&["sequence", "--impacts", "0"], "--impacts"),
        (&["sequence", "--impacts", "many"], "--impacts"),
        (&["sequence", "--gravity", "-9.81"], "--gravity"),
        (&["paper", "--table", "4"], "--table"),
        (&["paper", "--json=yes"], "--json"),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, name) in cases {
        let (code, stdout, stderr) = rebound(args);
        assert_eq!(code, 2, "{args:?}: status {code}, stderr {stderr}");
        assert!(stdout.is_empty(), "{args:?}: printed {stdout}");
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ") && first.contains(name),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = rebound(&[]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn simulate_json_has_the_documented_keys() {
    let (code, stdout, stderr) = rebound(&[
        "simulate",
        "--k",
        "1e9",
        "--mu",
        "0.5",
        "--alpha",
        "1.5",
        "--mass",
        "0.01",
        "--v-in",
        "1",
        "--fs",
        "44100",
        "--method",
        "heun",
        "--correction",
        "none",
        "--clamp-target",
        "approx",
        "--per-sample",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    for key in [
        "contact_samples",
        "v_out_sim",
        "v_out_exact",
        "v_out_approx",
        "x_max",
        "x_max_sim",
        "tau_samples",
        "dev_x_pct",
        "dev_h_pct",
        "err_vout_pct",
        "newton_iters_mean",
        "newton_iters_max",
        "runaway",
        "closed_form",
        "damped",
        "substeps",
    ] {
        assert!(
            stdout.contains(&format!("\"{key}\":")),
            "missing {key}: {stdout}"
        );
    }
    // Table II(b), Heun, against ṽ_out, at the paper's one step per sample: %dev(x)
    // 19.506, %err(v_out) −4.692.
    assert!(stdout.contains("\"dev_x_pct\":19.50"), "{stdout}");
    assert!(stdout.contains("\"err_vout_pct\":-4.69"), "{stdout}");
    assert!(stdout.contains("\"runaway\":false"), "{stdout}");
}

#[test]
fn paper_prints_every_table_and_sequence_runs() {
    let (code, stdout, _) = rebound(&["paper"]);
    assert_eq!(code, 0);
    for t in [
        "Table I:",
        "Table II(a)",
        "Table II(b)",
        "Table III(a)",
        "Table III(b)",
    ] {
        assert!(stdout.contains(t), "{t} missing");
    }
    assert!(stdout.contains("946.600"));
    let (code, stdout, _) = rebound(&["paper", "--table", "2b", "--json"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("[{\"table\":\"2b\""), "{stdout}");
    let (code, stdout, stderr) = rebound(&[
        "sequence",
        "--impacts",
        "5",
        "--k",
        "1e9",
        "--mu",
        "0.5",
        "--v-in",
        "1",
        "--gravity",
        "9.81",
        "--method",
        "verlet",
        "--correction",
        "both",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 7, "{stdout}");
    assert!(stdout.contains("after 5 impacts"));
}

#[test]
fn render_errors_name_the_argument() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["render", "--note", "200", "--out", "/tmp/x.wav"],
            "--note",
        ),
        (
            &["render", "--velocity", "0", "--out", "/tmp/x.wav"],
            "--velocity",
        ),
        (&["render"], "--out"),
        (&["render", "--out", "/tmp/x.wav", "--k", "1e13"], "--k"),
        (&["render", "--out", "/tmp/x.wav", "--mass", "2"], "--mass"),
        (
            &["render", "--out", "/tmp/x.wav", "--duration", "-1"],
            "--duration",
        ),
        (
            &["render", "--out", "/tmp/x.wav", "--bouncing", "maybe"],
            "--bouncing",
        ),
        (
            &["render", "--out", "/tmp/x.wav", "--body", "drum"],
            "--body",
        ),
        (&["render", "--out", "/tmp/x.wav", "--fs", "0"], "--fs"),
        (
            &["render", "--out", "/tmp/x.wav", "--note-off", "choke"],
            "--note-off",
        ),
        (
            &["render", "--out", "/tmp/x.wav", "--release", "3"],
            "--release",
        ),
        (&["render", "--out", "/tmp/x.wav", "--hold", "-1"], "--hold"),
        (
            &["render", "--out", "/tmp/x.wav", "--hold", "nan"],
            "--hold",
        ),
        (&["render", "--out", "/nonexistent-dir/x.wav"], "--out"),
    ];
    for (args, name) in cases {
        let (code, _, stderr) = rebound(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        // Clap's message (a missing required option is named on the next line).
        let head: String = stderr.lines().take(2).collect();
        assert!(
            stderr.starts_with("error: ") && head.contains(name) && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn render_writes_a_sounding_wav_and_a_png() {
    let scratch = scratch::dir("cli");
    let dir = scratch.path();
    let (wav, png) = (dir.join("hit.wav"), dir.join("hit.png"));
    let (code, stdout, stderr) = rebound(&[
        "render",
        "--note",
        "64",
        "--velocity",
        "127",
        "--duration",
        "0.5",
        "--fs",
        "44100",
        "--body",
        "plate",
        "--bouncing",
        "on",
        "--note-off",
        "damp",
        "--hold",
        "0.1",
        "--release",
        "0.05",
        "--out",
        wav.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("wrote"), "{stdout}");
    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (2, 44_100, 32)
    );
    assert_eq!(spec.sample_format, hound::SampleFormat::Float);
    let samples: Vec<f32> = reader.samples::<f32>().map(Result::unwrap).collect();
    assert_eq!(samples.len(), 22_050 * 2, "0.5 s of stereo f32");
    assert!(samples.iter().all(|s| s.is_finite()));
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 1e-3 && peak <= 2.0, "peak {peak}");
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[1..4], b"PNG");
}

/// The command that takes `--name`, before it: a single impact for the contact
/// options, a short sequence for gravity, and a sequence of ~5-sample linear contacts
/// (alpha = 1) for the impact count, so that 100000 of them stay quick.
fn command_for(name: &str) -> Vec<&'static str> {
    match name {
        "gravity" => vec!["sequence", "--impacts", "3"],
        "impacts" => vec!["sequence", "--alpha", "1", "--k", "1e7"],
        _ => vec!["simulate"],
    }
}

#[test]
fn every_range_end_is_accepted_and_just_past_it_refused() {
    for (name, lo, hi, range) in RANGES {
        let whole = name == "impacts";
        // Just inside and just outside each end: one count, or a relative 1e-3.
        let (inside, outside) = if whole {
            ([lo, lo + 1.0, hi - 1.0, hi], [lo - 1.0, hi + 1.0])
        } else {
            (
                [lo, lo * (1.0 + 1e-3), hi * (1.0 - 1e-3), hi],
                [lo * (1.0 - 1e-3), hi * (1.0 + 1e-3)],
            )
        };
        let opt = format!("--{name}");
        for v in inside {
            let text = format!("{v:e}");
            let mut args = command_for(name);
            args.extend([opt.as_str(), text.as_str()]);
            let (code, stdout, stderr) = rebound_within(PROMPT, &args);
            assert_eq!(code, 0, "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            if name == "impacts" {
                let done = format!("after {v} impacts");
                assert!(stdout.contains(&done), "{args:?}: no '{done}'");
            } else {
                assert!(stdout.contains("v_out sim"), "{args:?}: {stdout}");
            }
        }
        for v in outside {
            let text = format!("{v:e}");
            let mut args = command_for(name);
            args.extend([opt.as_str(), text.as_str()]);
            let msg = assert_refused(&args, &opt);
            assert!(
                msg.contains(&format!("invalid value '{text}'")) && msg.contains(range),
                "{args:?}: {msg}"
            );
        }
    }
    // A count must be whole.
    let msg = assert_refused(&["sequence", "--impacts", "2.5"], "--impacts");
    assert!(msg.contains("whole number"), "{msg}");
}

#[test]
fn non_finite_extreme_empty_and_unreadable_values_are_refused() {
    let bad = [
        "nan", "NaN", "-nan", "inf", "-inf", "+inf", "infinity", "1e300", "-1e300", "1e-300",
        "-1e-300", "5e-324", "-5e-324", "1e400", "0", "-1", "", " ", "abc", "1.5.2", "0x10", "1e",
    ];
    for (name, _, _, range) in RANGES {
        let opt = format!("--{name}");
        for v in bad {
            let mut args = command_for(name);
            args.extend([opt.as_str(), v]);
            let msg = assert_refused(&args, &opt);
            assert!(
                msg.contains(&format!("invalid value '{v}'")) && msg.contains(range),
                "{args:?}: {msg}"
            );
            // The same value given inline.
            let inline = format!("{opt}={v}");
            let mut args = command_for(name);
            args.push(inline.as_str());
            let msg = assert_refused(&args, &opt);
            assert!(
                msg.contains(&format!("invalid value '{v}'")),
                "{args:?}: {msg}"
            );
        }
        let mut args = command_for(name);
        args.push(opt.as_str());
        let msg = assert_refused(&args, &opt);
        assert!(msg.contains("a value is required"), "{msg}");
    }
}

#[test]
fn former_panics_and_hangs_are_refused_promptly() {
    // Before the ranges: --mu 1e-200 panicked (status 101) and the others ran for ever.
    for (name, v) in [
        ("mu", "1e-200"),
        ("k", "1e-300"),
        ("mass", "1e300"),
        ("fs", "1e300"),
        ("v-in", "1e-300"),
        ("alpha", "1e300"),
    ] {
        let opt = format!("--{name}");
        let start = Instant::now();
        assert_refused(&["simulate", opt.as_str(), v], &opt);
        assert!(start.elapsed() < Duration::from_secs(5), "{opt} {v}");
    }
}

#[test]
fn usage_prints_every_range() {
    let (code, stdout, stderr) = rebound_within(PROMPT, &["help"]);
    assert_eq!(code, 0, "{stderr}");
    for (name, _, _, range) in RANGES {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("--{name} ")) && l.contains("default"))
            .unwrap_or_else(|| panic!("no line for --{name} in {stdout}"));
        assert!(line.contains(range), "--{name}: {line}");
    }
    // And with no command at all, on stderr with status 2.
    let (code, _, stderr) = rebound_within(PROMPT, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("1e-4 to 10 s/m"), "{stderr}");
}

#[test]
fn simulate_json_reports_a_runaway_contact() {
    // The stiffest, lightest, fastest linear contact at the lowest rate lasts 3e-8 s,
    // a thousandth of a sample: explicit Verlet at one step per sample, without
    // correction, blows up at once and the guard ends the contact, which the JSON must
    // say. With the instrument's sub-steps it is too short to resolve and exits in
    // closed form instead.
    let base = [
        "simulate",
        "--k",
        "1e12",
        "--mass",
        "1e-4",
        "--alpha",
        "1",
        "--v-in",
        "50",
        "--fs",
        "22050",
        "--method",
        "verlet",
        "--correction",
        "none",
        "--per-sample",
    ];
    let mut args = base.to_vec();
    args.push("--json");
    let (code, stdout, stderr) = rebound_within(PROMPT, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"runaway\":true"), "{stdout}");
    let (code, stdout, stderr) = rebound_within(PROMPT, &base);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("ran away"), "{stdout}");
    let mut auto = base[..base.len() - 1].to_vec();
    auto.push("--json");
    let (code, stdout, stderr) = rebound_within(PROMPT, &auto);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"runaway\":false"), "{stdout}");
    assert!(stdout.contains("\"closed_form\":true"), "{stdout}");
}

#[test]
fn sequence_json_flags_a_runaway_impact() {
    // A reported case: k = 1e12 at 48 kHz without correction left at -1119 m/s and flew
    // for 228 s. At one step per sample it is now flagged and leaves at the exact v_out.
    let args = [
        "sequence",
        "--k",
        "1e12",
        "--v-in",
        "2",
        "--fs",
        "48000",
        "--correction",
        "none",
        "--impacts",
        "3",
        "--per-sample",
        "--json",
    ];
    let (code, stdout, stderr) = rebound_within(PROMPT, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"runaway\":true"), "{stdout}");
    let (code, stdout, stderr) = rebound_within(PROMPT, &args[..args.len() - 2]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("1119"), "{stdout}");
}

#[test]
#[should_panic(expected = "still running")]
fn a_run_past_its_time_limit_is_killed_and_fails() {
    // 100000 impacts of the default contact take seconds; 10 ms is far too short.
    rebound_within(
        Duration::from_millis(10),
        &["sequence", "--impacts", "100000"],
    );
}
