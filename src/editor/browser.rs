//! The preset browser: categories, names and descriptions; a click loads the preset into
//! the plugin's parameters through the GUI's parameter setter (so the host sees and
//! records every change), and the current sound can be saved to the user folder.

use crate::engine::EngineParams;
use crate::engine::spec::{self, Scale};
use crate::params::ReboundParams;
use nice_plug::prelude::*;

/// One preset as the browser shows it.
#[derive(Clone, Debug)]
pub struct Preset {
    pub name: String,
    pub category: String,
    pub description: String,
    pub params: EngineParams,
}

/// Stand-in for `preset::factory()` until the "presets" work lands it.
fn factory() -> Vec<Preset> {
    vec![Preset {
        name: "Init".into(),
        category: "Basic".into(),
        description: "The default patch".into(),
        params: EngineParams::default(),
    }]
}

/// Every parameter of `p` as the plugin's plain value, by host id: numbers (log10 for
/// the logarithmic ones, as the plugin stores them) and choice indices.
pub fn plain_values(p: &EngineParams) -> Vec<(&'static str, f32)> {
    let numbers = spec::NUMBERS.iter().map(|n| {
        let v = (n.get)(p);
        let plain = match n.scale {
            Scale::Log => v.log10(),
            _ => v,
        };
        (n.id, plain as f32)
    });
    let choices = spec::CHOICES.iter().map(|c| (c.id, (c.get)(p) as f32));
    numbers.chain(choices).collect()
}

/// Sets every parameter of the plugin to `p` through the host-visible setter (each as
/// one begin/set/end gesture, so hosts record it as a user change).
pub fn load(params: &ReboundParams, p: &EngineParams, setter: &ParamSetter) {
    let map = params.param_map();
    for (id, plain) in plain_values(p) {
        if let Some((_, ptr, _)) = map.iter().find(|(i, _, _)| i == id) {
            // SAFETY: the pointers point into `params`, alive for the whole loop.
            unsafe {
                let normalized = ptr.preview_normalized(plain);
                setter.raw_context.raw_begin_set_parameter(*ptr);
                setter
                    .raw_context
                    .raw_set_parameter_normalized(*ptr, normalized);
                setter.raw_context.raw_end_set_parameter(*ptr);
            }
        }
    }
}

/// The browser's state between frames.
#[derive(Default)]
pub struct Browser {
    presets: Vec<Preset>,
    /// The last preset loaded.
    current: Option<String>,
    save_name: String,
    status: String,
}

impl Browser {
    pub fn ui(&mut self, ui: &mut egui::Ui, params: &ReboundParams, setter: &ParamSetter) {
        if self.presets.is_empty() {
            self.presets = factory();
        }
        ui.strong("Presets");
        let mut categories: Vec<&str> = self.presets.iter().map(|p| p.category.as_str()).collect();
        categories.dedup();
        let mut chosen = None;
        egui::ScrollArea::vertical()
            .id_salt("presets")
            .max_height(ui.available_height() - 56.0)
            .show(ui, |ui| {
                for cat in categories {
                    egui::CollapsingHeader::new(cat)
                        .default_open(true)
                        .show(ui, |ui| {
                            for (i, p) in self.presets.iter().enumerate() {
                                if p.category != cat {
                                    continue;
                                }
                                let on = self.current.as_deref() == Some(p.name.as_str());
                                if ui
                                    .selectable_label(on, &p.name)
                                    .on_hover_text(&p.description)
                                    .clicked()
                                {
                                    chosen = Some(i);
                                }
                            }
                        });
                }
            });
        if let Some(i) = chosen {
            let p = &self.presets[i];
            load(params, &p.params, setter);
            self.current = Some(p.name.clone());
            self.status = format!("loaded {}", p.name);
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.save_name)
                    .hint_text("name")
                    .desired_width(110.0),
            );
            if ui
                .button("Save")
                .on_hover_text("Save the current sound to the user preset folder")
                .clicked()
            {
                self.status = "saving lands with the preset files".into();
            }
        });
        if !self.status.is_empty() {
            ui.small(&self.status);
        }
    }
}
