//! The last note's spectrum: a Hann-windowed FFT of the capture, in dBFS (a full-scale
//! sine reads 0 dB) on a log-frequency axis.

use super::{ANALYTIC, framed, x_axis};
use crate::analysis::FLOOR_DB;
use crate::handoff::capture::Capture;
use egui_plot::{GridInput, GridMark, HoverPosition, Line, PlotPoints};

/// Points drawn (the bins are reduced to their maximum per log-frequency step).
pub const SPECTRUM_POINTS: usize = 600;
/// The lowest frequency shown, Hz.
pub const F_LOW: f64 = 20.0;

/// The spectrum reduced for drawing: the loudest bin in each of `points` equal steps of
/// `log10(f)` from [`F_LOW`] to the top bin, as `[log10 f, dB]`.
pub fn reduce_log(bins: &[[f64; 2]], points: usize) -> Vec<[f64; 2]> {
    let Some(top) = bins.last().map(|b| b[0]) else {
        return Vec::new();
    };
    if top <= F_LOW || points == 0 {
        return Vec::new();
    }
    let (l0, l1) = (F_LOW.log10(), top.log10());
    let step = (l1 - l0) / points as f64;
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(points);
    for b in bins.iter().filter(|b| b[0] >= F_LOW) {
        let lf = b[0].log10();
        let cell = (((lf - l0) / step) as usize).min(points - 1);
        let x = l0 + (cell as f64 + 0.5) * step;
        match out.last_mut() {
            Some(last) if (last[0] - x).abs() < step * 0.25 => last[1] = last[1].max(b[1]),
            _ => out.push([x, b[1]]),
        }
    }
    out
}

/// Grid marks for a `log10(f)` axis: decades strong, 2–9 × each decade weak.
pub fn log_marks(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let mut marks = Vec::new();
    let mut decade = lo.floor() as i32;
    while f64::from(decade) <= hi {
        for m in 1..10 {
            let v = f64::from(decade) + f64::from(m).log10();
            if (lo..=hi).contains(&v) {
                let step_size = if m == 1 { 1.0 } else { 0.1 };
                marks.push(GridMark {
                    value: v,
                    step_size,
                });
            }
        }
        decade += 1;
    }
    marks
}

/// "100 Hz", "2 kHz" for a `log10(f)` value.
pub fn hz_label(lf: f64) -> String {
    let f = 10f64.powf(lf);
    if f >= 1000.0 {
        format!("{} kHz", (f / 1000.0 * 10.0).round() / 10.0)
    } else {
        format!("{} Hz", f.round())
    }
}

/// Level against frequency, log axis.
pub fn plot(ui: &mut egui::Ui, c: &Capture, reduced: &[[f64; 2]], size: egui::Vec2) {
    let title = if c.seq == 0 {
        "Spectrum of the last note (play one)".to_string()
    } else {
        format!(
            "Spectrum of the last note (Hann, {} samples at {:.1} kHz)",
            c.len,
            c.fs / 1e3
        )
    };
    let peak = reduced.iter().fold(-200.0f64, |m, p| m.max(p[1]));
    let top = if peak > FLOOR_DB {
        (peak / 10.0).ceil() * 10.0 + 5.0
    } else {
        0.0
    };
    let x = x_axis("frequency").formatter(|m, _| {
        let f = 10f64.powf(m.value);
        let lead = f / 10f64.powf(m.value.floor());
        if m.step_size >= 1.0 || (lead - 2.0).abs() < 0.01 || (lead - 5.0).abs() < 0.01 {
            hz_label(m.value)
        } else {
            String::new()
        }
    });
    framed(ui, "spectrum", &title, x, "level, dBFS", size)
        .include_x(F_LOW.log10())
        .include_x((c.fs / 2.0).log10())
        .include_y(top)
        .include_y(top - 100.0)
        .x_grid_spacer(log_marks)
        .label_formatter(|h| {
            let p = match h {
                HoverPosition::NearDataPoint { position, .. } => position,
                HoverPosition::Elsewhere { position } => position,
            };
            Some(format!("{} | {:.1} dBFS", hz_label(p.x), p.y))
        })
        .show(ui, |pu| {
            if reduced.len() >= 2 {
                let pts: PlotPoints = reduced.to_vec().into();
                pu.line(Line::new("spectrum", pts).color(ANALYTIC).width(1.0));
            }
        });
}
