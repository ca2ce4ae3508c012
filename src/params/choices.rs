//! The plugin's choice parameters are the engine's own types: each is declared once,
//! its choices' order by the type's `ALL` and their names and saved ids by the engine's
//! parameter table (`engine::spec::CHOICES`), which the CLI and preset files read too.

use crate::engine::spec::{self, CHOICES, ChoiceSpec};
use crate::engine::{Controls, Coupling, Gesture, ModWheel, NoteOff};
use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};
use nice_plug::prelude::*;

/// Where the contact's damping comes from (the engine keeps it as a flag,
/// `from_restitution`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DampingChoice {
    /// `μ` in s/m, as set: its effect depends on the strike speed.
    Mu,
    /// A coefficient of restitution `e`: every strike gets the μ that leaves at
    /// `−e·v_in` (seed 000, eq 19).
    Restitution,
}

impl DampingChoice {
    pub const ALL: [DampingChoice; 2] = [DampingChoice::Mu, DampingChoice::Restitution];
}

/// The table's entry for the choice parameter `id` (every id below is one: the
/// parameter tests check each type against its entry).
fn choice(id: &str) -> &'static ChoiceSpec {
    spec::choice(id).unwrap_or(&CHOICES[0])
}

/// Makes `$t` a host's choice parameter: its names and saved ids from the table entry
/// `$id`, its order from `$t::ALL`.
macro_rules! choice_param {
    ($($t:ty => $id:literal),* $(,)?) => {$(
        impl Enum for $t {
            fn variants() -> &'static [&'static str] {
                choice($id).names
            }

            fn ids() -> Option<&'static [&'static str]> {
                Some(choice($id).saved.unwrap_or(choice($id).choices))
            }

            fn to_index(self) -> usize {
                <$t>::ALL.iter().position(|v| *v == self).unwrap_or(0)
            }

            fn from_index(index: usize) -> Self {
                <$t>::ALL.get(index).copied().unwrap_or(<$t>::ALL[0])
            }
        }
    )*};
}

choice_param! {
    Controls => "controls",
    DampingChoice => "dmode",
    Method => "method",
    Correction => "corr",
    ClampTarget => "clamp",
    BodyType => "body",
    NoteOff => "noteoff",
    Coupling => "coupling",
    ModWheel => "mwheel",
    Gesture => "gesture",
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: Enum + Copy + PartialEq + std::fmt::Debug>(id: &str, all: &[T]) {
        let c = spec::choice(id).unwrap_or_else(|| panic!("no choice parameter {id}"));
        assert_eq!(T::variants(), c.names, "{id}");
        assert_eq!(T::variants().len(), all.len(), "{id}");
        assert_eq!(T::ids().map(<[&str]>::len), Some(all.len()), "{id}");
        for (i, v) in all.iter().enumerate() {
            assert_eq!(v.to_index(), i, "{id}");
            assert_eq!(T::from_index(i), *v, "{id}");
        }
        assert_eq!(
            T::from_index(all.len()),
            all[0],
            "{id}: out of range is the first"
        );
    }

    #[test]
    fn every_choice_parameter_reads_its_table_entry() {
        check("controls", &Controls::ALL);
        check("dmode", &DampingChoice::ALL);
        check("method", &Method::ALL);
        check("corr", &Correction::ALL);
        check("clamp", &ClampTarget::ALL);
        check("body", &BodyType::ALL);
        check("noteoff", &NoteOff::ALL);
        check("coupling", &Coupling::ALL);
        check("mwheel", &ModWheel::ALL);
        check("gesture", &Gesture::ALL);
        // The ids sessions saved before the table existed.
        assert_eq!(Coupling::ids(), Some(&["rigid", "twoway"][..]));
        assert_eq!(BodyType::ids().map(|i| i[5]), Some("wood"));
    }
}
