//! Rebound: a Hunt–Crossley impact synthesizer.
//!
//! `model` is the physics; `engine` (with its `voice`s) the framework-free instrument
//! (shared by the plugin and `rebound render`); `analysis` the spectra the editor and
//! the tests read audio with; `preset` the preset files; `params`, `plugin` and
//! `editor` the nice-plug glue (`plugin_clap` the CLAP entry that adds preset
//! discovery), and `handoff` what the audio thread and the editor
//! hand each other. The command-line tool (`src/bin/rebound`) writes WAVs
//! and plots; `loudness` (feature `cli`) measures renders. See `docs/architecture.md`.

pub mod analysis;
pub mod editor;
pub mod engine;
pub mod handoff;
#[cfg(feature = "cli")]
pub mod loudness;
pub mod model;
pub mod params;
pub mod plugin;
pub mod plugin_clap;
pub mod preset;

pub use engine::voice;
pub use plugin::Rebound;
