//! Rebound: a Hunt–Crossley impact synthesizer.
//!
//! `model` is the physics; `engine` (with its `voice`s) the framework-free instrument
//! (shared by the plugin and `rebound render`); `params`, `plugin` and `editor` the
//! nice-plug glue; `render` the offline WAV/PNG output. See the README's Architecture.

pub mod editor;
pub mod engine;
pub mod model;
pub mod params;
pub mod plugin;
pub mod render;

pub use engine::voice;
pub use plugin::Rebound;
