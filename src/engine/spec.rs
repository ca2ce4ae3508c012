//! Every parameter of the instrument listed once, free of any framework: stable id,
//! plain name, unit, range (from [`LIMITS`]), scale, default (from
//! [`EngineParams::default`]) and display precision. The plugin's parameters (the
//! `params` module of the plugin layer) and the command-line renderer's options, range
//! checks and help are built from this list, so they cannot disagree.

use super::params::{Controls, EngineParams, LIMITS, ModWheel, NoteOff};
use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};

pub mod normalized;

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

macro_rules! number {
    ($id:literal, $name:literal, $cli:literal, $unit:literal, $scale:expr, $digits:literal, $field:ident, $help:literal) => {
        NumberSpec {
            id: $id,
            name: $name,
            cli: $cli,
            unit: $unit,
            scale: $scale,
            digits: $digits,
            help: $help,
            get: |p| p.$field as f64,
            set: |p, v| p.$field = v as _,
        }
    };
}

/// Every numeric parameter, in the plugin's order.
pub const NUMBERS: [NumberSpec; 27] = [
    number!(
        "vmin",
        "Strike speed min",
        "v-min",
        " m/s",
        Scale::Log,
        3,
        v_min,
        "Impact speed at velocity 0"
    ),
    number!(
        "vmax",
        "Strike speed max",
        "v-max",
        " m/s",
        Scale::Log,
        3,
        v_max,
        "Impact speed at velocity 127"
    ),
    number!(
        "vcurve",
        "Velocity curve",
        "velocity-curve",
        "",
        Scale::Skewed(-1.5),
        2,
        velocity_curve,
        "Exponent of the velocity curve (1 = linear)"
    ),
    number!(
        "mass",
        "Mass",
        "mass",
        " kg",
        Scale::Log,
        3,
        mass,
        "Striking mass"
    ),
    number!(
        "hard",
        "Hardness",
        "hardness-ms",
        " ms",
        Scale::Log,
        3,
        hardness_ms,
        "Contact time at the max strike speed: shorter is harder (eq 9 inverted to k)"
    ),
    number!(
        "k",
        "Stiffness",
        "k",
        " N/m^α",
        Scale::Log,
        3,
        k,
        "Stiffness k"
    ),
    number!(
        "alpha",
        "Shape",
        "alpha",
        "",
        Scale::Linear,
        2,
        alpha,
        "Contact exponent alpha"
    ),
    number!(
        "mu",
        "Contact damping",
        "mu",
        " s/m",
        Scale::Log,
        3,
        mu,
        "Damping mu (not with --restitution)"
    ),
    number!(
        "rest",
        "Bounciness",
        "bounciness",
        "",
        Scale::Linear,
        3,
        restitution,
        "Damping from a coefficient of restitution (seed 000) instead of --mu"
    ),
    number!(
        "grav",
        "Gravity",
        "gravity",
        " m/s²",
        Scale::Skewed(-2.0),
        2,
        gravity,
        "Gravity of the bouncing train"
    ),
    number!(
        "bfreq",
        "Body pitch",
        "body-freq",
        " Hz",
        Scale::Skewed(-2.0),
        1,
        body_freq,
        "Body fundamental at middle C"
    ),
    number!(
        "ktrack",
        "Key tracking",
        "key-track",
        " %",
        Scale::Percent,
        0,
        key_track,
        "0 = every key the same pitch, 1 = the note sets the fundamental"
    ),
    number!(
        "t60",
        "Decay",
        "t60",
        " s",
        Scale::Skewed(-2.0),
        3,
        t60,
        "T60 of the body's fundamental"
    ),
    number!(
        "bright",
        "Brightness",
        "brightness",
        " %",
        Scale::Percent,
        0,
        brightness,
        "Brightness of the body"
    ),
    number!(
        "pos",
        "Strike position",
        "position",
        " %",
        Scale::Percent,
        0,
        position,
        "Strike position on the body"
    ),
    number!(
        "mix",
        "Body mix",
        "mix",
        " %",
        Scale::Percent,
        0,
        mix,
        "0 = dry force pulse, 1 = body only"
    ),
    number!(
        "release",
        "Release",
        "release",
        " s",
        Scale::Skewed(-2.0),
        3,
        release,
        "Damp mode: longest T60 of every mode after the note-off"
    ),
    number!(
        "gain",
        "Gain",
        "gain",
        " dB",
        Scale::Linear,
        1,
        gain_db,
        "Output gain"
    ),
    number!(
        "voices",
        "Voices",
        "voices",
        "",
        Scale::Linear,
        0,
        voices,
        "Polyphony"
    ),
    number!(
        "width",
        "Width",
        "width",
        " %",
        Scale::Percent,
        0,
        width,
        "Stereo width: 0 = mono"
    ),
    number!(
        "kspread",
        "Key spread",
        "key-spread",
        " %",
        Scale::Percent,
        0,
        key_spread,
        "How far the keys fan out from middle C across the stereo image (0 = all in the centre)"
    ),
    number!(
        "human",
        "Humanize",
        "humanize",
        " %",
        Scale::Percent,
        0,
        humanize,
        "Per-hit jitter of speed, strike position and hardness"
    ),
    number!(
        "seed",
        "Seed",
        "seed",
        "",
        Scale::Linear,
        0,
        seed,
        "Humanize seed: the same seed and input give the same render"
    ),
    number!(
        "mwamt",
        "Mod wheel depth",
        "mod-depth",
        " %",
        Scale::Percent,
        0,
        mod_depth,
        "How far the mod wheel moves its target"
    ),
    number!(
        "bend",
        "Bend range",
        "bend-range",
        " st",
        Scale::Linear,
        0,
        bend_range,
        "Pitch-bend range of the body, semitones (48 for MPE)"
    ),
    number!(
        "irreg",
        "Irregularity",
        "irregularity",
        " %",
        Scale::Percent,
        0,
        irregularity,
        "How much each bounce's restitution varies (drawn from the Seed): 0 = the exact chain"
    ),
    number!(
        "velhard",
        "Velocity to hardness",
        "velocity-hardness",
        " %",
        Scale::Percent,
        0,
        velocity_hardness,
        "How much softer a softer note strikes: its contact lengthens as its speed falls"
    ),
];

/// The numeric parameter with host id `id`.
pub fn number(id: &str) -> Option<&'static NumberSpec> {
    NUMBERS.iter().find(|n| n.id == id)
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
    /// The index of the current choice, and setting it by index (out of range: the
    /// last).
    pub get: fn(&EngineParams) -> usize,
    pub set: fn(&mut EngineParams, usize),
}

/// Index of `v` in `all` (0 when absent, which cannot happen for a full list).
fn index_of<T: PartialEq>(all: &[T], v: &T) -> usize {
    all.iter().position(|x| x == v).unwrap_or(0)
}

/// `all[i]`, or the last one when `i` is past the end.
fn at<T: Copy>(all: &[T], i: usize) -> T {
    all[i.min(all.len() - 1)]
}

/// Every parameter with named choices.
pub const CHOICES: [ChoiceSpec; 10] = [
    ChoiceSpec {
        id: "controls",
        name: "Contact controls",
        cli: "controls",
        choices: &["playable", "expert"],
        get: |p| usize::from(p.controls == Controls::Expert),
        set: |p, i| {
            p.controls = if i >= 1 {
                Controls::Expert
            } else {
                Controls::Playable
            }
        },
    },
    ChoiceSpec {
        id: "dmode",
        name: "Damping from",
        cli: "damping-from",
        choices: &["mu", "restitution"],
        get: |p| usize::from(p.from_restitution),
        set: |p, i| p.from_restitution = i >= 1,
    },
    ChoiceSpec {
        id: "method",
        name: "Integrator",
        cli: "method",
        choices: &["verlet", "heun", "rk4", "am1"],
        get: |p| index_of(&Method::ALL, &p.method),
        set: |p, i| p.method = at(&Method::ALL, i),
    },
    ChoiceSpec {
        id: "corr",
        name: "Correction",
        cli: "correction",
        choices: &["none", "hybrid", "clamp", "both"],
        get: |p| index_of(&Correction::ALL, &p.correction),
        set: |p, i| p.correction = at(&Correction::ALL, i),
    },
    ChoiceSpec {
        id: "clamp",
        name: "Exit target",
        cli: "clamp-target",
        choices: &["approx", "exact"],
        get: |p| index_of(&ClampTarget::ALL, &p.clamp_target),
        set: |p, i| p.clamp_target = at(&ClampTarget::ALL, i),
    },
    ChoiceSpec {
        id: "bounce",
        name: "Bouncing",
        cli: "bouncing",
        choices: &["off", "on"],
        get: |p| usize::from(p.bouncing),
        set: |p, i| p.bouncing = i >= 1,
    },
    ChoiceSpec {
        id: "gcont",
        name: "Gravity in contact",
        cli: "gravity-in-contact",
        choices: &["off", "on"],
        get: |p| usize::from(p.gravity_in_contact),
        set: |p, i| p.gravity_in_contact = i >= 1,
    },
    ChoiceSpec {
        id: "body",
        name: "Body",
        cli: "body",
        choices: &["none", "bar", "plate", "membrane", "bell", "wood"],
        get: |p| index_of(&BodyType::ALL, &p.body),
        set: |p, i| p.body = at(&BodyType::ALL, i),
    },
    ChoiceSpec {
        id: "noteoff",
        name: "Note off",
        cli: "note-off",
        choices: &["ring", "damp"],
        get: |p| index_of(&NoteOff::ALL, &p.note_off),
        set: |p, i| p.note_off = at(&NoteOff::ALL, i),
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
        ],
        get: |p| index_of(&ModWheel::ALL, &p.mod_wheel),
        set: |p, i| p.mod_wheel = at(&ModWheel::ALL, i),
    },
];

/// The choice parameter with host id `id`.
pub fn choice(id: &str) -> Option<&'static ChoiceSpec> {
    CHOICES.iter().find(|c| c.id == id)
}

/// `"lo–hi unit"` for a help text.
pub fn range_text(n: &NumberSpec) -> String {
    let (lo, hi) = n.range();
    let unit = if n.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", n.unit)
    };
    match n.scale {
        Scale::Percent => format!("{}–{} %", lo * 100.0, hi * 100.0),
        _ => format!("{lo}–{hi}{unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_defaults_inside_their_ranges() {
        let mut ids: Vec<&str> = NUMBERS.iter().map(|n| n.id).collect();
        ids.extend(CHOICES.iter().map(|c| c.id));
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate ids");
        for s in &NUMBERS {
            let (lo, hi) = s.range();
            let d = s.default_value();
            assert!(
                lo < hi && (lo..=hi).contains(&d),
                "{}: {d} not in {lo}..{hi}",
                s.id
            );
        }
    }
}
