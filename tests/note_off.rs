//! Proves the note-off modes. In Damp mode a released note stops within its Release
//! (defined here, as docs/sound.md states it):
//!
//! - its voice is at least 60 dB below the note's peak from `Release` after the later of
//!   the note-off and the end of the contact in progress (the voice's own output, as the
//!   engine sums it, before the output stage);
//! - the voice has ended, and the host been told, by twice the Release after that point
//!   plus one control block (32 samples: the engine looks for silent voices every 32);
//! - nothing clicks: the largest step of the output after the note-off is no larger
//!   than the note's own attack's or, where that is larger, the undamped note's over the
//!   same stretch; its largest second difference (where a step stands out of ringing) is
//!   no larger than the attack's;
//! - a re-strike, of the still-sounding voice or after it ended, rings as a fresh note.
//!
//! In Ring mode the note-off changes nothing. Across every body (None included),
//! bouncing off and on, note-offs during the first contact, during a flight and while
//! the body rings, at 44.1 and 96 kHz.

use rebound::engine::{Engine, EngineParams, NoteOff};
use rebound::model::body::BodyType;
use rebound::voice::Voice;

const KEY: u8 = 60;
/// The engine looks for silent voices every this many samples.
const CONTROL_BLOCK: u64 = 32;
const RATES: [f64; 2] = [44_100.0, 96_000.0];
const RELEASES: [f64; 3] = [0.005, 0.08, 0.5];

fn params(body: BodyType, bouncing: bool, note_off: NoteOff, release: f64) -> EngineParams {
    EngineParams {
        body,
        bouncing,
        note_off,
        release,
        ..EngineParams::default()
    }
}

/// An engine render of one full-velocity note struck at `on` and released at `off`,
/// with the sample its voice ended (reported to the host), if it did.
struct Take {
    y: Vec<f32>,
    force: Vec<f32>,
    end: Option<u64>,
}

/// Renders `total` samples; `events` are (sample, true = note-on / false = note-off).
fn play(p: &EngineParams, fs: f64, events: &[(usize, bool)], total: usize) -> Take {
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    let mut y = vec![0.0f32; total];
    let mut right = vec![0.0f32; total];
    let mut force = vec![0.0f32; total];
    let mut pos = 0;
    let mut end = None;
    for &(at, on) in events.iter().chain([&(total, false)]) {
        e.render_with_force(
            &mut y[pos..at],
            &mut right[pos..at],
            Some(&mut force[pos..at]),
        );
        pos = at;
        if let Some(t) = e.terminated().last() {
            end = Some(t.at);
        }
        e.clear_terminated();
        if at == total {
            break;
        }
        if on {
            e.note_on(KEY, 1.0, 0, None);
            end = None;
        } else {
            e.note_off(Some(KEY), Some(0), None);
        }
    }
    // The mono sum: what the voice put out, wherever it sits in the image.
    for (l, r) in y.iter_mut().zip(&right) {
        *l = 0.5 * (*l + r);
    }
    Take { y, force, end }
}

/// The voice's own output (before the engine's DC blocker and gain): `(output, contact
/// end)` for a note struck at 0 and damped at `off`.
fn voice_alone(p: &EngineParams, fs: f64, off: Option<usize>, total: usize) -> Vec<f64> {
    let mut v = Voice::new(fs);
    v.strike(p, KEY, 1.0, 1);
    (0..total)
        .map(|n| {
            if Some(n) == off && p.note_off == NoteOff::Damp {
                v.damp(p.release);
            }
            if !v.is_active() {
                return 0.0;
            }
            v.tick(p, p.mix).map_or(0.0, |s| s.out)
        })
        .collect()
}

fn peak(y: &[f32]) -> f64 {
    y.iter().fold(0.0f32, |m, v| m.max(v.abs())) as f64
}
fn peak64(y: &[f64]) -> f64 {
    y.iter().fold(0.0, |m, v| m.max(v.abs()))
}
fn db(x: f64) -> f64 {
    20.0 * x.max(1e-30).log10()
}
fn max_step(y: &[f32]) -> f64 {
    y.windows(2)
        .map(|w| (w[1] as f64 - w[0] as f64).abs())
        .fold(0.0, f64::max)
}
fn max_curvature(y: &[f32]) -> f64 {
    y.windows(3)
        .map(|w| (w[2] as f64 - 2.0 * w[1] as f64 + w[0] as f64).abs())
        .fold(0.0, f64::max)
}

/// First sample at or after `from` where the wall force is zero (a contact's end) and,
/// after it, the next where it is not (the next impact), if any.
fn contact_end_and_next(force: &[f32], from: usize) -> (usize, Option<usize>) {
    let end = from + force[from..].iter().position(|f| *f == 0.0).unwrap_or(0);
    let next = force[end..].iter().position(|f| *f > 0.0).map(|i| end + i);
    (end, next)
}

/// Where the note-offs of a case fall: `(name, sample)`, after a strike at `on`.
fn note_offs(fs: f64, on: usize, ring: &Take) -> Vec<(&'static str, usize)> {
    let (end, next) = contact_end_and_next(&ring.force, on);
    let mut v = vec![("in the first contact", on + (end - on) / 2)];
    if let Some(next) = next {
        v.push(("in a flight", (end + next) / 2));
    }
    v.push(("while ringing", on + (0.05 * fs) as usize));
    v
}

#[test]
fn damp_is_60_db_down_at_the_release_and_ends_by_twice_it() {
    let mut worst_level = f64::MIN;
    let mut worst_end = 0.0f64;
    for fs in RATES {
        for bouncing in [false, true] {
            for body in BodyType::ALL {
                for release in RELEASES {
                    let p = params(body, bouncing, NoteOff::Damp, release);
                    let ring_p = EngineParams {
                        note_off: NoteOff::Ring,
                        ..p
                    };
                    let on = 64;
                    let r = (release * fs) as usize;
                    let total = on + (0.1 * fs) as usize + 3 * r;
                    let ring = play(&ring_p, fs, &[(on, true)], total);
                    for (what, off) in note_offs(fs, on, &ring) {
                        let case = format!(
                            "{body:?} bouncing {bouncing} {fs} Hz release {release} s, note-off {what}"
                        );
                        // The voice alone: 60 dB down from Release after the later of the
                        // note-off and the end of its contact.
                        let v = voice_alone(&p, fs, Some(off - on), total - on);
                        let force_end = contact_end_and_next(&ring.force, off).0 - on;
                        let from = (off - on).max(force_end);
                        let pk = peak64(&v);
                        let level = db(peak64(&v[from + r..]) / pk);
                        worst_level = worst_level.max(level);
                        assert!(
                            level <= -60.0,
                            "{case}: {level:.1} dB re peak at the release"
                        );
                        // The engine ends the voice and reports it by twice the release.
                        let d = play(&p, fs, &[(on, true), (off, false)], total);
                        let end = d
                            .end
                            .unwrap_or_else(|| panic!("{case}: the voice did not end"));
                        let due = (on + from + 2 * r) as u64 + CONTROL_BLOCK;
                        assert!(end <= due, "{case}: ended {} samples late", end - due);
                        if end > (on + from) as u64 {
                            worst_end = worst_end.max((end - (on + from) as u64) as f64 / r as f64);
                        }
                    }
                }
            }
        }
    }
    println!(
        "worst level at the release {worst_level:.1} dB re peak; latest end {worst_end:.3} x release"
    );
}

/// Ring mode ignores note-offs: the same note rings on, sample for sample.
#[test]
fn ring_mode_rings_on() {
    for fs in RATES {
        for bouncing in [false, true] {
            let p = params(BodyType::Bar, bouncing, NoteOff::Ring, 0.08);
            let total = (0.5 * fs) as usize;
            let held = play(&p, fs, &[(64, true)], total);
            let released = play(&p, fs, &[(64, true), (300, false)], total);
            assert_eq!(held.y, released.y);
            assert!(released.end.is_none(), "the voice must still sound");
            // And it is far from the damped level at the release.
            let r = (0.08 * fs) as usize;
            let level = db(peak(&released.y[300 + r..300 + 2 * r]) / peak(&released.y));
            assert!(level > -20.0, "ring mode {level:.1} dB at the release");
        }
    }
}

#[test]
fn damping_does_not_click() {
    let mut worst_step = 0.0f64;
    let mut worst_curv = 0.0f64;
    for fs in RATES {
        for bouncing in [false, true] {
            for body in BodyType::ALL {
                for release in RELEASES {
                    let p = params(body, bouncing, NoteOff::Damp, release);
                    let ring_p = EngineParams {
                        note_off: NoteOff::Ring,
                        ..p
                    };
                    let on = 64;
                    let total = on + (0.1 * fs) as usize + 3 * (release * fs) as usize;
                    let ring = play(&ring_p, fs, &[(on, true)], total);
                    let attack = max_step(&ring.y[on..on + (0.01 * fs) as usize]);
                    for (what, off) in note_offs(fs, on, &ring) {
                        let case = format!(
                            "{body:?} bouncing {bouncing} {fs} Hz release {release} s, note-off {what}"
                        );
                        let d = play(&p, fs, &[(on, true), (off, false)], total);
                        assert_eq!(
                            d.y[..off],
                            ring.y[..off],
                            "{case}: changed before the note-off"
                        );
                        // Against the attack, or the undamped note over the same stretch
                        // where that moves more (a bell's beating partials swell after
                        // its attack, by steps up to 1.2 times its attack's).
                        let step = max_step(&d.y[off - 1..]);
                        let bound = attack.max(max_step(&ring.y[off - 1..]));
                        worst_step = worst_step.max(step / bound);
                        assert!(
                            step <= bound,
                            "{case}: step {step:.3e} > the attack's or the undamped note's {bound:.3e}"
                        );
                        let curv = max_curvature(&d.y[off - 2..]);
                        let ring_curv = max_curvature(&ring.y[off - 2..]);
                        let attack_curv = max_curvature(&ring.y[on..on + (0.01 * fs) as usize]);
                        worst_curv = worst_curv.max(curv / ring_curv);
                        // The attack's own sharpest point is its contact's exit, and a
                        // note-off in the first contact lands the hand right after it,
                        // which moves that point's second difference by parts in 1e5
                        // (96 kHz, the contact strided): a click is a multiple.
                        assert!(
                            curv <= 1.001 * attack_curv,
                            "{case}: second difference {curv:.3e} > the attack's {attack_curv:.3e}"
                        );
                    }
                }
            }
        }
    }
    println!(
        "largest step after a note-off {worst_step:.3} of the attack's; second difference up to {worst_curv:.2} x the undamped note's"
    );
}

/// A re-strike after a damped note-off rings as a fresh strike: of the voice still
/// dying away (the hand comes off: the modes take their own decay again) and after
/// the voice ended.
#[test]
fn a_restrike_after_a_damp_rings_normally() {
    for fs in RATES {
        for bouncing in [false, true] {
            let release = 0.08;
            let p = params(BodyType::Bell, bouncing, NoteOff::Damp, release);
            let r = (release * fs) as usize;
            let (on, off) = (64, 64 + (0.05 * fs) as usize);
            let total = off + 4 * r + fs as usize;
            // While the damped voice still sounds (before 2 x release), and after it ended.
            for again in [off + 3 * r / 2, off + 3 * r] {
                let restruck = play(&p, fs, &[(on, true), (off, false), (again, true)], total);
                let fresh = play(&p, fs, &[(again, true)], total);
                let pk = peak(&fresh.y);
                assert!(restruck.end.is_none(), "the re-struck voice must ring");
                // Same level and the body's own decay (not the release's) a
                // quarter and a full T60 later: within 0.5 dB of a fresh strike.
                for t in [0.25, 0.9] {
                    let n = again + (t * fs) as usize;
                    let w = n..n + (0.02 * fs) as usize;
                    let a = db(peak(&restruck.y[w.clone()]) / pk);
                    let b = db(peak(&fresh.y[w]) / pk);
                    assert!(
                        (a - b).abs() < 0.5,
                        "bouncing {bouncing} {fs} Hz re-strike at {again}: {a:.2} dB vs fresh {b:.2} dB at +{t} s"
                    );
                }
            }
        }
    }
}

/// Note-offs find their voice as note-ons do: by key and channel (or any, for a
/// wildcard), by the host's voice ID when both have one.
#[test]
fn note_offs_find_their_voice() {
    let fs = 48_000.0;
    let p = params(BodyType::Bar, false, NoteOff::Damp, 0.01);
    let sounding = |f: &dyn Fn(&mut Engine)| {
        let mut e = Engine::new(fs);
        e.set_params(&p);
        e.set_sample_rate(fs);
        e.note_on(60, 1.0, 0, Some(7));
        e.note_on(64, 1.0, 1, Some(8));
        f(&mut e);
        let mut y = vec![0.0f32; (0.1 * fs) as usize];
        e.render_mono(&mut y);
        e.active_voices()
    };
    assert_eq!(sounding(&|_| {}), 2);
    assert_eq!(sounding(&|e| e.note_off(Some(60), Some(0), None)), 1);
    assert_eq!(sounding(&|e| e.note_off(Some(60), Some(1), None)), 2);
    assert_eq!(sounding(&|e| e.note_off(Some(60), Some(0), Some(8))), 1);
    assert_eq!(sounding(&|e| e.note_off(Some(64), Some(1), Some(99))), 2);
    assert_eq!(sounding(&|e| e.note_off(None, Some(1), None)), 1);
    assert_eq!(sounding(&|e| e.note_off(None, None, None)), 0);
}
