//! `rebound render --midi` plays a file's expression as the plugin plays a host's: a
//! pitch bend bends the body by the bend range (an octave up at full bend with
//! `--bend-range 12`), only on its own channel; channel pressure damps the body; a bend
//! after the last note event still bends the ringing note.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/scratch.rs"]
mod scratch;
#[path = "support/spectrum.rs"]
mod spectrum;

use midly::num::{u4, u7, u14, u15, u28};
use midly::{Format, Header, MetaMessage, MidiMessage, PitchBend, Smf, Timing, TrackEvent};
use midly::{TrackEventKind, num::u24};
use std::path::Path;

const TPQ: u64 = 480;
const FS: f64 = 44_100.0;

/// Writes a one-track file (120 bpm) of `(tick, channel, message)`, in tick order.
fn write(path: &Path, events: &[(u64, u8, MidiMessage)]) {
    let mut evs = events.to_vec();
    evs.sort_by_key(|e| e.0);
    let mut track = vec![TrackEvent {
        delta: u28::new(0),
        kind: TrackEventKind::Meta(MetaMessage::Tempo(u24::new(500_000))),
    }];
    let mut last = 0;
    for (t, ch, message) in evs {
        track.push(TrackEvent {
            delta: u28::new((t - last) as u32),
            kind: TrackEventKind::Midi {
                channel: u4::new(ch),
                message,
            },
        });
        last = t;
    }
    track.push(TrackEvent {
        delta: u28::new(0),
        kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
    });
    Smf {
        header: Header::new(Format::SingleTrack, Timing::Metrical(u15::new(TPQ as u16))),
        tracks: vec![track],
    }
    .save(path)
    .unwrap();
}

fn note_on(key: u8) -> MidiMessage {
    MidiMessage::NoteOn {
        key: u7::new(key),
        vel: u7::new(127),
    }
}

fn bend(raw: u16) -> MidiMessage {
    MidiMessage::PitchBend {
        bend: PitchBend(u14::new(raw)),
    }
}

/// Renders `events` (the body alone, a 1 s ring, no key tracking beyond the note) and
/// returns the left channel.
fn render(d: &Path, name: &str, events: &[(u64, u8, MidiMessage)], extra: &[&str]) -> Vec<f32> {
    let mid = d.join(format!("{name}.mid"));
    let out = d.join(format!("{name}.wav"));
    write(&mid, events);
    let mut args = vec!["--mix", "1", "--bend-range", "12"];
    args.extend(extra);
    cli::render_midi(&mid, &out, &args);
    cli::read_left(&out).0
}

/// The frequency of the strongest bin of `x` above 100 Hz.
fn dominant(x: &[f32]) -> f64 {
    let (p, df) = spectrum::power_spectrum(x, FS);
    let lo = (100.0 / df) as usize;
    let k = (lo..p.len())
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .unwrap();
    k as f64 * df
}

fn rms(x: &[f32]) -> f64 {
    (x.iter().map(|&v| (v as f64).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
}

#[test]
fn pitch_bend_bends_the_body_on_its_own_channel() {
    let scratch = scratch::dir("midi-expr-bend");
    let d = scratch.path();
    let dur = ["--duration", "0.5"];
    let plain = render(d, "plain", &[(0, 0, note_on(60))], &dur);
    // Full bend up before the note, at its tick: the note starts bent.
    let up = render(d, "up", &[(0, 0, bend(0x3FFF)), (0, 0, note_on(60))], &dur);
    // The same bend on another channel leaves the note alone, bit for bit.
    let other = render(
        d,
        "other",
        &[(0, 1, bend(0x3FFF)), (0, 0, note_on(60))],
        &dur,
    );
    let (f0, f1) = (dominant(&plain), dominant(&up));
    assert!(
        (f1 / f0 - 2.0).abs() < 0.02,
        "full bend with a 12-semitone range: {f0:.1} Hz → {f1:.1} Hz"
    );
    assert_eq!(
        plain, other,
        "a bend on channel 2 moved a note on channel 1"
    );
}

#[test]
fn channel_pressure_damps_the_body() {
    let scratch = scratch::dir("midi-expr-pressure");
    let d = scratch.path();
    let dur = ["--duration", "1.0", "--t60", "2"];
    let press = MidiMessage::ChannelAftertouch { vel: u7::new(127) };
    let plain = render(d, "plain", &[(0, 0, note_on(60))], &dur);
    // Full pressure a quarter note (0.25 s) after the strike.
    let pressed = render(
        d,
        "pressed",
        &[(0, 0, note_on(60)), (TPQ / 2, 0, press)],
        &dur,
    );
    let at = (0.25 * FS) as usize;
    assert_eq!(plain[..at], pressed[..at], "pressure acted before its time");
    let tail = (0.8 * FS) as usize..;
    let (a, b) = (rms(&plain[tail.clone()]), rms(&pressed[tail]));
    assert!(b < 0.5 * a, "pressure did not damp: tail rms {a:e} → {b:e}");
}

#[test]
fn a_bend_after_the_last_note_event_bends_the_ringing_note() {
    let scratch = scratch::dir("midi-expr-late");
    let d = scratch.path();
    // Without --duration the render runs on until the voice ends; the bend comes
    // half a second after the note's on and off (the note rings on, Ring mode).
    let off = MidiMessage::NoteOff {
        key: u7::new(60),
        vel: u7::new(0),
    };
    let late = [(0, 0, note_on(60)), (1, 0, off), (TPQ, 0, bend(0x3FFF))];
    let plain = render(d, "plain", &late[..2], &["--t60", "0.5"]);
    let bent = render(d, "bent", &late, &["--t60", "0.5"]);
    let at = (0.5 * FS) as usize;
    assert_eq!(plain[..at], bent[..at]);
    let w = at + 2048..at + 2048 + 8192;
    let (f0, f1) = (dominant(&plain[w.clone()]), dominant(&bent[w]));
    assert!((f1 / f0 - 2.0).abs() < 0.03, "{f0:.1} Hz → {f1:.1} Hz");
}
