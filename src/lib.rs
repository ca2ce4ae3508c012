//! Rebound: a Hunt–Crossley impact synthesizer.
//!
//! `model` is the physics; `engine` (with its `voice`s) the framework-free instrument
//! (shared by the plugin and `rebound render`); `analysis` the spectra the editor and
//! the tests read audio with; `preset` the preset files; `params`, `plugin` and
//! `editor` the nice-plug glue. The command-line tool (`src/bin/rebound`) writes WAVs
//! and plots; `loudness` (feature `cli`) measures renders. See the README's
//! Architecture.

pub mod analysis;
pub mod editor;
pub mod engine;
#[cfg(feature = "cli")]
pub mod loudness;
pub mod model;
pub mod params;
pub mod plugin;
pub mod preset;

pub use engine::voice;
pub use plugin::Rebound;
