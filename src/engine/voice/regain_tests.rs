//! A held roll that found stale gains asks again each control period until the source
//! says they are fresh, and glides there in steps no larger than `REGAIN_STEP`; a
//! strike, or a roll that found fresh gains, never asks again.

use super::REGAIN_STEP;
use crate::engine::level::law::{GainSource, Gains};
use crate::engine::params::{EngineParams, Gesture};
use crate::engine::voice::Voice;

/// Answers `early` (stale) to the first `stale` asks, then `late` (fresh).
struct Settling {
    asks: u32,
    stale: u32,
    early: Gains,
    late: Gains,
}

impl GainSource for Settling {
    fn fresh_gains(&mut self, _: u8, _: &EngineParams, _: &EngineParams, _: f64) -> (Gains, bool) {
        self.asks += 1;
        if self.asks > self.stale {
            (self.late, true)
        } else {
            (self.early, false)
        }
    }
}

fn source(stale: u32) -> Settling {
    Settling {
        asks: 0,
        stale,
        early: Gains {
            dry: 3.0,
            body: 0.5,
        },
        late: Gains {
            dry: 1.2,
            body: 2.0,
        },
    }
}

/// The gains of each control period over `periods`, after a note-on.
fn periods(p: &EngineParams, src: &mut Settling, periods: usize) -> (Voice, Vec<Gains>) {
    let mut v = Voice::new(48_000.0);
    v.strike_with(p, 60, 1.0, 0, 0.7, src);
    let mut seen = vec![v.gain];
    for _ in 0..periods {
        v.regain(p, 0.7, src);
        seen.push(v.gain);
    }
    (v, seen)
}

#[test]
fn a_roll_glides_to_its_fresh_gains_and_stops_asking() {
    let p = EngineParams {
        gesture: Gesture::Roll,
        ..Default::default()
    };
    let mut src = source(5);
    let (v, seen) = periods(&p, &mut src, 200);
    assert_eq!(seen[0], src.early, "the note-on plays what it found");
    // Stale answers keep it where it was; then it moves, a bounded step at a time.
    assert!(
        seen[..5].iter().all(|g| *g == src.early),
        "{:?}",
        &seen[..6]
    );
    for w in seen.windows(2) {
        for (a, b) in [(w[0].dry, w[1].dry), (w[0].body, w[1].body)] {
            assert!(
                (b / a).ln().abs() <= REGAIN_STEP * (1.0 + 1e-12),
                "{a} -> {b}"
            );
        }
    }
    assert_eq!(
        *seen.last().unwrap(),
        src.late,
        "it lands on the fresh gains exactly"
    );
    assert!(!v.regaining());
    assert_eq!(src.asks, 6, "it stops asking once they are fresh");
    // The farther (the body's 12 dB) at full steps: the note-on and four stale asks,
    // then one step a period from the fifth.
    let far = (src.late.body / src.early.body).ln() / REGAIN_STEP;
    let done = seen.iter().position(|g| *g == src.late).unwrap();
    assert_eq!(done, 4 + far.ceil() as usize, "landed after {done} periods");
}

#[test]
fn fresh_gains_or_a_strike_never_ask_again() {
    for (gesture, stale) in [
        (Gesture::Roll, 0),
        (Gesture::Strike, 5),
        (Gesture::Crumple, 5),
    ] {
        let p = EngineParams {
            gesture,
            ..Default::default()
        };
        let mut src = source(stale);
        let (v, seen) = periods(&p, &mut src, 50);
        assert_eq!(src.asks, 1, "{gesture:?} asked again");
        assert!(
            seen.iter().all(|g| *g == seen[0]),
            "{gesture:?} moved its gains"
        );
        assert!(!v.regaining());
    }
}
