//! The CLAP entry as a host's preset browser uses it: the preset-discovery factory
//! lists every factory preset and the user's folder, and the preset-load extension
//! loads each into every parameter (read back through the plugin's own state).

#[path = "support/clap_fake.rs"]
mod clap_fake;
#[path = "support/scratch.rs"]
mod scratch;

use clap_fake::{Declared, Received};
use clap_sys::ext::preset_load::{
    CLAP_EXT_PRESET_LOAD, CLAP_EXT_PRESET_LOAD_COMPAT, clap_plugin_preset_load,
};
use clap_sys::ext::state::{CLAP_EXT_STATE, clap_plugin_state};
use clap_sys::factory::plugin_factory::{CLAP_PLUGIN_FACTORY_ID, clap_plugin_factory};
use clap_sys::factory::preset_discovery::*;
use clap_sys::plugin::clap_plugin;
use nice_plug::plugin::{ParamValue, PluginState};
use rebound::engine::spec;
use rebound::plugin_clap::{clap_entry, discovery};
use rebound::preset::{self, Preset};
use std::ffi::{CStr, CString, c_char};
use std::path::Path;

fn factory_of(id: &CStr) -> *const std::ffi::c_void {
    // SAFETY: the entry's functions, called as a host calls them.
    unsafe {
        assert!(clap_entry.init.unwrap()(c"".as_ptr()));
        clap_entry.get_factory.unwrap()(id.as_ptr())
    }
}

fn discovery() -> &'static clap_preset_discovery_factory {
    let f = factory_of(CLAP_PRESET_DISCOVERY_FACTORY_ID);
    // SAFETY: the entry hands out a static factory.
    unsafe { &*(f as *const clap_preset_discovery_factory) }
}

#[test]
fn the_entry_hands_out_the_plugin_and_preset_factories() {
    assert!(!factory_of(CLAP_PLUGIN_FACTORY_ID).is_null());
    let stable = factory_of(CLAP_PRESET_DISCOVERY_FACTORY_ID);
    assert!(!stable.is_null());
    assert_eq!(factory_of(CLAP_PRESET_DISCOVERY_FACTORY_ID_COMPAT), stable);
    assert!(factory_of(c"clap.no-such-factory").is_null());
    // SAFETY: a null id is answered with null, not read.
    assert!(unsafe { clap_entry.get_factory.unwrap()(std::ptr::null()) }.is_null());
}

/// A provider made through the factory, as a host makes one (with its descriptor
/// checked against the factory's), initialised with an indexer recording into `out`.
fn provider(indexer: &clap_preset_discovery_indexer) -> &'static clap_preset_discovery_provider {
    let f = discovery();
    // SAFETY: the factory's functions with valid arguments.
    unsafe {
        assert_eq!(f.count.unwrap()(f), 1);
        assert!(f.get_descriptor.unwrap()(f, 1).is_null());
        let d = &*f.get_descriptor.unwrap()(f, 0);
        assert!(f.create.unwrap()(f, indexer, c"no.such.provider".as_ptr()).is_null());
        let p = &*f.create.unwrap()(f, indexer, d.id);
        let own = &*p.desc;
        for (a, b) in [(d.id, own.id), (d.name, own.name), (d.vendor, own.vendor)] {
            assert_eq!(CStr::from_ptr(a), CStr::from_ptr(b));
        }
        assert!(p.init.unwrap()(p));
        p
    }
}

fn metadata(
    p: &clap_preset_discovery_provider,
    kind: u32,
    location: Option<&Path>,
    got: &mut Received,
) -> bool {
    let path = location.map(|l| CString::new(l.to_str().unwrap()).unwrap());
    let ptr = path.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    let r = clap_fake::receiver(got);
    // SAFETY: the provider's function with a receiver alive for the call.
    unsafe { p.get_metadata.unwrap()(p, kind, ptr, &r) }
}

fn destroy(p: &clap_preset_discovery_provider) {
    // SAFETY: made by the factory, not used after.
    unsafe { p.destroy.unwrap()(p) };
}

#[test]
fn the_provider_lists_every_factory_preset_and_the_users_folder() {
    let scratch = scratch::dir("clap-presets");
    let dir = scratch.path().join("presets");
    // SAFETY: no other test in this binary reads the environment.
    unsafe { std::env::set_var("REBOUND_PRESET_DIR", &dir) };

    // No user folder yet: only the factory location.
    let mut declared = Declared::default();
    let indexer = clap_fake::indexer(&mut declared);
    let p = provider(&indexer);
    assert_eq!(
        declared.filetypes,
        [("Rebound preset".into(), Some("json".into()))]
    );
    assert_eq!(declared.locations.len(), 1, "{:?}", declared.locations);
    let (flags, _, kind, location) = &declared.locations[0];
    assert_eq!(
        (*flags, *kind, location),
        (
            CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT,
            CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
            &None
        )
    );

    let mut got = Received::default();
    assert!(metadata(
        p,
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
        None,
        &mut got
    ));
    let factory = preset::factory();
    assert_eq!(got.presets.len(), factory.len());
    assert!(got.errors.is_empty());
    let mut keys = std::collections::BTreeSet::new();
    for (heard, p) in got.presets.iter().zip(factory) {
        assert_eq!(heard.name, p.name);
        assert_eq!(
            heard.plugin_ids,
            [("clap".into(), "org.rebound.rebound".into())]
        );
        assert_eq!(heard.flags, CLAP_PRESET_DISCOVERY_IS_FACTORY_CONTENT);
        assert_eq!(heard.description.as_deref(), Some(p.description.as_str()));
        assert_eq!(heard.features, [p.category.to_lowercase()]);
        let key = heard.load_key.clone().expect("a factory preset has a key");
        assert!(keys.insert(key), "two factory presets share a key");
    }
    // The plugin location has no path; a host that stops listening is not called again.
    assert!(!metadata(
        p,
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
        Some(&dir),
        &mut got
    ));
    let mut few = Received {
        stop_after: Some(3),
        ..Received::default()
    };
    assert!(metadata(
        p,
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
        None,
        &mut few
    ));
    assert_eq!((few.presets.len(), few.refused), (3, 1));
    destroy(p);

    // With a user folder: declared, and each file read (a bad one refused, with why).
    let mine = Preset::new("My knock", "Mine", "A user's own", factory[0].params);
    let good = preset::save_in(&dir, &mine).unwrap();
    let bad = dir.join("broken.json");
    std::fs::write(&bad, "{ \"format\": 1, \"name\": ").unwrap();
    let mut declared = Declared::default();
    let indexer = clap_fake::indexer(&mut declared);
    let p = provider(&indexer);
    let user = declared
        .locations
        .iter()
        .find(|l| l.0 == CLAP_PRESET_DISCOVERY_IS_USER_CONTENT);
    let user = user.expect("the user's folder is declared");
    assert_eq!(user.2, CLAP_PRESET_DISCOVERY_LOCATION_FILE);
    assert_eq!(user.3.as_deref(), dir.to_str());

    let mut got = Received::default();
    assert!(metadata(
        p,
        CLAP_PRESET_DISCOVERY_LOCATION_FILE,
        Some(&good),
        &mut got
    ));
    assert_eq!(got.presets.len(), 1);
    let heard = &got.presets[0];
    assert_eq!(
        (heard.name.as_str(), heard.load_key.as_ref()),
        ("My knock", None)
    );
    assert_eq!(heard.flags, CLAP_PRESET_DISCOVERY_IS_USER_CONTENT);
    let mut got = Received::default();
    assert!(!metadata(
        p,
        CLAP_PRESET_DISCOVERY_LOCATION_FILE,
        Some(&bad),
        &mut got
    ));
    assert!(got.presets.is_empty() && got.errors.len() == 1, "{got:?}");
    destroy(p);
}

/// A plugin instance from the entry's plugin factory, initialised.
fn instance(host: &clap_sys::host::clap_host) -> &'static clap_plugin {
    let f = factory_of(CLAP_PLUGIN_FACTORY_ID) as *const clap_plugin_factory;
    // SAFETY: the factory and plugin functions, called as a host calls them.
    unsafe {
        let f = &*f;
        assert_eq!(f.get_plugin_count.unwrap()(f), 1);
        let d = &*f.get_plugin_descriptor.unwrap()(f, 0);
        assert!(f.create_plugin.unwrap()(f, host, c"no.such.plugin".as_ptr()).is_null());
        let plugin = &*f.create_plugin.unwrap()(f, host, d.id);
        assert!(plugin.init.unwrap()(plugin));
        plugin
    }
}

fn extension<T>(plugin: &clap_plugin, id: &CStr) -> Option<&'static T> {
    // SAFETY: the plugin's function; a non-null answer is a static of type `T`.
    unsafe { (plugin.get_extension.unwrap()(plugin, id.as_ptr()) as *const T).as_ref() }
}

/// The plugin's saved state, read back as nice-plug wrote it.
fn saved(plugin: &clap_plugin) -> PluginState {
    let state: &clap_plugin_state = extension(plugin, CLAP_EXT_STATE).expect("state extension");
    let mut bytes = Vec::new();
    let stream = clap_fake::ostream(&mut bytes);
    // SAFETY: the state extension with a stream alive for the call.
    assert!(unsafe { state.save.unwrap()(plugin, &stream) });
    // nice-plug writes the length, then the JSON.
    serde_json::from_slice(&bytes[8..]).expect("the state is JSON")
}

fn load(
    ext: &clap_plugin_preset_load,
    plugin: &clap_plugin,
    kind: u32,
    at: Option<&Path>,
    key: Option<&str>,
) -> bool {
    let at = at.map(|p| CString::new(p.to_str().unwrap()).unwrap());
    let key = key.map(|k| CString::new(k).unwrap());
    let ptr = |c: &Option<CString>| {
        c.as_ref()
            .map_or(std::ptr::null::<c_char>(), |c| c.as_ptr())
    };
    // SAFETY: the extension's function with C strings alive for the call.
    unsafe { ext.from_location.unwrap()(plugin, kind, ptr(&at), ptr(&key)) }
}

/// Two saved values of parameter `id` the same to the bit (a choice is saved by its
/// id, and a preset gives its index).
fn same(id: &str, saved: &ParamValue, want: &ParamValue) -> bool {
    match (saved, want) {
        (ParamValue::F32(x), ParamValue::F32(y)) => x.to_bits() == y.to_bits(),
        (ParamValue::I32(x), ParamValue::I32(y)) => x == y,
        (ParamValue::Bool(x), ParamValue::Bool(y)) => x == y,
        (ParamValue::String(x), ParamValue::I32(i)) => spec::choice(id).is_some_and(|c| {
            let ids = c.saved.unwrap_or(c.choices);
            ids.get(*i as usize) == Some(&x.as_str())
        }),
        _ => false,
    }
}

fn assert_holds(plugin: &clap_plugin, p: &Preset) {
    let state = saved(plugin);
    for (id, want) in rebound::preset::plugin::plugin_values(&p.params) {
        let got = state.params.get(&id);
        assert!(
            got.is_some_and(|g| same(&id, g, &want)),
            "{id} after loading {}: {got:?}, not {want:?}",
            p.name
        );
    }
}

#[test]
fn loading_a_preset_sets_every_parameter() {
    let mut replies = clap_fake::Replies::default();
    let host = clap_fake::host(&mut replies);
    let plugin = instance(&host);
    let ext: &clap_plugin_preset_load =
        extension(plugin, CLAP_EXT_PRESET_LOAD).expect("preset-load extension");
    let compat: &clap_plugin_preset_load = extension(plugin, CLAP_EXT_PRESET_LOAD_COMPAT).unwrap();
    assert!(std::ptr::eq(ext, compat));
    assert!(extension::<u8>(plugin, c"clap.no-such-extension").is_none());

    let load = |kind, at: Option<&Path>, key: Option<&str>| load(ext, plugin, kind, at, key);
    let (factory_kind, file_kind) = (
        CLAP_PRESET_DISCOVERY_LOCATION_PLUGIN,
        CLAP_PRESET_DISCOVERY_LOCATION_FILE,
    );

    // Every factory preset by the key the provider lists it with, in turn.
    let keys: Vec<String> = preset::factory()
        .iter()
        .map(discovery::factory_key)
        .collect();
    for (p, key) in preset::factory().iter().zip(&keys) {
        assert!(load(factory_kind, None, Some(key)));
        assert_holds(plugin, p);
    }
    // A user's file; then what does not name a preset changes nothing.
    let scratch = scratch::dir("clap-load");
    let mine = Preset::new("Mine", "Mine", "", preset::factory()[2].params);
    let file = preset::save_in(scratch.path(), &mine).unwrap();
    assert!(load(file_kind, Some(&file), None));
    assert_holds(plugin, &mine);
    let missing = scratch.path().join("missing.json");
    assert!(!load(file_kind, Some(&missing), None));
    assert!(!load(factory_kind, None, Some("no-such-preset")));
    assert!(!load(factory_kind, None, None));
    assert!(!load(7, None, Some("bell-strike")));
    assert_holds(plugin, &mine);
    // SAFETY: the instance is not used after.
    unsafe { plugin.destroy.unwrap()(plugin) };
    drop(host);

    // The host heard of each load, by the names it asked for, and of each refusal.
    let mut want: Vec<_> = keys
        .iter()
        .map(|k| (factory_kind, None, Some(k.clone())))
        .collect();
    want.push((file_kind, file.to_str().map(String::from), None));
    assert_eq!(replies.loaded, want);
    assert_eq!(replies.errors.len(), 4, "{:?}", replies.errors);
    assert!(
        replies.errors[0].contains("missing.json"),
        "{:?}",
        replies.errors
    );
    assert!(replies.errors[1].contains("no-such-preset"));
}
