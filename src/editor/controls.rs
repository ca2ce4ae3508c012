//! The Play view's controls, grouped as a sound designer reaches for them: what strikes,
//! how the key velocity plays it, what rings, how it bounces, what a released key does,
//! what a held key plays, the output, and variation and expression. The solver's settings (integrator,
//! correction, exit target) are in the Physics view ([`solver`]).

use super::recorded::RecordedPanel;
use super::widgets::{choice, combo, group, slider, toggle};
use crate::engine::{Controls, Gesture};
use crate::model::body::BodyType;
use crate::params::{DampingChoice, ReboundParams};
use nice_plug::prelude::*;

/// Narrowest a column of groups gets before the groups stack in one column.
pub const MIN_COLUMN: f32 = 330.0;

/// The groups in two columns side by side (one column when narrower than two
/// [`MIN_COLUMN`]s).
pub fn controls(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter, loader: &mut RecordedPanel) {
    let gap = ui.spacing().item_spacing.x;
    let total = ui.available_width();
    if total < 2.0 * MIN_COLUMN + gap {
        ui.vertical(|ui| {
            left_column(ui, p, s, total);
            right_column(ui, p, s, total, loader);
        });
        return;
    }
    let w = (total - gap) / 2.0;
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| left_column(ui, p, s, w));
        ui.vertical(|ui| right_column(ui, p, s, w, loader));
    });
}

fn left_column(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter, w: f32) {
    group(ui, "Striker: what hits", w, |ui| {
        choice(ui, &p.striker.controls, "controls", s);
        if p.striker.controls.value() == Controls::Playable {
            slider(ui, &p.striker.hardness, "hard", s);
            slider(ui, &p.striker.restitution, "rest", s);
        } else {
            slider(ui, &p.striker.stiffness, "k", s);
            choice(ui, &p.striker.damping_mode, "dmode", s);
            if p.striker.damping_mode.value() == DampingChoice::Restitution {
                slider(ui, &p.striker.restitution, "rest", s);
            } else {
                slider(ui, &p.striker.damping, "mu", s);
            }
        }
        slider(ui, &p.striker.alpha, "alpha", s);
        slider(ui, &p.striker.mass, "mass", s);
    });
    group(ui, "Velocity: how the keys play it", w, |ui| {
        slider(ui, &p.velocity.v_min, "vmin", s);
        slider(ui, &p.velocity.v_max, "vmax", s);
        slider(ui, &p.velocity.velocity_curve, "vcurve", s);
        slider(ui, &p.velocity.velocity_hardness, "velhard", s);
    });
    group(ui, "Bounces", w, |ui| {
        toggle(ui, &p.bounces.bouncing, "bounce", s);
        slider(ui, &p.bounces.gravity, "grav", s);
        toggle(ui, &p.bounces.gravity_in_contact, "gcont", s);
        slider(ui, &p.bounces.irregularity, "irreg", s);
    });
    group(ui, "Key release", w, |ui| {
        choice(ui, &p.key_release.note_off, "noteoff", s);
        slider(ui, &p.key_release.release, "release", s);
    });
    group(ui, "Gesture: what a held key plays", w, |ui| {
        choice(ui, &p.gesture.gesture, "gesture", s);
        let gesture = p.gesture.gesture.value();
        if gesture == Gesture::Crumple {
            slider(ui, &p.gesture.crumple_rate, "crate", s);
            slider(ui, &p.gesture.crumple_tau, "ctau", s);
        }
        if gesture.on_surface() {
            slider(ui, &p.gesture.radius, "radius", s);
            slider(ui, &p.gesture.roughness, "rough", s);
            slider(ui, &p.gesture.roughness_beta, "rbeta", s);
        }
    });
}

fn right_column(
    ui: &mut egui::Ui,
    p: &ReboundParams,
    s: &ParamSetter,
    w: f32,
    loader: &mut RecordedPanel,
) {
    group(ui, "Body: what rings", w, |ui| {
        choice(ui, &p.body.body, "body", s);
        if p.body.body.value() == BodyType::Recorded {
            loader.ui(ui, p, s);
        }
        slider(ui, &p.body.body_freq, "bfreq", s);
        slider(ui, &p.body.key_track, "ktrack", s);
        slider(ui, &p.body.t60, "t60", s);
        slider(ui, &p.body.brightness, "bright", s);
        slider(ui, &p.body.position, "pos", s);
        slider(ui, &p.body.mix, "mix", s);
        choice(ui, &p.body.coupling, "coupling", s);
        slider(ui, &p.body.body_mass, "bmass", s);
    });
    group(ui, "Output", w, |ui| {
        slider(ui, &p.output.gain, "gain", s);
        slider(ui, &p.output.width, "width", s);
        slider(ui, &p.output.key_spread, "kspread", s);
        slider(ui, &p.output.voices, "voices", s);
    });
    group(ui, "Variation and expression", w, |ui| {
        slider(ui, &p.variation.humanize, "human", s);
        slider(ui, &p.variation.seed, "seed", s);
        choice(ui, &p.variation.mod_wheel, "mwheel", s);
        slider(ui, &p.variation.mod_depth, "mwamt", s);
        slider(ui, &p.variation.bend_range, "bend", s);
    });
}

/// The solver's settings in one row of drop-downs (Physics view): they change how the
/// contact is computed, not what it should sound like.
pub fn solver(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter) {
    let w = ui.available_width();
    group(ui, "Solver (latched at each contact's onset)", w, |ui| {
        ui.horizontal_wrapped(|ui| {
            small_choice(ui, &p.solver.integrator, "method", s);
            small_choice(ui, &p.solver.correction, "corr", s);
            small_choice(ui, &p.solver.clamp_target, "clamp", s);
        });
    });
}

/// Width of a drop-down in the solver's row.
const SMALL_COMBO: f32 = 110.0;

/// A choice in a row of others: its name, then its drop-down.
fn small_choice<T: Enum + PartialEq + Copy + 'static>(
    ui: &mut egui::Ui,
    param: &EnumParam<T>,
    id: &str,
    s: &ParamSetter,
) {
    ui.label(param.name())
        .on_hover_text(super::tooltips::tooltip(id));
    combo(ui, param, id, s, SMALL_COMBO);
    ui.add_space(12.0);
}
