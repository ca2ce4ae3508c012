//! The Crumple gesture through the offline engine: a held key plays a seeded, irregular
//! train of real strikes, which stops at the note-off; the Strike gesture is what it
//! always was.

use rebound::engine::{EngineParams, Gesture, NoteSpec, render};

const FS: f64 = 48_000.0;

fn crumple(seed: f64) -> EngineParams {
    EngineParams {
        gesture: Gesture::Crumple,
        mix: 0.0,
        seed,
        ..Default::default()
    }
}

/// Two seconds held, then a second to ring out.
fn held(p: &EngineParams, velocity: f32) -> Vec<f32> {
    let notes = [NoteSpec {
        at: 0,
        key: 60,
        velocity,
        off: Some((2.0 * FS) as usize),
    }];
    render(p, FS, &notes, (3.0 * FS) as usize).left
}

/// A click is counted from −40 dB of the loudest: over the output stage's slow
/// undershoot after each pulse (about −45 dB), under the faintest event (−24 dB).
const CLICK_FLOOR: f32 = 1e-2;

/// Onsets of separate clicks in a dry render: where the magnitude rises through
/// `floor` after at least a millisecond under it.
fn onsets(y: &[f32], floor: f32) -> Vec<usize> {
    let quiet = (0.001 * FS) as usize;
    let mut out = Vec::new();
    let mut under = quiet;
    for (i, s) in y.iter().enumerate() {
        if s.abs() >= floor {
            if under >= quiet {
                out.push(i);
            }
            under = 0;
        } else {
            under += 1;
        }
    }
    out
}

fn peak(y: &[f32]) -> f32 {
    y.iter().fold(0.0f32, |m, s| m.max(s.abs()))
}

#[test]
fn a_held_crumple_is_an_irregular_train_of_clicks() {
    let y = held(&crumple(1.0), 1.0);
    assert!(y.iter().all(|s| s.is_finite()));
    let top = peak(&y);
    assert!(top > 0.0 && top < 1.0, "peak {top}");
    let at = onsets(&y, CLICK_FLOOR * top);
    assert!((10..=3000).contains(&at.len()), "{} clicks", at.len());
    // Nothing starts after the key is up.
    assert!(at.iter().all(|&i| i < (2.0 * FS) as usize + 1), "{at:?}");
    let gaps: Vec<f64> = at.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64;
    let cv = var.sqrt() / mean;
    assert!(cv >= 0.5, "coefficient of variation {cv}");
}

#[test]
fn the_seed_makes_the_train() {
    let a = held(&crumple(1.0), 0.8);
    assert_eq!(a, held(&crumple(1.0), 0.8), "the same seed, the same bits");
    assert_ne!(a, held(&crumple(2.0), 0.8), "another seed, another train");
}

#[test]
fn velocity_sets_how_hard_it_is_crushed() {
    let (soft, hard) = (held(&crumple(1.0), 0.25), held(&crumple(1.0), 1.0));
    let rms =
        |y: &[f32]| (y.iter().map(|s| (*s as f64).powi(2)).sum::<f64>() / y.len() as f64).sqrt();
    let db = 20.0 * (rms(&hard) / rms(&soft)).log10();
    assert!(db > 6.0, "{db} dB");
}

/// The rate moves the count, and every rate and exponent in range stays finite and
/// under full scale at full velocity, with the body in.
#[test]
fn every_rate_and_exponent_is_safe() {
    let count = |rate: f64| {
        let p = EngineParams {
            crumple_rate: rate,
            ..crumple(3.0)
        };
        let y = held(&p, 1.0);
        onsets(&y, CLICK_FLOOR * peak(&y)).len()
    };
    let (slow, fast) = (count(5.0), count(100.0));
    assert!(fast > 3 * slow, "{slow} at 5/s, {fast} at 100/s");
    for (rate, tau) in [(1.0, 1.0), (500.0, 1.0), (500.0, 3.0), (1.0, 3.0)] {
        let p = EngineParams {
            crumple_rate: rate,
            crumple_tau: tau,
            mix: 0.7,
            ..crumple(4.0)
        };
        let y = held(&p, 1.0);
        assert!(
            y.iter().all(|s| s.is_finite()) && peak(&y) < 1.0,
            "{rate} {tau}"
        );
    }
}

/// On a body that gives (two-way coupling) every click is a two-way strike: still an
/// irregular train, finite and under full scale.
#[test]
fn a_crumple_on_a_body_that_gives() {
    let p = EngineParams {
        coupling: rebound::engine::Coupling::TwoWay,
        body_mass: 0.05,
        ..crumple(5.0)
    };
    let y = held(&p, 1.0);
    let top = peak(&y);
    assert!(
        y.iter().all(|s| s.is_finite()) && top > 0.0 && top < 1.0,
        "{top}"
    );
    let at = onsets(&y, CLICK_FLOOR * top);
    assert!(at.len() >= 10, "{} clicks", at.len());
}

/// Strike is the gesture every patch had: setting it changes no bit, and Crumple's own
/// controls do nothing to a strike.
#[test]
fn strike_is_unchanged() {
    let p = EngineParams::default();
    let moved = EngineParams {
        gesture: Gesture::Strike,
        crumple_rate: 300.0,
        crumple_tau: 2.5,
        radius_mm: 0.3,
        roughness_um: 50.0,
        roughness_beta: 0.5,
        ..p
    };
    assert_eq!(held(&p, 0.7), held(&moved, 0.7));
}

/// Events struck and left out by a note held for a second on `p`.
fn events_held(p: &EngineParams) -> (u32, u32) {
    use rebound::engine::Engine;
    let mut e = Engine::new(FS);
    e.set_params(p);
    e.set_sample_rate(FS);
    e.prepare_levels([60]);
    e.note_on(60, 1.0, 0, None);
    let n = FS as usize;
    e.render(&mut vec![0.0; n], &mut vec![0.0; n]);
    let v = e
        .voices()
        .find(|v| v.crumple_events() > 0)
        .expect("a crumpling voice");
    (v.crumple_events(), v.crumple_skipped())
}

/// A train pays for its contacts from a budget of work a second: the default Crumple
/// and the factory crumple presets are well inside it and lose no event (so they play
/// as they did before it), where hundreds of events a second on the implicit two-way
/// contact (which took most of a core a voice) lose most of theirs.
#[test]
fn a_crumple_train_is_held_to_its_work_budget() {
    use rebound::engine::Coupling;
    use rebound::model::Method;
    use rebound::model::body::BodyType;
    let mut cheap = vec![crumple(1.0)];
    for p in rebound::preset::factory() {
        if p.params.gesture == Gesture::Crumple {
            cheap.push(p.params);
        }
    }
    assert!(cheap.len() >= 3, "the crumple presets");
    for p in &cheap {
        let (struck, skipped) = events_held(p);
        assert!(
            struck > 10 && skipped == 0,
            "{struck} struck, {skipped} left out: {p:?}"
        );
    }
    let dear = EngineParams {
        coupling: Coupling::TwoWay,
        method: Method::Am1,
        body: BodyType::Membrane,
        body_mass: 0.015,
        mass: 3.5e-4,
        hardness_ms: 2.5,
        crumple_rate: 460.0,
        ..crumple(1.0)
    };
    let (struck, skipped) = events_held(&dear);
    assert!(skipped > struck, "{struck} struck, {skipped} left out");
    assert!(struck >= 5, "the train still plays: {struck}");
}

/// A crumple pays for all its contacts do: the two-way steps, the work around each
/// sample near the body, and the contact each event interrupts, which goes on as the
/// voice's tail. On two-way Verlet with a long contact and 160 events a second (every
/// event interrupting the last one's contact), counting only the steps of the strike
/// in progress struck every event and read 11× the default patch's cost; counted
/// whole, the budget leaves some out.
#[test]
fn a_crumple_pays_for_the_contacts_it_interrupts() {
    use rebound::engine::Coupling;
    use rebound::model::body::BodyType;
    let p = EngineParams {
        coupling: Coupling::TwoWay,
        body: BodyType::Membrane,
        body_mass: 0.0315,
        mass: 2.9e-3,
        hardness_ms: 3.355,
        crumple_rate: 161.0,
        ..crumple(1.0)
    };
    let (struck, skipped) = events_held(&p);
    assert!(skipped > 0, "{struck} struck, {skipped} left out");
    assert!(struck >= 20, "the train still plays: {struck}");
}
