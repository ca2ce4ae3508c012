//! Setting the plugin's parameters as a host's preset browser does.

use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use rebound::engine::EngineParams;
use rebound::params::ReboundParams;

/// Sets every parameter of `params` to `want`'s value through its normalised value
/// (`preset::plugin::apply_with_setter`: each plain value to its normalised value).
pub fn set_through_host(params: &ReboundParams, want: &EngineParams) {
    let map = params.param_map();
    for (id, v) in rebound::preset::plugin::plugin_values(want) {
        let (_, ptr, _) = map.iter().find(|(i, _, _)| *i == id).expect("an id");
        let plain = match v {
            ParamValue::F32(x) => x,
            ParamValue::I32(i) => i as f32,
            ParamValue::Bool(b) => f32::from(u8::from(b)),
            ParamValue::String(_) => continue,
        };
        unsafe { ptr._internal_set_normalized_value(ptr.preview_normalized(plain)) };
    }
}
