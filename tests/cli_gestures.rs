//! `rebound render --gesture …`: Strike is what a render always was, bit for bit, and
//! a held Crumple, Roll or Scrape renders through the command line as the engine plays
//! it (the seed makes the crumple; every gesture finite and under full scale).

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::*;

fn render(dir: &std::path::Path, name: &str, extra: &[&str]) -> Vec<f32> {
    let out = dir.join(format!("{name}.wav"));
    let mut args = vec![
        "render",
        "--note",
        "60",
        "--velocity",
        "120",
        "--duration",
        "2.5",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, _, stderr) = rebound_within(SLOW, &args);
    assert_eq!(code, 0, "{name}: {stderr}");
    read_left(&out).0
}

#[test]
fn strike_is_every_render_so_far_and_the_held_gestures_play() {
    let scratch = scratch::dir("cli-gestures");
    let dir = scratch.path();
    let plain = render(dir, "plain", &[]);
    assert_eq!(plain, render(dir, "strike", &["--gesture", "strike"]));
    let crumple = |seed: &str| {
        let args = [
            "--gesture",
            "crumple",
            "--hold",
            "2",
            "--mix",
            "0",
            "--seed",
            seed,
        ];
        render(dir, &format!("crumple{seed}"), &args)
    };
    let one = crumple("1");
    assert_eq!(one, crumple("1"));
    assert_ne!(one, crumple("2"));
    for g in ["crumple", "roll", "scrape"] {
        let y = render(dir, g, &["--gesture", g, "--hold", "2"]);
        let peak = y.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(
            y.iter().all(|s| s.is_finite()) && peak > 1e-3 && peak < 1.0,
            "{g}: {peak}"
        );
        // Still sounding in the last quarter second of the hold.
        let late = &y[(1.75 * 48_000.0) as usize..(2.0 * 48_000.0) as usize];
        assert!(
            late.iter().any(|s| s.abs() > 1e-4),
            "{g} fell silent while held"
        );
    }
}
