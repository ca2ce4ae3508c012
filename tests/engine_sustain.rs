//! The sustain pedal (CC 64), in Damp mode: a note released while the pedal is down
//! rings on as if its key were held, and is damped, as its note-off would have done,
//! when the pedal comes up; a note released after the pedal came up is damped at once.
//! On an MPE zone's master channel the pedal holds every note of the zone. In Ring mode
//! the pedal changes nothing.

use rebound::engine::{CC_SUSTAIN, Engine, EngineParams, NoteOff};

const FS: f64 = 48_000.0;
const RELEASE: f64 = 0.05;
const KEY: u8 = 60;

/// Plays `events` (sample, what) and returns the output's RMS over each 10 ms.
fn play(note_off: NoteOff, events: &[(usize, Event)], total: usize) -> Vec<f64> {
    let mut e = Engine::new(FS);
    e.set_params(&EngineParams {
        note_off,
        release: RELEASE,
        t60: 3.0,
        ..EngineParams::default()
    });
    e.set_sample_rate(FS);
    let (mut l, mut r) = (vec![0f32; total], vec![0f32; total]);
    let mut pos = 0;
    for &(at, ev) in events.iter().chain([&(total, Event::None)]) {
        e.render(&mut l[pos..at], &mut r[pos..at]);
        pos = at;
        match ev {
            Event::On(ch) => e.note_on(KEY, 1.0, ch, None),
            Event::Off(ch) => e.note_off(Some(KEY), Some(ch), None),
            Event::Pedal(ch, v) => e.control_change(ch, CC_SUSTAIN, v),
            Event::Mpe => {
                // The lower zone with 15 member channels (RPN 6 on channel 0, MSB 15).
                for (cc, v) in [(101, 0), (100, 6), (6, 15)] {
                    e.control_change(0, cc, v as f32 / 127.0);
                }
            }
            Event::None => {}
        }
    }
    l.chunks(480)
        .map(|c| (c.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>() / c.len() as f64).sqrt())
        .collect()
}

#[derive(Clone, Copy)]
enum Event {
    On(u8),
    Off(u8),
    Pedal(u8, f32),
    Mpe,
    None,
}

fn db(a: f64, b: f64) -> f64 {
    20.0 * (a / b).log10()
}

/// Samples at `s` seconds.
fn at(s: f64) -> usize {
    (s * FS) as usize
}

/// The 10 ms window starting at `s` seconds.
fn w(s: f64) -> usize {
    (s * 100.0) as usize
}

#[test]
fn a_note_released_under_the_pedal_rings_until_the_pedal_comes_up() {
    let total = at(1.5);
    let held = play(NoteOff::Damp, &[(0, Event::On(0))], total);
    let events = [
        (0, Event::On(0)),
        (at(0.1), Event::Pedal(0, 1.0)),
        (at(0.3), Event::Off(0)),
        (at(0.8), Event::Pedal(0, 0.0)),
    ];
    let pedal = play(NoteOff::Damp, &events, total);
    // Under the pedal the released note is the held one, bit for bit in level.
    for i in w(0.3)..w(0.8) {
        assert_eq!(
            pedal[i], held[i],
            "window {i}: the pedal did not hold the note"
        );
    }
    // Pedal up: damped with T60 = Release, so 60 dB down by Release after it (and
    // the held note is not).
    let after = w(0.8 + RELEASE + 0.02);
    let fall = db(pedal[after], held[after]);
    assert!(
        fall < -50.0,
        "{fall:.1} dB against the held note after the pedal came up"
    );

    // Without the pedal the same note-off damps at once.
    let plain = play(
        NoteOff::Damp,
        &[(0, Event::On(0)), (at(0.3), Event::Off(0))],
        total,
    );
    let fall = db(
        plain[w(0.3 + RELEASE + 0.02)],
        held[w(0.3 + RELEASE + 0.02)],
    );
    assert!(fall < -50.0, "{fall:.1} dB: a note-off without the pedal");
}

#[test]
fn the_pedal_holds_its_own_channel_and_an_mpe_zone() {
    let total = at(1.0);
    let held = play(NoteOff::Damp, &[(0, Event::On(3))], total);
    let late = w(0.6);
    // A pedal on another channel does not hold channel 3's note.
    let other = [
        (0, Event::On(3)),
        (at(0.1), Event::Pedal(5, 1.0)),
        (at(0.3), Event::Off(3)),
    ];
    let fall = db(play(NoteOff::Damp, &other, total)[late], held[late]);
    assert!(
        fall < -50.0,
        "{fall:.1} dB: another channel's pedal held the note"
    );
    // The lower zone's master (channel 0) holds its member channel 3.
    let zone = [
        (0, Event::Mpe),
        (1, Event::On(3)),
        (at(0.1), Event::Pedal(0, 1.0)),
        (at(0.3), Event::Off(3)),
    ];
    let zoned = play(NoteOff::Damp, &zone, total);
    let held_zone = play(NoteOff::Damp, &[(0, Event::Mpe), (1, Event::On(3))], total);
    assert_eq!(
        zoned[late], held_zone[late],
        "the zone's pedal did not hold the note"
    );
}

#[test]
fn in_ring_mode_the_pedal_changes_nothing() {
    let total = at(1.0);
    let plain = play(
        NoteOff::Ring,
        &[(0, Event::On(0)), (at(0.3), Event::Off(0))],
        total,
    );
    let events = [
        (0, Event::On(0)),
        (at(0.1), Event::Pedal(0, 1.0)),
        (at(0.3), Event::Off(0)),
        (at(0.5), Event::Pedal(0, 0.0)),
    ];
    assert_eq!(play(NoteOff::Ring, &events, total), plain);
}
