//! The voice's two-way strike: its budget and the modes' free decay.

use super::*;
use crate::engine::Controls;
use crate::engine::voice::{body_settings, latch_of, train_of};

impl TwoWay {
    /// This strike with its exits solved `slice` units a sample (`u32::MAX`: each in
    /// one go in its impact's first sample, before the contact can end).
    fn with_exit_slice(mut self, slice: u32) -> Self {
        self.slice = slice;
        self
    }

    /// True while a flight waits at its landing for its exit.
    fn waiting(&self) -> bool {
        matches!(self.stage, Stage::Flight { land: Some(_), .. }) && self.decision.pending()
    }
}

/// The strike of `p` at its top speed on key 60: the step rule's count, and
/// whether the voice takes it.
fn taken(p: &EngineParams, fs: f64) -> (Option<u32>, bool) {
    let (latch, st, v) = (latch_of(p), body_settings(p, 60), p.v_max);
    let (modes, n) = strike_modes(&st, p.body_mass);
    let modes = StrikeModes::from_modes(modes[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
    let sys = Coupled {
        contact: latch.contact_at(v),
        modes,
    };
    let mut cache = ModesCache::EMPTY;
    let voice = TwoWay::new(p, &st, &latch, v, fs, train_of(p), &mut cache);
    (sys.substeps(v, 1.0 / fs), voice.is_some())
}

/// A contact past the voice's budget at 44.1 and 48 kHz: a 0.1 g striker at 50 m/s,
/// k 1e8 with α 1, on a 1 g body (486 steps a sample at 44.1 kHz).
fn stiff() -> EngineParams {
    EngineParams {
        controls: Controls::Expert,
        k: 1e8,
        alpha: 1.0,
        mass: 1e-4,
        v_max: 50.0,
        coupling: Coupling::TwoWay,
        body_mass: 1e-3,
        ..Default::default()
    }
}

/// A contact the coupled rule takes (486 steps a sample) but the voice's budget does
/// not is refused (the rigid wall plays it); the default patch and the stiffest
/// Hardness on a 10 g body are taken.
#[test]
fn the_voice_refuses_a_strike_past_its_budget() {
    let stiff = stiff();
    let (rule, voice) = taken(&stiff, 44_100.0);
    assert!(
        rule.is_some_and(|n| n > MAX_VOICE_SUBSTEPS) && !voice,
        "{rule:?}"
    );
    for p in [
        EngineParams {
            coupling: Coupling::TwoWay,
            ..Default::default()
        },
        EngineParams {
            hardness_ms: 0.02,
            body_mass: 0.01,
            ..stiff
        },
    ] {
        let p = EngineParams {
            controls: Controls::Playable,
            ..p
        };
        assert!(taken(&p, 44_100.0).1, "{p:?}");
    }
    // The rigid wall and a body of None never take the coupled path.
    let rigid = EngineParams::default();
    assert!(!taken(&rigid, 48_000.0).1);
    let none = EngineParams {
        body: BodyType::None,
        coupling: Coupling::TwoWay,
        ..Default::default()
    };
    assert!(!taken(&none, 48_000.0).1);
}

/// The voice's budget is per second above 48 kHz: a strike the voice refuses at 48 kHz
/// (486 steps a sample at 44.1 kHz) is refused at every higher rate too, though the
/// step rule's count falls under 128 a sample there (at 384 kHz, 56); one it takes at
/// 48 kHz it takes at every rate.
#[test]
fn the_budget_refuses_the_same_strikes_at_every_rate() {
    let stiff = stiff();
    let default = EngineParams {
        coupling: Coupling::TwoWay,
        ..Default::default()
    };
    assert!(!taken(&stiff, 48_000.0).1);
    assert!(taken(&default, 48_000.0).1);
    for fs in [88_200.0, 96_000.0, 192_000.0, 384_000.0] {
        let (rule, voice) = taken(&stiff, fs);
        assert!(!voice, "{fs} Hz: {rule:?} steps a sample taken");
        assert!(taken(&default, fs).1, "{fs} Hz: the default patch refused");
    }
    assert!(
        taken(&stiff, 384_000.0)
            .0
            .is_some_and(|n| n <= MAX_VOICE_SUBSTEPS)
    );
    assert_eq!(max_voice_substeps(44_100.0), MAX_VOICE_SUBSTEPS);
    assert_eq!(max_voice_substeps(384_000.0), 16);
}

/// The closed-form free decay against many small steps of the exact solution's ODE
/// (RK4), for an underdamped, an overdamped and a critically damped mode.
#[test]
fn free_modes_follow_the_free_decay() {
    for (f, t60) in [
        (440.0, 1.0),
        (20.0, 0.01),
        (1.0, 1000f64.ln() / (2.0 * std::f64::consts::PI)),
    ] {
        let m = StrikeModes::from_modes([(f, t60, 1.0)]);
        let (o, sg) = (m.omega[0], m.sigma[0]);
        let mut s = State::onset(0.0);
        (s.w[0], s.u[0]) = (1e-3, 0.5);
        let mut exact = s;
        free_modes(&m, &mut exact, 0.01);
        let acc = |w: f64, u: f64| -o * o * w - 2.0 * sg * u;
        let (mut w, mut u) = (s.w[0], s.u[0]);
        let n = 100_000;
        let h = 0.01 / n as f64;
        for _ in 0..n {
            let (k1w, k1u) = (u, acc(w, u));
            let (k2w, k2u) = (u + 0.5 * h * k1u, acc(w + 0.5 * h * k1w, u + 0.5 * h * k1u));
            let (k3w, k3u) = (u + 0.5 * h * k2u, acc(w + 0.5 * h * k2w, u + 0.5 * h * k2u));
            let (k4w, k4u) = (u + h * k3u, acc(w + h * k3w, u + h * k3u));
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
            u += h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
        }
        let scale = 1e-3 + 0.5 / o;
        assert!(
            (exact.w[0] - w).abs() < 1e-9 * scale,
            "{f} Hz: w {} vs {w}",
            exact.w[0]
        );
        assert!(
            (exact.u[0] - u).abs() < 1e-9 * scale * o,
            "{f} Hz: u {} vs {u}",
            exact.u[0]
        );
    }
}

/// A patch drawn from the full ranges (every number uniform in the host's normalised
/// value, every choice uniform), bouncing on a body that gives.
fn random_two_way_patch(uniform: &mut impl FnMut() -> f64, in_contact: bool) -> EngineParams {
    use crate::engine::spec::normalized::unnormalize;
    use crate::engine::spec::{CHOICES, NUMBERS};
    let mut p = EngineParams::default();
    for n in NUMBERS.iter() {
        (n.set)(&mut p, unnormalize(n, uniform()));
    }
    for c in CHOICES.iter() {
        (c.set)(&mut p, (uniform() * c.choices.len() as f64) as usize);
    }
    EngineParams {
        coupling: Coupling::TwoWay,
        bouncing: true,
        gravity_in_contact: in_contact,
        ..p
    }
}

/// What a two-way train did, a sample at a time: the contact's samples, the speed each
/// onset came in at, and whether a flight waited for its exit.
#[derive(Default)]
struct Played {
    samples: Vec<(u64, bool, bool)>,
    onsets: Vec<(usize, u64)>,
    waited: Vec<usize>,
}

fn play(mut t: TwoWay, samples: usize) -> Played {
    let mut out = Played::default();
    for i in 0..samples {
        let s = t.step();
        if s.onset {
            out.onsets.push((i, t.v_in.to_bits()));
        }
        if t.waiting() {
            out.waited.push(i);
        }
        out.samples.push((s.dv.to_bits(), s.onset, s.detached));
    }
    out
}

/// The decision whether an impact is its train's last, its load-aware exit solved a
/// slice a sample (`EXIT_SLICE`, as the rigid wall's bouncer), against the same train
/// with each exit solved at its onset: over random bouncing patches of the full ranges
/// (gravity in contact and in flight only), every sample of the contact bit for bit the
/// same, up to a landing whose exit was not known at its return. That flight waits at
/// its landing and lands at the start of the sample its exit arrives in, later, at the
/// exact flight's return speed; an exit that says the striker sticks ends the train in
/// its (silent) flight, which changes no sample.
#[test]
fn sliced_exits_play_the_train_of_exits_solved_at_onset() {
    let mut state = 0x7e57_5eed_u64;
    let mut uniform = move || {
        state = crate::model::irregular::splitmix64(state);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let fs = 48_000.0;
    let (mut played, mut same, mut late, mut waits) = (0, 0, 0, 0);
    for i in 0..240 {
        let p = random_two_way_patch(&mut uniform, i % 2 == 0);
        let key = (uniform() * 128.0) as u8;
        let (latch, st) = (latch_of(&p), body_settings(&p, key));
        let v_in = crate::engine::voice::velocity_to_speed(&p, uniform());
        let strike = |slice: u32| {
            let mut cache = ModesCache::EMPTY;
            TwoWay::new(&p, &st, &latch, v_in, fs, train_of(&p), &mut cache)
                .map(|t| t.with_exit_slice(slice))
        };
        let Some(whole) = strike(u32::MAX) else {
            continue;
        };
        played += 1;
        let n = (0.1 * fs) as usize;
        let b = play(whole, n);
        assert!(b.waited.is_empty(), "patch {i}: a whole solve never waits");
        // At the engine's slice, and at one unit a sample (three while a flight waits),
        // where many more flights wait.
        for slice in [EXIT_SLICE, 1] {
            let a = play(strike(slice).expect("the same strike"), n);
            waits += !a.waited.is_empty() as u32;
            let Some(d) = (0..n).find(|&j| a.samples[j] != b.samples[j]) else {
                same += 1;
                continue;
            };
            // The first difference is a landing the solved-at-onset train makes and the
            // sliced one holds, its flight waiting for its exit.
            late += 1;
            assert!(
                a.waited.iter().any(|&w| w < d),
                "patch {i}: sample {d} differs"
            );
            let exact = b.onsets.iter().find(|o| o.0 >= d);
            let held = a.onsets.iter().find(|o| o.0 >= d);
            assert_eq!(exact.map(|o| o.0), Some(d), "patch {i}");
            let (exact, held) = (exact.unwrap(), held.expect("the held flight lands"));
            assert!(held.0 > exact.0, "patch {i}: {held:?} {exact:?}");
            assert_eq!(held.1, exact.1, "patch {i}: the return speed");
            // It waited up to the sample before its exit arrived, and its onset is the
            // sample after that (as the solved-at-onset train's follows its landing).
            let waited = a.waited.iter().filter(|&&w| w < held.0).max().unwrap();
            assert_eq!(held.0, waited + 2, "patch {i}: lands as its exit arrives");
        }
    }
    assert!(played >= 100 && late > 0, "{played} played, {late} late");
    eprintln!("{played} two-way trains, {waits} runs waited: {same} bit for bit, {late} late");
}

/// Plays `t` to its end (at most a second): the samples it took.
fn play_out(t: &mut TwoWay, fs: f64) -> u64 {
    let mut n = 0;
    while !t.is_done() && (n as f64) < fs {
        t.step();
        n += 1;
    }
    n
}

/// A heavy striker held on a light, high body by the implicit method (a 0.75 kg
/// striker on a 1 g body at 5 kHz, as the dearest random patches) spends its work
/// budget long before its near time is up: the strike ends there, its striker lifted,
/// having spent at most one sample over the budget. The default patch's two-way
/// strike never meets it.
#[test]
fn a_strike_ends_on_its_work_budget() {
    let fs = 48_000.0;
    let strike = |p: &EngineParams| {
        let (latch, st) = (latch_of(p), body_settings(p, 60));
        let mut cache = ModesCache::EMPTY;
        TwoWay::new(p, &st, &latch, p.v_max, fs, train_of(p), &mut cache)
    };
    let heavy = EngineParams {
        coupling: Coupling::TwoWay,
        mass: 0.75,
        body_mass: 1e-3,
        body_freq: 5000.0,
        hardness_ms: 10.0,
        method: Method::Am1,
        ..Default::default()
    };
    let mut t = strike(&heavy).expect("the voice takes the strike");
    let n = play_out(&mut t, fs);
    assert!(t.is_done() && t.view().cut, "{n} samples, work {}", t.work);
    assert!(t.work > WORK_BUDGET && t.work <= WORK_BUDGET + t.cost);
    assert!(
        (n as f64) < MAX_NEAR_TIME * fs,
        "{n} samples: the near time ended it"
    );
    let default = EngineParams {
        coupling: Coupling::TwoWay,
        ..Default::default()
    };
    let mut t = strike(&default).expect("the default strike is taken");
    play_out(&mut t, fs);
    assert!(t.is_done() && !t.view().cut && t.work < WORK_BUDGET / 2);
}
