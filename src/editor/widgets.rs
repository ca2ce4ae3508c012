//! The control widgets: a titled group, a labelled slider, a choice as a drop-down and
//! an on/off switch, each setting its parameter through the GUI's parameter setter (one
//! automation gesture per change, so the host records it) with the spec's help and the
//! paper's name on hover.

use super::tooltips;
use nice_plug::prelude::*;
use nice_plug_egui::widgets::ParamSlider;

/// Width of a control's name: the longest ("Velocity to hardness") fits whole.
pub const LABEL_WIDTH: f32 = 138.0;
/// Room kept for a slider's value text ("1.00e12 N/m^α").
pub const VALUE_WIDTH: f32 = 100.0;
/// The narrowest slider.
pub const MIN_SLIDER: f32 = 70.0;
/// A control row's height.
pub const ROW_HEIGHT: f32 = 18.0;

/// A framed group of controls `width` wide with its title.
pub fn group(ui: &mut egui::Ui, title: &str, width: f32, body: impl FnOnce(&mut egui::Ui)) {
    egui::Frame::group(ui.style())
        .inner_margin(egui::Margin::symmetric(6, 2))
        .show(ui, |ui| {
            ui.set_width(width - 14.0);
            ui.strong(title);
            body(ui);
        });
}

/// The control's name, `LABEL_WIDTH` wide, right-aligned against its widget.
fn label(ui: &mut egui::Ui, name: &str, tip: &str) {
    let r = ui
        .allocate_ui_with_layout(
            egui::vec2(LABEL_WIDTH, ROW_HEIGHT),
            egui::Layout::right_to_left(egui::Align::Center),
            |ui| ui.add(egui::Label::new(name).extend()),
        )
        .inner;
    if !tip.is_empty() {
        r.on_hover_text(tip);
    }
}

/// The slider width that leaves room for the name and the value in a row `width` wide.
pub fn slider_width(width: f32) -> f32 {
    (width - LABEL_WIDTH - VALUE_WIDTH - 36.0).max(MIN_SLIDER)
}

/// A labelled slider (drag, or click the value to type one; double-click resets).
pub fn slider<P: Param>(ui: &mut egui::Ui, param: &P, id: &str, setter: &ParamSetter) {
    let tip = tooltips::tooltip(id);
    let w = slider_width(ui.available_width() + 14.0);
    ui.horizontal(|ui| {
        label(ui, param.name(), &tip);
        let r = ui.add(ParamSlider::for_param(param, setter).with_width(w));
        if !tip.is_empty() {
            r.on_hover_text(&tip);
        }
    });
}

/// A choice as a drop-down of its names, after its name.
pub fn choice<T: Enum + PartialEq + Copy + 'static>(
    ui: &mut egui::Ui,
    param: &EnumParam<T>,
    id: &str,
    setter: &ParamSetter,
) {
    let tip = tooltips::tooltip(id);
    ui.horizontal(|ui| {
        label(ui, param.name(), &tip);
        let w = (ui.available_width() - 8.0).clamp(80.0, 200.0);
        combo(ui, param, id, setter, w);
    });
}

/// The drop-down alone, `width` wide.
pub fn combo<T: Enum + PartialEq + Copy + 'static>(
    ui: &mut egui::Ui,
    param: &EnumParam<T>,
    id: &str,
    setter: &ParamSetter,
    width: f32,
) {
    let tip = tooltips::tooltip(id);
    let names = T::variants();
    let now = param.value().to_index();
    let mut picked = None;
    let r = egui::ComboBox::from_id_salt(id)
        .selected_text(names.get(now).copied().unwrap_or("?"))
        .width(width)
        .show_ui(ui, |ui| {
            for (i, name) in names.iter().enumerate() {
                if ui.selectable_label(i == now, *name).clicked() {
                    picked = Some(i);
                }
            }
        })
        .response;
    if !tip.is_empty() {
        r.on_hover_text(&tip);
    }
    if let Some(i) = picked.filter(|i| *i != now) {
        setter.begin_set_parameter(param);
        setter.set_parameter(param, T::from_index(i));
        setter.end_set_parameter(param);
    }
}

/// An on/off switch.
pub fn toggle(ui: &mut egui::Ui, param: &BoolParam, id: &str, setter: &ParamSetter) {
    let tip = tooltips::tooltip(id);
    ui.horizontal(|ui| {
        label(ui, param.name(), &tip);
        let mut on = param.value();
        let text = if on { "On" } else { "Off" };
        let r = ui.checkbox(&mut on, text);
        if r.changed() {
            setter.begin_set_parameter(param);
            setter.set_parameter(param, on);
            setter.end_set_parameter(param);
        }
        if !tip.is_empty() {
            r.on_hover_text(&tip);
        }
    });
}
