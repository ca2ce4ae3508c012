//! The output level meter. The audio thread records each block's peak into one atomic
//! ([`crate::handoff::peak::PeakMeter`]); the GUI takes it once per frame and runs the
//! ballistics ([`Ballistics`]) itself.

/// The meter's floor, dBFS: silence reads this.
pub const METER_FLOOR_DB: f32 = -60.0;
/// Its top, dBFS (nothing clips at 0 dBFS inside the plugin: a chord's overs show).
pub const METER_TOP_DB: f32 = 6.0;
/// How fast the bar falls, dB/s.
pub const FALL_DB_PER_S: f32 = 24.0;
/// How long the peak-hold mark stays, s.
pub const HOLD_S: f32 = 1.5;

/// The scale's marks, dBFS (the floor is the bottom mark).
pub const SCALE_MARKS: [f32; 8] = [6.0, 0.0, -6.0, -12.0, -24.0, -36.0, -48.0, -60.0];
/// Width of the bar; the marks' figures are drawn right of it.
pub const BAR_WIDTH: f32 = 18.0;
/// The meter's width: the bar and its figures ("−60").
pub const METER_WIDTH: f32 = 46.0;

/// Where `db` sits on the meter, linear in dB: 0 at [`METER_FLOOR_DB`], 1 at
/// [`METER_TOP_DB`], clamped (NaN: the floor).
pub fn scale_fraction(db: f32) -> f32 {
    let f = (db - METER_FLOOR_DB) / (METER_TOP_DB - METER_FLOOR_DB);
    if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) }
}

/// A mark's figure: "+6", "0", "−12" (a true minus sign).
pub fn mark_text(db: f32) -> String {
    let n = db.round() as i32;
    match n.signum() {
        1 => format!("+{n}"),
        -1 => format!("\u{2212}{}", -n),
        _ => "0".into(),
    }
}

/// The held peak's figure: "−8.9", "+2.3", "−∞" for silence (the floor).
pub fn hold_text(hold_db: f32) -> String {
    if hold_db.is_nan() || hold_db <= METER_FLOOR_DB {
        return "\u{2212}\u{221e}".into();
    }
    let t = format!("{:+.1}", hold_db);
    t.replacen('-', "\u{2212}", 1)
}

/// The bar's colour: green, yellow from −6 dBFS, red over 0 dBFS.
fn level_colour(db: f32) -> egui::Color32 {
    if db > 0.0 {
        egui::Color32::from_rgb(255, 70, 60)
    } else if db > -6.0 {
        egui::Color32::from_rgb(240, 200, 60)
    } else {
        egui::Color32::from_rgb(80, 200, 110)
    }
}

/// A linear peak in dBFS, [`METER_FLOOR_DB`] for silence.
pub fn dbfs(peak: f32) -> f32 {
    if peak > 0.0 && peak.is_finite() {
        (20.0 * peak.log10()).max(METER_FLOOR_DB)
    } else {
        METER_FLOOR_DB
    }
}

/// The displayed level: an instant attack, a fall of [`FALL_DB_PER_S`], and a peak hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ballistics {
    pub level_db: f32,
    pub hold_db: f32,
    hold_age: f32,
}

impl Default for Ballistics {
    fn default() -> Self {
        Self {
            level_db: METER_FLOOR_DB,
            hold_db: METER_FLOOR_DB,
            hold_age: 0.0,
        }
    }
}

impl Ballistics {
    /// One GUI frame `dt` seconds after the last, with the peak taken from the meter.
    pub fn update(&mut self, peak: f32, dt: f32) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let db = dbfs(peak);
        self.level_db = db.max(self.level_db - FALL_DB_PER_S * dt);
        if db >= self.hold_db {
            self.hold_db = db;
            self.hold_age = 0.0;
        } else {
            self.hold_age += dt;
            if self.hold_age > HOLD_S {
                self.hold_db = self.level_db;
            }
        }
    }

    /// A vertical bar on a dBFS scale with its marks, the held peak as a white line,
    /// and the held peak's figure under it. `size` is the whole widget's.
    pub fn ui(&self, ui: &mut egui::Ui, size: egui::Vec2) {
        ui.vertical(|ui| {
            ui.spacing_mut().item_spacing.y = 0.0;
            let (resp, painter) = ui.allocate_painter(size, egui::Sense::hover());
            let r = resp.rect;
            let bar = egui::Rect::from_min_max(
                r.left_top() + egui::vec2(0.0, 5.0),
                egui::pos2(r.left() + BAR_WIDTH, r.bottom() - 5.0),
            );
            painter.rect_filled(bar, 2.0, egui::Color32::from_gray(22));
            let y_of = |db: f32| bar.bottom() - scale_fraction(db) * bar.height();
            let level = egui::Rect::from_min_max(
                egui::pos2(bar.left() + 2.0, y_of(self.level_db)),
                egui::pos2(bar.right() - 2.0, bar.bottom()),
            );
            painter.rect_filled(level, 0.0, level_colour(self.level_db));
            if self.hold_db > METER_FLOOR_DB {
                painter.hline(
                    bar.x_range(),
                    y_of(self.hold_db),
                    egui::Stroke::new(2.0, egui::Color32::WHITE),
                );
            }
            for db in SCALE_MARKS {
                let y = y_of(db);
                painter.hline(
                    egui::Rangef::new(bar.right(), bar.right() + 3.0),
                    y,
                    egui::Stroke::new(1.0, egui::Color32::from_gray(150)),
                );
                painter.text(
                    egui::pos2(r.right(), y),
                    egui::Align2::RIGHT_CENTER,
                    mark_text(db),
                    egui::FontId::proportional(10.0),
                    egui::Color32::from_gray(190),
                );
            }
            resp.on_hover_text(
                "Output peak level, dBFS: the bar falls 24 dB/s, the white line holds the \
                 peak for 1.5 s",
            );
            ui.label(
                egui::RichText::new(hold_text(self.hold_db))
                    .monospace()
                    .strong(),
            )
            .on_hover_text("Peak hold, dBFS");
            ui.label(egui::RichText::new("dBFS peak").small());
        });
    }
}
