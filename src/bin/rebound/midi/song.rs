//! Reading a Standard MIDI File: the tempo map ([`Clock`]), the notes of each track,
//! paired and placed at their samples, and its expression (pressure, pitch bend and
//! the controllers the plugin listens to).

use midly::{MetaMessage, MidiMessage, Smf, Timing, TrackEventKind};
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

/// A refused MIDI render: the message names the option or file (exit status 2).
#[derive(Clone, Debug)]
pub struct ArgError(pub String);

/// Default tempo before the first Set Tempo event: 120 bpm.
pub const DEFAULT_TEMPO: u64 = 500_000;

/// The file's clock: how absolute ticks become seconds.
#[derive(Clone, Debug)]
pub enum Clock {
    /// Ticks per quarter note, and the tempo changes `(tick, elapsed, µs per quarter)`
    /// sorted by tick, where `elapsed` is the exact `Σ ticks × µs per quarter` before
    /// the change (seconds = elapsed / (ticks per quarter · 10⁶)).
    Metrical {
        tpq: u64,
        changes: Vec<(u64, u128, u64)>,
    },
    /// Ticks per second as `num / den` (SMPTE: fps × subframes; tempo does not apply).
    Timecode { num: u64, den: u64 },
}

impl Clock {
    /// Builds the tempo map from the Set Tempo events `(tick, µs per quarter)` of all
    /// tracks (merged in file order; the last of several at one tick wins).
    fn new(timing: Timing, mut tempos: Vec<(u64, u64)>) -> Result<Self, String> {
        match timing {
            Timing::Metrical(tpq) => {
                let tpq = tpq.as_int() as u64;
                if tpq == 0 {
                    return Err("division of 0 ticks per quarter note".into());
                }
                tempos.sort_by_key(|t| t.0); // stable: file order within a tick
                let mut changes: Vec<(u64, u128, u64)> = vec![(0, 0, DEFAULT_TEMPO)];
                for (tick, us) in tempos {
                    let &(t0, e0, us0) = changes.last().unwrap();
                    let elapsed = e0 + (tick - t0) as u128 * us0 as u128;
                    if tick == t0 {
                        changes.pop();
                    }
                    changes.push((tick, elapsed, us));
                }
                Ok(Clock::Metrical { tpq, changes })
            }
            Timing::Timecode(fps, sub) => {
                if sub == 0 {
                    return Err("SMPTE division with 0 ticks per frame".into());
                }
                // 29 is the drop-frame code: 30/1.001 frames per second.
                let (num, den) = match fps.as_int() {
                    29 => (30_000 * sub as u64, 1001),
                    f => (f as u64 * sub as u64, 1),
                };
                Ok(Clock::Timecode { num, den })
            }
        }
    }

    /// The time of `tick`, s, computed from exact integers (one division at the end).
    pub fn seconds(&self, tick: u64) -> f64 {
        match self {
            Clock::Metrical { tpq, changes } => {
                let i = changes.partition_point(|c| c.0 <= tick) - 1;
                let (t0, e0, us) = changes[i];
                let elapsed = e0 + (tick - t0) as u128 * us as u128;
                elapsed as f64 / (*tpq as f64 * 1e6)
            }
            Clock::Timecode { num, den } => (tick as u128 * *den as u128) as f64 / *num as f64,
        }
    }

    /// The sample of `tick` at `fs`: `round(seconds × fs)`.
    pub fn sample(&self, tick: u64, fs: f64) -> usize {
        (self.seconds(tick) * fs).round() as usize
    }
}

/// A note event of one track: absolute tick, channel, key, and velocity (`None`: off).
#[derive(Clone, Copy, Debug)]
struct NoteEvent {
    tick: u64,
    channel: u8,
    key: u8,
    velocity: Option<u8>,
}

/// An expression message, normalised as a plugin host hands it over: 7-bit values
/// over 127, the 14-bit pitch bend over 16383 (so 0.5 is about no bend).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expr {
    /// Channel pressure (MPE pressure).
    Pressure(f32),
    /// Polyphonic key pressure of one key.
    KeyPressure { key: u8, value: f32 },
    /// Pitch bend, 0.5 = none.
    Bend(f32),
    /// A control change (the engine acts on CC 1, CC 74 and the RPNs of MPE).
    Cc { cc: u8, value: f32 },
}

/// An expression message of one track: absolute tick, channel and what it says.
#[derive(Clone, Copy, Debug)]
struct ExprEvent {
    tick: u64,
    channel: u8,
    expr: Expr,
}

/// An expression message at its sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    pub at: usize,
    pub channel: u8,
    pub expr: Expr,
}

/// A parsed MIDI file: its clock and the note and expression events of each track
/// (file order).
pub struct Song {
    pub path: PathBuf,
    pub clock: Clock,
    tracks: Vec<Vec<NoteEvent>>,
    exprs: Vec<Vec<ExprEvent>>,
}

impl Song {
    /// Reads and parses `path`; every failure is one line naming the file.
    pub fn read(path: &Path) -> Result<Self, ArgError> {
        let bytes = std::fs::read(path)
            .map_err(|e| ArgError(format!("--midi: cannot read {}: {e}", path.display())))?;
        Self::parse(path, &bytes).map_err(|e| {
            ArgError(format!(
                "--midi: {} is not a usable Standard MIDI File: {e}",
                path.display()
            ))
        })
    }

    fn parse(path: &Path, bytes: &[u8]) -> Result<Self, String> {
        let smf = Smf::parse(bytes).map_err(|e| e.to_string())?;
        if smf.header.format == midly::Format::Sequential {
            return Err("format 2 (independent sequences) is not supported, only 0 and 1".into());
        }
        let mut tempos = Vec::new();
        let mut tracks = Vec::with_capacity(smf.tracks.len());
        let mut exprs = Vec::with_capacity(smf.tracks.len());
        for track in &smf.tracks {
            let mut tick = 0u64;
            let mut notes = Vec::new();
            let mut track_exprs = Vec::new();
            for ev in track {
                tick += ev.delta.as_int() as u64;
                if let TrackEventKind::Midi { channel, message } = ev.kind
                    && let Some(expr) = expr_of(message)
                {
                    track_exprs.push(ExprEvent {
                        tick,
                        channel: channel.as_int(),
                        expr,
                    });
                    continue;
                }
                let (channel, key, velocity) = match ev.kind {
                    TrackEventKind::Meta(MetaMessage::Tempo(us)) => {
                        tempos.push((tick, us.as_int() as u64));
                        continue;
                    }
                    TrackEventKind::Midi { channel, message } => match message {
                        MidiMessage::NoteOn { key, vel } if vel.as_int() > 0 => {
                            (channel, key, Some(vel.as_int()))
                        }
                        MidiMessage::NoteOn { key, .. } | MidiMessage::NoteOff { key, .. } => {
                            (channel, key, None)
                        }
                        _ => continue,
                    },
                    _ => continue,
                };
                notes.push(NoteEvent {
                    tick,
                    channel: channel.as_int(),
                    key: key.as_int(),
                    velocity,
                });
            }
            tracks.push(notes);
            exprs.push(track_exprs);
        }
        Ok(Self {
            path: path.to_path_buf(),
            clock: Clock::new(smf.header.timing, tempos)?,
            tracks,
            exprs,
        })
    }

    /// Tracks (0-based indices) that have at least one note-on.
    pub fn tracks_with_notes(&self) -> Vec<usize> {
        (0..self.tracks.len())
            .filter(|&i| self.tracks[i].iter().any(|e| e.velocity.is_some()))
            .collect()
    }

    /// The notes of one track (`Some(i)`) or of all tracks merged, at their samples.
    pub fn notes(&self, track: Option<usize>, fs: f64) -> Vec<Note> {
        let mut events: Vec<NoteEvent> = match track {
            Some(i) => self.tracks[i].clone(),
            None => self.tracks.concat(),
        };
        events.sort_by_key(|e| e.tick); // stable: file order within a tick
        pair(&events, &self.clock, fs)
    }

    /// The expression messages of all tracks merged (a channel message acts on its
    /// channel whichever track holds it), at their samples, in time order (file order
    /// within a tick).
    pub fn controls(&self, fs: f64) -> Vec<Control> {
        let mut events: Vec<ExprEvent> = self.exprs.concat();
        events.sort_by_key(|e| e.tick);
        events
            .iter()
            .map(|e| Control {
                at: self.clock.sample(e.tick, fs),
                channel: e.channel,
                expr: e.expr,
            })
            .collect()
    }
}

/// The expression a MIDI message carries, if any.
fn expr_of(message: MidiMessage) -> Option<Expr> {
    let seven = |v: midly::num::u7| v.as_int() as f32 / 127.0;
    Some(match message {
        MidiMessage::ChannelAftertouch { vel } => Expr::Pressure(seven(vel)),
        MidiMessage::Aftertouch { key, vel } => Expr::KeyPressure {
            key: key.as_int(),
            value: seven(vel),
        },
        MidiMessage::PitchBend { bend } => Expr::Bend(bend.0.as_int() as f32 / 16383.0),
        MidiMessage::Controller { controller, value } => Expr::Cc {
            cc: controller.as_int(),
            value: seven(value),
        },
        _ => return None,
    })
}

/// A note at its samples: on at `at`, off at `off` (`None`: held).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Note {
    pub at: usize,
    pub off: Option<usize>,
    pub channel: u8,
    pub key: u8,
    pub velocity: f32,
}

/// Pairs note-offs with note-ons by (channel, key), oldest first.
fn pair(events: &[NoteEvent], clock: &Clock, fs: f64) -> Vec<Note> {
    let mut notes: Vec<Note> = Vec::new();
    let mut open: BTreeMap<(u8, u8), VecDeque<usize>> = BTreeMap::new();
    for e in events {
        let at = clock.sample(e.tick, fs);
        match e.velocity {
            Some(v) => {
                open.entry((e.channel, e.key))
                    .or_default()
                    .push_back(notes.len());
                notes.push(Note {
                    at,
                    off: None,
                    channel: e.channel,
                    key: e.key,
                    velocity: v as f32 / 127.0,
                });
            }
            None => {
                if let Some(i) = open
                    .get_mut(&(e.channel, e.key))
                    .and_then(|q| q.pop_front())
                {
                    notes[i].off = Some(at);
                }
            }
        }
    }
    notes
}
