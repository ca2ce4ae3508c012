//! The CLI's seed-paper modes: `--restitution` (seed 000) in simulate, sequence and
//! render, and `sequence --gravity-in-contact` (seed 001) coming to rest.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;

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

/// The impacts of a train from the model's exact load-aware exit (`load::exit`, eq (3)
/// with gravity solved to rounding): flight conserves energy, so each contact starts at
/// the last one's exit speed, and the train ends with the first contact that sticks.
fn train_impacts(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> usize {
    let mut v = v_in;
    for n in 1..100_000 {
        let exit = rebound::model::load::exit(k, mu, alpha, mass, v, g);
        if exit.sticks {
            return n;
        }
        v *= exit.e;
    }
    panic!("the chain never sticks");
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
    assert_eq!(
        n,
        train_impacts(1e7, 0.5, 1.5, 0.01, 0.5, 9.81) as f64,
        "impacts against the exit's chain"
    );
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
    let scratch = scratch::dir("render-seeds");
    let dir = scratch.path();
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
        "--bounciness",
    );
    assert_refused(
        &["render", "--restitution", "1.5", "--out", "x.wav"],
        "--bounciness",
    );
}
