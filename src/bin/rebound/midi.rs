//! `rebound render --midi FILE.mid`: Standard MIDI Files (format 0 or 1) through the
//! plugin's voice engine, each note at its exact sample.
//!
//! - **Times.** Every event's time is computed from its absolute tick through the tempo
//!   map (Set Tempo events of every track, which apply to all tracks; 120 bpm before
//!   the first), exactly: with a ticks-per-quarter division the elapsed time is kept as
//!   an integer sum of `ticks × µs per quarter` over the tempo segments, and only the
//!   final `seconds × fs` is rounded (never a sum of rounded samples). SMPTE divisions
//!   (`fps × subframes` ticks per second, 29.97 fps for the drop-frame code) ignore
//!   tempo, as the standard says.
//! - **Notes.** A note-on with velocity 0 is a note-off. Each note-off ends the oldest
//!   sounding note of its (channel, key); a note-off with no note is ignored, a note with
//!   no note-off is held. At one sample, note-offs of earlier notes come before
//!   note-ons (a repeated key is released, then struck), and a zero-length note's off
//!   after its on.
//! - **Length.** With `--duration` the output has exactly that length. Without it, it
//!   runs to the last note event and then on until every voice has ended (at most
//!   [`TAIL_CAP`] s more); a file whose notes run past [`MAX_SECONDS`] is refused.
//! - **Outputs.** See [`outputs`]; files and tracks render in parallel, one per core.

use crate::plot::write_plot;
use crate::wav::write_wav;
use rebound::engine::{Engine, EngineParams, Rendered};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

mod song;
pub use song::{ArgError, Note, Song};

/// Longest tail rendered after the last note event while waiting for the voices to end, s.
pub const TAIL_CAP: f64 = 600.0;
/// Latest note event a file may have without `--duration`, s.
pub const MAX_SECONDS: f64 = 3600.0;

/// What `--midi` and `--per-track` asked for.
#[derive(Clone, Debug, Default)]
pub struct MidiArgs {
    pub files: Vec<PathBuf>,
    pub per_track: bool,
}

/// Renders `notes` through a fresh engine: `samples` long, or (`None`) until every
/// voice has ended after the last note event, at most [`TAIL_CAP`] s more.
pub fn render_notes(
    params: &EngineParams,
    fs: f64,
    notes: &[Note],
    samples: Option<usize>,
    with_force: bool,
) -> Rendered {
    let mut engine = Engine::new(fs);
    engine.set_params(params);
    engine.set_sample_rate(fs);
    // (sample, order, note): order 0 the off of an earlier note, 1 an on, 2 the off of
    // a note that began at this sample.
    let mut events: Vec<(usize, u8, usize)> = Vec::with_capacity(2 * notes.len());
    for (i, n) in notes.iter().enumerate() {
        events.push((n.at, 1, i));
        if let Some(off) = n.off {
            events.push((off, if off > n.at { 0 } else { 2 }, i));
        }
    }
    events.sort_by_key(|e| (e.0, e.1));
    let last = events.last().map_or(0, |e| e.0);
    let end = samples.unwrap_or(last);
    let mut left: Vec<f32> = Vec::with_capacity(end + 1);
    let mut right: Vec<f32> = Vec::with_capacity(end + 1);
    let mut force: Vec<f32> = Vec::new();
    // Renders on to `to` samples.
    let mut run = |engine: &mut Engine, left: &mut Vec<f32>, right: &mut Vec<f32>, to: usize| {
        let pos = left.len();
        left.resize(to, 0.0);
        right.resize(to, 0.0);
        let (l, r) = (&mut left[pos..], &mut right[pos..]);
        if with_force {
            force.resize(to, 0.0);
            engine.render_with_force(l, r, Some(&mut force[pos..]));
        } else {
            engine.render(l, r);
        }
    };
    for &(at, order, i) in &events {
        if at >= end && samples.is_some() {
            break;
        }
        run(&mut engine, &mut left, &mut right, at);
        let n = &notes[i];
        if order == 1 {
            engine.note_on(n.key, n.velocity, n.channel, None);
        } else {
            engine.note_off(Some(n.key), Some(n.channel), None);
        }
    }
    match samples {
        Some(s) => run(&mut engine, &mut left, &mut right, s),
        None => {
            // Sample by sample until the last voice has ended: the output stops there.
            let cap = end + (TAIL_CAP * fs).round() as usize;
            while left.len() < cap && (engine.active_voices() > 0 || left.is_empty()) {
                let to = left.len() + 1;
                run(&mut engine, &mut left, &mut right, to);
            }
        }
    }
    Rendered::from_engine(&engine, fs, left, right, force)
}

/// One output: a file, a track of it (`None`: all merged), and where it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub song: usize,
    pub track: Option<usize>,
    pub out: PathBuf,
}

/// Where each output goes.
///
/// - One MIDI file: `--out` itself; with `--per-track`, `OUT_trackN.wav` beside it
///   (`OUT` is `--out` without its extension).
/// - Several MIDI files: `OUT_STEM.wav` beside `--out` for each input `STEM.mid`
///   (`--out mix/r.wav --midi a.mid --midi b.mid` writes `mix/r_a.wav` and `mix/r_b.wav`).
/// - `--out` a directory (existing, or ending in `/`): `DIR/STEM.wav` for each input.
/// - `--per-track` adds `_trackN` before `.wav`, N the track's number in the file
///   (from 1); tracks without a note-on (a tempo track) are not written.
///
/// Two outputs with one name are refused.
pub fn outputs(songs: &[Song], per_track: bool, out: &Path) -> Result<Vec<Job>, ArgError> {
    let text = out.to_string_lossy();
    let is_dir = out.is_dir() || text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR);
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut jobs = Vec::new();
    for (s, song) in songs.iter().enumerate() {
        let base = if is_dir {
            out.join(stem(&song.path))
        } else if songs.len() == 1 {
            out.with_extension("")
        } else {
            out.with_file_name(format!("{}_{}", stem(out), stem(&song.path)))
        };
        let with = |suffix: &str| {
            let mut name = base.file_name().unwrap_or_default().to_os_string();
            name.push(format!("{suffix}.wav"));
            base.with_file_name(name)
        };
        if per_track {
            let tracks = song.tracks_with_notes();
            if tracks.is_empty() {
                return Err(ArgError(format!(
                    "--midi: {} has no notes",
                    song.path.display()
                )));
            }
            for t in tracks {
                jobs.push(Job {
                    song: s,
                    track: Some(t),
                    out: with(&format!("_track{}", t + 1)),
                });
            }
        } else {
            let out = if is_dir || songs.len() > 1 {
                with("")
            } else {
                out.to_path_buf()
            };
            jobs.push(Job {
                song: s,
                track: None,
                out,
            });
        }
    }
    let mut seen = HashSet::new();
    for j in &jobs {
        if !seen.insert(&j.out) {
            return Err(ArgError(format!(
                "--out: two outputs would both be {} (MIDI files with one name?)",
                j.out.display()
            )));
        }
    }
    Ok(jobs)
}

/// `rebound render --midi …`: reads every file, then renders the outputs in parallel
/// (one per core) and writes them. `duration`: `--duration` when given. Returns one
/// line per written file.
pub fn render_midi(
    midi: &MidiArgs,
    params: &EngineParams,
    fs: f64,
    duration: Option<f64>,
    out: &Path,
    plot: Option<&Path>,
    bits: u16,
) -> Result<String, ArgError> {
    let songs = midi
        .files
        .iter()
        .map(|f| Song::read(f))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs = outputs(&songs, midi.per_track, out)?;
    if plot.is_some() && jobs.len() > 1 {
        return Err(ArgError(
            "--plot: only with one output (one MIDI file, without --per-track)".into(),
        ));
    }
    let samples = duration.map(|d| (d * fs).round().max(1.0) as usize);
    let mut notes = Vec::with_capacity(jobs.len());
    for j in &jobs {
        let song = &songs[j.song];
        let n = song.notes(j.track, fs);
        if n.is_empty() {
            return Err(ArgError(format!(
                "--midi: {} has no notes",
                song.path.display()
            )));
        }
        let last = n.iter().map(|n| n.off.unwrap_or(n.at).max(n.at)).max();
        if samples.is_none() && last.unwrap_or(0) as f64 > MAX_SECONDS * fs {
            return Err(ArgError(format!(
                "--midi: {} runs past {MAX_SECONDS} s: give --duration to render its start",
                song.path.display()
            )));
        }
        notes.push(n);
    }
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<String, ArgError>>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let r = render_job(job, &notes[i], params, fs, samples, plot, bits);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut lines = Vec::with_capacity(results.len());
    for r in results {
        lines.push(r.unwrap_or_else(|| Err(ArgError("a render did not finish".into())))?);
    }
    Ok(lines.join("\n"))
}

/// Renders and writes one output; its summary line.
fn render_job(
    job: &Job,
    notes: &[Note],
    params: &EngineParams,
    fs: f64,
    samples: Option<usize>,
    plot: Option<&Path>,
    bits: u16,
) -> Result<String, ArgError> {
    let r = render_notes(params, fs, notes, samples, plot.is_some());
    write_wav(&job.out, fs.round() as u32, bits, &r.left, &r.right)
        .map_err(|e| ArgError(format!("--out: cannot write {}: {e}", job.out.display())))?;
    if let Some(path) = plot {
        write_plot(path, &r)
            .map_err(|e| ArgError(format!("--plot: cannot write {}: {e}", path.display())))?;
    }
    let peak = r.peak();
    Ok(format!(
        "wrote {} ({:.3} s at {} Hz, {}, {} notes): peak {:.2} dBFS, {} guard events{}",
        job.out.display(),
        r.len() as f64 / fs,
        fs,
        if bits == 24 {
            "stereo 24-bit PCM"
        } else {
            "stereo float"
        },
        notes.len(),
        20.0 * (peak.max(1e-12) as f64).log10(),
        r.guard_events,
        plot.map(|p| format!("; plot {}", p.display()))
            .unwrap_or_default()
    ))
}
