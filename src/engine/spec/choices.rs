//! Every parameter with named choices, in the plugin's order.

use super::types::ChoiceSpec;
use crate::engine::params::{Controls, Coupling, Gesture, ModWheel, NoteOff};
use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};

/// Index of `v` in `all` (0 when absent, which cannot happen for a full list).
fn index_of<T: PartialEq>(all: &[T], v: &T) -> usize {
    all.iter().position(|x| x == v).unwrap_or(0)
}

/// `all[i]`, or the last one when `i` is past the end.
fn at<T: Copy>(all: &[T], i: usize) -> T {
    all[i.min(all.len() - 1)]
}

/// Every parameter with named choices: the one place each choice is declared. The
/// plugin's choice parameters read their names and saved ids from here, and the
/// engine's types give the order (`ALL`).
pub const CHOICES: [ChoiceSpec; 12] = [
    ChoiceSpec {
        id: "controls",
        name: "Contact controls",
        cli: "controls",
        choices: &["playable", "expert"],
        names: &["Hardness & Bounciness", "Stiffness & Damping"],
        saved: None,
        get: |p| index_of(&Controls::ALL, &p.controls),
        set: |p, i| p.controls = at(&Controls::ALL, i),
    },
    ChoiceSpec {
        id: "dmode",
        name: "Damping from",
        cli: "damping-from",
        choices: &["mu", "restitution"],
        names: &["Contact damping", "Bounciness"],
        saved: None,
        get: |p| usize::from(p.from_restitution),
        set: |p, i| p.from_restitution = i >= 1,
    },
    ChoiceSpec {
        id: "method",
        name: "Integrator",
        cli: "method",
        choices: &["verlet", "heun", "rk4", "am1"],
        names: &["Verlet", "Heun", "RK4", "AM1"],
        saved: None,
        get: |p| index_of(&Method::ALL, &p.method),
        set: |p, i| p.method = at(&Method::ALL, i),
    },
    ChoiceSpec {
        id: "corr",
        name: "Correction",
        cli: "correction",
        choices: &["none", "hybrid", "clamp", "both"],
        names: &["Off", "Shape", "Exit speed", "Both"],
        saved: None,
        get: |p| index_of(&Correction::ALL, &p.correction),
        set: |p, i| p.correction = at(&Correction::ALL, i),
    },
    ChoiceSpec {
        id: "clamp",
        name: "Exit target",
        cli: "clamp-target",
        choices: &["approx", "exact"],
        names: &["Approximate", "Exact"],
        saved: None,
        get: |p| index_of(&ClampTarget::ALL, &p.clamp_target),
        set: |p, i| p.clamp_target = at(&ClampTarget::ALL, i),
    },
    ChoiceSpec {
        id: "bounce",
        name: "Bouncing",
        cli: "bouncing",
        choices: &["off", "on"],
        names: &["Off", "On"],
        saved: None,
        get: |p| usize::from(p.bouncing),
        set: |p, i| p.bouncing = i >= 1,
    },
    ChoiceSpec {
        id: "gcont",
        name: "Gravity in contact",
        cli: "gravity-in-contact",
        choices: &["off", "on"],
        names: &["Off", "On"],
        saved: None,
        get: |p| usize::from(p.gravity_in_contact),
        set: |p, i| p.gravity_in_contact = i >= 1,
    },
    ChoiceSpec {
        id: "body",
        name: "Body",
        cli: "body",
        choices: &[
            "none", "bar", "plate", "membrane", "bell", "wood", "recorded",
        ],
        names: &[
            "None",
            "Bar",
            "Plate",
            "Membrane",
            "Bell",
            "Wood block",
            "Recorded",
        ],
        saved: None,
        get: |p| index_of(&BodyType::ALL, &p.body),
        set: |p, i| p.body = at(&BodyType::ALL, i),
    },
    ChoiceSpec {
        id: "noteoff",
        name: "Note off",
        cli: "note-off",
        choices: &["ring", "damp"],
        names: &["Ring", "Damp"],
        saved: None,
        get: |p| index_of(&NoteOff::ALL, &p.note_off),
        set: |p, i| p.note_off = at(&NoteOff::ALL, i),
    },
    ChoiceSpec {
        id: "coupling",
        name: "Coupling",
        cli: "coupling",
        choices: &["rigid", "two-way"],
        names: &["Rigid wall", "Two-way"],
        saved: Some(&["rigid", "twoway"]),
        get: |p| index_of(&Coupling::ALL, &p.coupling),
        set: |p, i| p.coupling = at(&Coupling::ALL, i),
    },
    ChoiceSpec {
        id: "mwheel",
        name: "Mod wheel",
        cli: "mod-wheel",
        choices: &[
            "off",
            "hardness",
            "bounciness",
            "position",
            "pitch",
            "decay",
            "brightness",
            "speed",
        ],
        names: &[
            "Off",
            "Hardness",
            "Bounciness",
            "Strike position",
            "Body pitch",
            "Decay",
            "Brightness",
            "Speed",
        ],
        saved: None,
        get: |p| index_of(&ModWheel::ALL, &p.mod_wheel),
        set: |p, i| p.mod_wheel = at(&ModWheel::ALL, i),
    },
    ChoiceSpec {
        id: "gesture",
        name: "Gesture",
        cli: "gesture",
        choices: &["strike", "crumple", "roll", "scrape"],
        names: &["Strike", "Crumple", "Roll", "Scrape"],
        saved: None,
        get: |p| index_of(&Gesture::ALL, &p.gesture),
        set: |p, i| p.gesture = at(&Gesture::ALL, i),
    },
];
