//! The plugin's recorded body: a session saved with one reopens with it (the partials
//! are in the state, not the file) and plays bit for bit the same; a preset with one
//! brings it into the state; a malformed body in a state falls back to the built-in
//! one and plays.

mod support;

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::params::persist::PersistentField;
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::recording::SavedPartial;
use rebound::engine::{EngineParams, recording};
use rebound::model::body::{BodyType, recorded};
use std::collections::BTreeMap;
use support::*;

#[path = "support/state.rs"]
mod state;
use state::{load, saved_state};

fn partials() -> Vec<SavedPartial> {
    [(330.0, 1.2, 1.0), (905.5, 0.6, 0.4), (2410.0, 0.25, 0.3)]
        .iter()
        .map(|&(freq_hz, t60_s, amplitude)| SavedPartial {
            freq_hz,
            t60_s,
            amplitude,
        })
        .collect()
}

/// A plugin with every plain value and persisted field of `from`'s state.
fn reopened(from: &Rebound) -> Rebound {
    let b = Rebound::default();
    load(&b.rebound_params(), saved_state(&from.rebound_params()));
    b
}

/// Two notes, a second of audio in blocks of 512.
fn play(mut p: Rebound) -> Vec<f32> {
    activate(&mut p, 48_000.0, 512, ProcessMode::Offline);
    let mut ctx = TestProcess::new();
    let note = |t: u32, key: u8| NoteEvent::NoteOn {
        timing: t,
        voice_id: VoiceID::ID(i32::from(key)),
        channel: Channel::Number(0),
        key: Key::Number(key),
        velocity: 0.9,
    };
    let mut out = Vec::new();
    for n in 0..94 {
        let events = if n == 0 {
            vec![note(0, 60), note(300, 67)]
        } else {
            Vec::new()
        };
        let b = process(&mut p, &mut ctx, 512, &events);
        assert!(b.left.iter().chain(&b.right).all(|s| s.is_finite()));
        out.extend(b.left.iter().chain(&b.right));
    }
    out
}

fn recorded_body_plugin() -> Rebound {
    let a = Rebound::default();
    let pa = a.rebound_params();
    pa.recorded_body.set(partials());
    let body = BodyType::ALL
        .iter()
        .position(|&b| b == BodyType::Recorded)
        .unwrap();
    set_norm(&pa, "body", body as f32 / (BodyType::ALL.len() - 1) as f32);
    a
}

/// The state holds the partials; reopened, the session names the same body and plays
/// the same samples, bit for bit.
#[test]
fn a_session_reopens_with_its_recorded_body() {
    let a = recorded_body_plugin();
    let e = a.rebound_params().engine_params();
    assert_eq!(e.body, BodyType::Recorded);
    assert!(e.recording > 0);
    let saved = a.rebound_params().serialize_fields();
    assert!(saved["recorded-body"].contains("905.5"), "{saved:?}");
    let b = reopened(&a);
    assert_eq!(b.rebound_params().engine_params(), e);
    let r = recorded(e.recording).unwrap();
    assert_eq!((r.count, r.f_ref), (3, 330.0));
    // The recorded body sounds, and differs from the built-in one.
    let built_in = Rebound::default();
    let body = BodyType::ALL
        .iter()
        .position(|&b| b == BodyType::Recorded)
        .unwrap();
    set_norm(&built_in.rebound_params(), "body", body as f32 / 6.0);
    let (x, y) = (play(a), play(b));
    assert!(x.iter().any(|s| s.abs() > 1e-3));
    assert_eq!(x, y);
    assert_ne!(x, play(built_in));
}

/// A preset with a recorded body puts its partials into the state it is loaded as.
#[test]
fn a_preset_brings_its_body_into_the_state() {
    let body = recording::body_from_saved(&partials()).unwrap();
    let mut p = EngineParams::default();
    recording::use_body(&mut p, &body, true).unwrap();
    let a = Rebound::default();
    let mut state = PluginState {
        version: String::new(),
        params: BTreeMap::new(),
        fields: a.rebound_params().serialize_fields(),
    };
    rebound::preset::plugin::apply_to_state(&mut state, &p);
    load(&a.rebound_params(), state);
    let e = a.rebound_params().engine_params();
    assert_eq!((e.body, e.recording), (BodyType::Recorded, p.recording));
    assert!((e.body_freq - 330.0).abs() < 1e-3, "{}", e.body_freq);
}

/// A state whose recorded body has no usable partial loads with the built-in body; one
/// that is not JSON at all is ignored, as every persisted field is (the body stays);
/// either way the plugin plays finite audio.
#[test]
fn a_malformed_recorded_body_falls_back_to_the_built_in_one() {
    for (field, falls_back) in [
        ("not json", false),
        ("[]", true),
        (
            r#"[{"freq_hz": -1.0, "t60_s": 1.0, "amplitude": 1.0}]"#,
            true,
        ),
        (r#"[{"freq_hz": 1e400}]"#, false),
        (
            r#"[{"freq_hz": 100.0, "t60_s": 1.0, "amplitude": 0.0}]"#,
            true,
        ),
    ] {
        let a = recorded_body_plugin();
        let before = a.rebound_params().engine_params().recording;
        let mut fields = BTreeMap::new();
        fields.insert("recorded-body".to_string(), field.to_string());
        a.rebound_params().deserialize_fields(&fields);
        let want = if falls_back { 0 } else { before };
        assert_eq!(
            a.rebound_params().engine_params().recording,
            want,
            "{field}"
        );
        play(a);
    }
}

/// A CLAP host's preset load of a user preset with a recorded body sets the body too:
/// the state it loads holds the partials.
#[test]
fn a_clap_preset_load_brings_its_body() {
    let body = recording::body_from_saved(&partials()).unwrap();
    let mut p = EngineParams::default();
    recording::use_body(&mut p, &body, true).unwrap();
    let preset = rebound::preset::Preset::new("With a body", "User", "", p);
    let state = rebound::plugin_clap::preset_load::state_of(&preset);
    let a = Rebound::default();
    load(&a.rebound_params(), state);
    assert_eq!(a.rebound_params().engine_params().recording, p.recording);
    // A preset with no recorded body leaves the field out of the state.
    let plain = rebound::preset::Preset::new("Plain", "User", "", EngineParams::default());
    assert!(
        rebound::plugin_clap::preset_load::state_of(&plain)
            .fields
            .is_empty()
    );
}
