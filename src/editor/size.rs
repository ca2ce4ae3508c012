//! The editor's size, owned here (not by `params` or the editor proper) so that the
//! parameters can persist it without the two importing each other.

use nice_plug::editor::dpi::LogicalSize;
use nice_plug::params::persist::PersistentField;
use nice_plug_egui::EguiEditorState;
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
