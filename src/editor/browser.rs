//! The preset browser: the factory presets and the user's own, by category, with their
//! descriptions on hover. A click loads one into the plugin's parameters through the
//! GUI's parameter setter (so the host sees and records every change); Save writes the
//! current sound to the user folder ([`preset::user_dir`]).

use crate::params::ReboundParams;
use crate::preset::{self, Preset, USER_CATEGORY};
use nice_plug::prelude::*;

/// The browser's state between frames.
#[derive(Default)]
pub struct Browser {
    /// Factory presets, then the user's (read when the editor opens and after a save).
    presets: Vec<Preset>,
    read: bool,
    /// The last preset loaded.
    current: Option<String>,
    save_name: String,
    status: String,
}

/// The categories of `presets`, each once, in their first order.
pub fn categories(presets: &[Preset]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for p in presets {
        if !out.contains(&p.category.as_str()) {
            out.push(&p.category);
        }
    }
    out
}

impl Browser {
    fn refresh(&mut self) {
        self.presets = preset::factory().to_vec();
        let mut bad = 0;
        for p in preset::load_user() {
            match p {
                Ok(p) => self.presets.push(p),
                Err(_) => bad += 1,
            }
        }
        if bad > 0 {
            self.status = format!("{bad} user preset file(s) could not be read");
        }
        self.read = true;
    }

    fn save(&mut self, params: &ReboundParams) {
        let name = self.save_name.trim().to_string();
        if let Err(e) = preset::check_name(&name) {
            self.status = e.to_string();
            return;
        }
        let p = Preset::new(
            &name,
            USER_CATEGORY,
            "Saved from the editor",
            params.engine_params(),
        );
        match preset::save_user(&p) {
            Ok(path) => {
                self.refresh();
                self.current = Some(name);
                self.status = format!("saved {}", path.display());
            }
            Err(e) => self.status = e.to_string(),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, params: &ReboundParams, setter: &ParamSetter) {
        if !self.read {
            self.refresh();
        }
        ui.strong("Presets");
        let mut chosen = None;
        egui::ScrollArea::vertical()
            .id_salt("presets")
            .max_height((ui.available_height() - 60.0).max(60.0))
            .show(ui, |ui| {
                for cat in categories(&self.presets) {
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
            preset::plugin::apply_with_setter(setter, params, &p.params);
            self.current = Some(p.name.clone());
            self.status = format!("loaded {}", p.name);
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.save_name)
                    .hint_text("name")
                    .desired_width(120.0),
            );
            if ui
                .button("Save")
                .on_hover_text("Save the current sound to the user preset folder")
                .clicked()
            {
                self.save(params);
            }
        });
        if !self.status.is_empty() {
            ui.add(egui::Label::new(egui::RichText::new(&self.status).small()).wrap());
        }
    }
}
