//! What the list says of one parameter: a number's range, scale and display, or a
//! choice's names.

use crate::engine::params::{EngineParams, LIMITS};

/// How a number moves under a host's normalised control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    Linear,
    /// Stored as its base-10 logarithm: the quantity spans decades.
    Log,
    /// Skewed toward the low end, as `FloatRange::skew_factor(skew)` (negative skews
    /// toward the minimum).
    Skewed(f32),
    /// A fraction 0–1 shown in percent.
    Percent,
}

/// One numeric parameter.
#[derive(Clone, Copy, Debug)]
pub struct NumberSpec {
    /// The host's id (saved in sessions: never rename).
    pub id: &'static str,
    /// What the user reads.
    pub name: &'static str,
    /// The command-line option (`--cli`).
    pub cli: &'static str,
    /// Unit, with the leading space the host shows ("" for none).
    pub unit: &'static str,
    pub scale: Scale,
    /// Decimals shown (significant digits for [`Scale::Log`]).
    pub digits: usize,
    /// One plain sentence for help texts and tooltips.
    pub help: &'static str,
    pub get: fn(&EngineParams) -> f64,
    pub set: fn(&mut EngineParams, f64),
}

impl NumberSpec {
    /// Lowest and highest value, physical units.
    pub fn range(&self) -> (f64, f64) {
        ((self.get)(&LIMITS[0]), (self.get)(&LIMITS[1]))
    }
    pub fn default_value(&self) -> f64 {
        (self.get)(&EngineParams::default())
    }
}

/// One parameter with named choices (a switch is a choice of two).
#[derive(Clone, Copy, Debug)]
pub struct ChoiceSpec {
    pub id: &'static str,
    pub name: &'static str,
    pub cli: &'static str,
    /// The choices as the command line (and preset files) spell them, in the
    /// plugin's order.
    pub choices: &'static [&'static str],
    /// The same choices as a user reads them in a host and the editor.
    pub names: &'static [&'static str],
    /// The ids a saved session stores, where they differ from `choices` (never rename
    /// one: a session saved with it would no longer find its choice).
    pub saved: Option<&'static [&'static str]>,
    /// The index of the current choice, and setting it by index (out of range: the
    /// last).
    pub get: fn(&EngineParams) -> usize,
    pub set: fn(&mut EngineParams, usize),
}
