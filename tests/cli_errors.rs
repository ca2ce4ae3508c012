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
