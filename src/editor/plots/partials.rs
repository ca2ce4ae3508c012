//! A recorded body's partials over its recording's spectrum: each partial a stem at
//! its frequency and level (dB under the strongest), the recording's spectrum from
//! its onset behind them, normalised to the same top.

use super::spectrum::{F_LOW, hz_label, log_marks, reduce_log};
use super::{ANALYTIC, SIM, framed, x_axis};
use crate::model::body::Recorded;
use egui_plot::{Line, PlotPoints, Points};

/// The plot's height in the Body group, logical pixels.
pub const PLOT_HEIGHT: f32 = 120.0;
/// How far down the plot reaches, dB.
const RANGE_DB: f64 = 80.0;
/// How much of the recording after its onset the spectrum reads, s.
const SPECTRUM_SPAN_S: f64 = 1.0;

/// The mono mix of `channels` for [`SPECTRUM_SPAN_S`] from `onset_s`, as a Hann
/// spectrum reduced for drawing (`[log10 f, dB]`, its peak at 0 dB).
pub fn recording_spectrum(channels: &[Vec<f64>], fs: f64, onset_s: f64) -> Vec<[f64; 2]> {
    let len = channels.first().map_or(0, Vec::len);
    let start = ((onset_s * fs).max(0.0) as usize).min(len);
    let end = (start + (SPECTRUM_SPAN_S * fs) as usize).min(len);
    let mono: Vec<f32> = (start..end)
        .map(|i| (channels.iter().map(|c| c[i]).sum::<f64>() / channels.len() as f64) as f32)
        .collect();
    let bins = crate::analysis::spectrum_db(&mono, fs);
    let mut reduced = reduce_log(&bins, super::spectrum::SPECTRUM_POINTS);
    let top = reduced.iter().fold(f64::NEG_INFINITY, |m, p| m.max(p[1]));
    for p in &mut reduced {
        p[1] -= top;
    }
    reduced
}

/// Each partial of `body` as `[log10 f, dB under the strongest]`.
pub fn stems(body: &Recorded) -> Vec<[f64; 2]> {
    let kept = &body.partials[..body.count];
    let top = kept.iter().fold(0.0f64, |m, p| m.max(p.amplitude));
    kept.iter()
        .map(|p| [p.freq_hz.log10(), 20.0 * (p.amplitude / top).log10()])
        .collect()
}

/// The partials of `body` over `spectrum` (may be empty: a body file has no audio).
pub fn plot(ui: &mut egui::Ui, body: &Recorded, spectrum: &[[f64; 2]], size: egui::Vec2) {
    let title = if spectrum.is_empty() {
        "Partials of the recorded body"
    } else {
        "Partials of the recorded body over its recording's spectrum"
    };
    let x = x_axis("frequency").formatter(|m, _| {
        if m.step_size >= 1.0 {
            hz_label(m.value)
        } else {
            String::new()
        }
    });
    framed(ui, "partials", title, x, "level, dB", size)
        .include_x(F_LOW.log10())
        .include_x(20_000f64.log10())
        .include_y(3.0)
        .include_y(-RANGE_DB)
        .x_grid_spacer(log_marks)
        .show(ui, |pu| {
            if spectrum.len() >= 2 {
                let pts: PlotPoints = spectrum.to_vec().into();
                pu.line(Line::new("recording", pts).color(ANALYTIC).width(1.0));
            }
            // One legend entry for all the stems and their heads (same name).
            for s in stems(body) {
                let stem: PlotPoints = vec![[s[0], -RANGE_DB], s].into();
                pu.line(Line::new("partials", stem).color(SIM).width(1.5));
            }
            let heads: PlotPoints = stems(body).into();
            pu.points(Points::new("partials", heads).color(SIM).radius(3.0));
        });
}
