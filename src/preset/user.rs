//! A user's own presets: one file per preset in [`user_dir`], named after the preset.

use super::{Preset, PresetError, check_name, factory};
use std::path::{Path, PathBuf};

/// Where a user's presets live: `$REBOUND_PRESET_DIR`, else
/// `$XDG_CONFIG_HOME/rebound/presets`, else `~/.config/rebound/presets` (None when
/// none of these is set).
pub fn user_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("REBOUND_PRESET_DIR") {
        return Some(d);
    }
    // The XDG spec ignores relative paths.
    if let Some(d) = var("XDG_CONFIG_HOME").filter(|d| d.is_absolute()) {
        return Some(d.join("rebound").join("presets"));
    }
    var("HOME").map(|h| h.join(".config").join("rebound").join("presets"))
}

/// A file name for a preset: lower case letters and digits, runs of anything else as
/// one `-` ("Steel ball on a plate" → `steel-ball-on-a-plate`).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Writes `preset` to `dir` as `<slug>.json` (creating `dir`), replacing a user preset
/// of the same name. A factory preset's name is refused: [`find`] would never reach it.
pub fn save_in(dir: &Path, preset: &Preset) -> Result<PathBuf, PresetError> {
    check_name(&preset.name)?;
    if factory().iter().any(|f| same(&f.name, &preset.name)) {
        return Err(PresetError(format!(
            "'{}' is the name of a factory preset: choose another name",
            preset.name
        )));
    }
    let stem = slug(&preset.name);
    if stem.is_empty() {
        return Err(PresetError(format!(
            "preset name '{}' needs at least one letter or digit",
            preset.name
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| PresetError(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(&path, preset.to_json())
        .map_err(|e| PresetError(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

/// [`save_in`] the [`user_dir`].
pub fn save_user(preset: &Preset) -> Result<PathBuf, PresetError> {
    match user_dir() {
        Some(dir) => save_in(&dir, preset),
        None => Err(PresetError(
            "no preset folder: set REBOUND_PRESET_DIR or HOME".into(),
        )),
    }
}

/// Every `*.json` in `dir`, by file name, each read or its error (a missing folder
/// has none).
pub fn load_dir(dir: &Path) -> Vec<Result<Preset, PresetError>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    paths.sort();
    paths.iter().map(|p| Preset::load(p)).collect()
}

/// [`load_dir`] of the [`user_dir`].
pub fn load_user() -> Vec<Result<Preset, PresetError>> {
    user_dir().map(|d| load_dir(&d)).unwrap_or_default()
}

/// Names compare without case, and a preset is also found by its [`slug`].
fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim()) || (!b.trim().is_empty() && slug(a) == slug(b))
}

/// The preset called `name` (any case, or its file name's stem): a factory preset
/// first, then the user's (unreadable user files are skipped).
pub fn find(name: &str) -> Option<Preset> {
    if let Some(p) = factory().iter().find(|p| same(&p.name, name)) {
        return Some(p.clone());
    }
    load_user()
        .into_iter()
        .flatten()
        .find(|p| same(&p.name, name))
}
