//! A long MIDI song rendered by the command-line tool: 12 000 notes over 600 s (random
//! keys 36–95, velocities 30–126, notes held 0.1–0.9 s, a fixed seed), played on the
//! "Bell strike" preset, whose long ring keeps every voice sounding. Prints the CPU
//! time the `rebound` process used (user + system, from `getrusage`) as a fraction of
//! the audio's length: the offline render's cost, level tables, loudness measurement
//! and WAV writing included. `cargo bench --features cli --bench song`.

use midly::{Format, Header, MetaMessage, MidiMessage, Smf, Timing, TrackEvent, TrackEventKind};
use std::process::Command;

const NOTES: u32 = 12_000;
const SECONDS: f64 = 600.0;
/// 480 ticks a quarter note at 120 bpm.
const TICKS_PER_S: f64 = 960.0;

/// The song's events, `(tick, on, key, velocity)`, in time order.
fn song() -> Vec<(u32, bool, u8, u8)> {
    let mut x: u64 = 0x5eed_50c6;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut ev = Vec::with_capacity(2 * NOTES as usize);
    for i in 0..NOTES {
        let t = (i as f64 * SECONDS / NOTES as f64 * TICKS_PER_S) as u32;
        let key = 36 + (rnd() % 60) as u8;
        let vel = 30 + (rnd() % 97) as u8;
        let held = 96 + (rnd() % 768) as u32;
        ev.push((t, true, key, vel));
        ev.push((t + held, false, key, 0));
    }
    // Offs before ons at a tick, so a repeated key is released before it is struck.
    ev.sort_by_key(|e| (e.0, e.1));
    ev
}

fn write_song(path: &std::path::Path) {
    let tempo = TrackEventKind::Meta(MetaMessage::Tempo(500_000.into()));
    let mut track = vec![TrackEvent {
        delta: 0.into(),
        kind: tempo,
    }];
    let mut last = 0;
    for (t, on, key, vel) in song() {
        let message = if on {
            MidiMessage::NoteOn {
                key: key.into(),
                vel: vel.into(),
            }
        } else {
            MidiMessage::NoteOff {
                key: key.into(),
                vel: 0.into(),
            }
        };
        let kind = TrackEventKind::Midi {
            channel: 0.into(),
            message,
        };
        track.push(TrackEvent {
            delta: (t - last).into(),
            kind,
        });
        last = t;
    }
    track.push(TrackEvent {
        delta: 0.into(),
        kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
    });
    let header = Header::new(Format::SingleTrack, Timing::Metrical(480.into()));
    let smf = Smf {
        header,
        tracks: vec![track],
    };
    smf.save(path).expect("write the song");
}

/// CPU seconds (user + system) used so far by this process's waited-for children.
fn children_cpu() -> f64 {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let u = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, u.as_mut_ptr());
        u.assume_init()
    };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(u.ru_utime) + s(u.ru_stime)
}

fn main() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mid = dir.path().join("song.mid");
    let wav = dir.path().join("song.wav");
    write_song(&mid);
    let mut best = f64::INFINITY;
    let mut audio = SECONDS;
    for _ in 0..3 {
        let before = children_cpu();
        let out = Command::new(env!("CARGO_BIN_EXE_rebound"))
            .args(["render", "--preset", "Bell strike", "--midi"])
            .arg(&mid)
            .arg("--out")
            .arg(&wav)
            .output()
            .expect("run rebound");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        best = best.min(children_cpu() - before);
        let r = hound::WavReader::open(&wav).expect("the render");
        audio = r.duration() as f64 / r.spec().sample_rate as f64;
    }
    println!(
        "render --midi, {NOTES} notes, {audio:.1} s of audio on Bell strike: {best:.2} s CPU \
         (least of 3) = 1/{:.0} of real time",
        audio / best
    );
}
