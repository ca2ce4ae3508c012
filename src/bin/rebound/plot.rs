//! `rebound render --plot FILE`: the waveform, the level in dBFS, the summed wall force
//! (zoomed on the contacts), the spectrum of the first second and the per-bounce
//! energy drift of a render, in five panels with axes, units and titles, drawn with
//! plotters (the level and spectrum in `plot_sound`). `FILE.svg` writes SVG; any other
//! name a (compressed) PNG.
//!
//! The text is drawn with plotters' `ab_glyph` backend from a TrueType font read at run
//! time: `$REBOUND_PLOT_FONT` when set, else the first of [`FONT_CANDIDATES`] that
//! exists (Debian's `fonts-dejavu-core` provides the first). Without a font the plot is
//! not written and the error says how to get one.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::register_font;
use rebound::engine::Rendered;
use std::path::Path;
use std::sync::OnceLock;

use crate::plot_style::{DrawResult, FAMILY, GRID, legend_box, tick, time_mesh};

/// Fonts tried in order when `$REBOUND_PLOT_FONT` is not set.
const FONT_CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
];
const SIZE: (u32, u32) = (1200, 1500);
/// Columns of the min/max envelope drawn for the waveform and the force.
const COLUMNS: usize = 1000;

/// Writes the plot of `r` to `path`: SVG when it ends in `.svg`, PNG otherwise.
pub fn write_plot(path: &Path, r: &Rendered) -> Result<(), String> {
    load_font()?;
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if svg {
        let root = SVGBackend::new(path, SIZE).into_drawing_area();
        draw(&root, r).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())
    } else {
        let root = BitMapBackend::new(path, SIZE).into_drawing_area();
        draw(&root, r).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())
    }
}

/// Reads and registers the font once per process; the result is kept for later calls.
fn load_font() -> Result<(), String> {
    static LOADED: OnceLock<Result<(), String>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let path = match std::env::var_os("REBOUND_PLOT_FONT") {
                Some(p) => std::path::PathBuf::from(p),
                None => FONT_CANDIDATES
                    .iter()
                    .map(std::path::PathBuf::from)
                    .find(|p| p.is_file())
                    .ok_or_else(|| {
                        format!(
                            "no font for the plot's text (looked for {}); install one with \
                             `apt-get install fonts-dejavu-core` or set REBOUND_PLOT_FONT=FILE.ttf",
                            FONT_CANDIDATES[0]
                        )
                    })?,
            };
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("cannot read the plot font {}: {e}", path.display()))?;
            // plotters keeps fonts for the life of the process: the bytes are leaked once.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            register_font(FAMILY, FontStyle::Normal, bytes).map_err(|_| {
                format!(
                    "the plot font {} is not a TrueType/OpenType font",
                    path.display()
                )
            })
        })
        .clone()
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: &Rendered) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let panels = root.split_evenly((5, 1));
    let seconds = r.len() as f64 / r.fs;
    let peak = r
        .left
        .iter()
        .chain(&r.right)
        .filter(|v| v.is_finite())
        .fold(1e-6f32, |m, v| m.max(v.abs())) as f64
        * 1.05;
    let whole = (0.0, seconds.max(1e-6));
    signal_panel(
        &panels[0],
        "Waveform (the output, left and right overlaid)",
        "Amplitude (full scale)",
        &[
            ("left", &r.left, RGBColor(30, 90, 200)),
            ("right", &r.right, RGBColor(200, 40, 60)),
        ],
        r.fs,
        (whole, (-peak, peak)),
    )?;
    let mono = r.mono();
    crate::plot_sound::level_panel(&panels[1], &mono, r.fs)?;
    let fpeak = r
        .force
        .iter()
        .filter(|v| v.is_finite())
        .fold(1e-6f32, |m, v| m.max(*v)) as f64
        * 1.05;
    signal_panel(
        &panels[2],
        "Wall force at the contacts, summed over voices (1 = analytic peak at full velocity)",
        "Force (normalised)",
        &[("", &r.force, RGBColor(200, 90, 30))],
        r.fs,
        (
            crate::plot_sound::contact_span(&r.force, r.fs),
            (0.0, fpeak),
        ),
    )?;
    crate::plot_sound::spectrum_panel(&panels[3], &mono, r.fs)?;
    drift_panel(&panels[4], r, seconds)
}

/// A named signal and its colour (an empty name: no legend).
type Series<'a> = (&'a str, &'a [f32], RGBColor);

/// Signals against time, overlaid in the order given (the last on top), each drawn as
/// its min/max envelope over [`COLUMNS`] columns, half transparent when there are more
/// than one, so both channels stay visible where they differ.
fn signal_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    series: &[Series],
    fs: f64,
    ((t0, t1), (lo, hi)): ((f64, f64), (f64, f64)),
) -> DrawResult<DB> {
    let t1 = t1.max(t0 + 1e-6);
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FAMILY, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(t0..t1, lo..hi)?;
    time_mesh(&mut chart, y_desc)?;
    if lo < 0.0 {
        chart.draw_series(LineSeries::new(
            [(t0, 0.0), (t1, 0.0)],
            RGBColor(160, 160, 160),
        ))?;
    }
    let alpha = if series.len() > 1 { 0.6 } else { 1.0 };
    for &(name, data, color) in series {
        // The samples of the span drawn, their times offset to where it starts.
        let a = ((t0 * fs) as usize).min(data.len());
        let b = ((t1 * fs).ceil() as usize).clamp(a, data.len());
        let drawn = chart.draw_series(LineSeries::new(
            envelope(&data[a..b], fs)
                .into_iter()
                .map(|(t, v)| (t + a as f64 / fs, v)),
            color.mix(alpha).stroke_width(1),
        ))?;
        if !name.is_empty() {
            drawn
                .label(name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], color));
        }
    }
    if series.iter().any(|s| !s.0.is_empty()) {
        legend_box(&mut chart)?;
    }
    Ok(())
}

/// Per column of samples, its minimum and its maximum (a vertical stroke when drawn as
/// one line), so a long render stays a few thousand points in the SVG.
fn envelope(data: &[f32], fs: f64) -> Vec<(f64, f64)> {
    let n = data.len();
    let columns = COLUMNS.min(n);
    let mut points = Vec::with_capacity(2 * columns);
    for c in 0..columns {
        let (a, b) = (
            c * n / columns,
            ((c + 1) * n / columns).max(c * n / columns + 1),
        );
        let (mn, mx) = data[a..b.min(n)]
            .iter()
            .filter(|v| v.is_finite())
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(mn, mx), v| {
                (mn.min(*v), mx.max(*v))
            });
        if mn > mx {
            continue;
        }
        let t = a as f64 / fs;
        points.push((t, mn as f64));
        points.push((t, mx as f64));
    }
    points
}

/// The per-bounce energy drift of the last contact's train, one bar per bounce.
fn drift_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    r: &Rendered,
    seconds: f64,
) -> DrawResult<DB> {
    let t = &r.trace;
    let n = t.bounces.min(t.drift_pct.len());
    let drift: Vec<f64> = t.drift_pct[..n].iter().map(|&d| d as f64).collect();
    let (title, legend) = if t.drift_load {
        (
            "Load-aware energy drift per contact, |H + D − H₀| over the exact contact's dissipation",
            "load-aware drift",
        )
    } else {
        (
            "Residual energy after each bounce against the exact chain",
            "drift against the exact chain",
        )
    };
    let finite = drift.iter().filter(|d| d.is_finite());
    let lo = finite.clone().fold(0.0f64, |m, &d| m.min(d));
    let hi = finite.fold(0.0f64, |m, &d| m.max(d));
    // At least 0.1 % tall (a smaller drift reads as none), with room above the bars
    // for the legend.
    let span = (hi - lo).max(0.1);
    let lo = if lo < 0.0 { lo - 0.08 * span } else { 0.0 };
    let hi = hi.max(lo + span) + 0.3 * span;
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FAMILY, 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d((1..n.max(1) as u32).into_segmented(), lo..hi)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("Bounce number")
        .y_desc("Drift (%)")
        .x_labels(n.clamp(1, 16))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .y_label_formatter(&tick)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()?;
    let green = RGBColor(40, 160, 60);
    chart
        .draw_series(
            drift
                .iter()
                .enumerate()
                .filter(|(_, d)| d.is_finite())
                .map(|(i, &d)| {
                    let b = i as u32 + 1;
                    let mut bar = Rectangle::new(
                        [
                            (SegmentValue::Exact(b), 0.0),
                            (SegmentValue::Exact(b + 1), d),
                        ],
                        green.filled(),
                    );
                    bar.set_margin(0, 0, 3, 3);
                    bar
                }),
        )?
        .label(format!(
            "{legend} ({n} bounce{} recorded in {seconds:.2} s)",
            if n == 1 { "" } else { "s" }
        ))
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], green.filled()));
    legend_box(&mut chart)?;
    Ok(())
}
