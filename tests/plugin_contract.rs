//! What hosts and the CLAP/VST3 validators check of `process()`: voice-terminated
//! events in order, inside their block and at the sample the voice ended; every started
//! voice reported ended; a status that lets an idle instrument sleep; a voice capacity
//! reported only with a polyphonic-modulation config; every voice reported ended
//! through a burst of more events than the input queue holds; no allocation under
//! per-sample automation of every parameter.

mod support;

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::MAX_VOICES;
use std::collections::HashSet;
use support::*;

fn note(timing: u32, key: u8, velocity: f32, id: i32) -> NoteEvent<()> {
    note_on_channel(timing, 0, key, velocity, id)
}

fn note_on_channel(timing: u32, channel: u8, key: u8, velocity: f32, id: i32) -> NoteEvent<()> {
    NoteEvent::NoteOn {
        timing,
        voice_id: VoiceID::ID(id),
        channel: Channel::Number(channel),
        key: Key::Number(key),
        velocity,
    }
}

/// (timing, voice id) of every voice-terminated event.
fn ends(sent: &[NoteEvent<()>]) -> Vec<(u32, Option<i32>)> {
    sent.iter()
        .filter_map(|e| match *e {
            NoteEvent::VoiceTerminated {
                timing, voice_id, ..
            } => Some((timing, voice_id.id())),
            _ => None,
        })
        .collect()
}

/// A retrigger with a new note ID late in a block ends the old voice at that sample,
/// not at a stale position (the CLAP validator's "sample 482 after 487").
#[test]
fn retrigger_ends_the_old_voice_at_the_event_sample() {
    let mut p = activated(48000.0, 512);
    let mut ctx = TestProcess::new();
    let b = process(
        &mut p,
        &mut ctx,
        512,
        &[note(10, 60, 1.0, 1), note(487, 60, 1.0, 2)],
    );
    assert_eq!(ends(&b.sent), vec![(487, Some(1))]);
}

/// A steal with every slot busy, and a retrigger stamped past the block's end: both
/// reported inside this block, in order.
#[test]
fn ends_from_events_at_the_block_end_are_reported_inside_the_block() {
    let mut p = activated(48000.0, 256);
    set_norm(&p.rebound_params(), "voices", 0.0);
    let mut ctx = TestProcess::new();
    // One voice: each note fades the last one out; 100 notes at once fill every slot.
    let burst: Vec<_> = (0..100)
        .map(|i| note(3, 40 + (i % 50) as u8, 1.0, i))
        .collect();
    let b = process(&mut p, &mut ctx, 256, &burst);
    let e = ends(&b.sent);
    // Slots run out after 72 notes: each later one ends a fading voice at once, at 3;
    // the rest end when their 4 ms fade does.
    assert!(e.iter().filter(|(t, _)| *t == 3).count() >= 20, "{e:?}");
    assert!(e.windows(2).all(|w| w[0].0 <= w[1].0) && e.iter().all(|(t, _)| *t < 256));
    let b = process(
        &mut p,
        &mut ctx,
        64,
        &[note(64, 89, 1.0, 500), note(70, 89, 1.0, 501)],
    );
    let e = ends(&b.sent);
    assert!(e.contains(&(63, Some(500))), "{e:?}");
    assert!(e.windows(2).all(|w| w[0].0 <= w[1].0) && e.iter().all(|(t, _)| *t < 64));
}

/// Random note streams through the real `process()`: same-key retriggers with new IDs,
/// steals with every slot busy, events at and past the block end, blocks of 1–8192
/// samples. Every event is in order and inside its block, and every voice started is
/// reported ended exactly once.
#[test]
fn random_note_streams_report_every_voice_end_in_order() {
    let fs = 48000.0;
    for seed in 1..=12u64 {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
        let mut p = activated(fs, 8192);
        let params = p.rebound_params();
        set_plain(&params, "voices", 1.0 + rng.below(4) as f32);
        set_plain(&params, "t60", 0.01 + 0.04 * rng.unit());
        set_norm(&params, "body", rng.unit());
        set_norm(&params, "mix", rng.unit());
        if rng.below(4) == 0 {
            set_norm(&params, "bounce", 1.0);
            set_plain(&params, "grav", 100.0);
        }
        let mut ctx = TestProcess::new();
        let (mut started, mut ended) = (HashSet::new(), HashSet::new());
        let mut id = 0;
        let mut blocks = 0;
        loop {
            blocks += 1;
            let playing = blocks <= 40;
            let n = rng.log_size(8192);
            let mut events = Vec::new();
            if playing {
                let count = if rng.below(8) == 0 {
                    80 + rng.below(20)
                } else {
                    rng.below(6)
                };
                for _ in 0..count {
                    let t = match rng.below(10) {
                        0 => n as u32,
                        1 => (n + 1 + rng.below(n as u64) as usize) as u32,
                        _ => rng.below(n as u64) as u32,
                    };
                    let key = 60 + rng.below(4) as u8;
                    if rng.below(20) == 0 {
                        events.push(choke(t, key));
                    } else {
                        id += 1;
                        started.insert(id);
                        events.push(note(t, key, rng.unit(), id));
                    }
                }
                events.sort_by_key(|e| e.timing());
            }
            let b = process(&mut p, &mut ctx, n, &events);
            let e = ends(&b.sent);
            assert!(
                e.windows(2).all(|w| w[0].0 <= w[1].0) && e.iter().all(|(t, _)| (*t as usize) < n),
                "seed {seed} block {blocks} ({n} samples): {e:?}"
            );
            for (_, v) in e {
                let v = v.expect("every note had an ID");
                assert!(started.contains(&v), "seed {seed}: unknown voice {v}");
                assert!(ended.insert(v), "seed {seed}: voice {v} ended twice");
            }
            let active = p.engine().active_voices();
            assert_eq!(
                matches!(b.status, ProcessStatus::KeepAlive),
                active > 0,
                "seed {seed}: KeepAlive exactly while voices sound"
            );
            if !playing && active == 0 {
                break;
            }
            assert!(blocks < 4000, "seed {seed}: voices never ended");
        }
        assert_eq!(started, ended, "seed {seed}: voices never reported ended");
    }
}

fn choke(timing: u32, key: u8) -> NoteEvent<()> {
    choke_addressed(
        timing,
        VoiceID::Wildcard,
        Channel::Number(0),
        Key::Number(key),
    )
}

fn choke_addressed(timing: u32, voice_id: VoiceID, channel: Channel, key: Key) -> NoteEvent<()> {
    NoteEvent::Choke {
        timing,
        voice_id,
        channel,
        key,
    }
}

/// Notes with IDs 1–4: keys 60 and 64 on channel 1, keys 60 and 67 on channel 2.
fn four_notes() -> Vec<NoteEvent<()>> {
    vec![
        note_on_channel(0, 0, 60, 1.0, 1),
        note_on_channel(0, 0, 64, 1.0, 2),
        note_on_channel(0, 1, 60, 1.0, 3),
        note_on_channel(0, 1, 67, 1.0, 4),
    ]
}

/// The IDs of the voices `choke` ends when it follows [`four_notes`] (sorted); every
/// other voice still sounds, unfaded.
fn choked_by(choke: NoteEvent<()>) -> Vec<i32> {
    let mut p = activated(48000.0, 512);
    let mut ctx = TestProcess::new();
    let mut events = four_notes();
    events.push(choke);
    let b = process(&mut p, &mut ctx, 512, &events);
    let mut ended: Vec<i32> = ends(&b.sent).into_iter().filter_map(|(_, id)| id).collect();
    ended.sort_unstable();
    let sounding: Vec<i32> = p
        .engine()
        .voices()
        .filter(|v| !v.is_fading())
        .filter_map(|v| v.voice_id)
        .collect();
    assert_eq!(ended.len() + sounding.len(), 4, "{ended:?} {sounding:?}");
    ended
}

/// A choke with a wildcard key ends every key on its channel, and no other channel's.
#[test]
fn a_choke_of_any_key_ends_every_key_on_its_channel() {
    let any_key = |channel| {
        choke_addressed(
            100,
            VoiceID::Wildcard,
            Channel::Number(channel),
            Key::Wildcard,
        )
    };
    assert_eq!(choked_by(any_key(0)), [1, 2]);
    assert_eq!(choked_by(any_key(1)), [3, 4]);
    let all = choke_addressed(100, VoiceID::Wildcard, Channel::Wildcard, Key::Wildcard);
    assert_eq!(choked_by(all), [1, 2, 3, 4]);
}

/// A choke of a key ends it on its channel only, or on every channel with a wildcard
/// channel.
#[test]
fn a_choke_of_a_key_ends_it_on_its_channel_or_on_any_with_a_wildcard() {
    let key = |channel, key| choke_addressed(100, VoiceID::Wildcard, channel, Key::Number(key));
    assert_eq!(choked_by(key(Channel::Number(1), 60)), [3]);
    assert_eq!(choked_by(key(Channel::Wildcard, 60)), [1, 3]);
    assert_eq!(choked_by(key(Channel::Wildcard, 67)), [4]);
    assert_eq!(choked_by(key(Channel::Number(0), 67)), Vec::<i32>::new());
}

/// A choke with a voice ID ends that voice alone, whatever its key and channel say.
#[test]
fn a_choke_by_voice_id_ends_only_that_voice() {
    let id = |id, channel, key| choke_addressed(100, VoiceID::ID(id), channel, key);
    assert_eq!(choked_by(id(3, Channel::Number(1), Key::Number(60))), [3]);
    assert_eq!(choked_by(id(2, Channel::Wildcard, Key::Wildcard)), [2]);
    assert_eq!(
        choked_by(id(9, Channel::Wildcard, Key::Wildcard)),
        Vec::<i32>::new()
    );
}

/// A choke fades its key's voice out and reports it ended (the random streams use it).
#[test]
fn choke_ends_its_voice() {
    let mut p = activated(48000.0, 512);
    let mut ctx = TestProcess::new();
    let a = process(
        &mut p,
        &mut ctx,
        512,
        &[note(0, 60, 1.0, 7), choke(100, 60)],
    );
    let e = ends(&a.sent);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].0 > 100, "a choke fades: {e:?}");
    assert_eq!(p.engine().active_voices(), 0);
}

/// An idle instrument returns `Normal` (CLAP: continue if not quiet; VST3: no tail), a
/// sounding one `KeepAlive`.
#[test]
fn idle_instrument_may_sleep() {
    let mut p = activated(48000.0, 512);
    set_plain(&p.rebound_params(), "t60", 0.05);
    let mut ctx = TestProcess::new();
    let b = process(&mut p, &mut ctx, 512, &[]);
    assert!(matches!(b.status, ProcessStatus::Normal));
    let b = process(&mut p, &mut ctx, 512, &[note(5, 60, 1.0, 1)]);
    assert!(matches!(b.status, ProcessStatus::KeepAlive));
    let mut last = b.status;
    for _ in 0..200 {
        last = process(&mut p, &mut ctx, 512, &[]).status;
        if p.engine().active_voices() == 0 {
            break;
        }
    }
    assert!(matches!(last, ProcessStatus::Normal));
}

/// A second note on a sounding key and channel re-strikes its voice (the first is
/// reported ended there), so the plugin must not claim overlapping voices.
#[test]
fn a_note_on_a_sounding_key_and_channel_takes_over_its_voice() {
    let config = Rebound::CLAP_POLY_MODULATION_CONFIG.expect("config set");
    assert!(!config.supports_overlapping_voices);
    let mut p = activated(48000.0, 512);
    let mut ctx = TestProcess::new();
    let b = process(
        &mut p,
        &mut ctx,
        512,
        &[note(0, 60, 1.0, 1), note(10, 60, 1.0, 2)],
    );
    assert_eq!(ends(&b.sent), vec![(10, Some(1))]);
    assert_eq!(p.engine().active_voices(), 1);
}

/// The activation's capacity call is checked by `TestActivate` like the framework does.
#[test]
fn voice_capacity_comes_with_a_poly_modulation_config() {
    let config = Rebound::CLAP_POLY_MODULATION_CONFIG.expect("config set");
    assert_eq!(config.max_voice_capacity as usize, MAX_VOICES);
    let _ = activated(44100.0, 64);
}

/// A block with more events than the wrappers' input queue holds
/// (`INPUT_EVENT_CAPACITY`), as a host sends when it flushes a sequencer's burst: the
/// plugin handles every one at its sample, allocates nothing itself, and reports every
/// voice it started ended, once. What this guards is the other capacity a burst meets:
/// the engine's fixed list of ended voices, which `process()` empties after each event.
/// Hundreds of notes on one sample, each ending a fading voice once the slots run out,
/// end far more voices than that list holds; reported only between rendered stretches,
/// the rest would be dropped and a host would never hear those voices ended.
///
/// Also why sample-accurate automation stays off: with it the VST3 wrapper queues every
/// automation point as an event, and per-sample automation of every parameter over one
/// 512-sample block would overflow the queue (an allocation on the audio thread).
#[test]
fn a_burst_of_more_events_than_the_queue_holds_ends_every_voice_once() {
    let capacity = Rebound::INPUT_EVENT_CAPACITY;
    let params = Rebound::default().rebound_params().param_map().len();
    assert!(params * 512 > capacity, "{params} parameters");
    const {
        assert!(
            !Rebound::SAMPLE_ACCURATE_AUTOMATION,
            "per-sample automation of every parameter would overflow the input queue"
        )
    };

    let n = 512;
    let mut p = activated(48000.0, n as u32);
    set_norm(&p.rebound_params(), "voices", 0.0);
    let mut rng = Rng(0xB0_0575);
    let mut burst = Vec::new();
    let mut started = HashSet::new();
    // Five bursts on single samples (the last past the block's end, which nice-plug
    // clamps to it), with expression and chokes among the notes.
    for (b, at) in [0u32, 1, 200, 511, 515].into_iter().enumerate() {
        for i in 0..(2 * capacity / 5 + 1) {
            let id = (b * 10_000 + i) as i32;
            let key = 40 + rng.below(40) as u8;
            burst.push(match rng.below(16) {
                0 => choke(at, key),
                1 => NoteEvent::MidiPitchBend {
                    timing: at,
                    channel: 0,
                    value: rng.unit(),
                },
                2 => NoteEvent::MidiCC {
                    timing: at,
                    channel: 0,
                    cc: 1,
                    value: rng.unit(),
                },
                _ => {
                    started.insert(id);
                    note(at, key, rng.unit(), id)
                }
            });
        }
    }
    assert!(burst.len() > capacity, "{} events", burst.len());
    assert!(started.len() > 4 * MAX_VOICES, "{} notes", started.len());

    let mut ctx = TestProcess::new();
    let before = alloc_violations();
    let mut ended = HashSet::new();
    let mut events = burst;
    for block in 0.. {
        let b = process(&mut p, &mut ctx, n, &events);
        events.clear();
        assert!(b.left.iter().chain(&b.right).all(|s| s.is_finite()));
        let e = ends(&b.sent);
        assert!(
            e.windows(2).all(|w| w[0].0 <= w[1].0) && e.iter().all(|(t, _)| (*t as usize) < n),
            "block {block}: {e:?}"
        );
        for (_, id) in e {
            let id = id.expect("every note had an ID");
            assert!(started.contains(&id), "unknown voice {id}");
            assert!(ended.insert(id), "voice {id} ended twice");
        }
        if p.engine().active_voices() == 0 {
            break;
        }
        assert!(block < 2000, "voices never ended");
    }
    assert_eq!(
        alloc_violations() - before,
        0,
        "allocations inside process()"
    );
    let lost = started.difference(&ended).count();
    assert_eq!(
        lost,
        0,
        "{lost} of {} voices never reported ended",
        started.len()
    );
}

/// Every parameter changed before every sample (block size 1), with notes: finite
/// output and not one allocation inside `process()`.
#[test]
fn per_sample_automation_of_every_parameter_does_not_allocate() {
    let mut rng = Rng(42);
    let mut p = activated(48000.0, 1);
    let params = p.rebound_params();
    let ids: Vec<String> = params
        .param_map()
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    let mut ctx = TestProcess::new();
    let before = alloc_violations();
    for n in 0..6000u32 {
        for id in &ids {
            set_norm(&params, id, rng.unit());
        }
        let events: Vec<_> = if n % 300 == 0 {
            vec![note(0, 40 + rng.below(40) as u8, rng.unit(), n as i32)]
        } else {
            Vec::new()
        };
        let b = process(&mut p, &mut ctx, 1, &events);
        assert!(b.left[0].is_finite(), "sample {n}");
    }
    assert_eq!(
        alloc_violations() - before,
        0,
        "allocations inside process()"
    );
}

/// The level worker lives between `activate` and `deactivate` in real time: a
/// deactivated plugin keeps no thread, and the next activation starts one that makes
/// the tables again.
#[test]
fn the_level_worker_stops_on_deactivate_and_starts_again() {
    let mut p = activated_in(48_000.0, 256, ProcessMode::Realtime);
    assert!(p.level_worker_running());
    render(&mut p, 256, 256, &[]);
    p.deactivate();
    assert!(
        !p.level_worker_running(),
        "deactivate left the worker running"
    );
    activate(&mut p, 48_000.0, 256, ProcessMode::Realtime);
    assert!(p.level_worker_running());
    render(&mut p, 256, 256, &[]);
    wait_until(|| p.levels_ready(), "the new level worker");
    activate(&mut p, 48_000.0, 256, ProcessMode::Offline);
    assert!(
        !p.level_worker_running(),
        "an offline activation kept the worker"
    );
}
