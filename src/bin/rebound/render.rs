//! `rebound render`: notes through the plugin's own voice engine, offline, to a WAV
//! file (hound: 32-bit float or 24-bit PCM), and optionally a PNG of the waveform,
//! force pulse and energy drift. Every plugin parameter is an option, validated
//! against the plugin's own ranges ([`rebound::engine::LIMITS`], free of the plugin
//! framework), its unit and range in its help.

use crate::common::{enum_parser, flag, names, spec, usage_error};
use crate::plot::write_plot;
use crate::wav::write_wav;
use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressStyle};
use rebound::engine::spec;
use rebound::engine::{self, EngineParams, LIMITS, NoteOff, NoteSpec, Rendered};
use rebound::model::body::BodyType;
use rebound::model::{ClampTarget, Correction, Method};
use std::path::PathBuf;

/// A numeric plugin parameter as the command line sees it: everything comes from the
/// framework-free spec (`engine::spec`: name, help, unit; its range from `LIMITS`).
struct Numeric {
    desc: &'static str,
    unit: &'static str,
    get: fn(&EngineParams) -> f64,
    /// A count: only whole numbers.
    whole: bool,
}

fn numeric(name: &str) -> Numeric {
    let n = spec::NUMBERS
        .iter()
        .find(|n| n.cli == name)
        .unwrap_or_else(|| panic!("--{name} is not in engine::spec"));
    let unit = n.unit.trim();
    Numeric {
        desc: n.help,
        unit: if unit.is_empty() || unit == "%" {
            "none"
        } else {
            unit
        },
        get: n.get,
        whole: n.scale == spec::Scale::Linear && n.digits == 0,
    }
}

fn range_text(lo: f64, hi: f64, unit: &str, whole: bool) -> String {
    let unit = if unit == "none" {
        String::new()
    } else {
        format!(" {unit}")
    };
    let whole = if whole { ", whole" } else { "" };
    format!(
        "{} to {}{unit}{whole}",
        crate::limits::number_text(lo),
        crate::limits::number_text(hi)
    )
}

/// A clap value parser for the plugin parameter `--name`, inside the plugin's range.
fn parser(name: &'static str) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    let n = numeric(name);
    let (lo, hi) = ((n.get)(&LIMITS[0]), (n.get)(&LIMITS[1]));
    move |s: &str| match s.parse::<f64>() {
        Ok(v) if (lo..=hi).contains(&v) && (!n.whole || v.fract() == 0.0) => Ok(v),
        _ => Err(format!(
            "must be {} in {}",
            if n.whole {
                "a whole number"
            } else {
                "a number"
            },
            range_text(lo, hi, n.unit, n.whole)
        )),
    }
}

/// The help of the plugin parameter `--name`: unit, the plugin's range, the default.
fn help(name: &str) -> String {
    let n = numeric(name);
    let (lo, hi) = ((n.get)(&LIMITS[0]), (n.get)(&LIMITS[1]));
    spec(
        n.desc,
        n.unit,
        &range_text(lo, hi, n.unit, n.whole),
        &crate::limits::number_text((n.get)(&EngineParams::default())),
    )
}

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

fn on_off() -> impl TypedValueParser<Value = bool> {
    PossibleValuesParser::new(["on", "off", "true", "false", "1", "0"])
        .map(|s| matches!(s.as_str(), "on" | "true" | "1"))
}

const METHODS: &[Method] = &Method::ALL;
const CORRECTIONS: &[Correction] = &Correction::ALL;
const CLAMP_TARGETS: &[ClampTarget] = &[ClampTarget::Approx, ClampTarget::Exact];
const BODIES: &[BodyType] = &BodyType::ALL;
const NOTE_OFFS: &[NoteOff] = &NoteOff::ALL;

/// A named option's help with its accepted names and the plugin's default.
fn named<T: Copy>(desc: &str, all: &[T], name: fn(T) -> &'static str, d: T) -> String {
    spec(desc, "none (a name)", &names(all, name), name(d))
}

fn defaults() -> EngineParams {
    EngineParams::default()
}

/// `rebound render`'s options.
#[derive(Args)]
pub struct RenderArgs {
    #[arg(long, value_name = "FILE.wav",
          help = spec("The WAV file to write (required); with several --midi files or \
                       --per-track, a directory or the stem of the names", "none (a path)",
                      "any writable path", "none"))]
    out: PathBuf,
    #[arg(long, value_name = "FILE.mid", conflicts_with_all = ["note", "velocity", "hold"],
          help = spec("Render a Standard MIDI File (format 0 or 1, every track, its tempo \
                       map) instead of one note; repeat for several files, rendered in \
                       parallel; runs until every voice has ended unless --duration",
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
    #[arg(long = "v-min", value_name = "V", allow_hyphen_values = true,
          value_parser = parser("v-min"), help = help("v-min"))]
    v_min: Option<f64>,
    #[arg(long = "v-max", value_name = "V", allow_hyphen_values = true,
          value_parser = parser("v-max"), help = help("v-max"))]
    v_max: Option<f64>,
    #[arg(long = "velocity-curve", value_name = "X", allow_hyphen_values = true,
          value_parser = parser("velocity-curve"), help = help("velocity-curve"))]
    velocity_curve: Option<f64>,
    #[arg(long, value_name = "M", allow_hyphen_values = true,
          value_parser = parser("mass"), help = help("mass"))]
    mass: Option<f64>,
    #[arg(long, value_name = "K", allow_hyphen_values = true,
          value_parser = parser("k"), help = help("k"))]
    k: Option<f64>,
    #[arg(long, value_name = "A", allow_hyphen_values = true,
          value_parser = parser("alpha"), help = help("alpha"))]
    alpha: Option<f64>,
    #[arg(long, value_name = "MU", allow_hyphen_values = true,
          value_parser = parser("mu"), help = help("mu"))]
    mu: Option<f64>,
    #[arg(long = "bounciness", visible_alias = "restitution", value_name = "E",
          allow_hyphen_values = true, conflicts_with = "mu",
          value_parser = parser("bounciness"), help = help("bounciness"))]
    restitution: Option<f64>,
    #[arg(long, value_name = "G", allow_hyphen_values = true,
          value_parser = parser("gravity"), help = help("gravity"))]
    gravity: Option<f64>,
    #[arg(long = "body-freq", value_name = "HZ", allow_hyphen_values = true,
          value_parser = parser("body-freq"), help = help("body-freq"))]
    body_freq: Option<f64>,
    #[arg(long = "key-track", value_name = "X", allow_hyphen_values = true,
          value_parser = parser("key-track"), help = help("key-track"))]
    key_track: Option<f64>,
    #[arg(long, value_name = "S", allow_hyphen_values = true,
          value_parser = parser("t60"), help = help("t60"))]
    t60: Option<f64>,
    #[arg(long, value_name = "X", allow_hyphen_values = true,
          value_parser = parser("brightness"), help = help("brightness"))]
    brightness: Option<f64>,
    #[arg(long, value_name = "X", allow_hyphen_values = true,
          value_parser = parser("position"), help = help("position"))]
    position: Option<f64>,
    #[arg(long, value_name = "X", allow_hyphen_values = true,
          value_parser = parser("mix"), help = help("mix"))]
    mix: Option<f64>,
    #[arg(long, value_name = "DB", allow_hyphen_values = true,
          value_parser = parser("gain"), help = help("gain"))]
    gain: Option<f64>,
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = parser("voices"), help = help("voices"))]
    voices: Option<f64>,
    #[arg(long, value_name = "S", allow_hyphen_values = true,
          value_parser = parser("release"), help = help("release"))]
    release: Option<f64>,
    #[arg(long, value_name = "METHOD", ignore_case = true,
          value_parser = enum_parser(METHODS, Method::name),
          help = named("Integrator", METHODS, Method::name, defaults().method))]
    method: Option<Method>,
    #[arg(long, value_name = "CORRECTION", ignore_case = true,
          value_parser = enum_parser(CORRECTIONS, Correction::name),
          help = named("Energy correction", CORRECTIONS, Correction::name, defaults().correction))]
    correction: Option<Correction>,
    #[arg(long = "clamp-target", value_name = "TARGET", ignore_case = true,
          value_parser = enum_parser(CLAMP_TARGETS, ClampTarget::name),
          help = named("The clamp's exit speed", CLAMP_TARGETS, ClampTarget::name,
                       defaults().clamp_target))]
    clamp_target: Option<ClampTarget>,
    #[arg(long, value_name = "on|off", value_parser = on_off(),
          help = spec("The mass bounces back under gravity after each impact",
                      "none (a switch)", "on|off", "off"))]
    bouncing: Option<bool>,
    #[arg(long = "gravity-in-contact", value_name = "on|off", value_parser = on_off(),
          help = spec("Gravity acts during contact too (seed 001): the train comes to rest",
                      "none (a switch)", "on|off", "off"))]
    gravity_in_contact: Option<bool>,
    #[arg(long, value_name = "BODY", ignore_case = true,
          value_parser = enum_parser(BODIES, BodyType::name),
          help = named("Resonating body", BODIES, BodyType::name, defaults().body))]
    body: Option<BodyType>,
    #[arg(long = "note-off", value_name = "MODE", ignore_case = true,
          value_parser = enum_parser(NOTE_OFFS, NoteOff::name),
          help = named("What releasing the key does", NOTE_OFFS, NoteOff::name,
                       defaults().note_off))]
    note_off: Option<NoteOff>,
}

/// Renders longer than this many seconds of audio show a progress bar.
const PROGRESS_SECONDS: f64 = 5.0;

/// The engine parameters the options give (the plugin's defaults elsewhere).
fn params(a: &RenderArgs) -> EngineParams {
    let mut p = EngineParams::default();
    for (v, slot) in [
        (a.v_min, &mut p.v_min),
        (a.v_max, &mut p.v_max),
        (a.velocity_curve, &mut p.velocity_curve),
        (a.mass, &mut p.mass),
        (a.k, &mut p.k),
        (a.alpha, &mut p.alpha),
        (a.mu, &mut p.mu),
        (a.gravity, &mut p.gravity),
        (a.body_freq, &mut p.body_freq),
        (a.key_track, &mut p.key_track),
        (a.t60, &mut p.t60),
        (a.brightness, &mut p.brightness),
        (a.position, &mut p.position),
        (a.mix, &mut p.mix),
        (a.gain, &mut p.gain_db),
        (a.restitution, &mut p.restitution),
        (a.release, &mut p.release),
    ] {
        if let Some(v) = v {
            *slot = v;
        }
    }
    if let Some(v) = a.voices {
        // A whole number in 1..=MAX_VOICES (the parser's check).
        p.voices = v as usize;
    }
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
    p.method = a.method.unwrap_or(p.method);
    p.correction = a.correction.unwrap_or(p.correction);
    p.clamp_target = a.clamp_target.unwrap_or(p.clamp_target);
    p.body = a.body.unwrap_or(p.body);
    p.note_off = a.note_off.unwrap_or(p.note_off);
    p.bouncing = a.bouncing.unwrap_or(false);
    p.gravity_in_contact = a.gravity_in_contact.unwrap_or(false);
    // Damping from a restitution (seed 000) when one is given (clap refuses it with
    // --mu).
    p.from_restitution = a.restitution.is_some();
    // Stiffness or damping given: the contact is set in the paper's terms (Expert).
    if a.k.is_some() || a.mu.is_some() {
        p.controls = rebound::engine::Controls::Expert;
    }
    p
}

pub fn cmd_render(a: &RenderArgs) -> Result<String, String> {
    let p = params(a);
    if !a.midi.is_empty() {
        let midi = crate::midi::MidiArgs {
            files: a.midi.clone(),
            per_track: a.per_track,
        };
        let fs = a.fs.unwrap_or(48_000.0);
        return crate::midi::render_midi(
            &midi,
            &p,
            fs,
            a.duration,
            &a.out,
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
    let r = render_with_progress(&p, fs, &notes, samples, duration > PROGRESS_SECONDS);
    let clipped = write_wav(&a.out, fs as u32, bits, &r.left, &r.right)
        .map_err(|e| format!("--out: cannot write {}: {e}", a.out.display()))?;
    if let Some(path) = &a.plot {
        write_plot(path, &r)
            .map_err(|e| format!("--plot: cannot write {}: {e}", path.display()))?;
    }
    let peak = r.peak();
    let format = if bits == 24 {
        "stereo 24-bit PCM"
    } else {
        "stereo float"
    };
    Ok(format!(
        "wrote {} ({:.3} s at {} Hz, {format}): peak {:.2} dBFS, {} guard events{}{}",
        a.out.display(),
        duration,
        fs,
        20.0 * (peak.max(1e-12) as f64).log10(),
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
