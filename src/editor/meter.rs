//! The output level meter. The audio thread records each block's peak into one atomic
//! ([`PeakMeter::record`], a `fetch_max` on the bits: for non-negative floats the bit
//! patterns order as the values do); the GUI takes it once per frame and runs the
//! ballistics ([`Ballistics`]) itself.

use std::sync::atomic::{AtomicU32, Ordering};

/// The meter's floor, dBFS: silence reads this.
pub const METER_FLOOR_DB: f32 = -60.0;
/// Its top, dBFS (nothing clips at 0 dBFS inside the plugin: a chord's overs show).
pub const METER_TOP_DB: f32 = 6.0;
/// How fast the bar falls, dB/s.
pub const FALL_DB_PER_S: f32 = 24.0;
/// How long the peak-hold mark stays, s.
pub const HOLD_S: f32 = 1.5;

/// The largest |sample| since the GUI last took it, shared lock-free.
#[derive(Default)]
pub struct PeakMeter {
    bits: AtomicU32,
}

impl PeakMeter {
    /// Audio thread: folds one block's peak in (non-finite or negative is ignored).
    pub fn record(&self, peak: f32) {
        if peak.is_finite() && peak > 0.0 {
            self.bits.fetch_max(peak.to_bits(), Ordering::Relaxed);
        }
    }
    /// GUI thread: the peak since the last call, and resets it.
    pub fn take(&self) -> f32 {
        f32::from_bits(self.bits.swap(0, Ordering::Relaxed))
    }
}

/// The largest |sample| over the channels of a block.
pub fn block_peak(channels: &[&mut [f32]]) -> f32 {
    channels
        .iter()
        .flat_map(|c| c.iter())
        .fold(0.0f32, |m, s| m.max(s.abs()))
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

    /// A vertical bar with the held peak printed under it.
    pub fn ui(&self, ui: &mut egui::Ui, size: egui::Vec2) {
        ui.vertical(|ui| {
            let (resp, painter) = ui.allocate_painter(size, egui::Sense::hover());
            let r = resp.rect;
            painter.rect_filled(r, 2.0, egui::Color32::from_gray(22));
            let y_of = |db: f32| {
                let f = (db - METER_FLOOR_DB) / (METER_TOP_DB - METER_FLOOR_DB);
                r.bottom() - f.clamp(0.0, 1.0) * r.height()
            };
            let colour = if self.level_db > 0.0 {
                egui::Color32::from_rgb(255, 70, 60)
            } else if self.level_db > -6.0 {
                egui::Color32::from_rgb(240, 200, 60)
            } else {
                egui::Color32::from_rgb(80, 200, 110)
            };
            let bar = egui::Rect::from_min_max(
                egui::pos2(r.left() + 3.0, y_of(self.level_db)),
                egui::pos2(r.right() - 3.0, r.bottom()),
            );
            painter.rect_filled(bar, 0.0, colour);
            painter.hline(
                r.x_range(),
                y_of(self.hold_db),
                egui::Stroke::new(2.0, egui::Color32::WHITE),
            );
            for db in [0.0f32, -6.0, -12.0, -24.0, -48.0] {
                let y = y_of(db);
                painter.hline(
                    egui::Rangef::new(r.left(), r.left() + 4.0),
                    y,
                    egui::Stroke::new(1.0, egui::Color32::from_gray(150)),
                );
                painter.text(
                    egui::pos2(r.right() + 2.0, y),
                    egui::Align2::LEFT_CENTER,
                    format!("{db:.0}"),
                    egui::FontId::proportional(10.0),
                    egui::Color32::from_gray(170),
                );
            }
            let text = if self.hold_db <= METER_FLOOR_DB {
                "−∞".to_string()
            } else {
                format!("{:+.1}", self.hold_db)
            };
            ui.monospace(text).on_hover_text("Peak hold, dBFS");
            resp.on_hover_text("Output peak level, dBFS (bar: peak with a 24 dB/s fall)");
        });
    }
}
