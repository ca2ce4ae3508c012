//! The strike pad: a click plays a note, its height sets the velocity. The notes reach
//! the audio thread through [`crate::handoff::pad`]'s ring.

use crate::handoff::pad::{PadEvent, PadSender};

/// Velocity at the pad's bottom edge (the top edge is full velocity).
pub const PAD_MIN_VELOCITY: f32 = 0.05;

/// The velocity of a click at `y_frac` of the pad's height from its top: full at the
/// top, [`PAD_MIN_VELOCITY`] at the bottom, linear between (outside: clamped; NaN: the
/// middle).
pub fn velocity_at(y_frac: f32) -> f32 {
    let y = if y_frac.is_nan() {
        0.5
    } else {
        y_frac.clamp(0.0, 1.0)
    };
    (1.0 - y) + y * PAD_MIN_VELOCITY
}

/// "C4 (60)" for a MIDI key (middle C is C4).
pub fn key_name(key: u8) -> String {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    let octave = i32::from(key / 12) - 1;
    format!("{}{octave} ({key})", NAMES[usize::from(key % 12)])
}

/// What the pad remembers between frames.
pub struct Pad {
    pub key: u8,
    /// The key held down by the pointer, to release it on mouse-up.
    held: Option<u8>,
    /// The last velocity played, drawn as a line.
    last: Option<f32>,
}

impl Default for Pad {
    fn default() -> Self {
        Self {
            key: 60,
            held: None,
            last: None,
        }
    }
}

impl Pad {
    /// The key selector and the pad itself.
    pub fn ui(&mut self, ui: &mut egui::Ui, queue: &PadSender, size: egui::Vec2) {
        ui.horizontal(|ui| {
            ui.strong("Strike pad");
            ui.label("key");
            ui.add(
                egui::DragValue::new(&mut self.key)
                    .range(0..=127)
                    .custom_formatter(|k, _| key_name(k as u8)),
            )
            .on_hover_text("The note the pad plays (drag or type)");
        });
        let (resp, painter) = ui.allocate_painter(size, egui::Sense::click_and_drag());
        let r = resp.rect;
        // Brighter toward the top: harder strikes.
        let mut mesh = egui::Mesh::default();
        let top = egui::Color32::from_rgb(200, 120, 40);
        let bottom = egui::Color32::from_rgb(40, 34, 30);
        mesh.colored_vertex(r.left_top(), top);
        mesh.colored_vertex(r.right_top(), top);
        mesh.colored_vertex(r.right_bottom(), bottom);
        mesh.colored_vertex(r.left_bottom(), bottom);
        mesh.add_triangle(0, 1, 2);
        mesh.add_triangle(0, 2, 3);
        painter.add(mesh);
        if let Some(v) = self.last {
            let y = r.top() + (1.0 - v) / (1.0 - PAD_MIN_VELOCITY) * r.height();
            painter.hline(r.x_range(), y, egui::Stroke::new(2.0, egui::Color32::WHITE));
        }
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            "click to strike\nhigher = harder",
            egui::FontId::proportional(13.0),
            egui::Color32::from_white_alpha(200),
        );
        if resp.is_pointer_button_down_on() && self.held.is_none() {
            if let Some(p) = resp.interact_pointer_pos() {
                let velocity = velocity_at((p.y - r.top()) / r.height());
                if queue.push(PadEvent::On {
                    key: self.key,
                    velocity,
                }) {
                    self.held = Some(self.key);
                    self.last = Some(velocity);
                }
            }
        } else if !resp.is_pointer_button_down_on()
            && let Some(key) = self.held.take()
        {
            queue.push(PadEvent::Off { key });
        }
        resp.on_hover_text("Click to play the key above; the height sets the velocity");
    }
}
