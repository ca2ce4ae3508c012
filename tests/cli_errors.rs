//! Proves the command-line tool's contract: bad arguments give a one-line error that
//! names the argument and exit status 2, never a panic; good ones print what they say.

use std::process::Command;

fn rebound(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rebound"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
            first.starts_with("rebound: ") && first.contains(name),
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
    ] {
        assert!(
            stdout.contains(&format!("\"{key}\":")),
            "missing {key}: {stdout}"
        );
    }
    // Table II(b), Heun, against ṽ_out: %dev(x) 19.506, %err(v_out) −4.692.
    assert!(stdout.contains("\"dev_x_pct\":19.50"), "{stdout}");
    assert!(stdout.contains("\"err_vout_pct\":-4.69"), "{stdout}");
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
        (&["render", "--out", "/nonexistent-dir/x.wav"], "--out"),
    ];
    for (args, name) in cases {
        let (code, _, stderr) = rebound(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.contains(name) && !stderr.contains("panicked"),
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
        "--out",
        wav.to_str().unwrap(),
        "--plot",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("wrote"), "{stdout}");
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    let data = &bytes[44..];
    assert_eq!(data.len(), 22_050 * 2 * 4, "0.5 s of stereo f32");
    let samples: Vec<f32> = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(samples.iter().all(|s| s.is_finite()));
    let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 1e-3 && peak <= 2.0, "peak {peak}");
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[1..4], b"PNG");
    std::fs::remove_dir_all(&dir).ok();
}
