//! CLAP's preset-load extension: the host loads a preset it found through
//! [`super::discovery`], a factory preset by its key or a user preset by its file.
//! The preset becomes a plugin state with every parameter set, which nice-plug applies
//! the way it applies the editor's: at once when the plugin is not processing, else at
//! the end of the next block, and then it tells the host to rescan the values.

use super::discovery::{factory_preset, path_of};
use crate::plugin::Rebound;
use crate::preset::Preset;
use crate::preset::plugin::apply_to_state;
use clap_sys::ext::preset_load::{
    CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT, clap_host_preset_load,
    clap_plugin_preset_load,
};
use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_LOCATION_FILE, CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
    clap_preset_discovery_location_kind,
};
use clap_sys::host::clap_host;
use clap_sys::plugin::clap_plugin;
use nice_plug::plugin::PluginState;
use nice_plug::prelude::Plugin;
use nice_plug::wrapper::clap::Wrapper;
use std::ffi::{CStr, CString, c_char, c_void};

static EXTENSION: clap_plugin_preset_load = clap_plugin_preset_load {
    from_location: Some(from_location),
};

/// True for the extension's id (and the draft id hosts of CLAP 1.1 ask for).
pub fn is_its_id(id: &CStr) -> bool {
    id == CLAP_EXT_PRESET_LOAD || id == CLAP_EXT_PRESET_LOAD_COMPAT
}

/// The extension, as the plugin's `get_extension` hands it out.
pub fn extension() -> *const c_void {
    &EXTENSION as *const _ as *const c_void
}

/// The preset a location and key name: a factory preset by its key (the location is
/// the plugin itself), or the preset in a user's file; else why there is none.
///
/// # Safety
/// `location` and `load_key` are null or C strings.
pub unsafe fn resolve(
    location_kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
) -> Result<Preset, String> {
    match location_kind {
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN if !load_key.is_null() => {
            // SAFETY: a non-null C string from the host.
            let key = unsafe { CStr::from_ptr(load_key) }.to_string_lossy();
            factory_preset(&key)
                .cloned()
                .ok_or_else(|| format!("no factory preset has the key '{key}'"))
        }
        CLAP_PRESET_DISCOVERY_LOCATION_FILE if !location.is_null() => {
            // SAFETY: a non-null C string from the host.
            Preset::load(&unsafe { path_of(location) }).map_err(|e| e.0)
        }
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN => Err("a factory preset needs its key".into()),
        CLAP_PRESET_DISCOVERY_LOCATION_FILE => Err("a preset file needs its path".into()),
        other => Err(format!("unknown preset location kind {other}")),
    }
}

/// A plugin state holding every parameter of `p` and its recorded body, if it has one
/// (and nothing else, so the editor's size and other persisted fields stay as they
/// are).
pub fn state_of(p: &Preset) -> PluginState {
    let mut state = PluginState {
        version: Rebound::VERSION.to_string(),
        params: Default::default(),
        fields: Default::default(),
    };
    apply_to_state(&mut state, &p.params);
    state
}

/// # Safety
/// `plugin` is an instance this library made; the strings are null or C strings.
unsafe extern "C" fn from_location(
    plugin: *const clap_plugin,
    location_kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
) -> bool {
    // SAFETY: the host passes the instance our factory made, whose `plugin_data` is
    // nice-plug's wrapper of `Rebound`.
    let Some(wrapper) = (unsafe {
        plugin
            .as_ref()
            .and_then(|p| p.plugin_data.cast::<Wrapper<Rebound>>().as_ref())
    }) else {
        return false;
    };
    let reply = HostReply {
        plugin,
        location_kind,
        location,
        load_key,
    };
    // SAFETY: by this function's contract.
    match unsafe { resolve(location_kind, location, load_key) } {
        Ok(preset) => {
            wrapper.set_state_object_from_gui(state_of(&preset));
            reply.loaded();
            true
        }
        Err(why) => {
            reply.error(&why);
            false
        }
    }
}

/// The host's preset-load extension, told what became of a load it asked for.
struct HostReply {
    plugin: *const clap_plugin,
    location_kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    load_key: *const c_char,
}

impl HostReply {
    /// The host and its extension, if it has one.
    fn host(&self) -> Option<(&clap_host, &clap_host_preset_load)> {
        // SAFETY: the instance's host outlives it; its `get_extension` is called with
        // static C strings and answers null or its extension.
        unsafe {
            let host = super::host_of(self.plugin)?.as_ref()?;
            let get = host.get_extension?;
            let ext = [CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT]
                .iter()
                .map(|id| get(host, id.as_ptr()) as *const clap_host_preset_load)
                .find(|e| !e.is_null())?;
            Some((host, &*ext))
        }
    }

    fn loaded(&self) {
        if let Some((host, ext)) = self.host()
            && let Some(f) = ext.loaded
        {
            // A single preset file is named by its path alone.
            let key = match self.location_kind {
                CLAP_PRESET_DISCOVERY_LOCATION_FILE => std::ptr::null(),
                _ => self.load_key,
            };
            // SAFETY: the host's function with its own strings handed back.
            unsafe { f(host, self.location_kind, self.location, key) };
        }
    }

    fn error(&self, why: &str) {
        if let Some((host, ext)) = self.host()
            && let Some(f) = ext.on_error
        {
            let msg = CString::new(why.replace('\0', " ")).unwrap_or_default();
            // SAFETY: the host's function with its own strings and a message alive
            // for the call.
            unsafe {
                f(
                    host,
                    self.location_kind,
                    self.location,
                    self.load_key,
                    0,
                    msg.as_ptr(),
                )
            };
        }
    }
}
