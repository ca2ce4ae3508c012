//! Presets: the factory set (every file in presets/ compiled in, read, named for what it
//! sounds like, showing the physics off), the text format (bit-exact round trip over
//! every parameter's full range, clear refusals), the user folder, and a preset handed
//! to the plugin's parameters.

use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use proptest::prelude::*;
use rebound::Rebound;
use rebound::engine::spec::{CHOICES, NUMBERS, Scale};
use rebound::engine::{Controls, EngineParams};
use rebound::params::ReboundParams;
use rebound::preset::{self, CATEGORIES, FACTORY_FILES, Preset};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[path = "support/scratch.rs"]
mod scratch;
#[path = "support/state.rs"]
mod state;
use state::load;

#[test]
fn every_file_in_presets_is_a_factory_preset_and_reads() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("presets");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    on_disk.sort();
    let mut compiled: Vec<String> = FACTORY_FILES.iter().map(|(f, _)| f.to_string()).collect();
    compiled.sort();
    assert_eq!(compiled, on_disk, "FACTORY_FILES against presets/");
    for (file, text) in FACTORY_FILES {
        let p = Preset::from_json(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        // The compiled text is the file's.
        assert_eq!(std::fs::read_to_string(dir.join(file)).unwrap(), text);
        assert_eq!(format!("{}.json", preset::slug(&p.name)), file, "{file}");
    }
    assert_eq!(preset::factory().len(), FACTORY_FILES.len());
}

#[test]
fn the_factory_set_is_playable_and_shows_the_physics_off() {
    let all = preset::factory();
    assert!(all.len() >= 16, "{} presets", all.len());
    let mut names: Vec<String> = all.iter().map(|p| p.name.to_lowercase()).collect();
    names.dedup();
    assert_eq!(names.len(), all.len(), "names unique");
    for p in all {
        assert!(CATEGORIES.contains(&p.category.as_str()), "{}", p.name);
        assert!(p.description.len() > 20, "{}: description", p.name);
        assert_eq!(p.params.controls, Controls::Playable, "{}", p.name);
        assert_eq!(p.params, p.params.within_limits(), "{}", p.name);
    }
    for c in CATEGORIES {
        assert!(all.iter().any(|p| p.category == c), "no {c} preset");
    }
    let bouncing = all.iter().filter(|p| p.params.bouncing).count();
    let resting = all
        .iter()
        .filter(|p| p.params.bouncing && p.params.gravity_in_contact)
        .count();
    assert!(
        bouncing >= 6 && resting >= 6,
        "{bouncing} bouncing, {resting} resting"
    );
    // Hardness and Bounciness are the controls the set is made with: both vary widely.
    let span = |f: fn(&EngineParams) -> f64| {
        let v: Vec<f64> = all.iter().map(|p| f(&p.params)).collect();
        let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = v.iter().cloned().fold(0.0, f64::max);
        (lo, hi)
    };
    let (h_lo, h_hi) = span(|p| p.hardness_ms);
    assert!(h_hi / h_lo >= 50.0, "hardness {h_lo}..{h_hi} ms");
    let (e_lo, e_hi) = span(|p| p.restitution);
    assert!(e_hi - e_lo >= 0.5, "bounciness {e_lo}..{e_hi}");
    let bodies: Vec<_> = all.iter().map(|p| p.params.body).collect();
    for b in rebound::model::body::BodyType::ALL {
        assert!(bodies.contains(&b), "no preset with {b:?}");
    }
}

/// A value of `n` from `t` in [0, 1]: uniform, or log-uniform for a log parameter,
/// whole for a count, the ends exact.
fn value_at(n: &rebound::engine::spec::NumberSpec, t: f64) -> f64 {
    let (lo, hi) = n.range();
    let v = if t <= 0.0 {
        lo
    } else if t >= 1.0 {
        hi
    } else if n.scale == Scale::Log {
        10f64.powf(lo.log10() + t * (hi.log10() - lo.log10()))
    } else {
        lo + t * (hi - lo)
    };
    let v = if preset::is_whole(n) { v.round() } else { v };
    v.max(lo).min(hi)
}

fn params_from(ts: &[f64], choices: &[usize]) -> EngineParams {
    let mut p = EngineParams::default();
    for (n, t) in NUMBERS.iter().zip(ts) {
        (n.set)(&mut p, value_at(n, *t));
    }
    for (c, i) in CHOICES.iter().zip(choices) {
        (c.set)(&mut p, i % c.choices.len());
    }
    p
}

fn fraction() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 1 => Just(1.0), 8 => 0.0f64..=1.0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// EngineParams → JSON → EngineParams gives every number back bit for bit and
    /// every choice, over the full range of every parameter.
    #[test]
    fn json_round_trip_is_bit_exact(
        ts in proptest::collection::vec(fraction(), NUMBERS.len()),
        cs in proptest::collection::vec(0usize..16, CHOICES.len()),
    ) {
        let p = params_from(&ts, &cs);
        let a = Preset::new("Round trip", "Test", "x", p);
        let text = a.to_json();
        let b = Preset::from_json(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        for n in &NUMBERS {
            prop_assert_eq!((n.get)(&a.params).to_bits(), (n.get)(&b.params).to_bits(), "{}", n.id);
        }
        for c in &CHOICES {
            prop_assert_eq!((c.get)(&a.params), (c.get)(&b.params), "{}", c.id);
        }
        prop_assert_eq!(a.params, b.params);
        prop_assert_eq!(&a, &b);
        // And the text is stable: writing what was read gives the same file.
        prop_assert_eq!(b.to_json(), text);
    }
}

#[test]
fn missing_keys_take_defaults_and_ids_or_cli_names_both_work() {
    let p = Preset::from_json(r#"{"format": 1, "name": "Bare"}"#).unwrap();
    assert_eq!(p.params, EngineParams::default());
    assert_eq!(p.category, preset::USER_CATEGORY);
    let p = Preset::from_json(
        r#"{"format": 1, "name": "x", "params": {"hard": 2.5, "bounciness": 0.3,
            "body": "Bell", "gcont": "on", "voices": 4}}"#,
    )
    .unwrap();
    let d = EngineParams::default();
    assert_eq!(
        p.params,
        EngineParams {
            hardness_ms: 2.5,
            restitution: 0.3,
            body: rebound::model::body::BodyType::Bell,
            gravity_in_contact: true,
            voices: 4,
            ..d
        }
    );
}

#[test]
fn bad_files_are_refused_with_a_message_naming_the_problem() {
    let cases: [(&str, &str); 13] = [
        ("not json", "not valid JSON"),
        ("[1]", "JSON object"),
        (r#"{"name": "x"}"#, "\"format\""),
        (r#"{"format": 2, "name": "x"}"#, "format 2"),
        (r#"{"format": 1}"#, "\"name\""),
        (r#"{"format": 1, "name": " "}"#, "empty"),
        (
            r#"{"format": 1, "name": "x", "colour": "red"}"#,
            "\"colour\"",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"stiffnes": 1}}"#,
            "\"stiffnes\"",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"mass": 5}}"#,
            "\"mass\": 5",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"voices": 2.5}}"#,
            "whole",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"body": "drum"}}"#,
            "none, bar, plate",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"k": 1e7, "k": 1e8}}"#,
            "twice",
        ),
        (
            r#"{"format": 1, "name": "x", "params": {"hard": 1, "hardness-ms": 2}}"#,
            "twice",
        ),
    ];
    for (text, want) in cases {
        match Preset::from_json(text) {
            Ok(p) => panic!("{text}: read as {p:?}"),
            Err(e) => assert!(e.0.contains(want), "{text}: '{e}' lacks '{want}'"),
        }
    }
}

#[test]
fn user_presets_save_load_and_are_found_after_the_factory() {
    let scratch = scratch::dir("presets");
    // Not created yet: saving makes the user folder.
    let dir = scratch.path().join("presets");
    assert!(preset::load_dir(&dir).is_empty());
    let p = EngineParams {
        hardness_ms: 0.123456789,
        restitution: 0.3141592653589793,
        bouncing: true,
        ..EngineParams::default()
    };
    let mine = Preset::new("My Clack!", "Mine", "a test", p);
    let path = preset::save_in(&dir, &mine).unwrap();
    assert_eq!(path, dir.join("my-clack.json"));
    // Saving again replaces it.
    preset::save_in(&dir, &mine).unwrap();
    std::fs::write(dir.join("broken.json"), "{").unwrap();
    let loaded = preset::load_dir(&dir);
    assert_eq!(loaded.len(), 2);
    assert!(loaded[0].as_ref().unwrap_err().0.contains("broken.json"));
    assert_eq!(loaded[1].as_ref().unwrap(), &mine);
    // A factory name is refused (find would never reach it), in any case.
    let e = preset::save_in(&dir, &Preset::new("GLASS TAP", "x", "", p)).unwrap_err();
    assert!(e.0.contains("factory"), "{e}");
    let e = preset::save_in(&dir, &Preset::new("!!!", "x", "", p)).unwrap_err();
    assert!(e.0.contains("letter or digit"), "{e}");
}

#[test]
fn find_is_case_insensitive_and_takes_the_file_name() {
    let a = preset::find("glass tap").expect("by name");
    let b = preset::find("GLASS-TAP").expect("by file name");
    assert_eq!(a, b);
    assert_eq!(a.name, "Glass tap");
    assert!(preset::find("no such preset at all").is_none());
}

#[test]
fn every_factory_preset_loads_into_the_plugins_parameters() {
    let plugin = Rebound::default();
    // Every parameter of the sound: the bypass is the host's, not a preset's.
    let ids: Vec<String> = plugin
        .params()
        .param_map()
        .into_iter()
        .map(|(id, _, _)| id)
        .filter(|id| id != "bypass")
        .collect();
    for p in preset::factory() {
        let mut state = PluginState {
            version: String::new(),
            params: BTreeMap::new(),
            fields: BTreeMap::new(),
        };
        preset::plugin::apply_to_state(&mut state, &p.params);
        // Every plugin parameter is set.
        let mut got: Vec<&String> = state.params.keys().collect();
        got.sort();
        let mut want: Vec<&String> = ids.iter().collect();
        want.sort();
        assert_eq!(got, want, "{}", p.name);
        let params = ReboundParams::default();
        let misfits = load(&params, state);
        assert!(misfits.is_empty(), "{}: {misfits:?} do not fit", p.name);
        let e = params.engine_params();
        // Numbers to the plugin's f32 precision, choices exactly.
        for n in &NUMBERS {
            let (a, b) = ((n.get)(&p.params), (n.get)(&e));
            assert!(
                (a - b).abs() <= 1e-5 * a.abs().max(1e-3),
                "{}: {} {a} -> {b}",
                p.name,
                n.id
            );
        }
        for c in &CHOICES {
            assert_eq!((c.get)(&p.params), (c.get)(&e), "{}: {}", p.name, c.id);
        }
    }
}

/// What the host test sets: every plugin parameter by its host name, normalised, and
/// the normalised value maps back to the preset's plain value.
#[test]
fn host_values_name_every_parameter_and_map_back_to_the_preset() {
    let params = ReboundParams::default();
    let map = params.param_map();
    for p in preset::factory() {
        let host = preset::plugin::host_values(&p.params);
        // Every parameter but the host's bypass.
        assert_eq!(host.len(), map.len() - 1, "{}", p.name);
        let plain = preset::plugin::plugin_values(&p.params);
        for (h, (id, v)) in host.iter().zip(&plain) {
            assert_eq!(&h.id, id);
            assert!((0.0..=1.0).contains(&h.normalized), "{}: {}", p.name, h.id);
            let (_, ptr, _) = map.iter().find(|(i, _, _)| *i == h.id).unwrap();
            let back = unsafe {
                assert_eq!(ptr.name(), h.name);
                ptr.preview_plain(h.normalized)
            };
            let want = match v {
                ParamValue::F32(x) => *x,
                ParamValue::I32(i) => *i as f32,
                ParamValue::Bool(b) => f32::from(u8::from(*b)),
                ParamValue::String(_) => unreachable!(),
            };
            assert!(
                (back - want).abs() <= 1e-5 * want.abs().max(1.0),
                "{}: {} {want} -> {back}",
                p.name,
                h.id
            );
        }
    }
}
