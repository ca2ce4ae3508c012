//! Presets: a name, a category, a description and every parameter of the instrument
//! ([`EngineParams`](crate::engine::EngineParams)), kept as plain, versioned JSON text
//! files. The factory presets live in `presets/*.json` in the repository and are compiled in ([`factory`]); a
//! user's own go to [`user_dir`]. The format names parameters by their spec ids or
//! command-line names (`engine::spec`), choices by name, so a file reads like the
//! command line and survives the plugin's parameter order changing:
//!
//! ```json
//! { "format": 1, "name": "Bell strike", "category": "Mallet",
//!   "description": "…", "params": { "hardness-ms": 0.3, "body": "bell" } }
//! ```
//!
//! Parameters a file leaves out take their defaults; unknown keys, unknown versions and
//! values outside a parameter's range are refused with a message naming them. Writing
//! then reading a preset gives back every value bit for bit (serde_json writes the
//! shortest decimal that reads back exactly, and parses with `float_roundtrip`).
//!
//! Framework-free except [`plugin`], which hands a preset to the plugin's parameters.

mod factory;
mod format;
pub mod plugin;
mod user;

pub use factory::{CATEGORIES, FACTORY_FILES, factory};
pub use format::{FORMAT, Preset, PresetError, USER_CATEGORY, check_name, is_whole};
pub use user::{find, load_dir, load_user, save_in, save_user, slug, user_dir};
