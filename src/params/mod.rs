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

use crate::engine::{EngineParams, MAX_VOICES};
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::*;

mod build;
mod choices;
pub mod editor_state;
mod groups;
pub mod recorded_body;
pub use build::range_of;
pub use choices::*;
pub use groups::*;

/// Default editor size, logical pixels.
pub const EDITOR_SIZE: (u32, u32) = (1200, 760);

#[derive(Params)]
pub struct ReboundParams {
    /// Editor window size, restored with the session.
    #[persist = "editor-size"]
    pub editor_size: editor_state::EditorSize,
    /// The editor's view (Play or Physics), restored with the session.
    #[persist = "editor-view"]
    pub editor_view: editor_state::SavedView,
    /// The partials of the recorded body (Body at Recorded), restored with the session.
    #[persist = "recorded-body"]
    pub recorded_body: recorded_body::RecordedBody,
    #[nested(group = "Striker")]
    pub striker: StrikerParams,
    #[nested(group = "Velocity")]
    pub velocity: VelocityParams,
    #[nested(group = "Bounces")]
    pub bounces: BounceParams,
    #[nested(group = "Key release")]
    pub key_release: KeyReleaseParams,
    #[nested(group = "Body")]
    pub body: BodyParams,
    #[nested(group = "Output")]
    pub output: OutputParams,
    #[nested(group = "Variation and expression")]
    pub variation: VariationParams,
    #[nested(group = "Solver")]
    pub solver: SolverParams,
    #[nested(group = "Gesture")]
    pub gesture: GestureParams,
    /// The host's bypass: the output fades to silence (the voices go on underneath,
    /// so switching back resumes them without a click). Not part of a preset.
    #[id = "bypass"]
    pub bypass: BoolParam,
}

impl Default for ReboundParams {
    fn default() -> Self {
        let d = EngineParams::default();
        Self {
            editor_size: editor_state::EditorSize::new(EDITOR_SIZE.0, EDITOR_SIZE.1),
            editor_view: Default::default(),
            recorded_body: Default::default(),
            striker: StrikerParams::new(&d),
            velocity: VelocityParams::new(&d),
            bounces: BounceParams::new(&d),
            key_release: KeyReleaseParams::new(&d),
            body: BodyParams::new(&d),
            output: OutputParams::new(&d),
            variation: VariationParams::new(&d),
            solver: SolverParams::new(&d),
            gesture: GestureParams::new(&d),
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
            v_min: heard(pow10(&self.velocity.v_min)),
            v_max: heard(pow10(&self.velocity.v_max)),
            velocity_curve: heard(self.velocity.velocity_curve.value() as f64),
            mass: heard(pow10(&self.striker.mass)),
            k: heard(pow10(&self.striker.stiffness)),
            alpha: heard(self.striker.alpha.value() as f64),
            mu: heard(pow10(&self.striker.damping)),
            from_restitution: self.striker.damping_mode.value() == DampingChoice::Restitution,
            restitution: heard(self.striker.restitution.value() as f64),
            method: self.solver.integrator.value(),
            correction: self.solver.correction.value(),
            clamp_target: self.solver.clamp_target.value(),
            bouncing: self.bounces.bouncing.value(),
            gravity_in_contact: self.bounces.gravity_in_contact.value(),
            gravity: heard(self.bounces.gravity.value() as f64),
            body: self.body.body.value(),
            body_freq: heard(self.body.body_freq.value() as f64),
            key_track: heard(self.body.key_track.value() as f64),
            t60: heard(self.body.t60.value() as f64),
            brightness: heard(self.body.brightness.value() as f64),
            position: heard(self.body.position.value() as f64),
            mix: heard(self.body.mix.value() as f64),
            gain_db: heard(self.output.gain.value() as f64),
            voices: self.output.voices.value().clamp(1, MAX_VOICES as i32) as usize,
            note_off: self.key_release.note_off.value(),
            release: heard(self.key_release.release.value() as f64),
            coupling: self.body.coupling.value(),
            body_mass: heard(pow10(&self.body.body_mass)),
            controls: self.striker.controls.value(),
            hardness_ms: heard(pow10(&self.striker.hardness)),
            width: heard(self.output.width.value() as f64),
            key_spread: heard(self.output.key_spread.value() as f64),
            humanize: heard(self.variation.humanize.value() as f64),
            seed: heard(self.variation.seed.value() as f64),
            mod_wheel: self.variation.mod_wheel.value(),
            mod_depth: heard(self.variation.mod_depth.value() as f64),
            bend_range: heard(self.variation.bend_range.value() as f64),
            irregularity: heard(self.bounces.irregularity.value() as f64),
            velocity_hardness: heard(self.velocity.velocity_hardness.value() as f64),
            gesture: self.gesture.gesture.value(),
            crumple_rate: heard(pow10(&self.gesture.crumple_rate)),
            crumple_tau: heard(self.gesture.crumple_tau.value() as f64),
            radius_mm: heard(pow10(&self.gesture.radius)),
            roughness_um: heard(pow10(&self.gesture.roughness)),
            roughness_beta: heard(self.gesture.roughness_beta.value() as f64),
            recording: self.recorded_body.index(),
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
