//! A rigid train's work budgets: a trapped mass rocking or creeping for seconds in a
//! soft well cost a voice 10–20 times the default patch (`impact::TRAPPED_WORK`), and a
//! train's impacts were each bounded, not their number (`bounce::TRAIN_WORK_BUDGET`).
//!
//! - A trapped mass's settling is ended on its budget, the mass put at rest, and the
//!   train says so (`cut`); its work stays within the budget and one sample's steps.
//! - The rest is silent: the sample it happens in takes from the mass no more than the
//!   samples before it did (the creep or the rocking stops; the mass does not lose its
//!   velocity as a blow, which had been a click the size of the strike).
//! - Ordinary trains (every method, gravity in contact and in flight only, the default
//!   contact and a soft one) end on their own, far inside the budget.

use rebound::model::bounce::{EXIT_WORK, TRAIN_WORK_BUDGET};
use rebound::model::impact::TRAPPED_WORK;
use rebound::model::{Bouncer, ClampTarget, Contact, Correction, Latch, Method, Scheme, Train};

const FS: f64 = 48_000.0;

struct Run {
    cut: bool,
    rest: bool,
    work: u64,
    samples: u64,
    /// The contact's work when its mass was first seen trapped (0: never).
    before_trap: u64,
    /// The velocity each sample's contacts took from the mass.
    dv: Vec<f64>,
}

fn run(latch: Latch, v_in: f64, g: f64, in_contact: bool, seconds: f64) -> Run {
    let train = Train {
        gravity: Some(g),
        in_contact,
    };
    let mut b = Bouncer::new(latch, v_in, FS, train);
    let mut dv = Vec::new();
    let (mut samples, mut before_trap) = (0, 0);
    while !b.is_done() && (samples as f64) < seconds * FS {
        dv.push(b.step(|| latch).dv);
        samples += 1;
        if before_trap == 0 && b.impact().trapped() {
            before_trap = b.impact().work();
        }
    }
    assert!(b.is_done(), "the train still ran after {seconds} s");
    Run {
        cut: b.cut(),
        rest: b.at_rest(),
        work: b.work(),
        samples,
        before_trap,
        dv,
    }
}

/// A restitution-damped contact: each impact gets the `μ` that leaves at `−e v_in`.
fn with_restitution(c: Contact, method: Method, e: f64) -> Latch {
    Latch {
        restitution: Some(e),
        ..Latch::from((c, Scheme::new(method, Correction::None, ClampTarget::Exact)))
    }
}

/// The random patches' dearest: a 0.32 kg striker trapped in a soft contact (k 1.7e4
/// at α 2.35) under 66 m/s², rocking for seconds under AM1; and a 61 g one sinking at
/// millimetres a second into k 281 at α 2.43, a creep taken by the damping-exact step.
fn dear_trains() -> [(Latch, f64, f64); 2] {
    [
        (
            with_restitution(
                Contact::new(17_060.0, 0.0, 2.354, 0.3194),
                Method::Am1,
                0.534,
            ),
            0.1,
            65.9,
        ),
        (
            with_restitution(
                Contact::new(280.6, 0.0, 2.426, 0.06145),
                Method::Rk4,
                0.0563,
            ),
            0.002,
            56.8,
        ),
    ]
}

#[test]
fn a_trapped_mass_past_the_budget_rests_without_a_jolt() {
    for (latch, v_in, g) in dear_trains() {
        let r = run(latch, v_in, g, true, 10.0);
        assert!(r.cut && r.rest, "{latch:?}: cut {} rest {}", r.cut, r.rest);
        // The settling's budget, what the contact did before it was trapped, its exit's
        // share and one sample's steps past it at most (the check is after each sample).
        assert!(
            r.work > TRAPPED_WORK && r.work < TRAPPED_WORK + r.before_trap + EXIT_WORK + 100,
            "{latch:?}: work {}",
            r.work
        );
        let last = r.dv.last().copied().unwrap_or(0.0).abs();
        let before = r.dv[r.dv.len() - 200..r.dv.len() - 1]
            .iter()
            .fold(0.0f64, |m, d| m.max(d.abs()));
        assert!(
            last <= 2.0 * before,
            "{latch:?}: the rest took {last:e} m/s from the mass in its sample, the 200 \
             samples before at most {before:e}"
        );
        eprintln!(
            "{:?}: rested after {} samples, work {}, last dv {last:.2e} (before {before:.2e})",
            latch.scheme.method, r.samples, r.work
        );
    }
}

#[test]
fn ordinary_trains_end_far_inside_the_budget() {
    let contacts = [
        Contact::new(1e7, 0.5, 1.5, 0.01),
        Contact::new(1e5, 0.2, 1.5, 0.05),
    ];
    for c in contacts {
        for method in Method::ALL {
            for in_contact in [true, false] {
                let latch =
                    Latch::from((c, Scheme::new(method, Correction::Both, ClampTarget::Exact)));
                let r = run(latch, 1.0, 9.81, in_contact, 60.0);
                assert!(
                    !r.cut && r.work < TRAIN_WORK_BUDGET * 3 / 4,
                    "{c:?} {method:?} in contact {in_contact}: cut {}, work {}",
                    r.cut,
                    r.work
                );
            }
        }
    }
}
