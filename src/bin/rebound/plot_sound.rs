//! The panels of `render --plot` that judge a sound rather than the physics: the level
//! over time in dBFS (what a meter shows) and the spectrum of the first second (where
//! a bell's inharmonic partials, a bar's and a plate's modes show), and where the
//! force panel should look: at the contacts.

use plotters::coord::Shift;
use plotters::prelude::*;
use rebound::analysis::spectrum_db;

use crate::plot_style::{DrawResult, FAMILY, GRID, tick, time_mesh};

/// Window of the level envelope, s (a fast meter's integration time).
const LEVEL_WINDOW: f64 = 0.01;
/// The level and spectrum panels' floor, dB under their peak.
const RANGE_DB: f64 = 90.0;
/// The spectrum reads this much of the render from its start, s.
const SPECTRUM_SECONDS: f64 = 1.0;
/// Lowest frequency drawn, Hz (the axis is logarithmic).
const F_LO: f64 = 20.0;

/// The RMS level of the mono sum in [`LEVEL_WINDOW`] windows, dBFS, against time.
pub fn level_envelope(mono: &[f32], fs: f64) -> Vec<(f64, f64)> {
    let w = ((LEVEL_WINDOW * fs) as usize).max(1);
    mono.chunks(w)
        .enumerate()
        .map(|(i, c)| {
            let ms = c
                .iter()
                .filter(|v| v.is_finite())
                .map(|&v| (v as f64) * (v as f64))
                .sum::<f64>()
                / c.len() as f64;
            ((i * w) as f64 / fs, 10.0 * ms.max(1e-24).log10())
        })
        .collect()
}

/// The time span to draw the force over: from a little before its first contact to a
/// little after its last (a strike's millisecond pulse fills the panel instead of
/// being one pixel of a two-second axis); the whole render when there is no force.
pub fn contact_span(force: &[f32], fs: f64) -> (f64, f64) {
    let first = force.iter().position(|v| v.abs() > 0.0);
    let last = force.iter().rposition(|v| v.abs() > 0.0);
    let total = force.len() as f64 / fs;
    match (first, last) {
        (Some(a), Some(b)) => {
            let (a, b) = (a as f64 / fs, (b + 1) as f64 / fs);
            let margin = (0.1 * (b - a)).max(2e-4);
            ((a - margin).max(0.0), (b + margin).min(total.max(b)))
        }
        _ => (0.0, total.max(1e-6)),
    }
}

/// The level over time, dBFS (RMS over 10 ms of the mono sum).
pub fn level_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    mono: &[f32],
    fs: f64,
) -> DrawResult<DB> {
    let env = level_envelope(mono, fs);
    let top = env.iter().map(|p| p.1).fold(-120.0, f64::max).max(-120.0) + 3.0;
    let seconds = (mono.len() as f64 / fs).max(1e-6);
    let mut chart = ChartBuilder::on(area)
        .caption("Level (RMS over 10 ms of the mono sum)", (FAMILY, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..seconds, (top - RANGE_DB)..top)?;
    time_mesh(&mut chart, "Level (dBFS)")?;
    let floor = top - RANGE_DB;
    chart.draw_series(LineSeries::new(
        env.into_iter().map(|(t, l)| (t, l.max(floor))),
        RGBColor(30, 120, 60).stroke_width(2),
    ))?;
    Ok(())
}

/// The spectrum of the first second of the mono sum (Hann window), dBFS against a
/// logarithmic frequency axis, each drawn point the loudest bin of its column.
pub fn spectrum_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    mono: &[f32],
    fs: f64,
) -> DrawResult<DB> {
    let n = ((SPECTRUM_SECONDS * fs) as usize).min(mono.len());
    let bins = spectrum_db(&mono[..n], fs);
    let nyquist = (fs / 2.0).max(F_LO * 2.0);
    let top = bins.iter().map(|b| b[1]).fold(-140.0, f64::max) + 3.0;
    let floor = top - RANGE_DB;
    // The loudest bin per 1/48 octave keeps the peaks and the file small.
    let mut points: Vec<(f64, f64)> = Vec::new();
    for b in bins.iter().filter(|b| b[0] >= F_LO) {
        let col = (48.0 * (b[0] / F_LO).log2()) as i64;
        match points.last_mut() {
            Some(p) if (48.0 * (p.0 / F_LO).log2()) as i64 == col => {
                if b[1] > p.1 {
                    *p = (b[0], b[1]);
                }
            }
            _ => points.push((b[0], b[1])),
        }
    }
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Spectrum of the first second (mono sum, Hann window)",
            (FAMILY, 20),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d((F_LO..nyquist).log_scale(), floor..top)?;
    chart
        .configure_mesh()
        .x_desc("Frequency (Hz)")
        .y_desc("Level (dBFS)")
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .x_label_formatter(&|f| freq_tick(*f))
        .y_label_formatter(&tick)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()?;
    chart.draw_series(LineSeries::new(
        points.into_iter().map(|(f, l)| (f, l.max(floor))),
        RGBColor(120, 40, 160).stroke_width(1),
    ))?;
    Ok(())
}

/// A frequency tick: whole hertz, kilohertz from 1 kHz.
fn freq_tick(f: f64) -> String {
    if f >= 1000.0 {
        format!("{}k", tick(&(f / 1000.0)))
    } else {
        format!("{}", f.round())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(x: f64) -> f64 {
        20.0 * x.log10()
    }

    #[test]
    fn the_force_panel_looks_at_the_contacts() {
        let fs = 48_000.0;
        let mut f = vec![0f32; 96_000];
        f[4800..4848].fill(1.0);
        let (a, b) = contact_span(&f, fs);
        assert!(a < 0.1 && a > 0.099 && b > 0.101 && b < 0.102, "{a} {b}");
        assert_eq!(contact_span(&[0.0; 480], fs), (0.0, 0.01));
        let env = level_envelope(&vec![0.5f32; 4800], fs);
        assert_eq!(env.len(), 10);
        assert!((env[3].1 - db(0.5)).abs() < 1e-9);
    }
}
