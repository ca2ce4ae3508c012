//! `rebound presets --measure --json`: every figure the README quotes, from the CLI's
//! own renders, keeps its promise: presets at −23 LUFS ±1.5 LU momentary maximum or
//! held by the −1 dBTP cap; the default patch within ±3 LU from note 36 to 96; four-note
//! chords at velocity 100 under 0 dBTP and the 16-note chord at 127 over full scale with
//! no guard event (present, not clipped); velocity 40 → 127 brightening ×1.5 or more on
//! the default patch and the Mallet presets; each preset with Irregularity spreading its
//! bounce ratios by 0.02 or more, its train at 0 another.

#[path = "support/cli.rs"]
mod cli;
use cli::*;
use serde_json::Value;

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn the_measured_figures_keep_their_promises() {
    let (code, out, err) = rebound(&["presets", "--measure", "--json"]);
    assert_eq!(code, 0, "{err}");
    let m: Value = serde_json::from_str(&out).unwrap();
    let presets = m["presets"].as_array().unwrap();
    assert_eq!(presets.len(), rebound::preset::factory().len() + 1);
    for p in &presets[1..] {
        let (lufs, tp) = (num(&p["momentary_max"]), num(&p["true_peak_db"]));
        let held = tp >= -1.5 && lufs < -23.0;
        assert!((lufs + 23.0).abs() <= 1.5 || held, "{p}");
        assert!(tp <= -0.95, "{p}");
    }
    let f = &m["playing"];
    let keys: Vec<f64> = f["keyboard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| num(&r["momentary_max"]))
        .collect();
    assert_eq!(keys.len(), 16);
    let span = keys.iter().cloned().fold(f64::MIN, f64::max)
        - keys.iter().cloned().fold(f64::MAX, f64::min);
    assert!(span <= 6.0, "{span}");
    for c in f["chords"].as_array().unwrap() {
        assert_eq!(c["guard_events"], 0, "{c}");
        if c["keys"].as_array().unwrap().len() == 4 {
            assert!(num(&c["true_peak_db"]) < 0.0, "{c}");
        } else {
            assert!(num(&c["sample_peak_db"]) > 0.0 && c["over_full_scale"].as_u64() > Some(0));
        }
    }
    let velocity = f["velocity"].as_array().unwrap();
    assert!(velocity.len() >= 5);
    for v in velocity {
        assert!(num(&v["ratio"]) >= 1.5, "{v}");
    }
    let trains = f["irregularity"].as_array().unwrap();
    assert!(trains.len() >= 4);
    for t in trains {
        assert!(num(&t["ratio_spread"]) >= 0.02, "{t}");
        assert_ne!(t["onsets"], t["onsets_at_0"], "{t}");
    }
}
