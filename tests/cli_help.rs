//! The CLI on clap: `--version`, every subcommand's `--help` with every option's unit
//! and range, every option that worked before still working, `render` taking one
//! option per plugin parameter of the spec, and the WAV writer (float bit for bit,
//! 24-bit PCM, the header's rate).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;

/// Every option of every subcommand as it worked before clap: each must stay
/// accepted and be listed in its subcommand's help with its unit and range.
const OPTIONS: [(&str, &[&str]); 6] = [
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
            "coupling",
            "body",
            "body-mass",
            "strike-position",
            "key",
            "duration",
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
            "bounciness",
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
            "body-mass",
            "coupling",
            "method",
            "correction",
            "clamp-target",
            "bouncing",
            "gravity-in-contact",
            "body",
            "note-off",
            // Presets, and every plugin parameter the spec added since.
            "preset",
            "save-preset",
            "body-file",
            "hardness-ms",
            "controls",
            "damping-from",
            "width",
            "key-spread",
            "humanize",
            "seed",
            "mod-wheel",
            "mod-depth",
            "bend-range",
            "irregularity",
            "velocity-hardness",
            "gesture",
            "crumple-rate",
            "crumple-exponent",
            "radius",
            "roughness",
            "roughness-beta",
        ],
    ),
    ("presets", &["json", "values", "host", "measure"]),
    ("fit", &["out", "modes", "json"]),
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

/// The help's option entries, `(name, text)`: a line starting with `--name` at the
/// options' indent (help on the same or the following lines, up to the next entry;
/// where clap wraps the help to the terminal, a wrapped line is indented further and
/// may start with another option's name).
fn entries(help: &str) -> Vec<(String, String)> {
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in help.lines() {
        let t = line.trim_start();
        let entry = line.len() - t.len() <= 6;
        if let Some(rest) = t.strip_prefix("--").filter(|_| entry) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            entries.push((name, t.to_string()));
        } else if entry && t.starts_with('-') {
            entries.push((String::new(), t.to_string()));
        } else if let Some(last) = entries.last_mut() {
            last.1 += " ";
            last.1 += t;
        }
    }
    entries
}

#[test]
fn every_option_of_every_subcommand_has_its_unit_and_range_in_the_help() {
    for (sub, options) in OPTIONS {
        let (code, help, stderr) = rebound_within(PROMPT, &[sub, "--help"]);
        assert_eq!(code, 0, "{stderr}");
        let entries = entries(&help);
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
    // The ranges of simulate's and sequence's numbers, as docs/model.md's table has them.
    for (name, _, _, range) in RANGES {
        let sub = if matches!(name, "gravity" | "impacts") {
            "sequence"
        } else {
            "simulate"
        };
        let (_, help, _) = rebound_within(PROMPT, &[sub, "--help"]);
        let line = entries(&help)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, text)| text)
            .unwrap_or_else(|| panic!("no --{name} in {help}"));
        assert!(line.contains(range), "--{name}: {line}");
    }
}

/// `render` has one option per plugin parameter (`engine::spec`), each setting its
/// parameter: the render with the option equals the engine's with the value set.
#[test]
fn render_takes_every_plugin_parameter() {
    use rebound::engine::spec::{CHOICES, NUMBERS};
    use rebound::engine::{Controls, EngineParams, NoteSpec, render};
    let (_, help, _) = rebound_within(PROMPT, &["render", "--help"]);
    for cli in NUMBERS
        .iter()
        .map(|n| n.cli)
        .chain(CHOICES.iter().map(|c| c.cli))
    {
        assert!(
            help.contains(&format!("--{cli} ")),
            "--{cli} missing from render"
        );
    }
    let scratch = scratch::dir("cli-params");
    let dir = scratch.path();
    let wav = dir.join("p.wav");
    let note = [NoteSpec {
        at: 0,
        key: 64,
        velocity: 1.0,
        off: None,
    }];
    type Case = (&'static str, &'static str, fn(&mut EngineParams));
    let new_ones: [Case; 6] = [
        ("--hardness-ms", "0.1", |p| p.hardness_ms = 0.1),
        ("--bounciness", "0.2", |p| {
            p.restitution = 0.2;
            p.from_restitution = true;
        }),
        ("--width", "0.25", |p| p.width = 0.25),
        ("--humanize", "0.5", |p| p.humanize = 0.5),
        ("--seed", "42", |p| p.seed = 42.0),
        ("--controls", "expert", |p| p.controls = Controls::Expert),
    ];
    for (opt, v, set) in new_ones {
        let (code, _, err) = rebound_within(
            SLOW,
            &[
                "render",
                "--note",
                "64",
                "--velocity",
                "127",
                "--duration",
                "0.1",
                "--out",
                wav.to_str().unwrap(),
                opt,
                v,
            ],
        );
        assert_eq!(code, 0, "{opt}: {err}");
        let mut p = EngineParams::default();
        set(&mut p);
        let want = render(&p, 48_000.0, &note, 4_800);
        let (spec, got) = read_wav(&wav);
        assert_eq!(spec.channels, 2);
        let (l, r): (Vec<f32>, Vec<f32>) = got.chunks(2).map(|s| (s[0], s[1])).unzip();
        assert_eq!((l, r), (want.left, want.right), "{opt} {v}");
    }
}

#[test]
fn every_option_that_worked_keeps_working() {
    let scratch = scratch::dir("cli-old");
    let dir = scratch.path();
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
}

#[test]
fn render_float_is_the_engines_output_bit_for_bit_and_24_bit_pcm_follows_it() {
    use rebound::engine::{EngineParams, NoteSpec, render};
    let scratch = scratch::dir("cli-bits");
    let dir = scratch.path();
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
    assert_eq!(got.len(), 2 * want.len());
    for (i, (l, r)) in want.left.iter().zip(&want.right).enumerate() {
        assert_eq!(got[2 * i].to_bits(), l.to_bits(), "left sample {i}");
        assert_eq!(got[2 * i + 1].to_bits(), r.to_bits(), "right sample {i}");
    }
    let (spec, pcm) = read_wav(&i24_wav);
    assert_eq!(spec.bits_per_sample, 24);
    assert_eq!(spec.sample_format, hound::SampleFormat::Int);
    assert_eq!(spec.sample_rate, 16_000);
    for (i, (l, r)) in want.left.iter().zip(&want.right).enumerate() {
        for (got, s) in [(pcm[2 * i], l), (pcm[2 * i + 1], r)] {
            assert!((got - s.clamp(-1.0, 1.0)).abs() <= 1.0 / 8_388_607.0, "{i}");
        }
    }
}

#[test]
fn render_runs_at_the_rate_its_wav_header_stores() {
    let scratch = scratch::dir("fs");
    let dir = scratch.path();
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
    assert_refused(&["render", "--fs", "7999", "--out", "x.wav"], "--fs");
    assert_refused(&["render", "--bits", "16", "--out", "x.wav"], "--bits");
    assert_refused(&["render", "--voices", "2.5", "--out", "x.wav"], "--voices");
}
