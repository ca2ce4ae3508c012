//! Proves the command-line tool's contract: bad arguments give clap's error (its first
//! line `error: …` names the argument) and exit status 2, never a panic; `--version`
//! and every subcommand's `--help` exit 0, the help giving every option's unit and
//! range; good arguments print what they say.

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for `paper` and `render` in a debug build on a shared machine.
const SLOW: Duration = Duration::from_secs(300);
/// What a refused argument, or a single impact inside the ranges, may take: a run
/// that used to hang is killed here and fails its test instead of hanging it.
const PROMPT: Duration = Duration::from_secs(20);

fn rebound(args: &[&str]) -> (i32, String, String) {
    rebound_within(SLOW, args)
}

/// Runs the CLI, killing it and failing the test if it is still running after `limit`.
fn rebound_within(limit: Duration, args: &[&str]) -> (i32, String, String) {
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
fn assert_refused(args: &[&str], name: &str) -> String {
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
    let dir = std::env::temp_dir().join(format!("rebound-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).ok();
}

/// The documented validity ranges of `simulate` and `sequence` (README), written out
/// here apart from the source so that a changed range fails these tests:
/// option, smallest and largest accepted value, the range as the messages print it.
const RANGES: [(&str, f64, f64, &str); 9] = [
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
    // Issue 8's case: k = 1e12 at 48 kHz without correction left at -1119 m/s and flew
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

/// The number after `"key":` in flat JSON output (the first occurrence from `from`).
fn json_num(json: &str, key: &str) -> f64 {
    json_num_all(json, key)
        .first()
        .copied()
        .unwrap_or_else(|| panic!("no number for {key} in {json}"))
}

/// Every number given for `key`, in order (`null` as NaN).
fn json_num_all(json: &str, key: &str) -> Vec<f64> {
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

fn json_bool_all(json: &str, key: &str) -> Vec<bool> {
    let pat = format!("\"{key}\":");
    json.match_indices(&pat)
        .map(|(i, _)| json[i + pat.len()..].starts_with("true"))
        .collect()
}

#[test]
fn simulate_restitution_derives_mu_and_leaves_at_minus_e_v_in() {
    for v_in in ["0.5", "2"] {
        let (code, stdout, stderr) = rebound_within(
            PROMPT,
            &["simulate", "--restitution", "0.3", "--v-in", v_in, "--json"],
        );
        assert_eq!(code, 0, "{stderr}");
        for key in [
            "restitution",
            "mu",
            "v_out_sim",
            "v_out_exact",
            "err_vout_pct",
        ] {
            assert!(
                stdout.contains(&format!("\"{key}\":")),
                "missing {key}: {stdout}"
            );
        }
        let v: f64 = v_in.parse().unwrap();
        assert_eq!(json_num(&stdout, "restitution"), 0.3);
        // Seed 000's reference point: e = 0.3 -> mu v_in = 3.087082.
        let z = json_num(&stdout, "mu") * v;
        assert!((z - 3.087082).abs() < 1e-6, "mu v_in {z}");
        // The derived mu makes eq (6)'s exact exit -e v_in.
        let exact = json_num(&stdout, "v_out_exact");
        assert!(
            (exact / (-0.3 * v) - 1.0).abs() < 1e-9,
            "v_out_exact {exact}"
        );
    }
    // With the clamp the simulated contact leaves at -e v_in.
    for method in ["verlet", "heun", "rk4", "am1"] {
        let (code, stdout, stderr) = rebound_within(
            PROMPT,
            &[
                "simulate",
                "--restitution",
                "0.3",
                "--method",
                method,
                "--correction",
                "both",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{stderr}");
        let v_out = json_num(&stdout, "v_out_sim");
        assert!(
            (v_out / (-0.3 * 0.5) - 1.0).abs() < 1e-9,
            "{method}: {v_out}"
        );
        assert!(stdout.contains("\"runaway\":false"), "{stdout}");
    }
    // Without --restitution neither key appears.
    let (code, stdout, _) = rebound_within(PROMPT, &["simulate", "--json"]);
    assert_eq!(code, 0);
    assert!(
        !stdout.contains("\"restitution\"") && !stdout.contains("\"mu\""),
        "{stdout}"
    );
    // The text output says where the damping came from.
    let (code, stdout, _) = rebound_within(PROMPT, &["simulate", "--restitution", "0.3"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("mu v_in 3.08708"), "{stdout}");
}

#[test]
fn restitution_usage_errors_are_refused() {
    let msg = assert_refused(
        &["simulate", "--mu", "0.5", "--restitution", "0.3"],
        "--restitution",
    );
    assert!(msg.contains("cannot be used with"), "{msg}");
    let msg = assert_refused(
        &[
            "sequence",
            "--restitution",
            "0.3",
            "--mu",
            "1",
            "--gravity-in-contact",
        ],
        "--restitution",
    );
    assert!(msg.contains("cannot be used with"), "{msg}");
    for bad in ["1.2", "0.01", "0", "1", "nan", "NaN", "inf", "x"] {
        for cmd in ["simulate", "sequence"] {
            let msg = assert_refused(&[cmd, "--restitution", bad], "--restitution");
            assert!(
                msg.contains("must be a number in 0.05 to 0.99")
                    && msg.contains(&format!("invalid value '{bad}'")),
                "{msg}"
            );
        }
    }
    let msg = assert_refused(
        &["sequence", "--gravity-in-contact", "--paper-heun-handover"],
        "--paper-heun-handover",
    );
    assert!(msg.contains("--gravity-in-contact"), "{msg}");
    // The train is sequence's only.
    let (code, _, stderr) = rebound_within(PROMPT, &["simulate", "--gravity-in-contact"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("unexpected argument '--gravity-in-contact'"),
        "{stderr}"
    );
}

#[test]
fn sequence_restitution_chain_is_e_to_the_i() {
    let (code, stdout, stderr) = rebound_within(
        PROMPT,
        &[
            "sequence",
            "--restitution",
            "0.7",
            "--impacts",
            "4",
            "--correction",
            "both",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json_num(&stdout, "restitution"), 0.7);
    let sim = json_num_all(&stdout, "v_out_sim");
    let chain = json_num_all(&stdout, "v_out_exact_chain");
    assert_eq!(sim.len(), 4);
    for (i, (s, c)) in sim.iter().zip(&chain).enumerate() {
        let want = -0.5 * 0.7f64.powi(i as i32 + 1);
        assert!((c / want - 1.0).abs() < 1e-12, "{i}: chain {c}");
        assert!((s / want - 1.0).abs() < 1e-9, "{i}: sim {s}");
    }
}

/// `sequence --gravity-in-contact --json` with `extra` options.
fn train_json(extra: &[&str]) -> String {
    let mut args = vec!["sequence", "--gravity-in-contact", "--json"];
    args.extend(extra);
    let (code, stdout, stderr) = rebound_within(PROMPT, &args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

#[test]
fn sequence_gravity_in_contact_comes_to_rest() {
    // The default patch (k 1e7, mu 0.5, alpha 1.5, m 0.01 kg, v_in 0.5, g 9.81) with the
    // instrument's correction: about 215 impacts, then the mass rests at (m g/k)^(1/alpha).
    let out = train_json(&["--correction", "both", "--impacts", "1000"]);
    for key in [
        "rest",
        "rest_position_m",
        "impacts",
        "impact_bound",
        "sequence",
        "v_in",
        "v_out",
        "restitution",
        "sticks",
        "onset_s",
        "load_drift",
    ] {
        assert!(out.contains(&format!("\"{key}\":")), "missing {key}");
    }
    assert!(out.contains("\"rest\":true"), "{out}");
    let n = json_num(&out, "impacts");
    assert!(n > 1.0 && n < 1000.0, "{n} impacts");
    let x_rest = json_num(&out, "rest_position_m");
    let want = (0.01f64 * 9.81 / 1e7).powf(1.0 / 1.5);
    assert!((x_rest / want - 1.0).abs() < 1e-12, "{x_rest} vs {want}");
    let v_in = json_num_all(&out, "v_in");
    let v_out = json_num_all(&out, "v_out");
    let e = json_num_all(&out, "restitution");
    let onset = json_num_all(&out, "onset_s");
    let drift = json_num_all(&out, "load_drift");
    let sticks = json_bool_all(&out, "sticks");
    assert_eq!(v_in.len(), n as usize);
    assert_eq!(onset[0], 0.0);
    for i in 0..v_in.len() {
        assert!(
            drift[i].is_finite() && drift[i] >= 0.0,
            "{i}: drift {}",
            drift[i]
        );
        assert!((e[i] + v_out[i] / v_in[i]).abs() < 1e-15, "{i}");
        if i > 0 {
            assert!(onset[i] > onset[i - 1], "{i}: onsets {onset:?}");
            // Flight conserves energy: each impact starts at the last one's speed.
            assert!((v_in[i] + v_out[i - 1]).abs() <= 1e-12 * v_in[i], "{i}");
        }
    }
    assert!(*sticks.last().unwrap(), "the last impact rests");
    assert!(sticks[..sticks.len() - 1].iter().all(|s| !s));
    // The first contact matches the notes' load-aware restitution at v_in 0.5 closely.
    assert!(e[0] > 0.8 && e[0] < 0.9, "{}", e[0]);
}

#[test]
fn sequence_gravity_in_contact_bound_restitution_and_text() {
    // The bound cuts the train: 5 impacts, not at rest.
    let out = train_json(&["--impacts", "5", "--per-sample", "--method", "rk4"]);
    assert_eq!(json_num(&out, "impacts"), 5.0);
    assert!(out.contains("\"rest\":false") && out.contains("\"rest_position_m\":null"));
    // Restitution-set damping: the unloaded part leaves near -e v_in, with mu per impact.
    let out = train_json(&[
        "--restitution",
        "0.7",
        "--correction",
        "both",
        "--impacts",
        "100",
    ]);
    assert_eq!(json_num(&out, "restitution"), 0.7);
    assert!(out.contains("\"rest\":true"), "{out}");
    let e = json_num_all(&out, "restitution");
    assert!((e[1] - 0.7).abs() < 0.01, "{}", e[1]);
    let mu = json_num_all(&out, "mu");
    let v_in = json_num_all(&out, "v_in");
    let z = mu[0] * v_in[0];
    assert!(
        mu.iter()
            .zip(&v_in)
            .all(|(m, v)| (m * v / z - 1.0).abs() < 1e-12)
    );
    // Text output.
    let (code, stdout, stderr) = rebound_within(
        PROMPT,
        &[
            "sequence",
            "--gravity-in-contact",
            "--correction",
            "clamp",
            "--impacts",
            "1000",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("at rest on the wall at x = 4.58"),
        "{stdout}"
    );
}

#[test]
fn sequence_gravity_in_contact_rests_without_correction() {
    let out = train_json(&["--impacts", "100000"]);
    assert!(out.contains("\"rest\":true"), "{}", &out[..300]);
    assert!(!out.contains("\"runaway\":true"));
}

#[test]
fn render_takes_gravity_in_contact_and_restitution() {
    let dir = std::env::temp_dir().join(format!("rebound-render-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("ball.wav");
    let (code, out, err) = rebound(&[
        "render",
        "--bouncing",
        "on",
        "--gravity-in-contact",
        "on",
        "--restitution",
        "0.6",
        "--duration",
        "2",
        "--out",
        wav.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(std::fs::metadata(&wav).unwrap().len() > 1000);
    assert_refused(
        &["render", "--gravity-in-contact", "maybe", "--out", "x.wav"],
        "--gravity-in-contact",
    );
    assert_refused(
        &[
            "render",
            "--restitution",
            "0.6",
            "--mu",
            "0.3",
            "--out",
            "x.wav",
        ],
        "--restitution",
    );
    assert_refused(
        &["render", "--restitution", "1.5", "--out", "x.wav"],
        "--restitution",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every option of every subcommand as it worked before clap: each must stay
/// accepted and be listed in its subcommand's help with its unit and range.
const OPTIONS: [(&str, &[&str]); 4] = [
    ("paper", &["table", "json"]),
    (
        "simulate",
        &[
            "k",
            "mu",
            "restitution",
            "alpha",
            "mass",
            "v-in",
            "fs",
            "method",
            "correction",
            "clamp-target",
            "per-sample",
            "json",
        ],
    ),
    (
        "sequence",
        &[
            "k",
            "mu",
            "restitution",
            "alpha",
            "mass",
            "v-in",
            "fs",
            "method",
            "correction",
            "clamp-target",
            "per-sample",
            "json",
            "impacts",
            "gravity",
            "gravity-in-contact",
            "paper-heun-handover",
        ],
    ),
    (
        "render",
        &[
            "out",
            "note",
            "velocity",
            "duration",
            "fs",
            "hold",
            "bits",
            "plot",
            "midi",
            "per-track",
            "v-min",
            "v-max",
            "velocity-curve",
            "mass",
            "k",
            "alpha",
            "mu",
            "restitution",
            "gravity",
            "body-freq",
            "key-track",
            "t60",
            "brightness",
            "position",
            "mix",
            "gain",
            "voices",
            "release",
            "method",
            "correction",
            "clamp-target",
            "bouncing",
            "gravity-in-contact",
            "body",
            "note-off",
        ],
    ),
];

#[test]
fn version_and_every_subcommands_help_exit_0() {
    let (code, stdout, stderr) = rebound_within(PROMPT, &["--version"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.trim(),
        format!("rebound {}", env!("CARGO_PKG_VERSION"))
    );
    for (sub, _) in OPTIONS {
        for help in ["--help", "-h"] {
            let (code, stdout, stderr) = rebound_within(PROMPT, &[sub, help]);
            assert_eq!(code, 0, "{sub} {help}: {stderr}");
            assert!(
                stdout.contains(&format!("Usage: rebound {sub}")),
                "{stdout}"
            );
        }
        let (code, stdout, _) = rebound_within(PROMPT, &["help", sub]);
        assert_eq!(code, 0);
        assert!(stdout.contains(&format!("Usage: rebound {sub}")));
    }
    // A usage error: status 2, clap's message on stderr, nothing on stdout.
    let (code, stdout, stderr) = rebound_within(PROMPT, &["render", "--out"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(stderr.starts_with("error: a value is required for '--out"));
    assert!(stderr.contains("try '--help'"), "{stderr}");
}

#[test]
fn every_option_of_every_subcommand_has_its_unit_and_range_in_the_help() {
    for (sub, options) in OPTIONS {
        let (code, help, stderr) = rebound_within(PROMPT, &[sub, "--help"]);
        assert_eq!(code, 0, "{stderr}");
        // Option entries: a line starting with `--name` (help on the same or the
        // following lines, up to the next entry).
        let mut entries: Vec<(String, String)> = Vec::new();
        for line in help.lines() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("--") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                entries.push((name, t.to_string()));
            } else if t.starts_with('-') {
                entries.push((String::new(), t.to_string()));
            } else if let Some(last) = entries.last_mut() {
                last.1 += " ";
                last.1 += t;
            }
        }
        let listed: Vec<&str> = entries
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !n.is_empty() && *n != "help")
            .collect();
        let mut want = options.to_vec();
        want.sort_unstable();
        let mut got = listed.clone();
        got.sort_unstable();
        assert_eq!(got, want, "{sub}: options in the help");
        for (name, text) in entries.iter().filter(|(n, _)| !n.is_empty() && n != "help") {
            assert!(
                text.contains("[unit: ") && text.contains("; range: "),
                "{sub} --{name}: no unit or range in '{text}'"
            );
        }
    }
    // The ranges of simulate's and sequence's numbers, as the README's table has them.
    for (name, _, _, range) in RANGES {
        let sub = if matches!(name, "gravity" | "impacts") {
            "sequence"
        } else {
            "simulate"
        };
        let (_, help, _) = rebound_within(PROMPT, &[sub, "--help"]);
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("--{name} ")))
            .unwrap_or_else(|| panic!("no --{name} in {help}"));
        assert!(line.contains(range), "--{name}: {line}");
    }
}

#[test]
fn every_option_that_worked_keeps_working() {
    let dir = std::env::temp_dir().join(format!("rebound-cli-old-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("x.wav");
    let out = wav.to_str().unwrap();
    let inline = format!("--out={out}");
    let renders: &[&[&str]] = &[
        &[
            "--note",
            "48",
            "--velocity",
            "1",
            "--fs",
            "44100",
            "--hold",
            "0",
            "--v-min",
            "0.2",
            "--v-max",
            "3",
            "--velocity-curve",
            "2",
            "--mass",
            "0.02",
            "--k",
            "1e9",
            "--alpha",
            "1.3",
            "--mu",
            "0.2",
            "--gravity",
            "20",
            "--body-freq",
            "300",
            "--key-track",
            "0.5",
            "--t60",
            "2",
            "--brightness",
            "0.2",
            "--position",
            "0.6",
            "--mix",
            "1",
            "--gain",
            "-6",
            "--voices",
            "4",
            "--release",
            "0.1",
            "--method",
            "Heun",
            "--correction",
            "hybrid",
            "--clamp-target",
            "approx",
            "--bouncing",
            "true",
            "--gravity-in-contact",
            "0",
            "--body",
            "wood",
            "--note-off",
            "damp",
        ],
        &[
            "--bouncing",
            "1",
            "--gravity-in-contact",
            "off",
            "--body",
            "none",
        ],
        &[
            "--bouncing=off",
            "--gravity-in-contact=on",
            "--restitution=0.5",
        ],
        &["--gain", "-48", "--body", "membrane", "--note-off", "ring"],
    ];
    for extra in renders {
        let mut args = vec!["render", "--duration", "0.05", inline.as_str()];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = rebound_within(PROMPT, &args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(stdout.starts_with("wrote"), "{stdout}");
    }
    let (code, _, stderr) = rebound_within(
        PROMPT,
        &[
            "simulate",
            "--k=1e8",
            "--mu",
            "0.3",
            "--alpha",
            "2",
            "--mass",
            "0.1",
            "--v-in",
            "2",
            "--fs",
            "48000",
            "--method",
            "AM1",
            "--correction",
            "both",
            "--clamp-target",
            "exact",
            "--per-sample",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = rebound_within(
        PROMPT,
        &[
            "sequence",
            "--impacts",
            "3",
            "--gravity",
            "9.81",
            "--method",
            "heun",
            "--paper-heun-handover",
            "--per-sample",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = rebound_within(PROMPT, &["paper", "--table", "2A"]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Reads a WAV: its spec and its samples as f32 (24-bit PCM scaled to ±1).
fn read_wav(path: &std::path::Path) -> (hound::WavSpec, Vec<f32>) {
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

#[test]
fn render_float_is_the_engines_output_bit_for_bit_and_24_bit_pcm_follows_it() {
    use rebound::engine::{EngineParams, NoteSpec, render};
    let dir = std::env::temp_dir().join(format!("rebound-cli-bits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Six seconds: longer than the progress bar's threshold (rendered in blocks).
    let (f32_wav, i24_wav) = (dir.join("f.wav"), dir.join("i.wav"));
    for (path, bits) in [(&f32_wav, "32"), (&i24_wav, "24")] {
        let (code, stdout, stderr) = rebound_within(
            SLOW,
            &[
                "render",
                "--note",
                "60",
                "--velocity",
                "110",
                "--duration",
                "6",
                "--fs",
                "16000",
                "--bits",
                bits,
                "--out",
                path.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("at 16000 Hz"), "{stdout}");
    }
    let want = render(
        &EngineParams::default(),
        16_000.0,
        &[NoteSpec {
            at: 0,
            key: 60,
            velocity: 110.0 / 127.0,
            off: None,
        }],
        96_000,
    );
    let (spec, got) = read_wav(&f32_wav);
    assert_eq!((spec.sample_rate, spec.bits_per_sample), (16_000, 32));
    assert_eq!(got.len(), 2 * want.audio.len());
    for (i, s) in want.audio.iter().enumerate() {
        assert_eq!(got[2 * i].to_bits(), s.to_bits(), "sample {i}");
        assert_eq!(got[2 * i + 1].to_bits(), s.to_bits(), "sample {i}");
    }
    let (spec, pcm) = read_wav(&i24_wav);
    assert_eq!(spec.bits_per_sample, 24);
    assert_eq!(spec.sample_format, hound::SampleFormat::Int);
    assert_eq!(spec.sample_rate, 16_000);
    for (i, s) in want.audio.iter().enumerate() {
        assert!(
            (pcm[2 * i] - s.clamp(-1.0, 1.0)).abs() <= 1.0 / 8_388_607.0,
            "{i}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_runs_at_the_rate_its_wav_header_stores() {
    let dir = std::env::temp_dir().join(format!("rebound-fs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("f.wav");
    let (code, out, err) = rebound(&[
        "render",
        "--fs",
        "44100.7",
        "--duration",
        "0.5",
        "--out",
        wav.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let r = hound::WavReader::open(&wav).unwrap();
    assert_eq!(r.spec().sample_rate, 44101);
    // 0.5 s at the rate written, not at 44100.7.
    assert_eq!(r.duration(), (0.5f64 * 44101.0).round() as u32);
    assert!(out.contains("44101 Hz"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
    assert_refused(&["render", "--fs", "7999", "--out", "x.wav"], "--fs");
    assert_refused(&["render", "--bits", "16", "--out", "x.wav"], "--bits");
    assert_refused(&["render", "--voices", "2.5", "--out", "x.wav"], "--voices");
}
