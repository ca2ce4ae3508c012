//! Proves the plugin's real `process()` (driven through small test implementations of
//! nice-plug's contexts) starts notes at their exact sample, stays finite across every
//! parameter's range × sample rates × block sizes, never allocates, bounces with gaps
//! `2|v_out|/g`, latches contact parameters at onset, retriggers and steals without
//! clicks, and round-trips its state.

use nice_plug::midi::Key;
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::RUNAWAY;
use rebound::model::Bouncer;
use rebound::params::ReboundParams;
use rebound::voice::{contact_of, velocity_to_speed};

mod support;
use support::*;

#[test]
fn note_sounds_at_its_exact_sample() {
    for (block, at) in [
        (64usize, 100u32),
        (7, 50),
        (512, 1000),
        (1, 13),
        (4096, 3000),
    ] {
        let mut p = activated(48000.0, block as u32);
        let (l, r, _) = run(&mut p, block, 8192, &[note_on(at, 60, 0.8)]);
        let at = at as usize;
        // Both channels (the default width makes them differ).
        for x in [&l, &r] {
            assert!(
                x[..at].iter().all(|s| *s == 0.0),
                "sound before the note (block {block})"
            );
            assert!(
                x[at].abs() > 1e-4,
                "silent at the note's sample (block {block}): {}",
                x[at]
            );
        }
    }
}

const RATES: [f32; 6] = [22050.0, 44100.0, 48000.0, 96000.0, 192000.0, 384000.0];
const BLOCKS: [usize; 5] = [1, 7, 64, 512, 4096];

/// Every parameter at both ends of its range (the others at their defaults, then all at
/// their minimum and all at their maximum) × every rate × every block size: finite
/// output that never reaches the output clip, no guard event, and not one allocation
/// inside process(). One test a rate (the dearest rates' cases in two halves), so that
/// the harness runs them side by side.
#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_22050() {
    range_ends_at(0, 0, 1);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_44100() {
    range_ends_at(1, 0, 1);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_48000() {
    range_ends_at(2, 0, 1);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_96000() {
    range_ends_at(3, 0, 1);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_192000_even() {
    range_ends_at(4, 0, 2);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_192000_odd() {
    range_ends_at(4, 1, 2);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_384000_even() {
    range_ends_at(5, 0, 2);
}

#[test]
fn output_is_finite_at_every_range_end_and_block_size_at_384000_odd() {
    range_ends_at(5, 1, 2);
}

/// The range ends × block sizes at `RATES[ri]`: of the cases, those `part` modulo
/// `parts`.
fn range_ends_at(ri: usize, part: usize, parts: usize) {
    let fs = &RATES[ri];
    let ids: Vec<String> = ReboundParams::default()
        .param_map()
        .into_iter()
        .map(|(id, _, _)| id)
        .collect();
    let mut cases: Vec<(Option<String>, f32)> = Vec::new();
    for id in &ids {
        cases.push((Some(id.clone()), 0.0));
        cases.push((Some(id.clone()), 1.0));
    }
    cases.push((None, 0.0));
    cases.push((None, 1.0));
    let before = alloc_violations();
    let started = std::time::Instant::now();
    let mut runs = 0;
    let mut worst: f64 = 0.0;
    for (case, (id, end)) in cases.iter().enumerate().skip(part).step_by(parts) {
        for (bi, block) in BLOCKS.iter().enumerate() {
            // Bouncing on in half the runs so flights and re-strikes are covered too.
            let mut p = activated(*fs, *block as u32);
            let params = p.rebound_params();
            match id {
                Some(id) => set_norm(&params, id, *end),
                None => {
                    // Every parameter at its end but the output gain: a calibrated
                    // strike peaks at −6 dBFS, and +12 dB on a few of them would
                    // rightly reach the clip.
                    for i in ids.iter().filter(|i| *i != "gain") {
                        set_norm(&params, i, *end);
                    }
                }
            }
            if (case + ri + bi) % 2 == 1 && id.as_deref() != Some("bounce") {
                set_norm(&params, "bounce", 1.0);
            }
            let total = 1500.max(*block);
            let events = [
                note_on(0, 127, 1.0),
                note_on(3, 0, 0.0),
                note_on(700, 60, 1.0),
                note_on(701, 60, 0.5),
            ];
            let (l, _, _) = run(&mut p, *block, total, &events);
            // Nothing clips the output: it is finite, under the runaway guard's
            // threshold, and no guard had to fire.
            let e = p.engine();
            assert!(
                l.iter().all(|s| s.is_finite())
                    && e.output_peak() < RUNAWAY
                    && e.guard_events() == 0,
                "{id:?} at {end}, fs {fs}, block {block}: peak {}, {} guard events",
                e.output_peak(),
                e.guard_events()
            );
            worst = worst.max(e.output_peak());
            runs += 1;
        }
    }
    let violations = alloc_violations() - before;
    eprintln!(
        "{fs} Hz: {runs} runs in {:.1} s, peak {worst:.3}",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(violations, 0, "allocations inside process()");
}

#[test]
fn process_does_not_allocate() {
    let before = alloc_violations();
    let mut p = activated(48000.0, 256);
    let params = p.rebound_params();
    set_norm(&params, "bounce", 1.0);
    set_norm(&params, "voices", 0.0);
    let events: Vec<_> = (0..40)
        .map(|i| note_on(i * 300, 40 + (i % 30) as u8, 0.3 + 0.017 * i as f32))
        .collect();
    let (l, _, sent) = run(&mut p, 256, 48000, &events);
    assert!(l.iter().all(|s| s.is_finite()));
    assert!(!sent.is_empty(), "stolen voices must be reported");
    assert_eq!(alloc_violations() - before, 0);
}

/// Every held gesture (a crumple's re-strikes, a roll's and a scrape's contact on the
/// surface, their note-offs) plays without allocating, finite, at its extremes too.
#[test]
fn held_gestures_do_not_allocate() {
    for gesture in 1..4 {
        for (rate, rough) in [(0.0, 0.0), (1.0, 1.0)] {
            let before = alloc_violations();
            let mut p = activated(48000.0, 256);
            let params = p.rebound_params();
            set_norm(&params, "gesture", gesture as f32 / 3.0);
            set_norm(&params, "crate", rate);
            set_norm(&params, "rough", rough);
            set_norm(&params, "radius", 1.0 - rough);
            let mut events: Vec<_> = (0..8)
                .map(|i| note_on(i * 1000, 48 + 5 * i as u8, 0.4 + 0.07 * i as f32))
                .collect();
            events.extend((0..8).map(|i| note_off(20_000 + i * 500, 48 + 5 * i as u8, -1)));
            let (l, _, _) = run(&mut p, 256, 48000, &events);
            assert!(l.iter().all(|s| s.is_finite()), "gesture {gesture}");
            assert!(
                l.iter().any(|s| s.abs() > 1e-4),
                "gesture {gesture} is silent"
            );
            assert_eq!(alloc_violations() - before, 0, "gesture {gesture}");
        }
    }
}

#[test]
fn bouncing_onsets_are_spaced_by_the_flight_time() {
    let fs = 48000.0;
    let mut p = activated(fs as f32, 512);
    let params = p.rebound_params();
    set_norm(&params, "bounce", 1.0);
    set_norm(&params, "controls", 1.0); // Expert: the core below uses k and μ as set
    set_norm(&params, "body", 0.0); // dry pulse only
    set_plain(&params, "grav", 9.81);
    let (l, _, _) = run(&mut p, 512, (fs * 1.2) as usize, &[note_on(0, 60, 1.0)]);
    // The same sequence straight from the core: contact samples and v_out per impact.
    let ep = params.engine_params();
    let (c, s) = contact_of(&ep);
    let mut b = Bouncer::strike(c, s, velocity_to_speed(&ep, 1.0), fs, Some(ep.gravity));
    // (onset sample, exact onset and exit instants in samples, v_out) per impact.
    let mut model = Vec::new();
    let mut n = 0usize;
    let mut onset = (0, 0.0);
    while !b.is_done() && n < l.len() {
        let smp = b.step(|| (c, s));
        if smp.onset {
            onset = (n, n as f64 + b.impact().start_fraction());
        }
        if smp.detached {
            let exit = n as f64 + b.impact().exit_fraction();
            model.push((onset.0, onset.1, exit, b.impact().v()));
        }
        n += 1;
    }
    let found = onsets(&l);
    assert!(found.len() >= 5, "found {} onsets", found.len());
    let checked = found.len().min(model.len()) - 1;
    let mut worst: f64 = 0.0;
    for k in 0..checked {
        // An onset late in its sample may move too little in it to be seen until the
        // next.
        let late = found[k].checked_sub(model[k].0);
        assert!(
            matches!(late, Some(0 | 1)),
            "onset {k} differs from the core: {} vs {}",
            found[k],
            model[k].0
        );
        let (_, _, exit, v_out) = model[k];
        let flight = 2.0 * v_out.abs() / ep.gravity * fs;
        let gap = model[k + 1].1 - exit;
        worst = worst.max((gap - flight).abs());
        assert!(
            (gap - flight).abs() <= 1e-6,
            "bounce {k}: gap {gap} samples, 2|v_out|/g = {flight}"
        );
    }
    eprintln!("{checked} bounce gaps within {worst:.2e} samples of 2|v_out|/g");
}

#[test]
fn integrator_switch_mid_contact_changes_nothing_until_the_next_impact() {
    let fs = 48000.0;
    let setup = |p: &mut Rebound| {
        let params = p.rebound_params();
        set_norm(&params, "bounce", 1.0);
        set_norm(&params, "body", 0.0);
        set_norm(&params, "mix", 0.0);
        set_norm(&params, "method", 0.0); // Verlet
        set_norm(&params, "corr", 0.0); // none
        set_norm(&params, "controls", 1.0); // Expert
        set_plain(&params, "k", 5.0); // soft: a long contact
    };
    let total = 30000;
    let mut a = activated(fs, 3);
    setup(&mut a);
    let (ya, _, _) = run(&mut a, 3, total, &[note_on(0, 60, 1.0)]);
    let mut b = activated(fs, 3);
    setup(&mut b);
    let (yb, _, _) = run_with(&mut b, 3, total, &[note_on(0, 60, 1.0)], |p, start| {
        if start == 6 {
            let params = p.rebound_params();
            set_norm(&params, "method", 1.0); // AM1
            set_norm(&params, "corr", 1.0); // both
        }
    });
    let found = onsets(&ya);
    assert!(found.len() >= 2, "need a second impact");
    let second = found[1];
    assert!(
        second > 6 + 3,
        "the switch must fall inside the first contact"
    );
    assert_eq!(
        ya[..second],
        yb[..second],
        "the contact in progress changed"
    );
    assert_ne!(
        ya[second..],
        yb[second..],
        "the next impact must use the new scheme"
    );
}

#[test]
fn retrigger_and_steal_do_not_click() {
    let fs = 48000.0;
    let (at, win) = (4000u32, 256usize);
    let w = |y: &[f32]| max_step(&y[at as usize - 64..at as usize + win]);
    // Retrigger of a ringing key, and of a key still in contact (dry pulse included).
    for (mix, second) in [(1.0, at), (0.0, 5)] {
        let mut r = activated(fs, 64);
        set_norm(&r.rebound_params(), "mix", mix);
        let (y, _, _) = run(
            &mut r,
            64,
            8000,
            &[note_on(0, 60, 1.0), note_on(second, 60, 1.0)],
        );
        let mut one = activated(fs, 64);
        set_norm(&one.rebound_params(), "mix", mix);
        let (y1, _, _) = run(&mut one, 64, 8000, &[note_on(0, 60, 1.0)]);
        let s = second as usize;
        let lo = s.saturating_sub(64);
        let step = max_step(&y[lo..s + win]);
        let reference = max_step(&y1[lo..s + win]) + max_step(&y1[..win]);
        assert!(
            step <= 1.1 * reference,
            "retrigger step {step} vs {reference} (mix {mix})"
        );
    }
    // Steal with one voice: the old voice fades over a few ms.
    let mut s = activated(fs, 64);
    body_only(&mut s);
    set_norm(&s.rebound_params(), "voices", 0.0);
    let (y, _, sent) = run(
        &mut s,
        64,
        8000,
        &[note_on(0, 60, 1.0), note_on(at, 67, 1.0)],
    );
    let mut old = activated(fs, 64);
    body_only(&mut old);
    let (yo, _, _) = run(&mut old, 64, 8000, &[note_on(0, 60, 1.0)]);
    let mut new = activated(fs, 64);
    body_only(&mut new);
    let (yn, _, _) = run(&mut new, 64, 8000, &[note_on(at, 67, 1.0)]);
    let step = w(&y);
    let reference = w(&yo) + w(&yn);
    assert!(step <= 1.1 * reference, "steal step {step} vs {reference}");
    assert!(
        sent.iter().any(|e| matches!(
            e,
            NoteEvent::VoiceTerminated {
                key: Key::Number(60),
                ..
            }
        )),
        "the stolen voice must be reported terminated"
    );
}
