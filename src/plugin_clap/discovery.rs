//! The CLAP preset-discovery factory: one provider that declares the factory presets
//! (inside the plugin, keyed by their file names) and the user's preset folder (one
//! `.json` per preset), and reads each preset's name, description and category for the
//! host's browser. The host then loads a preset through [`super::preset_load`].

use crate::plugin::Rebound;
use crate::preset::{self, Preset};
use clap_sys::factory::preset_discovery::*;
use clap_sys::universal_plugin_id::clap_universal_plugin_id;
use clap_sys::version::CLAP_VERSION;
use nice_plug::prelude::ClapPlugin;
use std::ffi::{CStr, CString, c_char, c_void};
use std::path::{Path, PathBuf};

const PROVIDER_ID: &CStr = c"org.rebound.rebound.presets";

/// The provider's id, name and vendor, the same from the factory and the provider.
static DESCRIPTOR: clap_preset_discovery_provider_descriptor =
    clap_preset_discovery_provider_descriptor {
        clap_version: CLAP_VERSION,
        id: PROVIDER_ID.as_ptr(),
        name: c"Rebound presets".as_ptr(),
        vendor: c"Rebound".as_ptr(),
    };

static FACTORY: clap_preset_discovery_factory = clap_preset_discovery_factory {
    count: Some(count),
    get_descriptor: Some(get_descriptor),
    create: Some(create),
};

/// The factory, as `clap_entry.get_factory` hands it out.
pub fn factory() -> *const c_void {
    &FACTORY as *const _ as *const c_void
}

/// The key a host loads a factory preset by: its file name's stem.
pub fn factory_key(p: &Preset) -> String {
    preset::slug(&p.name)
}

/// The factory preset a host's key names.
pub fn factory_preset(key: &str) -> Option<&'static Preset> {
    preset::factory().iter().find(|p| factory_key(p) == key)
}

/// A provider: the CLAP object first, so a pointer to it is a pointer to this.
#[repr(C)]
struct Provider {
    clap: clap_preset_discovery_provider,
    indexer: *const clap_preset_discovery_indexer,
}

extern "C" fn count(_factory: *const clap_preset_discovery_factory) -> u32 {
    1
}

extern "C" fn get_descriptor(
    _factory: *const clap_preset_discovery_factory,
    index: u32,
) -> *const clap_preset_discovery_provider_descriptor {
    super::only(index, &DESCRIPTOR)
}

/// # Safety
/// `indexer` and `provider_id` come from the host (the CLAP contract).
unsafe extern "C" fn create(
    _factory: *const clap_preset_discovery_factory,
    indexer: *const clap_preset_discovery_indexer,
    provider_id: *const c_char,
) -> *const clap_preset_discovery_provider {
    // SAFETY: the host's C string.
    if indexer.is_null() || !unsafe { super::is(provider_id, PROVIDER_ID) } {
        return std::ptr::null();
    }
    let provider = Box::into_raw(Box::new(Provider {
        clap: clap_preset_discovery_provider {
            desc: &DESCRIPTOR,
            provider_data: std::ptr::null_mut(),
            init: Some(init),
            destroy: Some(destroy),
            get_metadata: Some(get_metadata),
            get_extension: Some(get_extension),
        },
        indexer,
    }));
    // SAFETY: just made; `destroy` frees it.
    unsafe { (*provider).clap.provider_data = provider as *mut c_void };
    provider as *const clap_preset_discovery_provider
}

/// # Safety
/// `provider` is one [`create`] made and the host has not destroyed.
unsafe fn provider_of<'a>(provider: *const clap_preset_discovery_provider) -> Option<&'a Provider> {
    // SAFETY: by the caller's contract; `provider_data` points at the `Provider`.
    unsafe { provider.as_ref()?.provider_data.cast::<Provider>().as_ref() }
}

/// Declares the preset file type, the factory presets and, when it exists, the user's
/// folder (a folder that is not there has nothing to crawl).
///
/// # Safety
/// `provider` is one [`create`] made, not yet destroyed, and its indexer still alive;
/// called on the main thread (the CLAP contract).
unsafe extern "C" fn init(provider: *const clap_preset_discovery_provider) -> bool {
    // SAFETY: by this function's contract: the host passes its provider, and its
    // indexer outlives it.
    let Some(indexer) = (unsafe { provider_of(provider).and_then(|p| p.indexer.as_ref()) }) else {
        return false;
    };
    let filetype = clap_preset_discovery_filetype {
        name: c"Rebound preset".as_ptr(),
        description: c"One Rebound preset: its name, category and parameters".as_ptr(),
        file_extension: c"json".as_ptr(),
    };
    let factory = clap_preset_discovery_location {
        flags: CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
        name: c"Rebound factory presets".as_ptr(),
        kind: CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
        location: std::ptr::null(),
    };
    // SAFETY: the indexer's functions, called with valid structs on the main thread.
    unsafe {
        let mut ok = match indexer.declare_filetype {
            Some(f) => f(indexer, &filetype),
            None => false,
        };
        if let Some(declare) = indexer.declare_location {
            ok &= declare(indexer, &factory);
            if let Some(dir) = user_folder() {
                let user = clap_preset_discovery_location {
                    flags: CLAP_PRESET_DISCOVERY_IS_USER_CONTENT,
                    name: c"Rebound user presets".as_ptr(),
                    kind: CLAP_PRESET_DISCOVERY_LOCATION_FILE,
                    location: dir.as_ptr(),
                };
                ok &= declare(indexer, &user);
            }
        }
        ok
    }
}

/// The user's preset folder as a C string, if it exists and is a folder.
fn user_folder() -> Option<CString> {
    let dir = preset::user_dir().filter(|d| d.is_dir())?;
    CString::new(dir.into_os_string().into_encoded_bytes()).ok()
}

/// # Safety
/// `provider` is one [`create`] made; the host does not use it after this.
unsafe extern "C" fn destroy(provider: *const clap_preset_discovery_provider) {
    // SAFETY: by this function's contract.
    if let Some(p) = unsafe { provider_of(provider) } {
        // SAFETY: made by `Box::into_raw` in `create`, destroyed once.
        drop(unsafe { Box::from_raw(p as *const Provider as *mut Provider) });
    }
}

extern "C" fn get_extension(
    _provider: *const clap_preset_discovery_provider,
    _extension_id: *const c_char,
) -> *const c_void {
    std::ptr::null()
}

/// Tells `receiver` about the presets at a location: every factory preset for the
/// plugin's own location, or the one preset a user file holds.
///
/// # Safety
/// The arguments come from the host (the CLAP contract).
unsafe extern "C" fn get_metadata(
    _provider: *const clap_preset_discovery_provider,
    location_kind: clap_preset_discovery_location_kind,
    location: *const c_char,
    receiver: *const clap_preset_discovery_metadata_receiver,
) -> bool {
    // SAFETY: the host's receiver, valid for this call.
    let Some(receiver) = (unsafe { receiver.as_ref() }) else {
        return false;
    };
    let out = Receiver(receiver);
    match location_kind {
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN if location.is_null() => {
            for p in preset::factory() {
                if !out.preset(
                    p,
                    Some(&factory_key(p)),
                    CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
                ) {
                    break;
                }
            }
            true
        }
        CLAP_PRESET_DISCOVERY_LOCATION_FILE if !location.is_null() => {
            // SAFETY: a non-null C string from the host.
            let path = unsafe { path_of(location) };
            match Preset::load(&path) {
                Ok(p) => {
                    out.preset(&p, None, CLAP_PRESET_DISCOVERY_IS_USER_CONTENT);
                    true
                }
                Err(e) => {
                    out.error(&e.0);
                    false
                }
            }
        }
        _ => false,
    }
}

/// A host's location string as a path.
///
/// # Safety
/// `location` is a non-null C string.
pub(super) unsafe fn path_of(location: *const c_char) -> PathBuf {
    // SAFETY: by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(location) }.to_bytes();
    Path::new(&*String::from_utf8_lossy(bytes)).to_path_buf()
}

/// The host's metadata receiver, with the calls this provider makes.
struct Receiver<'a>(&'a clap_preset_discovery_metadata_receiver);

impl Receiver<'_> {
    /// One preset's metadata; false when the host wants no more.
    fn preset(&self, p: &Preset, load_key: Option<&str>, flags: u32) -> bool {
        let r = self.0;
        let text = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
        let (name, key) = (text(&p.name), load_key.map(text));
        let key_ptr = key.as_ref().map_or(std::ptr::null(), |k| k.as_ptr());
        let id = text(Rebound::CLAP_ID);
        let plugin_id = clap_universal_plugin_id {
            abi: c"clap".as_ptr(),
            id: id.as_ptr(),
        };
        // SAFETY: the receiver's functions with C strings alive for each call.
        unsafe {
            let begun = r.begin_preset.is_some_and(|f| f(r, name.as_ptr(), key_ptr));
            if begun {
                if let Some(f) = r.add_plugin_id {
                    f(r, &plugin_id);
                }
                if let Some(f) = r.set_flags {
                    f(r, flags);
                }
                if let Some(f) = r.add_creator {
                    f(r, c"Rebound".as_ptr());
                }
                if let Some(f) = r.set_description {
                    f(r, text(&p.description).as_ptr());
                }
                if let Some(f) = r.add_feature {
                    f(r, text(&p.category.to_lowercase()).as_ptr());
                }
            }
            begun
        }
    }

    fn error(&self, message: &str) {
        let r = self.0;
        let msg = CString::new(message.replace('\0', " ")).unwrap_or_default();
        if let Some(f) = r.on_error {
            // SAFETY: the receiver's function with a C string alive for the call.
            unsafe { f(r, 0, msg.as_ptr()) };
        }
    }
}
