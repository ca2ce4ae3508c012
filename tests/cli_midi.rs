//! `rebound render --midi`: a MIDI file the test writes itself (format 1, two tracks,
//! tempo changes, 480 ticks per quarter) renders with every note's onset on its exact
//! sample and, in "damp" mode, every note damped after its note-off; `--per-track`
//! writes one file per track; several files render in one call.

use midly::num::{u4, u7, u15, u24, u28};
use midly::{Format, Header, MetaMessage, MidiMessage, Smf, Timing, TrackEvent, TrackEventKind};
use std::path::Path;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
use cli::{read_left, render_midi};

const TPQ: u64 = 480;
const FS: f64 = 44_100.0;

/// A note of the test's score: absolute ticks, track, channel, key, velocity.
#[derive(Clone, Copy, Debug)]
struct ScoreNote {
    on: u64,
    off: u64,
    track: usize,
    channel: u8,
    key: u8,
    vel: u8,
}

/// Tempo changes (tick, µs per quarter): 120 bpm, 160 bpm from beat 4, then ~93.75 bpm
/// from beat 10 (a tempo whose ticks are not whole samples at 44.1 kHz).
const TEMPOS: [(u64, u32); 3] = [(0, 500_000), (4 * TPQ, 375_000), (10 * TPQ, 640_000)];

/// Notes one beat apart, each held a quarter of a beat (so its damped tail has ended
/// long before the next onset), alternating between the two tracks, some across the
/// tempo changes. The last note ends with a velocity-0 note-on.
fn score() -> Vec<ScoreNote> {
    let beats = [0u64, 1, 2, 3, 4, 5, 7, 9, 10, 11, 13];
    beats
        .iter()
        .enumerate()
        .map(|(i, &b)| ScoreNote {
            on: b * TPQ + if i == 3 { 7 } else { 0 },
            off: b * TPQ + TPQ / 4 + 3 * i as u64,
            track: i % 2,
            channel: (i % 3) as u8,
            key: 48 + 5 * i as u8,
            vel: 70 + 5 * i as u8,
        })
        .collect()
}

/// The expected sample of `tick`, from the tempo map, independently of the renderer:
/// seconds summed segment by segment in f64, then rounded once.
fn expected_sample(tick: u64) -> usize {
    let mut seconds = 0.0f64;
    for (i, &(t0, us)) in TEMPOS.iter().enumerate() {
        let t1 = TEMPOS.get(i + 1).map_or(u64::MAX, |t| t.0);
        if tick <= t0 {
            break;
        }
        let ticks = tick.min(t1) - t0;
        seconds += ticks as f64 * us as f64 * 1e-6 / TPQ as f64;
    }
    (seconds * FS).round() as usize
}

/// Writes the score as a format-1 SMF: track 1 holds the tempo map and its notes,
/// track 2 the others. Events of a track are written with delta times in tick order,
/// note-offs as note-ons of velocity 0 for the last note, note-offs otherwise.
fn write_midi(path: &Path, notes: &[ScoreNote]) {
    let mut tracks: Vec<Vec<(u64, TrackEventKind<'static>)>> = vec![Vec::new(), Vec::new()];
    for &(t, us) in &TEMPOS {
        tracks[0].push((t, TrackEventKind::Meta(MetaMessage::Tempo(u24::new(us)))));
    }
    for (i, n) in notes.iter().enumerate() {
        let channel = u4::new(n.channel);
        let key = u7::new(n.key);
        tracks[n.track].push((
            n.on,
            TrackEventKind::Midi {
                channel,
                message: MidiMessage::NoteOn {
                    key,
                    vel: u7::new(n.vel),
                },
            },
        ));
        let message = if i == notes.len() - 1 {
            MidiMessage::NoteOn {
                key,
                vel: u7::new(0),
            }
        } else {
            MidiMessage::NoteOff {
                key,
                vel: u7::new(64),
            }
        };
        tracks[n.track].push((n.off, TrackEventKind::Midi { channel, message }));
    }
    let tracks: Vec<Vec<TrackEvent<'static>>> = tracks
        .into_iter()
        .map(|mut evs| {
            evs.sort_by_key(|e| e.0);
            let mut last = 0;
            let mut out: Vec<TrackEvent> = evs
                .into_iter()
                .map(|(t, kind)| {
                    let delta = u28::new((t - last) as u32);
                    last = t;
                    TrackEvent { delta, kind }
                })
                .collect();
            out.push(TrackEvent {
                delta: u28::new(0),
                kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
            });
            out
        })
        .collect();
    let smf = Smf {
        header: Header::new(Format::Parallel, Timing::Metrical(u15::new(TPQ as u16))),
        tracks,
    };
    smf.save(path).unwrap();
}

/// The dry pulse alone: no body, dry mix, damp mode.
const DRY: [&str; 8] = [
    "--body",
    "none",
    "--mix",
    "0",
    "--note-off",
    "damp",
    "--release",
    "0.05",
];

/// Onsets of the dry pulse: samples where the output jumps up (by more than 1e-3)
/// after at least 64 quiet samples (|x| < 1e-4: only the DC blocker's tail). Before
/// an onset the pulse is exactly absent, so the jump is at the contact's first sample.
fn onsets(x: &[f32]) -> Vec<usize> {
    (0..x.len())
        .filter(|&n| {
            let prev = if n == 0 { 0.0 } else { x[n - 1] };
            x[n] - prev > 1e-3 && x[n.saturating_sub(64)..n].iter().all(|v| v.abs() < 1e-4)
        })
        .collect()
}

/// RMS about the window's mean: the sound, without the slow offset that the output
/// stage's 2 Hz DC blocker leaves after each strike (sub-audible, and not the note's).
fn rms(x: &[f32]) -> f64 {
    let mean = x.iter().map(|&v| v as f64).sum::<f64>() / x.len() as f64;
    (x.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
}

#[test]
fn every_onset_on_its_exact_sample_and_the_render_runs_to_the_end() {
    let scratch = scratch::dir("cli-midi-onsets");
    let d = scratch.path();
    let mid = d.join("song.mid");
    let notes = score();
    write_midi(&mid, &notes);
    let out = d.join("dry.wav");
    let said = render_midi(&mid, &out, &DRY);
    assert!(said.contains("11 notes"), "{said}");
    let (x, rate) = read_left(&out);
    assert_eq!(rate, 44_100);
    let expected: Vec<usize> = notes.iter().map(|n| expected_sample(n.on)).collect();
    // The score really exercises the tempo map: a note 7 ticks after a beat, and ticks
    // that are not whole samples in the last tempo.
    assert_eq!(expected[3], 66_472);
    assert_eq!(onsets(&x), expected, "onsets vs the tempo map");
    // Without --duration the output runs past the last note-off until every voice has
    // ended: it ends quiet, and not long after.
    let last_off = expected_sample(notes.last().unwrap().off);
    assert!(x.len() >= last_off, "{} samples", x.len());
    assert!(x.len() < last_off + 10 * 44_100, "{} samples", x.len());
    // With --duration, exactly that long.
    let short = d.join("short.wav");
    let mut args = DRY.to_vec();
    args.extend(["--duration", "2"]);
    render_midi(&mid, &short, &args);
    let (y, _) = read_left(&short);
    assert_eq!(y.len(), 88_200);
    assert_eq!(&x[..88_200], &y[..], "the same samples up to --duration");
}

#[test]
fn note_offs_damp_in_damp_mode() {
    let scratch = scratch::dir("cli-midi-damp");
    let d = scratch.path();
    let mid = d.join("song.mid");
    let notes = score();
    write_midi(&mid, &notes);
    let release = 0.05;
    let bell = [
        "--body",
        "bell",
        "--mix",
        "1",
        "--t60",
        "4",
        "--release",
        "0.05",
    ];
    let damped = d.join("damp.wav");
    let mut args = bell.to_vec();
    args.extend(["--note-off", "damp"]);
    render_midi(&mid, &damped, &args);
    let ringing = d.join("ring.wav");
    let mut args = bell.to_vec();
    args.extend(["--note-off", "ring"]);
    render_midi(&mid, &ringing, &args);
    let (x, _) = read_left(&damped);
    let (r, _) = read_left(&ringing);
    let win = 441; // 10 ms
    for n in &notes {
        let off = expected_sample(n.off);
        let late = off + (2.0 * release * FS) as usize;
        let before = rms(&x[off - win..off]);
        // Past the end of the render (every voice has ended) the output is silence.
        let tail: Vec<f32> = (late..late + win)
            .map(|i| x.get(i).copied().unwrap_or(0.0))
            .collect();
        let after = rms(&tail);
        let drop = 20.0 * (before / after.max(1e-30)).log10();
        assert!(
            before > 1e-3,
            "note at tick {}: silent before its note-off",
            n.on
        );
        assert!(
            drop >= 60.0,
            "note at tick {}: only {drop:.1} dB down 2 × release after its note-off",
            n.on
        );
        // Ring mode, same notes: the note-off does nothing, the bell rings on.
        let ring_drop = 20.0 * (rms(&r[off - win..off]) / rms(&r[late..late + win])).log10();
        assert!(ring_drop < 10.0, "ring mode dropped {ring_drop:.1} dB");
    }
    // Damped, the render ends soon after the last note-off; ringing, much later.
    assert!(r.len() > x.len() + 44_100, "{} vs {}", r.len(), x.len());
}

#[test]
fn per_track_writes_one_file_per_track() {
    let scratch = scratch::dir("cli-midi-tracks");
    let d = scratch.path();
    let mid = d.join("song.mid");
    let notes = score();
    write_midi(&mid, &notes);
    let out = d.join("mix.wav");
    let mut args = DRY.to_vec();
    args.push("--per-track");
    let said = render_midi(&mid, &out, &args);
    assert!(!out.exists(), "no merged file with --per-track");
    for track in 0..2 {
        let path = d.join(format!("mix_track{}.wav", track + 1));
        assert!(said.contains(path.to_str().unwrap()), "{said}");
        let (x, _) = read_left(&path);
        let expected: Vec<usize> = notes
            .iter()
            .filter(|n| n.track == track)
            .map(|n| expected_sample(n.on))
            .collect();
        // Track 2 has no tempo events: the map of track 1 applies to it.
        assert_eq!(onsets(&x), expected, "track {}", track + 1);
    }
    let files = std::fs::read_dir(d).unwrap().count();
    assert_eq!(files, 3, "song.mid and two track files");
}

#[test]
fn several_files_in_one_call() {
    let scratch = scratch::dir("cli-midi-several");
    let d = scratch.path();
    let a = d.join("a.mid");
    let b = d.join("b.mid");
    let notes = score();
    write_midi(&a, &notes);
    let later: Vec<ScoreNote> = notes
        .iter()
        .map(|n| ScoreNote {
            on: n.on + TPQ / 2,
            off: n.off + TPQ / 2,
            ..*n
        })
        .collect();
    write_midi(&b, &later);
    // Into a directory: named after the inputs.
    let outdir = d.join("out");
    std::fs::create_dir_all(&outdir).unwrap();
    let mut args = vec!["render", "--midi", a.to_str().unwrap()];
    args.extend([
        "--midi",
        b.to_str().unwrap(),
        "--out",
        outdir.to_str().unwrap(),
    ]);
    args.extend(["--fs", "44100"]);
    args.extend(DRY);
    let (code, stdout, stderr) = cli::rebound(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    for (name, score) in [("a", &notes), ("b", &later)] {
        let (x, _) = read_left(&outdir.join(format!("{name}.wav")));
        let expected: Vec<usize> = score.iter().map(|n| expected_sample(n.on)).collect();
        assert_eq!(onsets(&x), expected, "{name}");
    }
    // With a file name: its stem and the input's.
    let out = d.join("r.wav");
    let mut args = vec!["render", "--midi", a.to_str().unwrap()];
    args.extend([
        "--midi",
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    args.extend(["--fs", "44100"]);
    args.extend(DRY);
    let (code, _, stderr) = cli::rebound(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(d.join("r_a.wav").exists() && d.join("r_b.wav").exists());
}

#[test]
fn bad_midi_files_are_refused_with_one_line() {
    let scratch = scratch::dir("cli-midi-bad");
    let d = scratch.path();
    let junk = d.join("junk.mid");
    std::fs::write(
        &junk,
        b"MThd\0\0\0\x06\0\x01\0\x02\x01\xe0MTrk\0\0\0\x40\0\x90",
    )
    .unwrap();
    let text = d.join("text.mid");
    std::fs::write(&text, b"not a MIDI file at all").unwrap();
    let missing = d.join("missing.mid");
    let out = d.join("o.wav");
    for f in [&junk, &text, &missing] {
        let (code, stdout, stderr) = cli::rebound(&[
            "render",
            "--midi",
            f.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{f:?}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--midi") && stderr.contains(f.to_str().unwrap()));
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert!(!out.exists());
    // The notes come from the file: --note is refused with it; --per-track needs --midi.
    let song = d.join("song.mid");
    write_midi(&song, &score());
    let s = song.to_str().unwrap();
    let o = out.to_str().unwrap();
    let (code, _, stderr) = cli::rebound(&["render", "--midi", s, "--note", "60", "--out", o]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--note"), "{stderr}");
    let (code, _, stderr) = cli::rebound(&["render", "--per-track", "--out", o]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--per-track"), "{stderr}");
    // Two inputs with one name would write one output twice.
    let sub = d.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let twin = sub.join("song.mid");
    write_midi(&twin, &score());
    let t = twin.to_str().unwrap();
    let (code, _, stderr) = cli::rebound(&["render", "--midi", s, "--midi", t, "--out", o]);
    assert_eq!(code, 2);
    assert!(stderr.contains("two outputs"), "{stderr}");
}

#[test]
fn smpte_division_ignores_tempo() {
    // 25 fps × 40 subframes: 1000 ticks per second, whatever the Set Tempo events say.
    let scratch = scratch::dir("cli-midi-smpte");
    let d = scratch.path();
    let mid = d.join("tc.mid");
    let on = |t: u32, key: u8| TrackEvent {
        delta: u28::new(t),
        kind: TrackEventKind::Midi {
            channel: u4::new(0),
            message: MidiMessage::NoteOn {
                key: u7::new(key),
                vel: u7::new(100),
            },
        },
    };
    let track = vec![
        TrackEvent {
            delta: u28::new(0),
            kind: TrackEventKind::Meta(MetaMessage::Tempo(u24::new(250_000))),
        },
        on(0, 60),
        on(333, 62),
        on(1001, 64),
        TrackEvent {
            delta: u28::new(0),
            kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
        },
    ];
    let smf = Smf {
        header: Header::new(Format::SingleTrack, Timing::Timecode(midly::Fps::Fps25, 40)),
        tracks: vec![track],
    };
    smf.save(&mid).unwrap();
    let out = d.join("tc.wav");
    render_midi(&mid, &out, &DRY);
    let (x, _) = read_left(&out);
    // 0, 0.333 s and 1.334 s at 44.1 kHz.
    assert_eq!(onsets(&x), vec![0, 14_685, 58_829]);
}
