//! Loading a preset into the plugin: each plugin parameter's plain value for a set of
//! [`EngineParams`] (log-stored numbers as their log10, choices as their index), then
//! either into a [`PluginState`] (exact plain values, for `GuiContext::set_state`) or
//! through a [`ParamSetter`] as one gesture per parameter (so the host records it).
//! Only the editor calls these, on the GUI thread; the audio thread never sees a
//! preset, only the parameters it sets.

use crate::engine::EngineParams;
use crate::engine::recording;
use crate::engine::spec::{self, Scale};
use crate::params::ReboundParams;
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;

/// The plain value of the plugin parameter `id` for `p` (None for ids that are not
/// parameters of the spec, such as persisted fields).
fn plain_of(id: &str, ptr: &ParamPtr, p: &EngineParams) -> Option<ParamValue> {
    if let Some(n) = spec::number(id) {
        let v = (n.get)(p);
        return Some(match ptr {
            ParamPtr::IntParam(_) => ParamValue::I32(v.round() as i32),
            _ if n.scale == Scale::Log => ParamValue::F32(v.log10() as f32),
            _ => ParamValue::F32(v as f32),
        });
    }
    let c = spec::choice(id)?;
    let i = (c.get)(p);
    Some(match ptr {
        ParamPtr::BoolParam(_) => ParamValue::Bool(i >= 1),
        _ => ParamValue::I32(i as i32),
    })
}

/// Every plugin parameter's id and its plain value for `p`, in the plugin's order.
pub fn plugin_values(p: &EngineParams) -> Vec<(String, ParamValue)> {
    ReboundParams::default()
        .param_map()
        .into_iter()
        .filter_map(|(id, ptr, _)| plain_of(&id, &ptr, p).map(|v| (id, v)))
        .collect()
}

/// One plugin parameter as a host sees it for a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct HostValue {
    pub id: String,
    /// The name the host shows.
    pub name: String,
    /// The host's normalised value, 0–1.
    pub normalized: f32,
}

/// Every plugin parameter's host name and normalised value for `p`: what a host test
/// sets to load a preset through the host's own parameter interface.
pub fn host_values(p: &EngineParams) -> Vec<HostValue> {
    let params = ReboundParams::default();
    let mut out = Vec::new();
    for (id, ptr, _) in params.param_map() {
        let Some(plain) = plain_of(&id, &ptr, p).and_then(as_plain) else {
            continue;
        };
        // SAFETY: `ptr` points into `params`, alive for this loop.
        let (name, normalized) = unsafe { (ptr.name().to_string(), ptr.preview_normalized(plain)) };
        out.push(HostValue {
            id,
            name,
            normalized,
        });
    }
    out
}

/// Sets every parameter in `state` to `p`'s value, and its recorded body where it has
/// one (other entries, such as the editor's size, are kept). `GuiContext::set_state`
/// then loads it exactly.
pub fn apply_to_state(state: &mut PluginState, p: &EngineParams) {
    for (id, v) in plugin_values(p) {
        state.params.insert(id, v);
    }
    if let Some(partials) = recording::partials_of(p.recording)
        && let Ok(json) = serde_json::to_string(&partials)
    {
        state.fields.insert(RECORDED_FIELD.to_string(), json);
    }
}

/// The persisted field that holds the recorded body (`ReboundParams::recorded_body`).
pub const RECORDED_FIELD: &str = "recorded-body";

/// Moves every parameter of `params` to `p`'s value through the host, one automation
/// gesture per parameter (normalised values: exact for choices, within an f32 step of
/// the plain value for numbers). A preset with a recorded body sets the session's.
pub fn apply_with_setter(setter: &ParamSetter, params: &ReboundParams, p: &EngineParams) {
    // The body first, so that the parameters' first block already plays it.
    if p.recording != 0 {
        params.recorded_body.set_index(p.recording);
    }
    for (id, ptr, _) in params.param_map() {
        let Some(plain) = plain_of(&id, &ptr, p).and_then(as_plain) else {
            continue;
        };
        // SAFETY: `ptr` points into `params`, alive for this call; GUI thread.
        unsafe {
            let normalized = ptr.preview_normalized(plain);
            setter.raw_context.raw_begin_set_parameter(ptr);
            setter
                .raw_context
                .raw_set_parameter_normalized(ptr, normalized);
            setter.raw_context.raw_end_set_parameter(ptr);
        }
    }
}

/// A parameter value as the plain `f32` the host's normalisation takes (None for the
/// string values no preset holds).
fn as_plain(v: ParamValue) -> Option<f32> {
    match v {
        ParamValue::F32(x) => Some(x),
        ParamValue::I32(i) => Some(i as f32),
        ParamValue::Bool(b) => Some(f32::from(u8::from(b))),
        ParamValue::String(_) => None,
    }
}
