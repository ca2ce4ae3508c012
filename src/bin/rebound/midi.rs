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
//! - **Expression.** Channel pressure, polyphonic key pressure, pitch bend and control
//!   changes reach the engine as the plugin hands them on from a host (normalised the
//!   same way), at their samples: pressure damps the body, pitch bend bends it by up to
//!   `--bend-range`, CC 74 moves the strike position and CC 1 whatever `--mod-wheel`
//!   names; an MPE Configuration Message (RPN 6) sets up a zone and RPN 0 its bend
//!   ranges, as from a host. At one sample they come after the note-offs of earlier
//!   notes and before the note-ons (a file's bend reset before its note applies to that
//!   note).
//! - **Length.** With `--duration` the output has exactly that length. Without it, it
//!   runs to the last note event and then on until every voice has ended (at most
//!   [`TAIL_CAP`](play::TAIL_CAP) s more); a file whose notes run past [`MAX_SECONDS`] is refused.
//! - **Outputs.** See [`outputs`]; files and tracks render in parallel, one per core.

use crate::plot::write_plot;
use crate::wav::write_wav;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rebound::engine::EngineParams;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

mod play;
mod song;
pub use play::render_notes;
pub use song::{ArgError, Control, Note, Song};
/// Latest note event a file may have without `--duration`, s.
pub const MAX_SECONDS: f64 = 3600.0;

/// What `--midi` and `--per-track` asked for.
#[derive(Clone, Debug, Default)]
pub struct MidiArgs {
    pub files: Vec<PathBuf>,
    pub per_track: bool,
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
    // Channel messages act on their channel whichever track holds them: one list per
    // file, shared by its tracks' outputs.
    let controls: Vec<Vec<Control>> = songs.iter().map(|s| s.controls(fs)).collect();
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
    // One progress bar per output, on stderr (drawn only on a terminal).
    let multi = MultiProgress::new();
    let results: Mutex<Vec<Option<Result<String, ArgError>>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let c = &controls[job.song];
                    let r = render_job(job, &notes[i], c, params, fs, samples, plot, bits, &multi);
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
#[allow(clippy::too_many_arguments)]
fn render_job(
    job: &Job,
    notes: &[Note],
    controls: &[Control],
    params: &EngineParams,
    fs: f64,
    samples: Option<usize>,
    plot: Option<&Path>,
    bits: u16,
    progress: &MultiProgress,
) -> Result<String, ArgError> {
    let bar = progress.add(ProgressBar::new(1));
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} {bar:40} {percent:>3}% ({elapsed} elapsed, ~{eta} left)",
    ) {
        bar.set_style(style);
    }
    bar.set_prefix(
        job.out
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
    );
    let r = render_notes(
        params,
        fs,
        notes,
        controls,
        samples,
        plot.is_some(),
        &|pos, len| {
            bar.set_length(len as u64);
            bar.set_position(pos as u64);
        },
    );
    bar.finish_and_clear();
    write_wav(&job.out, fs.round() as u32, bits, &r.left, &r.right)
        .map_err(|e| ArgError(format!("--out: cannot write {}: {e}", job.out.display())))?;
    if let Some(path) = plot {
        write_plot(path, &r)
            .map_err(|e| ArgError(format!("--plot: cannot write {}: {e}", path.display())))?;
    }
    let level = crate::common::level_summary(fs, &r.left, &r.right);
    Ok(format!(
        "wrote {} ({:.3} s at {} Hz, {}, {} notes): {level}, {} guard events{}",
        job.out.display(),
        r.len() as f64 / fs,
        fs,
        if bits == 24 {
            "stereo 24-bit PCM"
        } else {
            "stereo float"
        },
        notes.len(),
        r.guard_events,
        plot.map(|p| format!("; plot {}", p.display()))
            .unwrap_or_default()
    ))
}
