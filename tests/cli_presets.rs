//! `rebound presets` and `rebound render --preset/--save-preset`: the listing (table,
//! JSON, values), a preset rendering exactly as its parameters through the engine,
//! options overriding it, user presets saved and found again, clear refusals.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;
use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::preset::{self, Preset};
use std::path::Path;
use std::process::Command;

/// Runs the CLI with its user preset folder at `dir`.
fn rebound_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rebound"))
        .args(args)
        .env("REBOUND_PRESET_DIR", dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn presets_lists_every_factory_preset_as_a_table_and_as_json() {
    let scratch = scratch::dir("cli-presets-list");
    let dir = scratch.path();
    let (code, table, err) = rebound_in(dir, &["presets"]);
    assert_eq!(code, 0, "{err}");
    let (code, json, err) = rebound_in(dir, &["presets", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(rows.len(), preset::factory().len());
    for (row, p) in rows.iter().zip(preset::factory()) {
        assert_eq!(row["name"], p.name.as_str());
        assert_eq!(row["category"], p.category.as_str());
        assert_eq!(row["description"], p.description.as_str());
        assert_eq!(row["source"], "factory");
        assert!(row.get("params").is_none());
        assert!(table.contains(&p.name) && table.contains(&p.description));
    }
    let (code, json, err) = rebound_in(dir, &["presets", "--json", "--values"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    for (row, p) in rows.iter().zip(preset::factory()) {
        assert_eq!(row["params"]["hardness-ms"], p.params.hardness_ms);
        assert_eq!(row["params"]["bounciness"], p.params.restitution);
        assert_eq!(
            row["params"]["bouncing"],
            if p.params.bouncing { "on" } else { "off" }
        );
    }
    let (code, out, err) = rebound_in(dir, &["presets", "--values"]);
    assert!(
        code == 2 && out.is_empty() && err.contains("--json"),
        "{err}"
    );
}

/// The engine's render of `p`, note 60 at full velocity, 0.3 s at 48 kHz, interleaved
/// as the WAV stores it.
fn engine_audio(p: &EngineParams) -> Vec<f32> {
    let notes = [NoteSpec {
        at: 0,
        key: 60,
        velocity: 1.0,
        off: None,
    }];
    let r = render(p, 48_000.0, &notes, 14_400);
    r.left
        .iter()
        .zip(&r.right)
        .flat_map(|(l, r)| [*l, *r])
        .collect()
}

/// A stereo WAV's samples, interleaved.
fn samples(path: &Path) -> Vec<f32> {
    let (spec, s) = read_wav(path);
    assert_eq!(spec.channels, 2);
    s
}

#[test]
fn render_preset_is_the_presets_parameters_and_options_override_it() {
    let scratch = scratch::dir("cli-presets-render");
    let dir = scratch.path();
    let wav = dir.join("x.wav");
    let w = wav.to_str().unwrap();
    let base = [
        "render",
        "--note",
        "60",
        "--velocity",
        "127",
        "--duration",
        "0.3",
    ];
    let run = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--out", w]);
        args.extend_from_slice(extra);
        let (code, out, err) = rebound_in(dir, &args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.starts_with("wrote"), "{out}");
        samples(&wav)
    };
    let glass = preset::find("Glass tap").unwrap().params;
    assert_eq!(run(&["--preset", "glass tap"]), engine_audio(&glass));
    // An explicit option wins over the preset.
    let brighter = EngineParams {
        t60: 0.5,
        body: rebound::model::body::BodyType::Plate,
        ..glass
    };
    assert_eq!(
        run(&["--preset", "Glass-Tap", "--t60", "0.5", "--body", "plate"]),
        engine_audio(&brighter)
    );
    // --k selects the expert controls.
    let expert = EngineParams {
        k: 1e9,
        controls: rebound::engine::Controls::Expert,
        ..glass
    };
    assert_eq!(
        run(&["--preset", "glass tap", "--k", "1e9"]),
        engine_audio(&expert)
    );
    // A preset file by path.
    let file = dir.join("mine.json");
    let mine = Preset::new(
        "Mine",
        "User",
        "",
        EngineParams {
            hardness_ms: 2.0,
            ..EngineParams::default()
        },
    );
    std::fs::write(&file, mine.to_json()).unwrap();
    assert_eq!(
        run(&["--preset", file.to_str().unwrap()]),
        engine_audio(&mine.params)
    );
}

#[test]
fn save_preset_writes_a_user_preset_that_lists_and_renders() {
    let scratch = scratch::dir("cli-presets-save");
    let dir = scratch.path();
    let (code, out, err) = rebound_in(
        dir,
        &[
            "render",
            "--preset",
            "bell strike",
            "--hardness-ms",
            "1.25",
            "--save-preset",
            "My Bell",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("saved preset 'My Bell'"), "{out}");
    let saved = Preset::load(&dir.join("my-bell.json")).unwrap();
    let want = EngineParams {
        hardness_ms: 1.25,
        ..preset::find("bell strike").unwrap().params
    };
    assert_eq!(saved.params, want);
    let (code, json, _) = rebound_in(dir, &["presets", "--json"]);
    assert_eq!(code, 0);
    assert!(json.contains("\"name\": \"My Bell\"") && json.contains("\"source\": \"user\""));
    let wav = dir.join("b.wav");
    let (code, _, err) = rebound_in(
        dir,
        &[
            "render",
            "--preset",
            "my bell",
            "--duration",
            "0.3",
            "--velocity",
            "127",
            "--out",
            wav.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(samples(&wav), engine_audio(&want));
    // A factory name is refused, exit 2, no panic.
    let (code, out, err) = rebound_in(dir, &["render", "--save-preset", "Glass tap"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("factory preset") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn bad_presets_are_refused_clearly_with_exit_2() {
    let scratch = scratch::dir("cli-presets-bad");
    let dir = scratch.path();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"format": 9, "name": "x"}"#).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["render", "--preset", "no such thing", "--out", "x.wav"],
            "no preset called",
        ),
        (
            &[
                "render",
                "--preset",
                bad.to_str().unwrap(),
                "--out",
                "x.wav",
            ],
            "format 9",
        ),
        (
            &["render", "--preset", "missing/file.json", "--out", "x.wav"],
            "cannot read",
        ),
        (&["render", "--save-preset", "???"], "letter or digit"),
    ];
    for (args, want) in cases {
        let (code, out, err) = rebound_in(dir, args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with("error: ") && err.contains(want) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // Neither --out nor --save-preset: clap's usage error.
    let (code, out, err) = rebound_in(dir, &["render"]);
    assert!(
        code == 2 && out.is_empty() && err.contains("--out <FILE.wav>"),
        "{err}"
    );
}

/// The library's loudness: every preset, note 60 at full velocity (2 s), writes finite
/// stereo audio whose maximum momentary loudness (BS.1770, 400 ms) is [`LIBRARY_LUFS`]
/// ±1.5 LU, with its true peak at or under −1 dBTP; a preset the peak cap holds under
/// the loudness says so in its description, and sits on the cap (within 0.5 dB).
#[test]
fn every_preset_renders_at_the_library_loudness_under_the_peak_cap() {
    const LIBRARY_LUFS: f64 = -23.0;
    let scratch = scratch::dir("cli-presets-level");
    let dir = scratch.path();
    let mut report = Vec::new();
    for p in preset::factory() {
        let wav = dir.join(format!("{}.wav", preset::slug(&p.name)));
        let (code, out, err) = rebound_in(
            dir,
            &[
                "render",
                "--preset",
                &p.name,
                "--note",
                "60",
                "--velocity",
                "127",
                "--out",
                wav.to_str().unwrap(),
            ],
        );
        assert_eq!(code, 0, "{}: {out}{err}", p.name);
        let s = samples(&wav);
        assert!(s.iter().all(|v| v.is_finite()), "{}", p.name);
        let (l, r): (Vec<f32>, Vec<f32>) = s.chunks(2).map(|c| (c[0], c[1])).unzip();
        let m = rebound::loudness::measure(48_000, &l, &r).unwrap();
        let held = p.description.contains("peak cap");
        report.push(format!(
            "{}: {:.1} LUFS, {:.2} dBTP{}",
            p.name,
            m.momentary_max,
            m.true_peak_db,
            if held { " (held by the cap)" } else { "" }
        ));
        assert!(
            m.true_peak_db <= -1.0,
            "{}: {:.2} dBTP",
            p.name,
            m.true_peak_db
        );
        if held {
            assert!(
                m.true_peak_db >= -1.5,
                "{}: {:.2} dBTP",
                p.name,
                m.true_peak_db
            );
            assert!(m.momentary_max < LIBRARY_LUFS, "{}: not held", p.name);
        } else {
            assert!(
                (m.momentary_max - LIBRARY_LUFS).abs() <= 1.5,
                "{}: {:.1} LUFS",
                p.name,
                m.momentary_max
            );
        }
    }
    println!("{}", report.join("\n"));
}
