//! Unit tests of `trace`.
use super::*;
use crate::engine::{Controls, Engine};

/// Plays one note of `p` until its train is over (or `seconds`), returning the
/// last trace and how many times it was published.
fn play(p: &EngineParams, velocity: f32, seconds: f64) -> (ContactTrace, u64) {
    let fs = 48000.0;
    let mut e = Engine::new(fs);
    e.set_params(p);
    e.set_sample_rate(fs);
    e.note_on(60, velocity, 0, None);
    let (mut buf, mut right) = ([0.0f32; 512], [0.0f32; 512]);
    let mut n = 0.0;
    while n < seconds * fs {
        e.render(&mut buf, &mut right);
        n += buf.len() as f64;
        if !matches!(
            e.last_trace().rest,
            RestState::Bouncing | RestState::Sticking
        ) && e.last_trace().seq > 0
        {
            break;
        }
    }
    (e.last_trace().clone(), e.last_trace().seq)
}

#[test]
fn a_single_impact_keeps_the_papers_figures() {
    let p = EngineParams {
        controls: Controls::Expert,
        ..EngineParams::default()
    };
    let (t, seq) = play(&p, 1.0, 0.1);
    assert_eq!(seq, 1);
    assert_eq!(t.bounce, BounceMode::Off);
    assert_eq!(t.rest, RestState::Single);
    assert!(!t.load && !t.drift_load);
    assert_eq!(t.last.restitution, None);
    assert_eq!(t.last.mu, 0.5);
    assert!((t.last.e - t.last.e_exact).abs() < 1e-9, "{:?}", t.last);
    assert!(t.last.load_drift_pct.is_nan());
}

#[test]
fn restitution_mode_obtains_its_e() {
    let p = EngineParams {
        from_restitution: true,
        restitution: 0.3,
        bouncing: true,
        ..EngineParams::default()
    };
    let (t, _) = play(&p, 1.0, 2.0);
    assert_eq!(t.last.restitution, Some(0.3));
    // The μ implied is seed 000's z(e)/v_in (e = 0.3 → 3.087082).
    assert!(
        (t.last.mu * t.last.v_in - 3.087082).abs() < 1e-5,
        "{:?}",
        t.last
    );
    assert!((t.last.e - 0.3).abs() < 1e-9, "{:?}", t.last);
    assert_eq!(t.bounce, BounceMode::FlightOnly);
    // Each bounce follows the exact chain v ← e v.
    for d in &t.drift_pct[..t.bounces] {
        assert!(d.abs() < 1e-6, "{:?}", &t.drift_pct[..t.bounces]);
    }
}

#[test]
fn gravity_in_contact_comes_to_rest_at_x_rest() {
    let p = EngineParams {
        controls: Controls::Expert,
        bouncing: true,
        gravity_in_contact: true,
        ..EngineParams::default()
    };
    let (t, _) = play(&p, 0.0, 20.0);
    eprintln!(
        "{:?} {:?} {:?} len {}",
        t.rest,
        t.last,
        &t.drift_pct[..t.bounces],
        t.len
    );
    assert_eq!(t.bounce, BounceMode::InContact);
    let x_rest = crate::model::load::x_rest(p.k, p.alpha, p.mass, p.gravity);
    assert_eq!(t.rest, RestState::Resting { x_rest }, "{:?}", t.last);
    assert!(t.drift_load && t.bounces > 1);
    assert!(t.load && t.load_g == p.gravity);
    for d in &t.drift_pct[..t.bounces] {
        assert!(
            d.is_finite() && *d >= 0.0,
            "{:?}",
            &t.drift_pct[..t.bounces]
        );
    }
    // The recorded contact's H + D stays at H₀ (D summed per sample).
    for i in 0..t.len {
        let hd = t.h[i] as f64 + t.d[i] as f64;
        assert!((hd - 1.0).abs() < 0.02, "point {i}: H + D = {hd}");
    }
}

#[test]
fn a_flight_only_train_ends_by_the_sticking_rule() {
    // The contact as the physics makes it at this speed (Velocity → Hardness would
    // stretch a velocity-0 contact to the 10 ms limit, which sticks at once).
    let p = EngineParams {
        bouncing: true,
        velocity_hardness: 0.0,
        ..EngineParams::default()
    };
    let (t, _) = play(&p, 0.0, 20.0);
    assert_eq!(t.bounce, BounceMode::FlightOnly);
    assert!(
        matches!(t.rest, RestState::Resting { .. } | RestState::Ended),
        "{:?}",
        t.rest
    );
    assert!(!t.drift_load && t.bounces > 1);
}

/// A two-way strike is traced with the body's surface under the striker: a light bar
/// gives by a good part of the striker's travel, the compression `x_s − w` is positive
/// for as many samples as the trace counts in contact, and the coupled system's energy
/// only falls from `H₀`. On the rigid wall the same patch traces no surface.
#[test]
fn a_two_way_strike_traces_the_surface_under_the_striker() {
    let p = EngineParams {
        coupling: crate::engine::Coupling::TwoWay,
        body_mass: 0.01,
        ..EngineParams::default()
    };
    let (t, seq) = play(&p, 1.0, 0.1);
    assert_eq!(seq, 1);
    assert!(t.two_way && !t.load, "{t:?}");
    assert!(
        t.len > 20 && t.stride == 1,
        "{} points, stride {}",
        t.len,
        t.stride
    );
    let (x, w) = (&t.x[..t.len], &t.w[..t.len]);
    let x_max = x.iter().fold(0.0f32, |m, x| m.max(*x));
    let w_max = w.iter().fold(0.0f32, |m, w| m.max(*w));
    assert!(w_max > 0.2 * x_max && x_max > 0.0, "w {w_max}, x_s {x_max}");
    // The first point is the onset (before the sample), the rest one a sample each.
    let pressed = x[1..].iter().zip(&w[1..]).filter(|(x, w)| *x > *w).count() as u64;
    assert!(
        t.samples > 0 && t.samples.abs_diff(pressed) <= 2,
        "{} {pressed}",
        t.samples
    );
    assert_eq!(t.h[0], 1.0);
    assert!(t.h[..t.len].iter().all(|h| *h <= 1.0 + 1e-3 && *h >= 0.0));
    assert!(t.h[t.len - 1] < 0.99);
    assert!(t.last.e > 0.0 && t.last.e < 1.0, "{:?}", t.last);
    assert_eq!(t.rest, RestState::Single);

    let rigid = EngineParams {
        coupling: crate::engine::Coupling::Rigid,
        ..p
    };
    let (t, _) = play(&rigid, 1.0, 0.1);
    assert!(!t.two_way && t.len > 0);
    assert!(t.w[..t.len].iter().all(|w| *w == 0.0));
}
