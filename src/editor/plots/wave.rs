//! The last note's waveform.

use super::{SIM, framed, x_axis};
use crate::handoff::capture::Capture;
use egui_plot::{Line, PlotPoints};

/// Columns of the min/max envelope drawn.
pub const WAVE_COLUMNS: usize = 1200;

/// The min/max envelope of `samples` in at most `columns` columns, as a zigzag line of
/// `[time ms, amplitude]`: every peak stays visible however long the capture.
pub fn envelope(samples: &[f32], fs: f64, columns: usize) -> Vec<[f64; 2]> {
    if samples.is_empty() || columns == 0 || !fs.is_finite() || fs <= 0.0 {
        return Vec::new();
    }
    let per = samples.len().div_ceil(columns);
    let mut out = Vec::with_capacity(2 * samples.len().div_ceil(per));
    for (c, chunk) in samples.chunks(per).enumerate() {
        let (lo, hi) = chunk
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| {
                (lo.min(*s), hi.max(*s))
            });
        let t0 = (c * per) as f64 / fs * 1e3;
        let t1 = (c * per + chunk.len().saturating_sub(1)) as f64 / fs * 1e3;
        out.push([t0, lo as f64]);
        out.push([t1.max(t0), hi as f64]);
    }
    out
}

/// Amplitude (full scale = 1) against time from the note's onset, the amplitude axis
/// fitted to the note's peak (printed in dBFS in the title).
pub fn plot(ui: &mut egui::Ui, c: &Capture, env: &[[f64; 2]], size: egui::Vec2) {
    let peak = env.iter().fold(0.0f64, |m, p| m.max(p[1].abs()));
    let fit = (peak * 1.1).clamp(1e-3, 2.0);
    let span_ms = crate::handoff::capture::CAPTURE_LEN as f64 / c.fs * 1e3;
    let title = if c.seq == 0 {
        "Waveform of the last note (play one)".to_string()
    } else {
        format!(
            "Waveform of the last note, mid (L+R)/2, first {span_ms:.0} ms, peak {:.1} dBFS",
            crate::editor::meter::dbfs(peak as f32)
        )
    };
    framed(
        ui,
        "wave",
        &title,
        x_axis("time from the onset, ms"),
        "amplitude, FS",
        size,
    )
    .include_x(0.0)
    .include_x(span_ms)
    .include_y(-fit)
    .include_y(fit)
    .show(ui, |pu| {
        if env.len() >= 2 {
            let pts: PlotPoints = env.to_vec().into();
            pu.line(Line::new("output", pts).color(SIM).width(1.0));
        }
    });
}
