//! What every panel of `render --plot` shares: the font family, the grid's colour,
//! the tick labels and the drawing result.

use plotters::coord::CoordTranslate;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// The family name the font is registered under and drawn with.
pub const FAMILY: &str = "sans-serif";

/// The mesh's lines (only the ones at tick labels: a finer grid only adds bytes).
pub const GRID: RGBColor = RGBColor(225, 225, 225);

/// A tick label: `{:.3}` without trailing zeros and no "-0"; below 1e-3, `{:.1e}`
/// (and a rounding residue of zero, 0).
pub fn tick(v: &f64) -> String {
    if v.abs() < 1e-12 {
        return "0".into();
    }
    if v.abs() < 1e-3 {
        return format!("{v:.1e}");
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// What drawing on a backend returns.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The mesh of a panel over time: the axes' descriptions, tick labels and the grid at
/// the labelled ticks.
pub fn time_mesh<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    y_desc: &str,
) -> DrawResult<DB> {
    chart
        .configure_mesh()
        .x_desc("Time (s)")
        .y_desc(y_desc)
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 15))
        .y_label_formatter(&tick)
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .draw()
}

/// The legend at the panel's upper right, on a light box.
pub fn legend_box<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> DrawResult<DB> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FAMILY, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()
}
