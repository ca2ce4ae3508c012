//! The CLAP entry point. nice-plug's `nice_export_clap!` answers only the plugin
//! factory; hosts also ask a CLAP library for its preset-discovery factory (to list
//! the factory and user presets in their own browser) and ask each instance for the
//! preset-load extension (to load what they listed). This entry hands out nice-plug's
//! plugin wrapper unchanged, except that its `get_extension` answers preset-load first
//! ([`preset_load`]), and adds the preset-discovery factory ([`discovery`]).
//!
//! Everything here runs on the host's main thread; the audio thread never sees it.

pub mod discovery;
pub mod preset_load;

use crate::plugin::Rebound;
use clap_sys::entry::clap_plugin_entry;
use clap_sys::factory::plugin_factory::{CLAP_PLUGIN_FACTORY_ID, clap_plugin_factory};
use clap_sys::factory::preset_discovery::{
    CLAP_PRESET_DISCOVERY_FACTORY_ID, CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT,
};
use clap_sys::host::clap_host;
use clap_sys::plugin::{clap_plugin, clap_plugin_descriptor};
use clap_sys::version::CLAP_VERSION;
use nice_plug::wrapper::clap::{PluginDescriptor, Wrapper};
use std::ffi::{CStr, c_char, c_void};
use std::sync::{Arc, Mutex, OnceLock};

/// The signature of a plugin's `get_extension`.
type GetExtension = unsafe extern "C" fn(*const clap_plugin, *const c_char) -> *const c_void;

/// The CLAP library's entry point, the one symbol a host looks up.
#[allow(non_upper_case_globals)]
#[unsafe(no_mangle)]
#[used]
pub static clap_entry: clap_plugin_entry = clap_plugin_entry {
    clap_version: CLAP_VERSION,
    init: Some(init),
    deinit: Some(deinit),
    get_factory: Some(get_factory),
};

static PLUGIN_FACTORY: clap_plugin_factory = clap_plugin_factory {
    get_plugin_count: Some(plugin_count),
    get_plugin_descriptor: Some(plugin_descriptor),
    create_plugin: Some(create_plugin),
};

fn descriptor() -> &'static PluginDescriptor {
    static DESCRIPTOR: OnceLock<PluginDescriptor> = OnceLock::new();
    DESCRIPTOR.get_or_init(PluginDescriptor::for_plugin::<Rebound>)
}

/// nice-plug's own `get_extension` and `destroy` for [`Rebound`], kept when the first
/// instance is made (every instance has the same ones).
static WRAPPED_GET_EXTENSION: OnceLock<GetExtension> = OnceLock::new();
static WRAPPED_DESTROY: OnceLock<unsafe extern "C" fn(*const clap_plugin)> = OnceLock::new();

/// Each live instance's host (instance and host addresses), for the preset-load
/// extension's replies: nice-plug keeps its own copy private. Main thread only (made
/// at `create_plugin`, dropped at `destroy`); the audio thread never touches it.
static HOSTS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// The host that made `plugin`, while it lives.
pub(crate) fn host_of(plugin: *const clap_plugin) -> Option<*const clap_host> {
    let hosts = HOSTS.lock().unwrap_or_else(|e| e.into_inner());
    let found = hosts.iter().find(|(p, _)| *p == plugin as usize);
    found.map(|(_, h)| *h as *const clap_host)
}

extern "C" fn init(_plugin_path: *const c_char) -> bool {
    nice_plug::wrapper::setup_logger::<Rebound>();
    true
}

extern "C" fn deinit() {}

/// # Safety
/// `factory_id` is null or a C string (the CLAP contract).
unsafe extern "C" fn get_factory(factory_id: *const c_char) -> *const c_void {
    if factory_id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: non-null C string from the host.
    let id = unsafe { CStr::from_ptr(factory_id) };
    if id == CLAP_PLUGIN_FACTORY_ID {
        &PLUGIN_FACTORY as *const _ as *const c_void
    } else if id == CLAP_PRESET_DISCOVERY_FACTORY_ID
        || id == CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT
    {
        discovery::factory()
    } else {
        std::ptr::null()
    }
}

extern "C" fn plugin_count(_factory: *const clap_plugin_factory) -> u32 {
    1
}

extern "C" fn plugin_descriptor(
    _factory: *const clap_plugin_factory,
    index: u32,
) -> *const clap_plugin_descriptor {
    only(index, descriptor().clap_plugin_descriptor())
}

/// A one-entry list's entry `index`: `item`, or null past it.
fn only<T>(index: u32, item: *const T) -> *const T {
    if index == 0 { item } else { std::ptr::null() }
}

/// True when the host's `id` (null or a C string) is `ours`.
///
/// # Safety
/// `id` is null or a C string.
unsafe fn is(id: *const c_char, ours: &CStr) -> bool {
    // SAFETY: by the caller's contract.
    !id.is_null() && unsafe { CStr::from_ptr(id) } == ours
}

/// # Safety
/// `host` and `plugin_id` come from the host (the CLAP contract).
unsafe extern "C" fn create_plugin(
    _factory: *const clap_plugin_factory,
    host: *const clap_host,
    plugin_id: *const c_char,
) -> *const clap_plugin {
    // SAFETY: the host's C string.
    if host.is_null() || !unsafe { is(plugin_id, descriptor().clap_id()) } {
        return std::ptr::null();
    }
    // The wrapper lives until the host calls its `destroy`, which takes back this
    // reference (as nice-plug's own entry does).
    // SAFETY: `host` is the host's, valid for the instance's life.
    let wrapper = Arc::into_raw(unsafe { Wrapper::<Rebound>::new(host) });
    // SAFETY: just made, alive until `destroy`.
    let wrapper = unsafe { &*wrapper };
    let mut vtable = wrapper.clap_plugin.borrow_mut();
    if let Some(own) = vtable.get_extension {
        WRAPPED_GET_EXTENSION.get_or_init(|| own);
        vtable.get_extension = Some(get_extension);
    }
    if let Some(own) = vtable.destroy {
        WRAPPED_DESTROY.get_or_init(|| own);
        vtable.destroy = Some(destroy);
    }
    drop(vtable);
    let plugin = wrapper.clap_plugin.as_ptr();
    let mut hosts = HOSTS.lock().unwrap_or_else(|e| e.into_inner());
    hosts.push((plugin as usize, host as usize));
    plugin
}

/// Forgets the instance's host, then nice-plug's own `destroy`.
///
/// # Safety
/// `plugin` is one of ours, not used after (the CLAP contract).
unsafe extern "C" fn destroy(plugin: *const clap_plugin) {
    HOSTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(p, _)| *p != plugin as usize);
    if let Some(own) = WRAPPED_DESTROY.get() {
        // SAFETY: the wrapper's own function, called as the host would.
        unsafe { own(plugin) };
    }
}

/// Preset-load first, then whatever nice-plug's wrapper offers.
///
/// # Safety
/// `plugin` is one of ours, `id` a C string (the CLAP contract).
unsafe extern "C" fn get_extension(plugin: *const clap_plugin, id: *const c_char) -> *const c_void {
    if id.is_null() {
        return std::ptr::null();
    }
    // SAFETY: non-null C string from the host.
    if preset_load::is_its_id(unsafe { CStr::from_ptr(id) }) {
        return preset_load::extension();
    }
    match WRAPPED_GET_EXTENSION.get() {
        // SAFETY: the wrapper's own function, called as the host would.
        Some(own) => unsafe { own(plugin, id) },
        None => std::ptr::null(),
    }
}
