//! Expression through the real `process()`: each CLAP poly-mod id, poly pressure,
//! channel pressure, CC 74 and pitch bend on one MPE channel, per-note tuning and
//! brightness change the voice they address and no other (per-voice output compared
//! with a run without the event, bit for bit); the mod wheel moves every voice only when
//! mapped; a contact in progress keeps its latched parameters; extreme and NaN values
//! stay finite and nothing allocates.

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::expression::PolyTarget;
use rebound::engine::spec::{self, normalized};
use rebound::engine::{CC_MOD_WHEEL, CC_TIMBRE};
use rebound::model::Phase;

mod support;
use support::*;

const BLOCK: usize = 16;
const TOTAL: usize = 4800;
/// When the expression event comes: in the first flight of every voice.
const AT: u32 = 480;
/// Three notes, each on its own MPE channel: (voice id, key, channel).
const NOTES: [(i32, u8, u8); 3] = [(1, 60, 1), (2, 64, 2), (3, 67, 3)];
/// The voice the events address.
const TARGET: (i32, u8, u8) = NOTES[1];

fn plugin() -> Rebound {
    let p = activated(48000.0, BLOCK as u32);
    let params = p.rebound_params();
    // Quick bounces, so a contact parameter shows at the next contact; the damping from
    // the restitution, so Bounciness acts whichever controls are on.
    set_norm(&params, "bounce", 1.0);
    set_plain(&params, "grav", 100.0);
    set_norm(&params, "dmode", 1.0);
    p
}

fn notes() -> Vec<NoteEvent<()>> {
    NOTES
        .iter()
        .map(|&(id, key, ch)| NoteEvent::NoteOn {
            timing: 0,
            voice_id: VoiceID::ID(id),
            channel: Channel::Number(ch),
            key: Key::Number(key),
            velocity: 1.0,
        })
        .collect()
}

/// Each voice's output, sampled at every block boundary, by voice id.
type Traces = [Vec<f64>; 3];

fn traces(p: &mut Rebound, events: &[NoteEvent<()>]) -> Traces {
    let mut all = notes();
    all.extend_from_slice(events);
    let mut out: Traces = Default::default();
    let (l, r, _) = run_with(p, BLOCK, TOTAL, &all, |p, _| {
        for (i, &(id, _, _)) in NOTES.iter().enumerate() {
            out[i].push(p.engine().voice_by_id(id).map_or(0.0, |v| v.output()));
        }
    });
    assert!(l.iter().chain(&r).all(|s| s.is_finite()));
    out
}

/// The ids of the voices whose output differs from the reference run's.
fn changed(reference: &Traces, t: &Traces) -> Vec<i32> {
    let first = AT as usize / BLOCK + 1;
    for (a, b) in reference.iter().zip(t) {
        assert_eq!(
            a[..first],
            b[..first],
            "nothing may change before the event"
        );
    }
    NOTES
        .iter()
        .zip(reference.iter().zip(t))
        .filter(|(_, (a, b))| a != b)
        .map(|(n, _)| n.0)
        .collect()
}

fn poly_mod(target: PolyTarget, offset: f32) -> NoteEvent<()> {
    NoteEvent::PolyModulation {
        timing: AT,
        voice_id: TARGET.0,
        poly_modulation_id: target.id(),
        normalized_offset: offset,
    }
}

/// Every per-note or per-channel event, addressed to [`TARGET`].
fn addressed_events() -> Vec<(String, NoteEvent<()>)> {
    let (id, key, ch) = TARGET;
    let by_id = VoiceID::ID(id);
    let mut v: Vec<(String, NoteEvent<()>)> = PolyTarget::ALL
        .iter()
        .map(|&t| (format!("poly-mod {t:?}"), poly_mod(t, -0.3)))
        .collect();
    v.extend([
        (
            "poly pressure by id".into(),
            NoteEvent::PolyPressure {
                timing: AT,
                voice_id: by_id,
                channel: Channel::Number(ch),
                key: Key::Number(key),
                pressure: 1.0,
            },
        ),
        (
            "poly pressure by key and channel".into(),
            NoteEvent::PolyPressure {
                timing: AT,
                voice_id: VoiceID::Wildcard,
                channel: Channel::Number(ch),
                key: Key::Number(key),
                pressure: 0.7,
            },
        ),
        (
            "channel pressure".into(),
            NoteEvent::MidiChannelPressure {
                timing: AT,
                channel: ch,
                pressure: 1.0,
            },
        ),
        (
            "CC 74".into(),
            NoteEvent::MidiCC {
                timing: AT,
                channel: ch,
                cc: CC_TIMBRE,
                value: 1.0,
            },
        ),
        (
            "pitch bend".into(),
            NoteEvent::MidiPitchBend {
                timing: AT,
                channel: ch,
                value: 0.9,
            },
        ),
        (
            "poly tuning".into(),
            NoteEvent::PolyTuning {
                timing: AT,
                voice_id: by_id,
                channel: Channel::Number(ch),
                key: Key::Number(key),
                tuning: 3.0,
            },
        ),
        (
            "poly brightness".into(),
            NoteEvent::PolyBrightness {
                timing: AT,
                voice_id: VoiceID::Wildcard,
                channel: Channel::Number(ch),
                key: Key::Number(key),
                brightness: 0.1,
            },
        ),
    ]);
    v
}

#[test]
fn each_expression_event_changes_the_voice_it_addresses_and_no_other() {
    let reference = traces(&mut plugin(), &[]);
    for (name, ev) in addressed_events() {
        let t = traces(&mut plugin(), &[ev]);
        assert_eq!(changed(&reference, &t), [TARGET.0], "{name}");
    }
}

/// After a host's automation of a modulated parameter (`MonoAutomation`, the parameter
/// already at its new value) the modulated voice keeps its offset on the new value.
#[test]
fn mono_automation_keeps_the_poly_offsets() {
    let mut p = plugin();
    let later = AT + 160;
    let auto = NoteEvent::MonoAutomation {
        timing: later,
        poly_modulation_id: PolyTarget::Position.id(),
        normalized_value: 0.25,
    };
    let mut events = notes();
    events.extend([poly_mod(PolyTarget::Position, 0.5), auto]);
    let params = p.rebound_params();
    run_with(&mut p, BLOCK, TOTAL, &events, |_, start| {
        if start == later as usize {
            set_norm(&params, "pos", 0.25);
        }
    });
    let n = spec::number("pos").unwrap();
    let e = p.engine();
    for (id, _, _) in NOTES {
        let v = e.voice_by_id(id).unwrap();
        let pos = v.own(e.params(), &v.jitter).position;
        let want = normalized::unnormalize(n, if id == TARGET.0 { 0.75 } else { 0.25 });
        assert!((pos - want).abs() < 1e-6, "voice {id}: {pos} != {want}");
    }
}

/// A modulated voice still follows the parameters under its offsets: a Bounciness
/// change after the poly-mod reaches its next contact.
#[test]
fn a_modulated_voice_follows_parameter_changes() {
    let later = AT as usize + 160;
    let voice2 = |change: bool| {
        let mut p = plugin();
        let params = p.rebound_params();
        let mut events = notes();
        events.push(poly_mod(PolyTarget::Mass, 0.2));
        let mut out = Vec::new();
        run_with(&mut p, BLOCK, TOTAL, &events, |p, start| {
            if change && start == later {
                set_norm(&params, "rest", 0.3);
            }
            out.push(p.engine().voice_by_id(TARGET.0).map_or(0.0, |v| v.output()));
        });
        out
    };
    let (a, b) = (voice2(false), voice2(true));
    assert_eq!(a[..later / BLOCK], b[..later / BLOCK]);
    assert_ne!(a, b, "the modulated voice ignored a parameter change");
}

/// A poly-mod for a voice id nobody plays, or an unknown poly-mod id, changes nothing.
#[test]
fn unaddressed_poly_mods_change_nothing() {
    let reference = traces(&mut plugin(), &[]);
    let stray = NoteEvent::PolyModulation {
        timing: AT,
        voice_id: 99,
        poly_modulation_id: PolyTarget::Mass.id(),
        normalized_offset: 0.5,
    };
    let unknown = NoteEvent::PolyModulation {
        timing: AT,
        voice_id: TARGET.0,
        poly_modulation_id: 17,
        normalized_offset: 0.5,
    };
    let t = traces(&mut plugin(), &[stray, unknown]);
    assert!(changed(&reference, &t).is_empty());
}

#[test]
fn the_mod_wheel_moves_every_voice_only_when_mapped() {
    let wheel = NoteEvent::MidiCC {
        timing: AT,
        channel: 0,
        cc: CC_MOD_WHEEL,
        value: 1.0,
    };
    let reference = traces(&mut plugin(), &[]);
    let t = traces(&mut plugin(), &[wheel]);
    assert!(changed(&reference, &t).is_empty(), "mod wheel Off");
    for target in [
        "hardness",
        "bounciness",
        "position",
        "pitch",
        "decay",
        "brightness",
    ] {
        let mapped = || {
            let p = plugin();
            let params = p.rebound_params();
            let choice = spec::choice("mwheel").unwrap();
            let i = choice.choices.iter().position(|n| *n == target).unwrap();
            set_norm(
                &params,
                "mwheel",
                i as f32 / (choice.choices.len() - 1) as f32,
            );
            p
        };
        let reference = traces(&mut mapped(), &[]);
        let t = traces(&mut mapped(), &[wheel]);
        assert_eq!(changed(&reference, &t), [1, 2, 3], "mod wheel on {target}");
    }
}

/// A mass poly-mod arriving during a contact leaves that contact as it started (dry
/// output bit-identical until it ends) and changes the next one.
#[test]
fn a_contact_in_progress_keeps_its_latched_parameters() {
    let dry = || {
        let p = plugin();
        set_norm(&p.rebound_params(), "mix", 0.0);
        p
    };
    let ev = NoteEvent::PolyModulation {
        timing: 4,
        voice_id: 1,
        poly_modulation_id: PolyTarget::Mass.id(),
        normalized_offset: 0.4,
    };
    let on = NoteEvent::NoteOn {
        timing: 0,
        voice_id: VoiceID::ID(1),
        channel: Channel::Number(0),
        key: Key::Number(60),
        velocity: 1.0,
    };
    // The voice's own dry output and whether it is in contact, sample by sample.
    let voice = |events: &[NoteEvent<()>]| {
        let mut out = Vec::new();
        run_with(&mut dry(), 1, 4000, events, |p, _| {
            let v = p.engine().voice_by_id(1);
            let contact = |v: &rebound::voice::Voice| {
                v.bouncer()
                    .is_some_and(|b| matches!(b.phase(), Phase::Contact))
            };
            out.push(v.map_or((0.0, false), |v| (v.output(), contact(v))));
        });
        out
    };
    let (a, b) = (voice(&[on]), voice(&[on, ev]));
    let end = a.iter().skip(2).position(|s| !s.1).unwrap() + 2;
    assert!(
        end > 6,
        "the first contact lasts past the event ({end} samples)"
    );
    assert!(a[end..].iter().any(|s| s.1), "no second contact");
    assert_eq!(a[..end], b[..end], "the first contact changed");
    assert_ne!(a, b, "the next contact did not take the mass");
}

/// The engine's normalisation is the plugin's: an offset moves a parameter as a
/// host's modulation of the plugin parameter would.
#[test]
fn poly_mod_offsets_use_the_parameters_own_taper() {
    let p = Rebound::default();
    let params = p.rebound_params();
    let map = params.param_map();
    for t in PolyTarget::ALL {
        let (_, ptr, _) = map.iter().find(|(i, _, _)| i == t.param_id()).unwrap();
        assert_eq!(unsafe { ptr.poly_modulation_id() }, Some(t.id()), "{t:?}");
        let n = spec::number(t.param_id()).unwrap();
        for x in [0.0f32, 0.13, 0.5, 0.87, 1.0] {
            let host = unsafe { ptr.preview_plain(x) } as f64;
            // Log-scaled parameters hold their log10.
            let plain = if n.scale == spec::Scale::Log {
                10f64.powf(host)
            } else {
                host
            };
            let ours = normalized::unnormalize(n, x as f64);
            assert!(
                (ours - plain).abs() <= 1e-5 * plain.abs().max(1e-3),
                "{t:?} {x}"
            );
        }
    }
}

/// Every expression at its extremes (and NaN), on every parameter at both ends of its
/// range: finite output, no allocation.
#[test]
fn extreme_expression_stays_finite_and_does_not_allocate() {
    let before = alloc_violations();
    for end in [0.0f32, 1.0] {
        let mut p = plugin();
        let params = p.rebound_params();
        for n in spec::NUMBERS.iter().filter(|n| n.id != "voices") {
            set_norm(&params, n.id, end);
        }
        set_norm(&params, "mwheel", 1.0);
        let mut events = notes();
        for (i, v) in [-1.0f32, 1.0, f32::NAN, 0.0, 1e9].into_iter().enumerate() {
            let at = 200 + 300 * i as u32;
            let (id, key, ch) = TARGET;
            let c = Channel::Number(ch);
            let k = Key::Number(key);
            let vid = VoiceID::ID(id);
            events.extend(PolyTarget::ALL.iter().map(|&t| NoteEvent::PolyModulation {
                timing: at,
                voice_id: id,
                poly_modulation_id: t.id(),
                normalized_offset: v,
            }));
            events.extend([
                NoteEvent::PolyPressure {
                    timing: at,
                    voice_id: vid,
                    channel: c,
                    key: k,
                    pressure: v,
                },
                NoteEvent::PolyTuning {
                    timing: at,
                    voice_id: vid,
                    channel: c,
                    key: k,
                    tuning: 200.0 * v,
                },
                NoteEvent::PolyBrightness {
                    timing: at,
                    voice_id: vid,
                    channel: c,
                    key: k,
                    brightness: v,
                },
                NoteEvent::MidiChannelPressure {
                    timing: at,
                    channel: ch,
                    pressure: v,
                },
                NoteEvent::MidiPitchBend {
                    timing: at,
                    channel: ch,
                    value: v,
                },
                NoteEvent::MidiCC {
                    timing: at,
                    channel: ch,
                    cc: CC_TIMBRE,
                    value: v,
                },
                NoteEvent::MidiCC {
                    timing: at,
                    channel: 0,
                    cc: CC_MOD_WHEEL,
                    value: v,
                },
            ]);
        }
        events.sort_by_key(|e| e.timing());
        let (l, r, _) = run(&mut p, 64, 2400, &events);
        assert!(l.iter().chain(&r).all(|s| s.is_finite()), "end {end}");
        assert_eq!(p.engine().guard_events(), 0, "end {end}");
    }
    assert_eq!(
        alloc_violations() - before,
        0,
        "allocations inside process()"
    );
}
