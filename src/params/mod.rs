//! The plugin's parameters, in their own file because three parties read them: the host
//! (names, units, IDs, automation), the editor (groups and ranges) and the engine (plain
//! values through [`ReboundParams::engine_params`]). Ranges are named functions so the
//! editor and the DSP can never disagree.
//!
//! Quantities that span decades (stiffness, damping, mass, impact speeds) are stored as
//! their base-10 logarithm, so that the host's normalised value moves on a true log
//! scale; they display and parse as the physical value with its unit. IDs are short
//! and stable: never rename one, or saved sessions lose the value.
//!
//! Smoothing: contact parameters (`k`, `α`, `μ`, mass, integrator, correction) are not
//! smoothed but latched at each contact onset (they apply from the next impact, so a
//! contact in progress is never broken). Body and output parameters glide in the engine
//! with the time constant [`crate::engine::SMOOTHING_TIME`], the same offline and in the
//! plugin, so the framework's smoothers are left off.

use crate::engine::expression::PolyTarget;
use crate::engine::spec::{self, NumberSpec, Scale};
use crate::engine::{EngineParams, MAX_VOICES};
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;
use std::sync::Arc;

mod choices;
pub use choices::*;

/// The host's range of a numeric parameter of [`spec::NUMBERS`]: its log10 for a
/// logarithmic one, so that the normalised value moves on a true log scale.
pub fn range_of(n: &NumberSpec) -> FloatRange {
    let (lo, hi) = n.range();
    match n.scale {
        Scale::Log => FloatRange::Linear {
            min: lo.log10() as f32,
            max: hi.log10() as f32,
        },
        Scale::Linear | Scale::Percent => FloatRange::Linear {
            min: lo as f32,
            max: hi as f32,
        },
        Scale::Skewed(skew) => FloatRange::Skewed {
            min: lo as f32,
            max: hi as f32,
            factor: FloatRange::skew_factor(skew),
        },
    }
}

/// The numeric parameter `id` of [`spec::NUMBERS`] (a test checks every id is there).
fn spec_of(id: &str) -> &'static NumberSpec {
    match spec::number(id) {
        Some(n) => n,
        None => panic!("parameter '{id}' is missing from engine::spec"),
    }
}

/// The plugin parameter built from its spec: name, unit, range, default, display.
fn number_param(id: &str) -> FloatParam {
    let n = spec_of(id);
    let d = n.default_value();
    let range = range_of(n);
    match n.scale {
        Scale::Log => log_param(n.name, d, range, n.unit),
        Scale::Percent => percent_param(n.name, d as f32),
        Scale::Linear | Scale::Skewed(_) => {
            let p = FloatParam::new(n.name, d as f32, range)
                .with_value_to_string(formatters::v2s_f32_rounded(n.digits));
            if n.unit.is_empty() {
                p
            } else {
                p.with_unit(n.unit)
            }
        }
    }
}

/// Default editor size, logical pixels.
pub const EDITOR_SIZE: (u32, u32) = (1200, 760);

/// Displays a log10-stored value as its physical value, 3 significant digits.
fn v2s_log10() -> Arc<dyn Fn(f32) -> String + Send + Sync> {
    Arc::new(|e| {
        let v = 10f64.powf(e as f64);
        if (0.01..10000.0).contains(&v) {
            let digits = (2 - v.log10().floor() as i32).clamp(0, 4) as usize;
            format!("{v:.digits$}")
        } else {
            format!("{v:.2e}")
        }
    })
}

/// The framework's string-to-value callback.
type StringToValue = Arc<dyn Fn(&str) -> Option<f32> + Send + Sync>;

/// Parses a physical value (unit optional) into its log10.
fn s2v_log10() -> StringToValue {
    Arc::new(|s| {
        let num: String = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
            .collect();
        let v: f64 = num.parse().ok()?;
        (v > 0.0).then(|| v.log10() as f32)
    })
}

fn log_param(name: &str, default: f64, range: FloatRange, unit: &'static str) -> FloatParam {
    FloatParam::new(name, default.log10() as f32, range)
        .with_unit(unit)
        .with_value_to_string(v2s_log10())
        .with_string_to_value(s2v_log10())
}

fn percent_param(name: &str, default: f32) -> FloatParam {
    FloatParam::new(name, default, FloatRange::Linear { min: 0.0, max: 1.0 })
        .with_unit(" %")
        .with_value_to_string(formatters::v2s_f32_percentage(0))
        .with_string_to_value(formatters::s2v_f32_percentage())
}

#[derive(Params)]
pub struct ReboundParams {
    /// Editor window size, restored with the session.
    #[persist = "editor-size"]
    pub editor_size: crate::editor::size::EditorSize,
    /// The editor's view (Play or Physics), restored with the session.
    #[persist = "editor-view"]
    pub editor_view: crate::editor::view::SavedView,

    // ---- Strike ----
    /// Impact speed at MIDI velocity 0.
    #[id = "vmin"]
    pub v_min: FloatParam,
    /// Impact speed at full MIDI velocity.
    #[id = "vmax"]
    pub v_max: FloatParam,
    /// Exponent of the velocity-to-speed curve (1 = linear, > 1 = soft notes softer).
    #[id = "vcurve"]
    pub velocity_curve: FloatParam,
    /// The striking mass.
    #[id = "mass"]
    pub mass: FloatParam,

    // ---- Contact (latched at onset) ----
    /// Hardness & Bounciness, or the expert Stiffness & Damping.
    #[id = "controls"]
    pub controls: EnumParam<ControlsChoice>,
    /// Contact time at the max strike speed (eq 9 inverted to `k`).
    #[id = "hard"]
    pub hardness: FloatParam,
    /// Contact stiffness `k` of `k x^α (1 + μ v)`.
    #[id = "k"]
    pub stiffness: FloatParam,
    /// Contact exponent `α` (1 = linear spring, 1.5 = Hertz sphere).
    #[id = "alpha"]
    pub alpha: FloatParam,
    /// Hunt–Crossley damping `μ = λ/k`.
    #[id = "mu"]
    pub damping: FloatParam,
    /// Damping from `μ` or from a restitution `e`.
    #[id = "dmode"]
    pub damping_mode: EnumParam<DampingChoice>,
    /// Coefficient of restitution `e = −v_out/v_in` in restitution mode.
    #[id = "rest"]
    pub restitution: FloatParam,

    // ---- Integrator and correction (latched at onset) ----
    #[id = "method"]
    pub integrator: EnumParam<IntegratorChoice>,
    #[id = "corr"]
    pub correction: EnumParam<CorrectionChoice>,
    /// What the clamp sets at detachment: eq (7) or the exact root of eq (6).
    #[id = "clamp"]
    pub clamp_target: EnumParam<ClampChoice>,

    // ---- Bouncing ----
    /// One note becomes a bouncing-ball sequence under gravity (free flight only).
    #[id = "bounce"]
    pub bouncing: BoolParam,
    /// Gravity acts during contact too (seed 001): slow bounces lose more, and the
    /// train comes to rest on the surface.
    #[id = "gcont"]
    pub gravity_in_contact: BoolParam,
    #[id = "grav"]
    pub gravity: FloatParam,

    // ---- Body (smoothed) ----
    #[id = "body"]
    pub body: EnumParam<BodyChoice>,
    /// Fundamental at middle C; key tracking moves it with the note.
    #[id = "bfreq"]
    pub body_freq: FloatParam,
    /// How far the note sets the fundamental (100 % = equal temperament).
    #[id = "ktrack"]
    pub key_track: FloatParam,
    /// Decay time to −60 dB of the fundamental (upper modes decay faster by material).
    #[id = "t60"]
    pub t60: FloatParam,
    /// Spectral tilt of the mode gains (50 % = as the strike excites them).
    #[id = "bright"]
    pub brightness: FloatParam,
    /// Strike point from the centre (0 %) to the edge (100 %).
    #[id = "pos"]
    pub position: FloatParam,
    /// Body against the dry force pulse.
    #[id = "mix"]
    pub mix: FloatParam,
    /// What releasing the key does: Ring on (a struck object does not stop), or Damp it
    /// like a hand on it (no further bounces, the body dies away over Release).
    #[id = "noteoff"]
    pub note_off: EnumParam<NoteOffChoice>,
    /// Damp mode: time for the body to fall 60 dB after the key is released.
    #[id = "release"]
    pub release: FloatParam,

    // ---- Output (smoothed) ----
    #[id = "gain"]
    pub gain: FloatParam,
    /// Polyphony; the oldest voice is stolen with a short fade beyond it.
    #[id = "voices"]
    pub voices: IntParam,
    /// Stereo width of pan and pickups (0 = mono).
    #[id = "width"]
    pub width: FloatParam,
    /// How far the keys fan out from middle C across the image.
    #[id = "kspread"]
    pub key_spread: FloatParam,

    // ---- Variation and expression ----
    /// Per-hit jitter of speed, strike position and hardness.
    #[id = "human"]
    pub humanize: FloatParam,
    /// The humanize seed: the same seed and input render the same.
    #[id = "seed"]
    pub seed: FloatParam,
    /// What the mod wheel moves, and how far.
    #[id = "mwheel"]
    pub mod_wheel: EnumParam<ModWheelChoice>,
    #[id = "mwamt"]
    pub mod_depth: FloatParam,
    /// Pitch-bend range of the body (48 semitones for MPE).
    #[id = "bend"]
    pub bend_range: FloatParam,
    /// Per-bounce irregularity of a bouncing train (0 = the exact chain, as sessions
    /// saved before it played).
    #[id = "irreg"]
    pub irregularity: FloatParam,
    /// How much a softer note's contact lengthens (timbre with velocity).
    #[id = "velhard"]
    pub velocity_hardness: FloatParam,
    /// The host's bypass: the output fades to silence (the voices go on underneath,
    /// so switching back resumes them without a click). Not part of a preset.
    #[id = "bypass"]
    pub bypass: BoolParam,
}

/// The plugin parameter `id`, polyphonically modulatable (CLAP) with the id of
/// `target`.
fn poly_param(target: PolyTarget) -> FloatParam {
    number_param(target.param_id()).with_poly_modulation_id(target.id())
}

impl Default for ReboundParams {
    fn default() -> Self {
        let d = EngineParams::default();
        Self {
            editor_size: crate::editor::size::EditorSize::new(EDITOR_SIZE.0, EDITOR_SIZE.1),
            editor_view: Default::default(),
            v_min: number_param("vmin"),
            v_max: number_param("vmax"),
            velocity_curve: number_param("vcurve"),
            mass: poly_param(PolyTarget::Mass),
            controls: EnumParam::new("Contact controls", ControlsChoice::Playable),
            hardness: poly_param(PolyTarget::Hardness),
            stiffness: number_param("k"),
            alpha: number_param("alpha"),
            damping: number_param("mu"),
            damping_mode: EnumParam::new("Damping from", DampingChoice::Mu),
            restitution: poly_param(PolyTarget::Bounciness),
            integrator: EnumParam::new("Integrator", IntegratorChoice::Verlet),
            correction: EnumParam::new("Correction", CorrectionChoice::Both),
            clamp_target: EnumParam::new("Exit target", ClampChoice::Exact),
            bouncing: BoolParam::new("Bouncing", d.bouncing),
            gravity_in_contact: BoolParam::new("Gravity in contact", d.gravity_in_contact),
            gravity: number_param("grav"),
            body: EnumParam::new("Body", BodyChoice::Bar),
            body_freq: poly_param(PolyTarget::BodyPitch),
            key_track: number_param("ktrack"),
            t60: number_param("t60"),
            brightness: number_param("bright"),
            position: poly_param(PolyTarget::Position),
            mix: number_param("mix"),
            note_off: EnumParam::new("Note off", NoteOffChoice::Ring),
            release: number_param("release"),
            gain: number_param("gain"),
            voices: {
                let n = spec_of("voices");
                let (lo, hi) = n.range();
                IntParam::new(
                    n.name,
                    d.voices as i32,
                    IntRange::Linear {
                        min: lo as i32,
                        max: hi as i32,
                    },
                )
            },
            width: number_param("width"),
            key_spread: number_param("kspread"),
            humanize: number_param("human"),
            seed: number_param("seed"),
            mod_wheel: EnumParam::new("Mod wheel", ModWheelChoice::Off),
            mod_depth: number_param("mwamt"),
            bend_range: number_param("bend"),
            irregularity: number_param("irreg"),
            velocity_hardness: number_param("velhard"),
            bypass: BoolParam::new("Bypass", false).make_bypass(),
        }
    }
}

/// The ends of a float range (lowest first).
pub fn float_range_ends(r: &FloatRange) -> (f32, f32) {
    match r {
        FloatRange::Linear { min, max }
        | FloatRange::Skewed { min, max, .. }
        | FloatRange::SymmetricalSkewed { min, max, .. } => (min.min(*max), max.max(*min)),
        FloatRange::Reversed(inner) => float_range_ends(inner),
    }
}

/// The ends of an integer range (lowest first).
pub fn int_range_ends(r: &IntRange) -> (i32, i32) {
    match r {
        IntRange::Linear { min, max } => (*min.min(max), *max.max(min)),
        IntRange::Reversed(inner) => int_range_ends(inner),
    }
}

/// `v` inside the range; NaN becomes the default. Values in range pass unchanged, so
/// state still round-trips exactly.
pub fn float_within(v: f32, range: &FloatRange, default: f32) -> f32 {
    let (lo, hi) = float_range_ends(range);
    // Exact: every f32 is an f64, and the result is one of the four inputs.
    crate::engine::within(v as f64, lo as f64, hi as f64, default as f64) as f32
}

fn pow10(p: &FloatParam) -> f64 {
    10f64.powf(p.value() as f64)
}

/// A parameter's plain value as the engine hears it: to six significant digits. A host
/// that restores a session through the parameters' normalised values (Ardour applies
/// each one again) lands one f32 step off what was saved (Body pitch 440 comes back as
/// 439.99997, Gravity 9.81 as 9.810002); at six digits both are the same value, so a
/// reopened session plays what was saved. One part in a million is far below hearing.
fn heard(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    let r = (v * scale).round() / scale;
    if r.is_finite() { r } else { v }
}

/// Clamps every restored value to its parameter's range (NaN → default, a bad enum
/// index → nearest variant) before the framework applies it: nice-plug stores plain
/// values unchecked, and an extreme integer overflows its normalisation.
pub fn sanitize_state(state: &mut PluginState) {
    let defaults = ReboundParams::default();
    let map = defaults.param_map();
    for (id, value) in state.params.iter_mut() {
        let Some((_, ptr, _)) = map.iter().find(|(i, _, _)| i == id) else {
            continue;
        };
        // SAFETY: the pointers point into `defaults`, alive for the whole loop.
        unsafe {
            match (*ptr, value) {
                (ParamPtr::FloatParam(p), ParamValue::F32(v)) => {
                    *v = float_within(*v, &(*p).range(), (*p).default_plain_value());
                }
                (ParamPtr::IntParam(p), ParamValue::I32(v)) => {
                    let (lo, hi) = int_range_ends(&(*p).range());
                    *v = (*v).clamp(lo, hi);
                }
                (ParamPtr::EnumParam(_), ParamValue::I32(v)) => {
                    let last = ptr.step_count().unwrap_or(0) as i32;
                    *v = (*v).clamp(0, last);
                }
                _ => {}
            }
        }
    }
}

impl ReboundParams {
    /// The plain values the engine runs on: NaN becomes the default and everything
    /// else is clamped to [`LIMITS`], whatever a host or a state set.
    pub fn engine_params(&self) -> EngineParams {
        EngineParams {
            v_min: heard(pow10(&self.v_min)),
            v_max: heard(pow10(&self.v_max)),
            velocity_curve: heard(self.velocity_curve.value() as f64),
            mass: heard(pow10(&self.mass)),
            k: heard(pow10(&self.stiffness)),
            alpha: heard(self.alpha.value() as f64),
            mu: heard(pow10(&self.damping)),
            from_restitution: self.damping_mode.value() == DampingChoice::Restitution,
            restitution: heard(self.restitution.value() as f64),
            method: self.integrator.value().into(),
            correction: self.correction.value().into(),
            clamp_target: self.clamp_target.value().into(),
            bouncing: self.bouncing.value(),
            gravity_in_contact: self.gravity_in_contact.value(),
            gravity: heard(self.gravity.value() as f64),
            body: self.body.value().into(),
            body_freq: heard(self.body_freq.value() as f64),
            key_track: heard(self.key_track.value() as f64),
            t60: heard(self.t60.value() as f64),
            brightness: heard(self.brightness.value() as f64),
            position: heard(self.position.value() as f64),
            mix: heard(self.mix.value() as f64),
            gain_db: heard(self.gain.value() as f64),
            voices: self.voices.value().clamp(1, MAX_VOICES as i32) as usize,
            note_off: self.note_off.value().into(),
            release: heard(self.release.value() as f64),
            controls: self.controls.value().into(),
            hardness_ms: heard(pow10(&self.hardness)),
            width: heard(self.width.value() as f64),
            key_spread: heard(self.key_spread.value() as f64),
            humanize: heard(self.humanize.value() as f64),
            seed: heard(self.seed.value() as f64),
            mod_wheel: self.mod_wheel.value().into(),
            mod_depth: heard(self.mod_depth.value() as f64),
            bend_range: heard(self.bend_range.value() as f64),
            irregularity: heard(self.irregularity.value() as f64),
            velocity_hardness: heard(self.velocity_hardness.value() as f64),
        }
        .within_limits()
    }
}

#[cfg(test)]
mod heard_tests {
    use super::heard;

    /// What Ardour's reopen gave back (one f32 step off) is heard as what was saved.
    #[test]
    fn one_f32_step_off_is_the_same_value() {
        for (saved, restored) in [
            (440.0f32, 439.999_97f32),
            (9.81, 9.810_002),
            (0.08, 0.080_000_006),
            (1.0, 1.000_000_1),
            (0.6, 0.599_999_96),
        ] {
            assert_ne!(saved, restored);
            assert_eq!(heard(saved as f64), heard(restored as f64), "{saved}");
        }
        assert_eq!(heard(0.0), 0.0);
        assert!(heard(f64::NAN).is_nan());
        assert_eq!(heard(-12.5), -12.5);
        assert_eq!(heard(1e12), 1e12);
    }
}
