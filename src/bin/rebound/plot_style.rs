//! What every panel of `render --plot` shares: the font family, the grid's colour,
//! the tick labels and the drawing result.

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
