//! `rebound render --plot`: a compressed PNG under 300 KB, SVG for `.svg` with its axis
//! titles as text, and a clear error (not a panic) when the plot's font is missing.

#[path = "support/scratch.rs"]
mod scratch;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch folder (removed when dropped) and `name` inside it.
fn tmp(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = scratch::dir("cli-plot");
    let path = dir.path().join(name);
    (dir, path)
}

/// Renders a short bouncing train with `--plot plot`; returns (status, stderr).
fn render_with_plot(plot: &Path, font: Option<&str>) -> (i32, String) {
    let wav = plot.with_extension("wav");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rebound"));
    cmd.args([
        "render",
        "--note",
        "60",
        "--velocity",
        "100",
        "--bouncing",
        "on",
        "--gravity-in-contact",
        "on",
        "--body",
        "plate",
        "--duration",
        "1.5",
        "--out",
    ])
    .arg(&wav)
    .arg("--plot")
    .arg(plot);
    if let Some(f) = font {
        cmd.env("REBOUND_PLOT_FONT", f);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The PNG's chunks as (type, data length).
fn png_chunks(png: &[u8]) -> Vec<([u8; 4], usize)> {
    let mut chunks = Vec::new();
    let mut i = 8;
    while i + 8 <= png.len() {
        let len = u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
        let kind: [u8; 4] = png[i + 4..i + 8].try_into().unwrap();
        chunks.push((kind, len));
        i += 12 + len;
    }
    chunks
}

#[test]
fn png_plot_is_a_compressed_png_under_300_kb() {
    let (_dir, path) = tmp("plot.png");
    let (code, err) = render_with_plot(&path, None);
    assert_eq!(code, 0, "render failed: {err}");
    let png = std::fs::read(&path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert!(png.len() < 300_000, "PNG is {} bytes", png.len());
    let chunks = png_chunks(&png);
    assert_eq!(&chunks[0].0, b"IHDR");
    let (w, h) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize,
        u32::from_be_bytes(png[20..24].try_into().unwrap()) as usize,
    );
    // IDAT holds far less than the raw image (3 bytes a pixel, at least): compressed.
    let idat: usize = chunks
        .iter()
        .filter(|(k, _)| k == b"IDAT")
        .map(|(_, n)| n)
        .sum();
    assert!(idat > 0, "no image data");
    assert!(
        idat * 10 < w * h * 3,
        "IDAT {idat} bytes for a {w}x{h} image: not compressed"
    );
    assert_eq!(&chunks.last().unwrap().0, b"IEND");
}

#[test]
fn svg_plot_has_axes_and_titles_as_text() {
    let (_dir, path) = tmp("plot.svg");
    let (code, err) = render_with_plot(&path, None);
    assert_eq!(code, 0, "render failed: {err}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("<svg"), "not an SVG");
    for text in [
        "Time (s)",
        "Amplitude (full scale)",
        "Force (normalised)",
        "Drift (%)",
        "Bounce number",
        "Waveform",
        // A gravity-in-contact train: the drift panel says it is the load-aware drift.
        "Load-aware energy drift",
    ] {
        assert!(svg.contains(text), "SVG lacks {text:?}");
    }
}

#[test]
fn missing_font_is_a_clear_error_not_a_panic() {
    let (_dir, path) = tmp("nofont.png");
    let (code, err) = render_with_plot(&path, Some("/nonexistent/font.ttf"));
    assert_eq!(code, 2, "stderr: {err}");
    assert!(
        err.contains("--plot") && err.contains("font"),
        "stderr: {err}"
    );
    assert!(!err.contains("panicked"), "stderr: {err}");
}
