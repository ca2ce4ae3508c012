//! Which view the editor shows: Play (the controls, the strike pad, the meter, the
//! presets and the last note's sound) or Physics (the contact's readouts and plots).
//! The choice is saved with the session (`crate::params::editor_state`), so a reopened
//! editor shows the view it was left on.

use crate::params::editor_state::View;

/// The environment variable that opens the editor on a given view, whatever the session
/// saved (the screenshot script opens the Physics view with it).
pub const VIEW_ENV: &str = "REBOUND_EDITOR_VIEW";

/// The view an editor opens on: the one named by the environment when it names one,
/// else the saved one.
pub fn opening_view(saved: View, env: Option<&str>) -> View {
    env.and_then(View::parse).unwrap_or(saved)
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
