//! `rebound presets --measure`: every preset as a sound designer checks a library:
//! note 60 at velocity 127 rendered through the engine, its maximum momentary loudness
//! (BS.1770, 400 ms), its integrated loudness, its true peak and its L/R correlation
//! over the first second, and the spread of the loudness across the presets.

use rebound::engine::{EngineParams, NoteSpec, Rendered, render};
use rebound::loudness::{Loudness, correlation, measure};
use rebound::preset::Preset;
use serde::Serialize;

/// The rate, key, velocity and length of the measured note.
const FS: f64 = 48_000.0;
const KEY: u8 = 60;
const SECONDS: f64 = 2.0;

/// One preset's loudness, its L/R correlation over the first second, and at Width
/// 100 % that correlation and what the mono sum loses against the louder channel, dB.
type Row = (Loudness, f64, f64, f64);

fn measure_one(p: &Preset) -> Option<Row> {
    let note = NoteSpec {
        at: 0,
        key: KEY,
        velocity: 1.0,
        off: None,
    };
    let len = (SECONDS * FS) as usize;
    let r = render(&p.params, FS, &[note], len);
    let first = (FS as usize).min(r.left.len());
    let c = correlation(&r.left[..first], &r.right[..first]);
    let wide = EngineParams {
        width: 1.0,
        ..p.params
    };
    let w = render(&wide, FS, &[note], first);
    let cw = correlation(&w.left, &w.right);
    measure(FS as u32, &r.left, &r.right).map(|l| (l, c, cw, mono_loss_db(&w)))
}

fn rms(x: &[f32]) -> f64 {
    (x.iter().map(|&s| (s as f64).powi(2)).sum::<f64>() / x.len().max(1) as f64).sqrt()
}

/// `20 log10(rms((L + R) / 2) / max(rms L, rms R))`, 0 for silence.
fn mono_loss_db(r: &Rendered) -> f64 {
    let louder = rms(&r.left).max(rms(&r.right));
    if louder == 0.0 {
        return 0.0;
    }
    20.0 * (rms(&r.mono()) / louder).log10()
}

/// The default patch, measured first as the presets' reference.
fn with_default<'a>(all: &[&'a Preset], default: &'a Preset) -> Vec<&'a Preset> {
    std::iter::once(default)
        .chain(all.iter().copied())
        .collect()
}

fn default_preset() -> Preset {
    Preset {
        name: "(default patch)".into(),
        category: String::new(),
        description: String::new(),
        params: EngineParams::default(),
    }
}

/// One preset's figures, as `--measure --json` prints them.
#[derive(Serialize)]
struct RowJson<'a> {
    name: &'a str,
    momentary_max: f64,
    integrated: f64,
    true_peak_db: f64,
    correlation: f64,
    correlation_width_100: f64,
    mono_loss_db: f64,
}

/// Every figure as JSON: `presets` (the default patch first), then the playing figures.
pub fn json(all: &[&Preset]) -> Result<String, String> {
    let default = default_preset();
    let all = with_default(all, &default);
    let rows = crate::common::par_map(&all, |p| measure_one(p));
    let presets: Vec<RowJson> = all
        .iter()
        .zip(&rows)
        .filter_map(|(p, m)| {
            m.as_ref().map(|(l, c, cw, loss)| RowJson {
                name: &p.name,
                momentary_max: l.momentary_max,
                integrated: l.integrated,
                true_peak_db: l.true_peak_db,
                correlation: *c,
                correlation_width_100: *cw,
                mono_loss_db: *loss,
            })
        })
        .collect();
    let playing = crate::measure_play::playing(&all[1..]);
    serde_json::to_string_pretty(&serde_json::json!({
        "presets": presets,
        "playing": playing,
    }))
    .map_err(|e| e.to_string())
}

/// The table: one row per preset, then the loudness span, then the playing figures.
pub fn table(all: &[&Preset]) -> String {
    let default = default_preset();
    let all = with_default(all, &default);
    let rows = crate::common::par_map(&all, |p| measure_one(p));
    let w = all
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(4);
    let mut out = format!(
        "note {KEY}, velocity 127, {SECONDS} s at {FS} Hz; BS.1770 loudness\n\
         {:<w$}  {:>12}  {:>10}  {:>8}  {:>11}  {:>10}  {:>8}",
        "NAME", "M MAX LUFS", "INT LUFS", "TP dBTP", "CORR (1 s)", "CORR W100", "MONO dB"
    );
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (p, m) in all.iter().zip(&rows) {
        match m {
            Some((l, c, cw, loss)) => {
                out += &format!(
                    "\n{:<w$}  {:>12.1}  {:>10.1}  {:>8.2}  {:>11.3}  {:>10.3}  {:>8.2}",
                    p.name, l.momentary_max, l.integrated, l.true_peak_db, c, cw, loss
                );
                if l.momentary_max.is_finite() {
                    lo = lo.min(l.momentary_max);
                    hi = hi.max(l.momentary_max);
                }
            }
            None => out += &format!("\n{:<w$}  (not measured)", p.name),
        }
    }
    if lo <= hi {
        out += &format!(
            "\nmomentary max from {lo:.1} to {hi:.1} LUFS: a {:.1} LU span",
            hi - lo
        );
    }
    out + &crate::measure_play::text(&crate::measure_play::playing(&all[1..]))
}
