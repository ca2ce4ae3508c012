//! A minimal CLAP host for the tests that drive `clap_entry` directly, as a host's
//! preset browser would: a host with only the preset-load extension, an indexer that
//! records what a provider declares, a metadata receiver that records each preset,
//! and a memory stream for the state extension.
#![allow(dead_code)]

use clap_sys::ext::preset_load::{CLAP_EXT_PRESET_LOAD, clap_host_preset_load};
use clap_sys::factory::preset_discovery::*;
use clap_sys::host::clap_host;
use clap_sys::stream::clap_ostream;
use clap_sys::universal_plugin_id::clap_universal_plugin_id;
use clap_sys::version::CLAP_VERSION;
use std::ffi::{CStr, c_char, c_void};

fn text(p: *const c_char) -> Option<String> {
    // SAFETY: the plugin passes null or C strings.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

unsafe extern "C" fn nothing(_h: *const clap_host) {}

/// What the host's preset-load extension heard: `(kind, location, load_key)` of each
/// load the plugin reported, and each error message.
#[derive(Debug, Default)]
pub struct Replies {
    pub loaded: Vec<(u32, Option<String>, Option<String>)>,
    pub errors: Vec<String>,
}

unsafe fn replies<'a>(h: *const clap_host) -> &'a mut Replies {
    // SAFETY: `host_data` is the `Replies` the test owns.
    unsafe { &mut *((*h).host_data as *mut Replies) }
}

unsafe extern "C" fn on_load_error(
    h: *const clap_host,
    _kind: u32,
    _location: *const c_char,
    _load_key: *const c_char,
    _os_error: i32,
    msg: *const c_char,
) {
    unsafe { replies(h) }
        .errors
        .push(text(msg).unwrap_or_default());
}

unsafe extern "C" fn loaded(
    h: *const clap_host,
    kind: u32,
    location: *const c_char,
    load_key: *const c_char,
) {
    unsafe { replies(h) }
        .loaded
        .push((kind, text(location), text(load_key)));
}

static PRESET_LOAD: clap_host_preset_load = clap_host_preset_load {
    on_error: Some(on_load_error),
    loaded: Some(loaded),
};

unsafe extern "C" fn host_extension(_h: *const clap_host, id: *const c_char) -> *const c_void {
    // SAFETY: the plugin passes a C string.
    if unsafe { CStr::from_ptr(id) } == CLAP_EXT_PRESET_LOAD {
        &PRESET_LOAD as *const _ as *const c_void
    } else {
        std::ptr::null()
    }
}

/// A host whose only extension is preset-load (recording into `out`, which must
/// outlive it) and that ignores every request.
pub fn host(out: &mut Replies) -> Box<clap_host> {
    Box::new(clap_host {
        clap_version: CLAP_VERSION,
        host_data: out as *mut Replies as *mut c_void,
        name: c"rebound-test-host".as_ptr(),
        vendor: c"rebound".as_ptr(),
        url: c"".as_ptr(),
        version: c"1".as_ptr(),
        get_extension: Some(host_extension),
        request_restart: Some(nothing),
        request_process: Some(nothing),
        request_callback: Some(nothing),
    })
}

/// What a provider declared at `init`.
#[derive(Debug, Default)]
pub struct Declared {
    pub filetypes: Vec<(String, Option<String>)>,
    /// (flags, name, kind, location)
    pub locations: Vec<(u32, String, u32, Option<String>)>,
}

unsafe fn declared<'a>(i: *const clap_preset_discovery_indexer) -> &'a mut Declared {
    // SAFETY: `indexer_data` is the `Declared` the test owns.
    unsafe { &mut *((*i).indexer_data as *mut Declared) }
}

unsafe extern "C" fn declare_filetype(
    i: *const clap_preset_discovery_indexer,
    f: *const clap_preset_discovery_filetype,
) -> bool {
    let f = unsafe { &*f };
    let name = text(f.name).unwrap_or_default();
    unsafe { declared(i) }
        .filetypes
        .push((name, text(f.file_extension)));
    true
}

unsafe extern "C" fn declare_location(
    i: *const clap_preset_discovery_indexer,
    l: *const clap_preset_discovery_location,
) -> bool {
    let l = unsafe { &*l };
    let name = text(l.name).unwrap_or_default();
    unsafe { declared(i) }
        .locations
        .push((l.flags, name, l.kind, text(l.location)));
    true
}

unsafe extern "C" fn declare_soundpack(
    _i: *const clap_preset_discovery_indexer,
    _s: *const clap_preset_discovery_soundpack,
) -> bool {
    true
}

unsafe extern "C" fn indexer_extension(
    _i: *const clap_preset_discovery_indexer,
    _id: *const c_char,
) -> *const c_void {
    std::ptr::null()
}

/// An indexer recording into `out` (which must outlive it).
pub fn indexer(out: &mut Declared) -> clap_preset_discovery_indexer {
    clap_preset_discovery_indexer {
        clap_version: CLAP_VERSION,
        name: c"rebound-test-indexer".as_ptr(),
        vendor: c"rebound".as_ptr(),
        url: c"".as_ptr(),
        version: c"1".as_ptr(),
        indexer_data: out as *mut Declared as *mut c_void,
        declare_filetype: Some(declare_filetype),
        declare_location: Some(declare_location),
        declare_soundpack: Some(declare_soundpack),
        get_extension: Some(indexer_extension),
    }
}

/// One preset as a receiver heard it.
#[derive(Clone, Debug, Default)]
pub struct Heard {
    pub name: String,
    pub load_key: Option<String>,
    /// (abi, id)
    pub plugin_ids: Vec<(String, String)>,
    pub flags: u32,
    pub creators: Vec<String>,
    pub description: Option<String>,
    pub features: Vec<String>,
}

/// Everything a receiver heard; `stop_after` makes `begin_preset` refuse from then on.
#[derive(Debug, Default)]
pub struct Received {
    pub presets: Vec<Heard>,
    pub errors: Vec<String>,
    pub stop_after: Option<usize>,
    pub refused: usize,
}

unsafe fn received<'a>(r: *const clap_preset_discovery_metadata_receiver) -> &'a mut Received {
    // SAFETY: `receiver_data` is the `Received` the test owns.
    unsafe { &mut *((*r).receiver_data as *mut Received) }
}

unsafe fn last<'a>(r: *const clap_preset_discovery_metadata_receiver) -> &'a mut Heard {
    let got = unsafe { received(r) };
    got.presets
        .last_mut()
        .expect("metadata before begin_preset")
}

unsafe extern "C" fn on_error(
    r: *const clap_preset_discovery_metadata_receiver,
    _os_error: i32,
    msg: *const c_char,
) {
    unsafe { received(r) }
        .errors
        .push(text(msg).unwrap_or_default());
}

unsafe extern "C" fn begin_preset(
    r: *const clap_preset_discovery_metadata_receiver,
    name: *const c_char,
    load_key: *const c_char,
) -> bool {
    let got = unsafe { received(r) };
    if got.stop_after.is_some_and(|n| got.presets.len() >= n) {
        got.refused += 1;
        return false;
    }
    got.presets.push(Heard {
        name: text(name).unwrap_or_default(),
        load_key: text(load_key),
        ..Heard::default()
    });
    true
}

unsafe extern "C" fn add_plugin_id(
    r: *const clap_preset_discovery_metadata_receiver,
    id: *const clap_universal_plugin_id,
) {
    let id = unsafe { &*id };
    let pair = (
        text(id.abi).unwrap_or_default(),
        text(id.id).unwrap_or_default(),
    );
    unsafe { last(r) }.plugin_ids.push(pair);
}

unsafe extern "C" fn set_soundpack_id(
    _r: *const clap_preset_discovery_metadata_receiver,
    _id: *const c_char,
) {
}

unsafe extern "C" fn set_flags(r: *const clap_preset_discovery_metadata_receiver, flags: u32) {
    unsafe { last(r) }.flags = flags;
}

unsafe extern "C" fn add_creator(
    r: *const clap_preset_discovery_metadata_receiver,
    c: *const c_char,
) {
    unsafe { last(r) }
        .creators
        .push(text(c).unwrap_or_default());
}

unsafe extern "C" fn set_description(
    r: *const clap_preset_discovery_metadata_receiver,
    d: *const c_char,
) {
    unsafe { last(r) }.description = text(d);
}

unsafe extern "C" fn set_timestamps(
    _r: *const clap_preset_discovery_metadata_receiver,
    _c: u64,
    _m: u64,
) {
}

unsafe extern "C" fn add_feature(
    r: *const clap_preset_discovery_metadata_receiver,
    f: *const c_char,
) {
    unsafe { last(r) }
        .features
        .push(text(f).unwrap_or_default());
}

unsafe extern "C" fn add_extra_info(
    _r: *const clap_preset_discovery_metadata_receiver,
    _k: *const c_char,
    _v: *const c_char,
) {
}

/// A receiver recording into `out` (which must outlive it).
pub fn receiver(out: &mut Received) -> clap_preset_discovery_metadata_receiver {
    clap_preset_discovery_metadata_receiver {
        receiver_data: out as *mut Received as *mut c_void,
        on_error: Some(on_error),
        begin_preset: Some(begin_preset),
        add_plugin_id: Some(add_plugin_id),
        set_soundpack_id: Some(set_soundpack_id),
        set_flags: Some(set_flags),
        add_creator: Some(add_creator),
        set_description: Some(set_description),
        set_timestamps: Some(set_timestamps),
        add_feature: Some(add_feature),
        add_extra_info: Some(add_extra_info),
    }
}

unsafe extern "C" fn write(s: *const clap_ostream, buf: *const c_void, size: u64) -> i64 {
    // SAFETY: `ctx` is the `Vec<u8>` the test owns; `buf` holds `size` bytes.
    let out = unsafe { &mut *((*s).ctx as *mut Vec<u8>) };
    out.extend_from_slice(unsafe { std::slice::from_raw_parts(buf as *const u8, size as usize) });
    size as i64
}

/// An output stream appending to `out` (which must outlive it).
pub fn ostream(out: &mut Vec<u8>) -> clap_ostream {
    clap_ostream {
        ctx: out as *mut Vec<u8> as *mut c_void,
        write: Some(write),
    }
}
