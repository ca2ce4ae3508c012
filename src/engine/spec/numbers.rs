//! Every numeric parameter, in the plugin's order.

use super::types::{NumberSpec, Scale};

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
pub const NUMBERS: [NumberSpec; 33] = [
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
        "bmass",
        "Body mass",
        "body-mass",
        " kg",
        Scale::Log,
        3,
        body_mass,
        "Two-way coupling: the body's mass (a light body gives under the striker)"
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
    number!(
        "crate",
        "Crumple rate",
        "crumple-rate",
        " /s",
        Scale::Log,
        3,
        crumple_rate,
        "Crumple: mean strikes a second while the key is held"
    ),
    number!(
        "ctau",
        "Crumple exponent",
        "crumple-exponent",
        "",
        Scale::Linear,
        2,
        crumple_tau,
        "Crumple: exponent of the strikes' energy law (larger: fewer loud ones)"
    ),
    number!(
        "radius",
        "Radius",
        "radius",
        " mm",
        Scale::Log,
        3,
        radius_mm,
        "Roll: the ball's radius; Scrape: the probe tip's (it cannot reach into narrower dips)"
    ),
    number!(
        "rough",
        "Roughness",
        "roughness",
        " µm",
        Scale::Log,
        3,
        roughness_um,
        "Roll and Scrape: the surface's RMS height"
    ),
    number!(
        "rbeta",
        "Roughness spectrum",
        "roughness-beta",
        "",
        Scale::Linear,
        2,
        roughness_beta,
        "Roll and Scrape: exponent β of the surface's 1/f^β spectrum (larger: smoother, duller)"
    ),
];
