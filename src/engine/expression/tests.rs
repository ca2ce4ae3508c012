//! Unit tests of [`Expression::apply`].

use super::*;
use crate::engine::expression::mpe::MAX_BEND_RANGE;

fn neutral() -> Expression {
    Expression::new(ChannelExpression::default(), 0.0)
}

#[test]
fn a_neutral_expression_changes_nothing() {
    let p = EngineParams::default();
    assert_eq!(neutral().apply(&p), p);
}

#[test]
fn each_poly_target_moves_its_parameter_only() {
    let p = EngineParams::default();
    for t in PolyTarget::ALL {
        let mut e = neutral();
        e.poly[t as usize] = 0.2;
        let q = e.apply(&p);
        let s = t.spec();
        assert!((s.get)(&q) > (s.get)(&p), "{t:?}");
        let mut back = q;
        (s.set)(&mut back, (s.get)(&p));
        assert_eq!(back, p, "{t:?} moved something else");
        assert_eq!(PolyTarget::from_id(t.id()), Some(t));
    }
    assert_eq!(PolyTarget::from_id(5), None);
}

#[test]
fn pressure_timbre_bend_and_tuning() {
    let p = EngineParams::default();
    let mut e = neutral();
    e.channel.pressure = 1.0;
    assert!((e.apply(&p).t60 - p.t60 * PRESSURE_DAMP).abs() < 1e-12);
    e.pressure = 0.5;
    assert!(
        (e.apply(&p).t60 - p.t60 * PRESSURE_DAMP).abs() < 1e-12,
        "the larger acts"
    );
    let mut e = neutral();
    e.channel.timbre = 1.0;
    assert!((e.apply(&p).position - (p.position + TIMBRE_SPAN).min(1.0)).abs() < 1e-12);
    e.brightness = Some(0.0);
    assert_eq!(
        e.apply(&p).position,
        0.0,
        "per-note brightness replaces the channel's"
    );
    let mut e = neutral();
    e.channel.bend = 1.0;
    e.tuning = -p.bend_range;
    assert!((e.apply(&p).body_freq - p.body_freq).abs() < 1e-9);
    e.tuning = 0.0;
    let up = e.apply(&p).body_freq / p.body_freq;
    assert!((up - (p.bend_range / 12.0).exp2()).abs() < 1e-12);
}

/// An MPE zone's master pressure and timbre combine with the note's own: the larger
/// pressure acts, the timbre offsets add and are held within the timbre's range.
#[test]
fn the_zones_pressure_and_timbre_combine_with_the_notes_own() {
    let p = EngineParams::default();
    let position = |timbre: f64| (p.position + (timbre - 0.5) * 2.0 * TIMBRE_SPAN).clamp(0.0, 1.0);
    let mut e = neutral();
    e.zone.pressure = 0.8;
    e.channel.pressure = 0.3;
    let damped = p.t60 * PRESSURE_DAMP.powf(0.8);
    assert!((e.apply(&p).t60 - damped).abs() < 1e-12);
    e.pressure = 1.0;
    assert!((e.apply(&p).t60 - p.t60 * PRESSURE_DAMP).abs() < 1e-12);
    let mut e = neutral();
    e.zone.timbre = 0.625;
    assert!((e.apply(&p).position - position(0.625)).abs() < 1e-12);
    e.channel.timbre = 0.75;
    assert!((e.apply(&p).position - position(0.875)).abs() < 1e-12);
    e.brightness = Some(0.25);
    assert!((e.apply(&p).position - position(0.375)).abs() < 1e-12);
    e.brightness = Some(1.0);
    assert!((e.apply(&p).position - position(1.0)).abs() < 1e-12);
    e.zone.timbre = 0.0;
    assert!((e.apply(&p).position - position(0.5)).abs() < 1e-12);
}

#[test]
fn the_mod_wheel_moves_its_target_by_its_depth() {
    let mut p = EngineParams {
        mod_depth: 1.0,
        ..EngineParams::default()
    };
    let mut e = neutral();
    e.wheel = 0.5;
    assert_eq!(e.apply(&p), p, "Off moves nothing");
    p.mod_wheel = ModWheel::Hardness;
    assert!(e.apply(&p).hardness_ms < p.hardness_ms, "harder");
    p.mod_wheel = ModWheel::Pitch;
    let r = e.apply(&p).body_freq / p.body_freq;
    assert!((r - (0.5 * WHEEL_PITCH / 12.0).exp2()).abs() < 1e-12);
    p.mod_wheel = ModWheel::Decay;
    assert!(e.apply(&p).t60 > p.t60);
    p.mod_depth = 0.0;
    assert_eq!(e.apply(&p), p, "depth 0 moves nothing");
}

/// Every expression at its extremes, on parameters at their limits, stays finite and
/// inside the ranges the body and contact accept.
#[test]
fn extremes_stay_finite_and_in_range() {
    for base in [LIMITS[0], LIMITS[1], EngineParams::default()] {
        let widest = Some(BendRanges {
            member: MAX_BEND_RANGE,
            master: MAX_BEND_RANGE,
        });
        for (x, ranges) in [-1.0, 0.0, 1.0]
            .into_iter()
            .flat_map(|x| [(x, None), (x, widest)])
        {
            let e = Expression {
                poly: [x; 5],
                pressure: x.max(0.0),
                tuning: x * MAX_TUNING,
                brightness: Some((x + 1.0) / 2.0),
                channel: ChannelExpression {
                    bend: x,
                    pressure: 1.0,
                    timbre: 1.0,
                },
                zone: ChannelExpression {
                    bend: x,
                    pressure: 1.0,
                    timbre: 1.0,
                },
                ranges,
                wheel: 1.0,
            };
            for w in ModWheel::ALL {
                let p = EngineParams {
                    mod_wheel: w,
                    mod_depth: 1.0,
                    ..base
                };
                let q = e.apply(&p);
                assert!(q.body_freq >= BENT_PITCH.0 && q.body_freq <= BENT_PITCH.1);
                assert!(q.t60 >= MIN_T60 && q.t60.is_finite());
                assert!((0.0..=1.0).contains(&q.position));
                for n in NUMBERS.iter().filter(|n| n.id != "bfreq" && n.id != "t60") {
                    let (lo, hi) = n.range();
                    let v = (n.get)(&q);
                    assert!(v >= lo && v <= hi * (1.0 + 1e-12), "{} = {v}", n.id);
                }
            }
        }
    }
}

/// Neutral is exactly "equal to a new note's expression with a neutral channel": each
/// field moved alone makes it not neutral.
#[test]
fn neutral_is_every_field_at_rest() {
    let base = Expression::new(ChannelExpression::default(), 0.0);
    assert!(base.is_neutral());
    let moved: [fn(&mut Expression); 12] = [
        |e| e.poly[4] = 0.1,
        |e| e.pressure = 0.1,
        |e| e.tuning = 0.1,
        |e| e.wheel = 0.1,
        |e| e.brightness = Some(0.5),
        |e| e.ranges = Some(BendRanges::default()),
        |e| e.channel.bend = 0.1,
        |e| e.channel.pressure = 0.1,
        |e| e.channel.timbre = 0.6,
        |e| e.zone.bend = 0.1,
        |e| e.zone.pressure = 0.1,
        |e| e.zone.timbre = 0.6,
    ];
    for (i, m) in moved.iter().enumerate() {
        let mut e = base;
        m(&mut e);
        assert!(!e.is_neutral(), "field {i}");
        assert_eq!(e.is_neutral(), e == base, "field {i}");
    }
}
