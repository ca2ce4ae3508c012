//! What the session saves of the editor: its size and its view. They live with the
//! parameters, which persist them; the editor reads and writes them.

use nice_plug::editor::dpi::LogicalSize;
use nice_plug::params::persist::PersistentField;
use nice_plug_egui::EguiEditorState;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, RwLock};

/// The editor's size, persisted with the session (`#[persist = "editor-size"]`).
/// Clones share the same state.
#[derive(Clone, Debug)]
pub struct EditorSize {
    state: Arc<RwLock<Arc<EguiEditorState>>>,
}

impl EditorSize {
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            state: Arc::new(RwLock::new(Self::make(width, height))),
        }
    }
    fn make(width: u32, height: u32) -> Arc<EguiEditorState> {
        EguiEditorState::from_size(LogicalSize::new(width as f32, height as f32), 1.0)
    }
    /// The egui state the next window is built from.
    pub fn state(&self) -> Arc<EguiEditorState> {
        self.state
            .read()
            .map(|s| s.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }
    /// Logical width and height.
    pub fn size(&self) -> (u32, u32) {
        let s = self.state().logical_size();
        (s.width.round() as u32, s.height.round() as u32)
    }
    pub fn set_size(&self, width: u32, height: u32) {
        // A restored state may hold any size: keep it to what a screen can show.
        let new = Self::make(width.clamp(200, 8192), height.clamp(150, 8192));
        match self.state.write() {
            Ok(mut s) => *s = new,
            Err(e) => *e.into_inner() = new,
        }
    }
}

impl<'a> PersistentField<'a, (u32, u32)> for EditorSize {
    fn set(&self, new_value: (u32, u32)) {
        self.set_size(new_value.0, new_value.1);
    }
    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&(u32, u32)) -> R,
    {
        f(&self.size())
    }
}

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
