//! The preset browser: the factory presets and the user's own, by category, with their
//! descriptions on hover. A click loads one into the plugin's parameters through the
//! GUI's parameter setter (so the host sees and records every change); Save writes the
//! current sound to the user folder ([`preset::user_dir`]). The preset the parameters
//! hold is shown as loaded ([`loaded`]), also in a session reopened or after the host
//! set them, and marked edited once a control moves away from it.

use crate::engine::EngineParams;
use crate::engine::spec::{self, Scale};
use crate::params::ReboundParams;
use crate::preset::{self, Preset, USER_CATEGORY};
use nice_plug::prelude::*;

/// Whether two sets of parameters play the same sound: every number equal to what a
/// host's f32 normalised value keeps (10⁻⁵ of the value, plus 10⁻⁶ of its range for a
/// linear one), every choice equal.
pub fn same_sound(a: &EngineParams, b: &EngineParams) -> bool {
    let numbers = spec::NUMBERS.iter().all(|n| {
        let (x, y) = ((n.get)(a), (n.get)(b));
        let (lo, hi) = n.range();
        let range = if n.scale == Scale::Log { 0.0 } else { hi - lo };
        (x - y).abs() <= 1e-5 * x.abs().max(y.abs()) + 1e-6 * range
    });
    numbers && spec::CHOICES.iter().all(|c| (c.get)(a) == (c.get)(b))
}

/// Which preset the parameters hold, as the browser shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// `presets[i]` exactly.
    Preset(usize),
    /// `presets[i]` was loaded last, and a control has moved since.
    Edited(usize),
    /// The plugin's defaults.
    Default,
    /// Anything else.
    None,
}

/// What the parameters `now` hold, given the name of the preset loaded last in this
/// editor (`last`): that preset if they still match it; else the first preset they
/// match (a reopened session, a preset set through the host); else the defaults if
/// they match them; else the last preset, edited.
pub fn loaded(presets: &[Preset], now: &EngineParams, last: Option<&str>) -> Loaded {
    let last_i = last.and_then(|name| presets.iter().position(|p| p.name == name));
    if let Some(i) = last_i.filter(|i| same_sound(&presets[*i].params, now)) {
        return Loaded::Preset(i);
    }
    if let Some(i) = presets.iter().position(|p| same_sound(&p.params, now)) {
        return Loaded::Preset(i);
    }
    if same_sound(&EngineParams::default(), now) {
        return Loaded::Default;
    }
    last_i.map_or(Loaded::None, Loaded::Edited)
}

/// The line above the list: what is loaded.
pub fn loaded_text(presets: &[Preset], l: Loaded) -> String {
    match l {
        Loaded::Preset(i) => format!("Loaded: {}", presets[i].name),
        Loaded::Edited(i) => format!("Loaded: {} (edited)", presets[i].name),
        Loaded::Default => "Loaded: the default patch".into(),
        Loaded::None => "Loaded: your own sound (no preset)".into(),
    }
}

/// The browser's state between frames.
#[derive(Default)]
pub struct Browser {
    /// Factory presets, then the user's (read when the editor opens and after a save).
    presets: Vec<Preset>,
    read: bool,
    /// The last preset loaded.
    current: Option<String>,
    /// The preset shown as loaded in the last frame (the list scrolls to a new one).
    shown: Option<usize>,
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

    /// The presets (read on first use) and which one the parameters hold.
    pub fn loaded_now(&mut self, params: &ReboundParams) -> (&[Preset], Loaded) {
        if !self.read {
            self.refresh();
        }
        let l = loaded(
            &self.presets,
            &params.engine_params(),
            self.current.as_deref(),
        );
        // A preset the parameters came to hold by any way (a reopened session, the
        // host) counts as loaded, so that moving a control then shows it edited.
        if let Loaded::Preset(i) = l
            && self.current.as_deref() != Some(self.presets[i].name.as_str())
        {
            self.current = Some(self.presets[i].name.clone());
        }
        (&self.presets, l)
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, params: &ReboundParams, setter: &ParamSetter) {
        let (_, now) = self.loaded_now(params);
        let index = match now {
            Loaded::Preset(i) | Loaded::Edited(i) => Some(i),
            Loaded::Default | Loaded::None => None,
        };
        let scroll_to = index.filter(|_| index != self.shown);
        self.shown = index;
        ui.strong("Presets");
        ui.add(egui::Label::new(loaded_text(&self.presets, now)).wrap());
        let chosen = self.list(ui, now, scroll_to);
        if let Some(i) = chosen {
            let p = &self.presets[i];
            preset::plugin::apply_with_setter(setter, params, &p.params);
            self.current = Some(p.name.clone());
            self.status = format!("loaded {}", p.name);
        }
        self.save_row(ui, params);
    }

    /// The scrolling list by category; the loaded preset is selected (and scrolled to
    /// when it changes). Returns the preset clicked.
    fn list(&self, ui: &mut egui::Ui, now: Loaded, scroll_to: Option<usize>) -> Option<usize> {
        let mut chosen = None;
        let status_h = if self.status.is_empty() { 0.0 } else { 28.0 };
        ui.scope(|ui| {
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical()
                .id_salt("presets")
                .auto_shrink([false, false])
                .max_height((ui.available_height() - 34.0 - status_h).max(48.0))
                .show(ui, |ui| {
                    for cat in categories(&self.presets) {
                        egui::CollapsingHeader::new(cat)
                            .default_open(true)
                            .show(ui, |ui| {
                                for (i, p) in self.presets.iter().enumerate() {
                                    if p.category != cat {
                                        continue;
                                    }
                                    let text = match now {
                                        Loaded::Edited(j) if j == i => format!("{} *", p.name),
                                        _ => p.name.clone(),
                                    };
                                    let on = matches!(now, Loaded::Preset(j) | Loaded::Edited(j) if j == i);
                                    let r = ui
                                        .selectable_label(on, text)
                                        .on_hover_text(&p.description);
                                    if scroll_to == Some(i) {
                                        r.scroll_to_me(Some(egui::Align::Center));
                                    }
                                    if r.clicked() {
                                        chosen = Some(i);
                                    }
                                }
                            });
                    }
                });
        });
        chosen
    }

    /// The name field, Save, and the last status.
    fn save_row(&mut self, ui: &mut egui::Ui, params: &ReboundParams) {
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
