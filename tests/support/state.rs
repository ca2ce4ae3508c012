//! Loading a plugin state the way nice-plug's `deserialize_object` does: the plugin's
//! `filter_state`, then every value set as a plain value by ID, then the persisted
//! fields. Shared by the state and preset tests.
#![allow(dead_code)]

use nice_plug::params::InternalParamMut;
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::params::ReboundParams;
use std::collections::BTreeMap;

/// Loads `state` into `params`. Returns the IDs whose stored value does not fit their
/// parameter's type, which nice-plug skips (and so does this).
pub fn load(params: &ReboundParams, mut state: PluginState) -> Vec<String> {
    Rebound::filter_state(&mut state);
    let map = params.param_map();
    let mut misfits = Vec::new();
    for (id, value) in &state.params {
        let Some((_, ptr, _)) = map.iter().find(|(i, _, _)| i == id) else {
            continue;
        };
        unsafe {
            match (*ptr, value) {
                (ParamPtr::FloatParam(p), ParamValue::F32(v)) => {
                    (*p)._internal_set_plain_value(*v);
                }
                (ParamPtr::IntParam(p), ParamValue::I32(v)) => {
                    (*p)._internal_set_plain_value(*v);
                }
                (ParamPtr::BoolParam(p), ParamValue::Bool(v)) => {
                    (*p)._internal_set_plain_value(*v);
                }
                (ParamPtr::EnumParam(p), ParamValue::I32(v)) => {
                    (*p)._internal_set_plain_value(*v);
                }
                (ParamPtr::EnumParam(p), ParamValue::String(id)) => {
                    (*p).set_from_id(id);
                }
                _ => misfits.push(id.clone()),
            }
        }
    }
    params.deserialize_fields(&state.fields);
    misfits
}

/// Every parameter's stored plain value by ID, as a saved state holds them.
pub fn plain_values(params: &ReboundParams) -> BTreeMap<String, ParamValue> {
    let mut values = BTreeMap::new();
    for (id, ptr, _) in params.param_map() {
        let v = unsafe {
            match ptr {
                ParamPtr::FloatParam(p) => ParamValue::F32((*p).unmodulated_plain_value()),
                ParamPtr::IntParam(p) => ParamValue::I32((*p).unmodulated_plain_value()),
                ParamPtr::BoolParam(p) => ParamValue::Bool((*p).unmodulated_plain_value()),
                ParamPtr::EnumParam(p) => ParamValue::I32((*p).unmodulated_plain_value()),
            }
        };
        values.insert(id, v);
    }
    values
}

/// The state a host saves of `params`: every plain value and persisted field.
pub fn saved_state(params: &ReboundParams) -> PluginState {
    PluginState {
        version: String::new(),
        params: plain_values(params),
        fields: params.serialize_fields(),
    }
}
