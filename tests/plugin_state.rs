//! Malformed state cannot get out of range: NaN, ±inf, out-of-range numbers, bad enum
//! indices and garbage persisted fields are clamped (or ignored) on load, the engine
//! never sees a value outside its ranges even if a bad value reaches a parameter, and
//! the plugin then plays finite audio. Valid state still round-trips exactly.

mod support;

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::params::InternalParamMut;
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::{EngineParams, LIMITS};
use rebound::params::{ReboundParams, float_range_ends, int_range_ends};
use std::collections::BTreeMap;
use support::*;

#[path = "support/state.rs"]
mod state;
use state::{load, plain_values, saved_state};

/// Every parameter's stored plain value is inside its range and not NaN.
fn assert_all_in_range(params: &ReboundParams) {
    for (id, ptr, _) in params.param_map() {
        unsafe {
            let ok = match ptr {
                ParamPtr::FloatParam(p) => {
                    let (lo, hi) = float_range_ends(&(*p).range());
                    let v = (*p).unmodulated_plain_value();
                    v >= lo && v <= hi
                }
                ParamPtr::IntParam(p) => {
                    let (lo, hi) = int_range_ends(&(*p).range());
                    (lo..=hi).contains(&(*p).unmodulated_plain_value())
                }
                ParamPtr::EnumParam(_) => {
                    let last = ptr.step_count().unwrap_or(0) as f32;
                    let v = ptr.unmodulated_plain_value();
                    (0.0..=last).contains(&v)
                }
                ParamPtr::BoolParam(_) => true,
            };
            let n = ptr.unmodulated_normalized_value();
            assert!(
                ok && (0.0..=1.0).contains(&n),
                "{id} out of range (normalised {n})"
            );
        }
    }
}

/// A named number of [`EngineParams`].
type Field = (&'static str, fn(&EngineParams) -> f64);

/// Every number the engine runs on is finite and inside the plugin's ranges.
fn assert_engine_in_range(p: &EngineParams) {
    let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
    let fields: [Field; 17] = [
        ("v_min", |p| p.v_min),
        ("v_max", |p| p.v_max),
        ("velocity_curve", |p| p.velocity_curve),
        ("mass", |p| p.mass),
        ("k", |p| p.k),
        ("alpha", |p| p.alpha),
        ("mu", |p| p.mu),
        ("gravity", |p| p.gravity),
        ("body_freq", |p| p.body_freq),
        ("key_track", |p| p.key_track),
        ("t60", |p| p.t60),
        ("brightness", |p| p.brightness),
        ("position", |p| p.position),
        ("mix", |p| p.mix),
        ("gain_db", |p| p.gain_db),
        ("release", |p| p.release),
        ("body_mass", |p| p.body_mass),
    ];
    for (name, f) in fields {
        let v = f(p);
        assert!(v >= f(lo) && v <= f(hi), "engine {name} = {v}");
    }
    assert!((lo.voices..=hi.voices).contains(&p.voices));
}

/// Plays a few notes and checks the output is finite.
fn plays_finite(p: &mut Rebound) {
    let mut ctx = TestProcess::new();
    let notes: Vec<_> = [0u32, 40, 300]
        .iter()
        .enumerate()
        .map(|(i, t)| NoteEvent::NoteOn {
            timing: *t,
            voice_id: VoiceID::ID(i as i32),
            channel: Channel::Number(0),
            key: Key::Number(48 + 7 * i as u8),
            velocity: 1.0,
        })
        .collect();
    for n in 0..24 {
        let events = if n == 0 { &notes[..] } else { &[][..] };
        let b = process(p, &mut ctx, 512, events);
        assert!(b.left.iter().all(|s| s.is_finite()), "block {n}");
    }
}

fn bad_state() -> PluginState {
    let f = ParamValue::F32;
    let mut params = BTreeMap::new();
    for (id, v) in [
        ("vmin", f(f32::NAN)),
        ("vmax", f(f32::INFINITY)),
        ("vcurve", f(f32::NEG_INFINITY)),
        ("mass", f(1e30)),
        ("k", f(f32::NAN)),
        ("alpha", f(-7.0)),
        ("mu", f(f32::INFINITY)),
        ("grav", f(-1e-30)),
        ("bfreq", f(f32::NAN)),
        ("ktrack", f(3.0)),
        ("t60", f(f32::MAX)),
        ("bright", f(f32::NEG_INFINITY)),
        ("pos", f(-0.5)),
        ("mix", f(f32::NAN)),
        ("gain", f(1e9)),
        ("release", f(f32::NAN)),
        ("noteoff", ParamValue::I32(7)),
        ("coupling", ParamValue::I32(-3)),
        ("bmass", f(f32::NEG_INFINITY)),
        // nice-plug's integer normalisation overflows on this one unless clamped.
        ("voices", ParamValue::I32(i32::MIN)),
        ("method", ParamValue::I32(99)),
        ("corr", ParamValue::I32(-5)),
        ("clamp", ParamValue::String("no such variant".into())),
        ("body", ParamValue::I32(i32::MAX)),
        // Wrong kinds and unknown IDs are ignored.
        ("bounce", ParamValue::F32(f32::NAN)),
        ("nope", ParamValue::I32(3)),
    ] {
        params.insert(id.to_string(), v);
    }
    let mut fields = BTreeMap::new();
    fields.insert("editor-size".to_string(), "[4294967295, 0".to_string());
    fields.insert("garbage".to_string(), "\u{0}\u{ffff}".to_string());
    PluginState {
        version: "0.0.0-garbage".into(),
        params,
        fields,
    }
}

/// Every parameter's plain value, as a host's saved state holds them.

#[test]
fn malformed_state_loads_clamped_and_plays() {
    let mut p = activated(48000.0, 512);
    load(&p.rebound_params(), bad_state());
    assert_all_in_range(&p.rebound_params());
    let size = p.rebound_params().editor_size.size();
    assert!(size.0 >= 200 && size.1 >= 150 && size.0 <= 8192, "{size:?}");
    // A truncated editor size is ignored; an absurd one is bounded.
    let mut fields = BTreeMap::new();
    fields.insert("editor-size".to_string(), "[4294967295,0]".to_string());
    p.rebound_params().deserialize_fields(&fields);
    let size = p.rebound_params().editor_size.size();
    assert!(size.0 <= 8192 && size.1 >= 150, "{size:?}");
    plays_finite(&mut p);
    assert_engine_in_range(p.engine().params());
}

/// Defence in depth: bad plain values set straight on the parameters (no filter) never
/// reach the engine, and the output stays finite.
#[test]
fn bad_parameter_values_never_reach_the_engine() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e30, -1e30] {
        let mut p = activated(48000.0, 512);
        let params = p.rebound_params();
        for (_, ptr, _) in params.param_map() {
            if let ParamPtr::FloatParam(f) = ptr {
                unsafe {
                    (*f)._internal_set_plain_value(bad);
                }
            }
        }
        assert_engine_in_range(&params.engine_params());
        plays_finite(&mut p);
        assert_engine_in_range(p.engine().params());
    }
}

/// The filter leaves valid values bit for bit: a saved state loads back exactly.
#[test]
fn valid_state_round_trips_through_the_filter() {
    let a = Rebound::default();
    let pa = a.rebound_params();
    let mut rng = Rng(7);
    for (id, _, _) in pa.param_map() {
        set_norm(&pa, &id, rng.unit());
    }
    set_norm(&pa, "k", 1.0);
    set_norm(&pa, "vmax", 1.0);
    set_norm(&pa, "gain", 0.0);
    let b = Rebound::default();
    let pb = b.rebound_params();
    load(&pb, saved_state(&pa));
    for ((id, x, _), (_, y, _)) in pa.param_map().into_iter().zip(pb.param_map()) {
        unsafe {
            assert_eq!(
                x.unmodulated_plain_value().to_bits(),
                y.unmodulated_plain_value().to_bits(),
                "{id}"
            );
        }
    }
    assert_eq!(pa.engine_params(), pb.engine_params());
}

/// A session saved with two-way coupling and a light body reopens with them, and one
/// saved before they existed (no "coupling" or "bmass") reopens on the rigid wall.
#[test]
fn coupling_and_body_mass_save_and_reload() {
    let a = Rebound::default();
    let pa = a.rebound_params();
    set_norm(&pa, "coupling", 1.0);
    set_norm(&pa, "bmass", 0.2);
    let mut params = plain_values(&pa);
    let state = |params: BTreeMap<String, ParamValue>| PluginState {
        version: String::new(),
        params,
        fields: BTreeMap::new(),
    };
    let b = Rebound::default();
    load(&b.rebound_params(), state(params.clone()));
    let e = b.rebound_params().engine_params();
    assert_eq!(e.coupling, rebound::engine::Coupling::TwoWay);
    assert!(
        (e.body_mass - 10f64.powf(-3.0 + 0.2 * 4.0)).abs() < 1e-5,
        "{}",
        e.body_mass
    );
    assert_eq!(e, pa.engine_params());

    params.remove("coupling");
    params.remove("bmass");
    let c = Rebound::default();
    load(&c.rebound_params(), state(params));
    let e = c.rebound_params().engine_params();
    assert_eq!(e.coupling, rebound::engine::Coupling::Rigid);
    assert_eq!(e.body_mass, EngineParams::default().body_mass);
}
