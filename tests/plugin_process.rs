//! Proves the plugin's real `process()` (driven through small test implementations of
//! nice-plug's contexts) starts notes at their exact sample, stays finite across every
//! parameter's range × sample rates × block sizes, never allocates, bounces with gaps
//! `2|v_out|/g`, latches contact parameters at onset, retriggers and steals without
//! clicks, and round-trips its state.

use nice_plug::midi::{Channel, Key, VoiceID};
use nice_plug::params::InternalParamMut;
use nice_plug::prelude::*;
use rebound::Rebound;
use rebound::engine::OUTPUT_CLIP;
use rebound::model::{Bouncer, ClampTarget, simulate_impact};
use rebound::params::ReboundParams;
use rebound::voice::{contact_of, velocity_to_speed};

mod support;
use support::{TestProcess, activated, alloc_violations, set_norm, set_plain};

/// The voice ID [`note_on`] gives a note.
fn key_id(at: u32, key: u8) -> i32 {
    key as i32 + 1000 * at as i32
}

fn note_on(at: u32, key: u8, velocity: f32) -> NoteEvent<()> {
    NoteEvent::NoteOn {
        timing: at,
        voice_id: VoiceID::ID(key_id(at, key)),
        channel: Channel::Number(0),
        key: Key::Number(key),
        velocity,
    }
}

/// Runs `total` samples through `process()` in blocks of `block`, with note events at
/// absolute sample times. Returns (left, right, events sent to the host).
fn run(
    p: &mut Rebound,
    block: usize,
    total: usize,
    events: &[NoteEvent<()>],
) -> (Vec<f32>, Vec<f32>, Vec<NoteEvent<()>>) {
    run_with(p, block, total, events, |_, _| {})
}

fn run_with(
    p: &mut Rebound,
    block: usize,
    total: usize,
    events: &[NoteEvent<()>],
    mut before_block: impl FnMut(&mut Rebound, usize),
) -> (Vec<f32>, Vec<f32>, Vec<NoteEvent<()>>) {
    let mut left = vec![0.0f32; total];
    let mut right = vec![0.0f32; total];
    let mut ctx = TestProcess::new();
    let mut all_sent = Vec::new();
    let mut start = 0;
    while start < total {
        let n = block.min(total - start);
        before_block(p, start);
        ctx.events.clear();
        for e in events {
            let t = e.timing() as usize;
            if t >= start && t < start + n {
                let mut e = *e;
                e.subtract_timing(start as u32);
                ctx.events.push_back(e);
            }
        }
        let mut buffer = Buffer::default();
        let (l, r) = (&mut left[start..start + n], &mut right[start..start + n]);
        unsafe {
            buffer.set_slices(n, |slices| {
                slices.clear();
                slices.push(l);
                slices.push(r);
            });
        }
        let mut aux = AuxiliaryBuffers {
            inputs: &mut [],
            outputs: &mut [],
        };
        let status = p.process(&mut buffer, &mut aux, &mut ctx);
        assert!(!matches!(status, ProcessStatus::Error(_)));
        all_sent.append(&mut ctx.sent);
        start += n;
    }
    (left, right, all_sent)
}

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
        assert!(
            l[..at].iter().all(|s| *s == 0.0),
            "sound before the note (block {block})"
        );
        assert!(
            l[at].abs() > 1e-4,
            "silent at the note's sample (block {block}): {}",
            l[at]
        );
        assert_eq!(l, r);
    }
}

const RATES: [f32; 6] = [22050.0, 44100.0, 48000.0, 96000.0, 192000.0, 384000.0];
const BLOCKS: [usize; 5] = [1, 7, 64, 512, 4096];

/// Every parameter at both ends of its range (the others at their defaults, then all at
/// their minimum and all at their maximum) × every rate × every block size: finite
/// output that never reaches the output clip, no guard event, and not one allocation
/// inside process().
#[test]
fn output_is_finite_at_every_range_end_rate_and_block_size() {
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
    for (case, (id, end)) in cases.iter().enumerate() {
        for (ri, fs) in RATES.iter().enumerate() {
            for (bi, block) in BLOCKS.iter().enumerate() {
                // Bouncing on in half the runs so flights and re-strikes are covered too.
                let mut p = activated(*fs, *block as u32);
                let params = p.rebound_params();
                match id {
                    Some(id) => set_norm(&params, id, *end),
                    None => {
                        for i in &ids {
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
                // The output clip makes |s| <= 2 true by construction: check instead
                // that nothing upstream needed it, and that no guard had to fire.
                let e = p.engine();
                assert!(
                    l.iter().all(|s| s.is_finite())
                        && e.peak_before_clip() < OUTPUT_CLIP as f64
                        && e.guard_events() == 0,
                    "{id:?} at {end}, fs {fs}, block {block}: peak {} before the clip, {} guard events",
                    e.peak_before_clip(),
                    e.guard_events()
                );
                worst = worst.max(e.peak_before_clip());
                runs += 1;
            }
        }
    }
    let violations = alloc_violations() - before;
    eprintln!(
        "{runs} runs in {:.1} s, peak before the clip {worst:.3}",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(violations, 0, "allocations inside process()");
}

#[cfg(debug_assertions)]
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

/// Onsets found in a dry, DC-blocked output: the first sample of each pulse.
fn onsets(y: &[f32]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut quiet = 0;
    for n in 0..y.len() {
        let prev = if n == 0 { 0.0 } else { y[n - 1] };
        let d = (y[n] - prev).abs();
        if d > 1e-5 {
            if quiet >= 2 || n == 0 {
                out.push(n);
            }
            quiet = 0;
        } else {
            quiet += 1;
        }
    }
    out
}

#[test]
fn bouncing_onsets_are_spaced_by_the_flight_time() {
    let fs = 48000.0;
    let mut p = activated(fs as f32, 512);
    let params = p.rebound_params();
    set_norm(&params, "bounce", 1.0);
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

fn max_step(y: &[f32]) -> f32 {
    y.windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f32::max)
}

fn body_only(p: &mut Rebound) {
    let params = p.rebound_params();
    set_norm(&params, "mix", 1.0);
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

fn note_off(at: u32, key: u8, voice_id: i32) -> NoteEvent<()> {
    NoteEvent::NoteOff {
        timing: at,
        voice_id: VoiceID::ID(voice_id),
        channel: Channel::Number(0),
        key: Key::Number(key),
        velocity: 0.0,
    }
}

/// The plugin's NoteOff reaches the engine: in Damp mode the voice dies away over the
/// Release without a click and its end is reported; in Ring mode nothing changes.
#[test]
fn note_off_damps_or_rings_through_process() {
    let fs = 48000.0;
    let (on, off) = (100u32, 4000u32);
    let release = 0.05;
    let total = off as usize + (4.0 * release * fs as f64) as usize;
    let id = key_id(on, 60);
    for damp in [false, true] {
        let mut p = activated(fs, 64);
        let params = p.rebound_params();
        set_norm(&params, "noteoff", if damp { 1.0 } else { 0.0 });
        set_plain(&params, "release", release as f32);
        let (y, _, sent) = run(
            &mut p,
            64,
            total,
            &[note_on(on, 60, 1.0), note_off(off, 60, id)],
        );
        let peak = y.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let r = (release * fs as f64) as usize;
        let after = y[off as usize + 2 * r..]
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()));
        let ended = sent.iter().any(|e| {
            matches!(
                e,
                NoteEvent::VoiceTerminated {
                    key: Key::Number(60),
                    ..
                }
            )
        });
        if damp {
            assert!(ended, "the damped voice must end and be reported");
            assert_eq!(p.engine().active_voices(), 0);
            // What is left is the output DC blocker settling, far below the note.
            assert!(after < 0.01 * peak, "{after} vs peak {peak}");
            let attack = max_step(&y[on as usize..on as usize + 480]);
            assert!(max_step(&y[off as usize - 1..]) <= attack);
        } else {
            assert!(!ended, "ring mode: the voice rings on");
            assert!(after > 0.03 * peak, "{after} vs peak {peak}");
        }
    }
}

#[test]
fn voice_end_is_reported_to_the_host() {
    let mut p = activated(48000.0, 512);
    let params = p.rebound_params();
    set_norm(&params, "body", 0.0);
    let (_, _, sent) = run(&mut p, 512, 4096, &[note_on(10, 64, 1.0)]);
    assert!(sent.iter().any(|e| matches!(
        e,
        NoteEvent::VoiceTerminated {
            key: Key::Number(64),
            ..
        }
    )));
    assert_eq!(p.engine().active_voices(), 0);
}

#[test]
fn state_round_trips_exactly() {
    let a = Rebound::default();
    let pa = a.rebound_params();
    set_plain(&pa, "k", 9.3);
    set_plain(&pa, "alpha", 2.2);
    set_norm(&pa, "method", 0.66);
    set_norm(&pa, "bounce", 1.0);
    set_plain(&pa, "t60", 3.3);
    set_norm(&pa, "noteoff", 1.0);
    set_plain(&pa, "release", 0.3);
    set_plain(&pa, "gain", -7.5);
    set_plain(&pa, "voices", 9.0);
    pa.editor_size.set_size(777, 555);
    // What the host wrapper saves and restores: plain values by ID (set back as plain
    // values, as nice-plug's state code does), and the persisted fields as JSON.
    let fields = pa.serialize_fields();
    assert!(fields.contains_key("editor-size"));

    let b = Rebound::default();
    let pb = b.rebound_params();
    for ((_, from, _), (_, to, _)) in pa.param_map().into_iter().zip(pb.param_map()) {
        unsafe {
            match (from, to) {
                (ParamPtr::FloatParam(a), ParamPtr::FloatParam(b)) => {
                    (*b)._internal_set_plain_value((*a).unmodulated_plain_value());
                }
                (ParamPtr::IntParam(a), ParamPtr::IntParam(b)) => {
                    (*b)._internal_set_plain_value((*a).unmodulated_plain_value());
                }
                (ParamPtr::BoolParam(a), ParamPtr::BoolParam(b)) => {
                    (*b)._internal_set_plain_value((*a).unmodulated_plain_value());
                }
                (ParamPtr::EnumParam(a), ParamPtr::EnumParam(b)) => {
                    (*b)._internal_set_plain_value((*a).unmodulated_plain_value());
                }
                _ => panic!("parameter maps differ"),
            }
        }
    }
    pb.deserialize_fields(&fields);
    for ((id, ptr_a, _), (_, ptr_b, _)) in pa.param_map().into_iter().zip(pb.param_map()) {
        unsafe {
            assert_eq!(
                ptr_a.unmodulated_plain_value(),
                ptr_b.unmodulated_plain_value(),
                "{id}"
            );
        }
    }
    assert_eq!(pb.editor_size.size(), (777, 555));
    assert_eq!(pa.engine_params(), pb.engine_params());
}

/// The editor's figures are the paper's: %dev(H) of eq (27) over |ΔH_τ|, %err(v_out) of
/// eq (28) with its sign, and the runaway flag, as `simulate_impact` (and so `rebound
/// simulate`) measures the same contact against the exact v_out.
#[test]
fn trace_figures_match_simulate_impact() {
    // (k, mu, mass, v_max as log10; alpha; method 0..3; correction 0..3)
    let half = 0.5f32.log10();
    let cases = [
        (9.0, half, -2.0, 0.3, 1.5, 0, 0),
        (9.0, half, -2.0, 0.3, 1.5, 1, 0),
        (9.0, half, -2.0, 0.3, 1.5, 2, 0),
        (9.0, half, -2.0, 0.3, 1.5, 3, 1),
        (7.0, -2.0, -2.0, 0.3, 1.3, 1, 0),
        (5.0, 0.0, -2.0, 0.3, 2.2, 0, 2),
        // Far shorter than a sample: exits in closed form (with the paper's one step a
        // sample it would run away; the instrument's sub-steps leave no runaway here,
        // and core_robust.rs exercises the flag).
        (12.0, 1.0, -4.0, 50f32.log10(), 1.5, 0, 0),
    ];
    for (k, mu, mass, vmax, alpha, method, corr) in cases {
        let mut p = activated(48000.0, 256);
        let params = p.rebound_params();
        set_norm(&params, "body", 0.0);
        set_plain(&params, "k", k);
        set_plain(&params, "mu", mu);
        set_plain(&params, "mass", mass);
        set_plain(&params, "vmax", vmax);
        set_plain(&params, "alpha", alpha);
        set_norm(&params, "method", method as f32 / 3.0);
        set_norm(&params, "corr", corr as f32 / 3.0);
        let mut events = vec![note_on(0, 60, 1.0)];
        while p.engine().last_trace().seq == 0 {
            run(&mut p, 256, 256, &events);
            events.clear();
        }
        let t = p.engine().last_trace().clone();
        let ep = *p.engine().params();
        let (c, s) = contact_of(&ep);
        let r = simulate_impact(
            c,
            s,
            velocity_to_speed(&ep, 1.0),
            48000.0,
            ClampTarget::Exact,
        );
        let case = format!("k 1e{k}, mu 1e{mu}, m 1e{mass}, v 1e{vmax}, alpha {alpha}, {s:?}");
        assert_eq!(t.v_in, r.v_in, "{case}");
        assert_eq!(t.dev_h_pct, r.dev_h_pct, "{case}");
        assert_eq!(t.err_vout_pct, r.err_vout_pct, "{case}");
        assert_eq!(t.runaway, r.runaway, "{case}");
        eprintln!(
            "{case}: %dev(H) {:.4e}, %err {:+.4e}, runaway {}",
            t.dev_h_pct, t.err_vout_pct, t.runaway
        );
    }
}

/// Worst-case patches with contacts far beyond 4096 samples or far shorter than one:
/// every method with and without the corrections. Each first contact must end, the
/// output stay finite, and nothing allocate inside `process()`.
#[test]
fn worst_case_patches_do_not_allocate_and_end() {
    // (name, [(param id, plain value)], velocity, shortest first contact in samples)
    type Patch = (&'static str, &'static [(&'static str, f32)], f32, u64);
    let patches: [Patch; 4] = [
        // v_in = v_min = 0.1 m/s: the contact lasts about 55 000 samples.
        (
            "k 1e2, alpha 3, v 0.1",
            &[("k", 2.0), ("alpha", 3.0)],
            0.0,
            40_000,
        ),
        ("mu 10, v 4", &[("mu", 1.0), ("vmax", 0.60206)], 1.0, 1),
        ("mu 10, v 50", &[("mu", 1.0), ("vmax", 1.69897)], 1.0, 1),
        ("k 1e12, v 50", &[("k", 12.0), ("vmax", 1.69897)], 1.0, 1),
    ];
    let before = alloc_violations();
    let mut wrong = Vec::new();
    for (name, set, velocity, min_samples) in patches {
        for method in 0..4 {
            for corr in [0.0, 1.0] {
                let case = format!("{name}, method {method}, corr {corr}");
                let mut p = activated(48000.0, 512);
                let params = p.rebound_params();
                set_norm(&params, "body", 0.0);
                set_norm(&params, "method", method as f32 / 3.0);
                set_norm(&params, "corr", corr);
                for (id, v) in set {
                    set_plain(&params, id, *v);
                }
                let mut done = false;
                let mut start = 0usize;
                let mut events = vec![note_on(0, 60, velocity)];
                while start < 1_000_000 && !done {
                    let (l, _, _) = run(&mut p, 512, 512, &events);
                    events.clear();
                    assert!(l.iter().all(|s| s.is_finite()), "{case}");
                    done = p.engine().last_trace().seq > 0 && p.engine().active_voices() == 0;
                    start += 512;
                }
                let t = p.engine().last_trace();
                if !done {
                    wrong.push(format!("{case}: no end in {start} samples"));
                } else if t.samples < min_samples {
                    wrong.push(format!("{case}: contact of {} samples", t.samples));
                }
                eprintln!("{case}: {} samples, runaway {}", t.samples, t.runaway);
            }
        }
    }
    let violations = alloc_violations() - before;
    assert_eq!(violations, 0, "allocations inside process()");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[cfg(debug_assertions)]
#[test]
fn allocation_checker_is_live() {
    // Guards the tests above against a silently disabled checker.
    let before = alloc_violations();
    assert_no_alloc::assert_no_alloc(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(alloc_violations() > before);
}
