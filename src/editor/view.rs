//! Which view the editor shows: Play (the controls, the strike pad, the meter, the
//! presets and the last note's sound) or Physics (the contact's readouts and plots).
//! The choice is saved with the session (`#[persist = "editor-view"]`), so a reopened
//! editor shows the view it was left on.

use serde::{Deserialize, Serialize};
use std::sync::{Arc, RwLock};

/// The editor's two views.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    /// For playing and shaping the sound.
    #[default]
    Play,
    /// The contact as the paper describes it.
    Physics,
}

impl View {
    pub const ALL: [View; 2] = [View::Play, View::Physics];

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            View::Play => "Play",
            View::Physics => "Physics",
        }
    }

    /// The tab's hover text.
    pub fn help(self) -> &'static str {
        match self {
            View::Play => "The controls, the strike pad, the level meter and the presets",
            View::Physics => {
                "The last contact as the paper sees it: the physical values, the energy \
                 against eq (20), the phase portrait, the drift per bounce"
            }
        }
    }

    /// A view named in `REBOUND_EDITOR_VIEW` ("play" or "physics", any case); None for
    /// anything else.
    pub fn parse(s: &str) -> Option<View> {
        View::ALL
            .into_iter()
            .find(|v| v.label().eq_ignore_ascii_case(s.trim()))
    }
}

/// The environment variable that opens the editor on a given view, whatever the session
/// saved (the screenshot script opens the Physics view with it).
pub const VIEW_ENV: &str = "REBOUND_EDITOR_VIEW";

/// The view an editor opens on: the one named by the environment when it names one,
/// else the saved one.
pub fn opening_view(saved: View, env: Option<&str>) -> View {
    env.and_then(View::parse).unwrap_or(saved)
}

/// The saved view, shared by the parameters (which persist it) and the editor.
pub type SavedView = Arc<RwLock<View>>;

/// Reads the saved view (a poisoned lock still holds a valid view).
pub fn get(saved: &SavedView) -> View {
    match saved.read() {
        Ok(v) => *v,
        Err(e) => *e.into_inner(),
    }
}

/// Saves `view`.
pub fn set(saved: &SavedView, view: View) {
    match saved.write() {
        Ok(mut v) => *v = view,
        Err(e) => *e.into_inner() = view,
    }
}

/// The tabs: one click switches the view. Returns the view clicked, if any.
pub fn tabs(ui: &mut egui::Ui, current: View) -> Option<View> {
    let mut chosen = None;
    for v in View::ALL {
        let text = egui::RichText::new(v.label()).size(15.0).strong();
        if ui
            .selectable_label(current == v, text)
            .on_hover_text(v.help())
            .clicked()
            && current != v
        {
            chosen = Some(v);
        }
    }
    chosen
}
