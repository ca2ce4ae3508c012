//! The Play view's controls, grouped as a sound designer reaches for them: what strikes,
//! how the key velocity plays it, what rings, how it bounces, what a released key does,
//! the output, and variation and expression. The solver's settings (integrator,
//! correction, exit target) are in the Physics view ([`solver`]).

use super::widgets::{choice, combo, group, slider, toggle};
use crate::params::{ControlsChoice, DampingChoice, ReboundParams};
use nice_plug::prelude::*;

/// Narrowest a column of groups gets before the groups stack in one column.
pub const MIN_COLUMN: f32 = 330.0;

/// The groups in two columns side by side (one column when narrower than two
/// [`MIN_COLUMN`]s).
pub fn controls(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter) {
    let gap = ui.spacing().item_spacing.x;
    let total = ui.available_width();
    if total < 2.0 * MIN_COLUMN + gap {
        ui.vertical(|ui| {
            left_column(ui, p, s, total);
            right_column(ui, p, s, total);
        });
        return;
    }
    let w = (total - gap) / 2.0;
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| left_column(ui, p, s, w));
        ui.vertical(|ui| right_column(ui, p, s, w));
    });
}

fn left_column(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter, w: f32) {
    group(ui, "Striker: what hits", w, |ui| {
        choice(ui, &p.controls, "controls", s);
        if p.controls.value() == ControlsChoice::Playable {
            slider(ui, &p.hardness, "hard", s);
            slider(ui, &p.restitution, "rest", s);
        } else {
            slider(ui, &p.stiffness, "k", s);
            choice(ui, &p.damping_mode, "dmode", s);
            if p.damping_mode.value() == DampingChoice::Restitution {
                slider(ui, &p.restitution, "rest", s);
            } else {
                slider(ui, &p.damping, "mu", s);
            }
        }
        slider(ui, &p.alpha, "alpha", s);
        slider(ui, &p.mass, "mass", s);
    });
    group(ui, "Velocity: how the keys play it", w, |ui| {
        slider(ui, &p.v_min, "vmin", s);
        slider(ui, &p.v_max, "vmax", s);
        slider(ui, &p.velocity_curve, "vcurve", s);
        slider(ui, &p.velocity_hardness, "velhard", s);
    });
    group(ui, "Bounces", w, |ui| {
        toggle(ui, &p.bouncing, "bounce", s);
        slider(ui, &p.gravity, "grav", s);
        toggle(ui, &p.gravity_in_contact, "gcont", s);
        slider(ui, &p.irregularity, "irreg", s);
    });
    group(ui, "Key release", w, |ui| {
        choice(ui, &p.note_off, "noteoff", s);
        slider(ui, &p.release, "release", s);
    });
}

fn right_column(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter, w: f32) {
    group(ui, "Body: what rings", w, |ui| {
        choice(ui, &p.body, "body", s);
        slider(ui, &p.body_freq, "bfreq", s);
        slider(ui, &p.key_track, "ktrack", s);
        slider(ui, &p.t60, "t60", s);
        slider(ui, &p.brightness, "bright", s);
        slider(ui, &p.position, "pos", s);
        slider(ui, &p.mix, "mix", s);
    });
    group(ui, "Output", w, |ui| {
        slider(ui, &p.gain, "gain", s);
        slider(ui, &p.width, "width", s);
        slider(ui, &p.key_spread, "kspread", s);
        slider(ui, &p.voices, "voices", s);
    });
    group(ui, "Variation and expression", w, |ui| {
        slider(ui, &p.humanize, "human", s);
        slider(ui, &p.seed, "seed", s);
        choice(ui, &p.mod_wheel, "mwheel", s);
        slider(ui, &p.mod_depth, "mwamt", s);
        slider(ui, &p.bend_range, "bend", s);
    });
}

/// The solver's settings in one row of drop-downs (Physics view): they change how the
/// contact is computed, not what it should sound like.
pub fn solver(ui: &mut egui::Ui, p: &ReboundParams, s: &ParamSetter) {
    let w = ui.available_width();
    group(ui, "Solver (latched at each contact's onset)", w, |ui| {
        ui.horizontal_wrapped(|ui| {
            small_choice(ui, &p.integrator, "method", s);
            small_choice(ui, &p.correction, "corr", s);
            small_choice(ui, &p.clamp_target, "clamp", s);
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
