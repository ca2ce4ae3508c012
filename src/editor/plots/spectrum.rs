//! The last note's spectrum: a Hann-windowed FFT of the capture, in dBFS (a full-scale
//! sine reads 0 dB) on a log-frequency axis.

use super::{ANALYTIC, framed, x_axis};
use crate::editor::capture::Capture;
use egui_plot::{GridInput, GridMark, HoverPosition, Line, PlotPoints};

/// Points drawn (the bins are reduced to their maximum per log-frequency step).
pub const SPECTRUM_POINTS: usize = 600;
/// The lowest frequency shown, Hz.
pub const F_LOW: f64 = 20.0;
/// The spectrum's floor, dBFS.
pub const FLOOR_DB: f64 = -140.0;

/// In-place radix-2 FFT (`re.len()` a power of two).
pub fn fft(re: &mut [f64], im: &mut [f64]) {
    let n = re.len();
    debug_assert!(n.is_power_of_two() && im.len() == n);
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let ang = -2.0 * std::f64::consts::PI / len as f64;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (ang * k as f64).sin_cos();
                let (a, b) = (start + k, start + k + len / 2);
                let tr = re[b] * c - im[b] * s;
                let ti = re[b] * s + im[b] * c;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len <<= 1;
    }
}

/// `[frequency Hz, level dBFS]` of every bin from DC to Nyquist: Hann window over the
/// samples, zero-padded to a power of two, scaled so that a full-scale sine on a bin
/// reads 0 dBFS.
pub fn spectrum_db(samples: &[f32], fs: f64) -> Vec<[f64; 2]> {
    let len = samples.len();
    if len < 2 || !fs.is_finite() || fs <= 0.0 {
        return Vec::new();
    }
    let n = len.next_power_of_two();
    let mut re = vec![0.0; n];
    let mut im = vec![0.0; n];
    let mut wsum = 0.0;
    for (i, s) in samples.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / (len - 1) as f64).cos();
        wsum += w;
        re[i] = *s as f64 * w;
    }
    fft(&mut re, &mut im);
    (0..=n / 2)
        .map(|k| {
            let mag = (re[k] * re[k] + im[k] * im[k]).sqrt() * 2.0 / wsum;
            let db = if mag > 0.0 {
                (20.0 * mag.log10()).max(FLOOR_DB)
            } else {
                FLOOR_DB
            };
            [k as f64 * fs / n as f64, db]
        })
        .collect()
}

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
fn log_marks(input: GridInput) -> Vec<GridMark> {
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
