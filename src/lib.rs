//! Rebound: a Hunt–Crossley impact synthesizer.
//!
//! `model` is the physics; `voice` and `engine` the framework-free instrument (shared by
//! the plugin and `rebound render`); `params`, `plugin` and `editor` the nice-plug glue;
//! `render` the offline PNG plot (the WAV writer is the CLI's).

pub mod editor;
pub mod engine;
pub mod model;
pub mod params;
pub mod plugin;
pub mod render;
pub mod voice;

pub use plugin::Rebound;
