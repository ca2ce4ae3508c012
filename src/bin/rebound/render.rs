//! `rebound render`: notes through the plugin's own voice engine, offline, to a WAV
//! file (hound: 32-bit float or 24-bit PCM), and optionally a PNG of the waveform,
//! force pulse and energy drift. Every plugin parameter is an option (`param_args`,
//! generated from `engine::spec`), validated against the plugin's own ranges; a preset
//! (`--preset`) sets them all first, and the options given override it.

use crate::common::{flag, spec, usage_error};
use crate::param_args::ParamArgs;
use crate::plot::write_plot;
use crate::wav::write_wav;
use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressStyle};
use rebound::engine::{self, EngineParams, NoteSpec, Rendered, recording};
use rebound::preset::{self, Preset};
use std::path::{Path, PathBuf};

/// A number of seconds in `(0, max]` (or `[0, max]` with `zero`).
fn seconds(max: f64, zero: bool) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s: &str| match s.parse::<f64>() {
        Ok(v) if v <= max && (v > 0.0 || zero && v == 0.0) => Ok(v),
        _ => Err(format!(
            "must be a number in {} s",
            if zero {
                format!("[0, {max}]")
            } else {
                format!("(0, {max}]")
            }
        )),
    }
}

const FS_MIN: f64 = 8_000.0;
const FS_MAX: f64 = 768_000.0;

/// The render's sample rate, rounded to a whole number of Hz: a WAV header stores an
/// integer, and the render runs at exactly the rate it writes (rendering at 44100.7 Hz
/// under a header saying 44101 would play 16 ppm sharp). Fractional rates that worked
/// before still do; they render at the rate written.
fn sample_rate(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (FS_MIN..=FS_MAX).contains(&v) => Ok(v.round()),
        _ => Err(format!("must be a number in {FS_MIN} to {FS_MAX} Hz")),
    }
}

/// `rebound render`'s options.
#[derive(Args)]
pub struct RenderArgs {
    #[arg(long, value_name = "FILE.wav", required_unless_present = "save_preset",
          help = spec("The WAV file to write (required); with several --midi files or \
                       --per-track, a directory or the stem of the names", "none (a path)",
                      "any writable path", "none"))]
    out: Option<PathBuf>,
    #[arg(long, value_name = "FILE.mid", conflicts_with_all = ["note", "velocity", "hold"],
          help = spec("Render a Standard MIDI File (format 0 or 1, every track, its tempo \
                       map, pressure, pitch bend and controllers: CC 1, CC 74, the MPE \
                       Configuration Message and RPN 0) instead of one note; \
                       repeat for several files, rendered in parallel; runs until every \
                       voice has ended unless --duration",
                      "none (a path)", "readable .mid files", "none"))]
    midi: Vec<PathBuf>,
    #[arg(long = "per-track", requires = "midi",
          help = flag("With --midi: each track to its own file (NAME_trackN.wav)"))]
    per_track: bool,
    #[arg(long, value_name = "KEY", value_parser = clap::value_parser!(u8).range(0..=127),
          help = spec("MIDI key of the note", "MIDI key number", "0 to 127, whole", "60"))]
    note: Option<u8>,
    #[arg(long, value_name = "VEL", value_parser = clap::value_parser!(u8).range(1..=127),
          help = spec("MIDI velocity of the note", "MIDI velocity", "1 to 127, whole", "100"))]
    velocity: Option<u8>,
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = seconds(600.0, false),
          help = spec("Length of the render", "s", "(0, 600] s", "2"))]
    duration: Option<f64>,
    #[arg(long, value_name = "FS", allow_hyphen_values = true, value_parser = sample_rate,
          help = spec("Sample rate, rounded to whole Hz: the render runs at the rate the \
                       WAV header stores", "Hz", "8000 to 768000 Hz", "48000"))]
    fs: Option<f64>,
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = seconds(600.0, true),
          help = spec("Release the key after S s (in Damp mode that damps the note)", "s",
                      "[0, 600] s", "held through the render"))]
    hold: Option<f64>,
    #[arg(long, value_name = "BITS", value_parser = PossibleValuesParser::new(["32", "24"])
              .map(|s| if s == "24" { 24u16 } else { 32 }),
          help = spec("Sample format: 32 = IEEE float, 24 = PCM (clipped at full scale)",
                      "bits per sample", "32|24", "32"))]
    bits: Option<u16>,
    #[arg(long, value_name = "FILE.png",
          help = spec("Also draw the waveform, the force pulse and the residual-energy drift \
                       per bounce", "none (a path)", "any writable path", "no plot"))]
    plot: Option<PathBuf>,
    #[arg(long, value_name = "NAME|FILE.json",
          help = spec("Start from a preset: a factory or user preset's name (any case; \
                       `rebound presets` lists them) or a preset file; the parameter \
                       options given override it", "none (a name or path)",
                      "a preset name or a readable .json file", "none (the defaults)"))]
    preset: Option<String>,
    #[arg(long = "save-preset", value_name = "NAME",
          help = spec("Also save the parameters (the preset's, with the options given) as \
                       a user preset NAME in $REBOUND_PRESET_DIR, \
                       $XDG_CONFIG_HOME/rebound/presets or ~/.config/rebound/presets; \
                       without --out, only save", "none (a name)",
                      "a name with a letter or digit, not a factory preset's", "none"))]
    save_preset: Option<String>,
    #[arg(long = "body-file", value_name = "BODY.json",
          help = spec("Play a recorded body: the partials `rebound fit` wrote. Sets Body to \
                       Recorded, and Body pitch and Decay to its strongest partial's \
                       frequency and T60 (so it sounds as recorded; options given \
                       override them)", "none (a path)", "a body file (version 1)",
                      "none"))]
    body_file: Option<PathBuf>,
    #[command(flatten)]
    params: ParamArgs,
}

/// Renders longer than this many seconds of audio show a progress bar.
const PROGRESS_SECONDS: f64 = 5.0;

/// The engine parameters: the preset's (or the defaults), with the options given.
fn params(a: &RenderArgs) -> Result<EngineParams, String> {
    let mut base = match &a.preset {
        Some(name) => load_preset(name)?.params,
        None => EngineParams::default(),
    };
    if let Some(path) = &a.body_file {
        let body = recording::read_body_file(path).map_err(|e| format!("--body-file: {e}"))?;
        recording::use_body(&mut base, &body, true).map_err(|e| format!("--body-file: {e}"))?;
    }
    let p = a.params.apply(&base);
    if p.v_min > p.v_max {
        usage_error(
            "render",
            ErrorKind::ValueValidation,
            format!(
                "--v-min: must not exceed --v-max ({} > {})",
                p.v_min, p.v_max
            ),
        );
    }
    Ok(p)
}

/// The preset `--preset` names: a file when it is one (or looks like a path), else a
/// factory or user preset by name.
fn load_preset(name: &str) -> Result<Preset, String> {
    let path = Path::new(name);
    let looks_like_file = name.ends_with(".json") || name.contains(std::path::MAIN_SEPARATOR);
    if path.is_file() || looks_like_file {
        return Preset::load(path).map_err(|e| format!("--preset: {e}"));
    }
    preset::find(name).ok_or_else(|| {
        format!("--preset: no preset called '{name}' (`rebound presets` lists them)")
    })
}

/// Saves `p` as the user preset `name`; the line to print.
fn save(name: &str, p: &EngineParams) -> Result<String, String> {
    let preset = Preset::new(name, preset::USER_CATEGORY, "Saved by rebound render", *p);
    preset::save_user(&preset)
        .map(|path| format!("saved preset '{}' to {}", preset.name, path.display()))
        .map_err(|e| format!("--save-preset: {e}"))
}

pub fn cmd_render(a: &RenderArgs) -> Result<String, String> {
    let p = params(a)?;
    let saved = match &a.save_preset {
        Some(name) => Some(save(name, &p)?),
        None => None,
    };
    let Some(out) = &a.out else {
        // clap requires --out unless --save-preset is given.
        return Ok(saved.unwrap_or_default());
    };
    let rendered = render_to(a, &p, out)?;
    Ok(match saved {
        Some(s) => format!("{rendered}\n{s}"),
        None => rendered,
    })
}

/// Renders the note (or the MIDI files) with `p` to `out`; the line to print.
fn render_to(a: &RenderArgs, p: &EngineParams, out: &Path) -> Result<String, String> {
    if !a.midi.is_empty() {
        let midi = crate::midi::MidiArgs {
            files: a.midi.clone(),
            per_track: a.per_track,
        };
        let fs = a.fs.unwrap_or(48_000.0);
        return crate::midi::render_midi(
            &midi,
            p,
            fs,
            a.duration,
            out,
            a.plot.as_deref(),
            a.bits.unwrap_or(32),
        )
        .map_err(|e| e.0);
    }
    let note = a.note.unwrap_or(60);
    let velocity = a.velocity.unwrap_or(100);
    let duration = a.duration.unwrap_or(2.0);
    let fs = a.fs.unwrap_or(48_000.0);
    let bits = a.bits.unwrap_or(32);
    let samples = (duration * fs).round().max(1.0) as usize;
    let notes = [NoteSpec {
        at: 0,
        key: note,
        velocity: velocity as f32 / 127.0,
        // How long the key is held: released after --hold s (in Damp mode that damps
        // it), or held through the render.
        off: a.hold.map(|h| (h * fs).round() as usize),
    }];
    let r = render_with_progress(p, fs, &notes, samples, duration > PROGRESS_SECONDS);
    let clipped = write_wav(out, fs as u32, bits, &r.left, &r.right)
        .map_err(|e| format!("--out: cannot write {}: {e}", out.display()))?;
    if let Some(path) = &a.plot {
        write_plot(path, &r)
            .map_err(|e| format!("--plot: cannot write {}: {e}", path.display()))?;
    }
    let level = crate::common::level_summary(fs, &r.left, &r.right);
    let format = if bits == 24 {
        "stereo 24-bit PCM"
    } else {
        "stereo float"
    };
    Ok(format!(
        "wrote {} ({:.3} s at {} Hz, {format}): {level}, {} guard events{}{}",
        out.display(),
        duration,
        fs,
        r.guard_events,
        a.plot
            .as_ref()
            .map(|p| format!("; plot {}", p.display()))
            .unwrap_or_default(),
        if clipped > 0 {
            format!("; {clipped} samples clipped at full scale")
        } else {
            String::new()
        }
    ))
}

/// [`rebound::engine::render`]'s loop, in blocks of at most a tenth of a second so that
/// a progress bar (on stderr, hidden when stderr is not a terminal) can follow it. The
/// engine's output does not depend on the block size, so the samples are the same.
fn render_with_progress(
    params: &EngineParams,
    fs: f64,
    notes: &[NoteSpec],
    samples: usize,
    progress: bool,
) -> Rendered {
    let bar = if progress {
        let bar = ProgressBar::new(samples as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "rendering {bar:40} {percent:>3}% of {msg} ({elapsed} elapsed, ~{eta} left)",
        ) {
            bar.set_style(style);
        }
        bar.set_message(format!("{:.1} s", samples as f64 / fs));
        bar
    } else {
        ProgressBar::hidden()
    };
    let block = ((fs / 10.0) as usize).max(1);
    let r = engine::render_with_progress(params, fs, notes, samples, block, &mut |pos| {
        bar.set_position(pos as u64)
    });
    bar.finish_and_clear();
    r
}
