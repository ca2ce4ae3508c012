//! A bouncing train's load-aware exits, solved a slice a sample (`EXIT_SLICE`): a
//! contact that ends before its exit is known flies on a provisional speed, and its
//! flight is corrected from the exact exit when it arrives.
//!
//! - Against the same train with each exit solved at its onset: every onset, speed
//!   and sample of the wall's force bit for bit the same, except after a contact that
//!   ended before its exit, whose flight lands late only where its exact return had
//!   passed when the exit arrived.
//! - The rule for such a flight: it lands at the start of the sample in which the
//!   exit arrives, at the exact flight's return speed; and where the exit says the
//!   mass sticks, the train ends at rest.

#[path = "support/rng.rs"]
mod rng;
use rebound::model::bounce::EXIT_SLICE;
use rebound::model::load::ExitNews;
use rebound::model::{
    Bouncer, ClampTarget, Contact, Correction, Latch, Method, Phase, Scheme, Train,
};
use rng::Rng;

/// What a train did: its onsets `(sample, fraction, v_in)`, the velocity its contacts
/// took from the mass each sample, whether it ended at rest, and the contacts that
/// ended before their exit was known.
#[derive(Debug, Default)]
struct Run {
    onsets: Vec<(u64, f64, f64)>,
    dv: Vec<f64>,
    rest: bool,
    early: u32,
    /// The samples at which a pending exit arrived.
    arrivals: Vec<u64>,
    /// The train ended at rest from a flight (an exit that arrived saying the mass
    /// sticks).
    rest_in_flight: bool,
}

fn run(latch: Latch, v_in: f64, fs: f64, g: f64, slice: u32, samples: u64) -> Run {
    let train = Train {
        gravity: Some(g),
        in_contact: true,
    };
    let mut b = Bouncer::new(latch, v_in, fs, train).with_exit_slice(slice);
    let mut r = Run::default();
    for n in 0..samples {
        if b.is_done() {
            break;
        }
        let was_pending = b.exit_pending();
        let was_flight = matches!(b.phase(), Phase::Flight { .. });
        let o = b.step(|| latch);
        if was_flight && b.is_done() && b.at_rest() && !o.onset {
            r.rest_in_flight = true;
        }
        if o.onset {
            let imp = b.impact();
            r.onsets
                .push((n, imp.start_fraction(), imp.analytic().v_in));
        }
        if o.detached && b.exit_pending() {
            r.early += 1;
        }
        // A flight never lands while its exit is pending: an onset after a pending
        // start means the exit arrived in this sample (the new contact's is pending).
        if was_pending && (!b.exit_pending() || o.onset) {
            r.arrivals.push(n);
        }
        r.dv.push(o.dv);
    }
    r.rest = b.at_rest();
    r
}

/// What the comparisons below saw.
#[derive(Debug, Default)]
struct Seen {
    trains: u32,
    early: u32,
    late_landings: u32,
    rests_in_flight: u32,
}

/// Checks the sliced train `b` against the one-shot train `a` (see the module doc).
fn compare(a: &Run, b: &Run, seen: &mut Seen, what: &str) {
    seen.trains += 1;
    seen.early += b.early;
    seen.rests_in_flight += u32::from(b.rest_in_flight);
    if b.early == 0 {
        assert_eq!(a.onsets, b.onsets, "{what}");
        assert_eq!(a.dv, b.dv, "{what}");
        assert_eq!(a.rest, b.rest, "{what}");
        return;
    }
    let Some(i) = a.onsets.iter().zip(&b.onsets).position(|(x, y)| x != y) else {
        // No onset moved: the trains differ at most in a mass put to rest in flight
        // where the one-shot train held it at the wall (at rest both, unless the
        // one-shot train is still settling at the end of the run).
        assert_eq!(a.onsets.len(), b.onsets.len(), "{what}");
        assert!(
            !b.rest_in_flight || a.rest || a.dv.len() == b.dv.len(),
            "{what}"
        );
        return;
    };
    // The first onset that moved: a flight that landed late, at the start of the
    // sample its exit arrived in, at the exact flight's return speed.
    let (x, y) = (a.onsets[i], b.onsets[i]);
    assert_eq!(y.2, x.2, "{what}: onset {i} at the exact return speed");
    assert_eq!(y.1, 0.0, "{what}: onset {i} at a sample's start");
    assert!(
        b.arrivals.contains(&y.0),
        "{what}: onset {i} when an exit arrived"
    );
    assert!(y.0 as f64 > x.0 as f64 + x.1, "{what}: onset {i} late");
    seen.late_landings += 1;
}

fn patch(rng: &mut Rng) -> (Latch, f64, f64) {
    use rebound::engine::LIMITS;
    let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
    let c = Contact::new(
        rng.range(lo.k, hi.k, true),
        rng.range(lo.mu, hi.mu, true),
        lo.alpha + rng.next() * (hi.alpha - lo.alpha),
        rng.range(lo.mass, hi.mass, true),
    );
    let method = Method::ALL[(rng.next() * 4.0) as usize % 4];
    let target = ClampTarget::ALL[(rng.next() * 2.0) as usize % 2];
    let latch = Latch::from((c, Scheme::new(method, Correction::Both, target)));
    (
        latch,
        rng.range(lo.v_min, hi.v_max, true),
        rng.range(lo.gravity, hi.gravity, true),
    )
}

#[test]
fn sliced_trains_are_the_one_shot_ones_but_for_late_landings() {
    // Patches over the full ranges, a quarter second each at 48 kHz, the exits solved
    // at the engine's slice and at one step a sample (most contacts then end before
    // their exit: the rules get exercised).
    let mut rng = Rng(0x5eed_0b0c);
    let mut seen = [Seen::default(), Seen::default()];
    for i in 0..200 {
        let (latch, v_in, g) = patch(&mut rng);
        let a = run(latch, v_in, 48_000.0, g, u32::MAX, 12_000);
        for (s, slice) in [EXIT_SLICE, 1].into_iter().enumerate() {
            let b = run(latch, v_in, 48_000.0, g, slice, 12_000);
            let what = format!("patch {i} ({latch:?}, v_in {v_in}, g {g}), slice {slice}");
            compare(&a, &b, &mut seen[s], &what);
        }
    }
    eprintln!("{seen:?}");
    for s in &seen {
        assert!(s.early > 0);
    }
    // A mass that sticks is nearly always trapped by its own energy within the
    // contact (`a_closed_form_contact_that_sticks_rests_when_its_exit_arrives` takes
    // the case where it is not).
    assert!(seen[1].late_landings > 5, "{seen:?}");
}

#[test]
fn a_closed_form_contact_that_sticks_rests_when_its_exit_arrives() {
    // A linear spring of the stiffest contact under the lightest mass (ω = 1e8 /s:
    // shorter than a sample's sub-steps resolve, so it ends in its first sample in
    // closed form, no step of its exit taken), damped and loaded so that it sticks
    // (γ = 0.5, g̃ = 1 to 10).
    let mut found = 0;
    for (mu, v_in) in [(1e6, 1e-6), (1e7, 1e-7), (2e6, 5e-7)] {
        let c = Contact::new(1e12, mu, 1.0, 1e-4);
        let g = 100.0;
        for target in ClampTarget::ALL {
            let latch = Latch::from((c, Scheme::new(Method::Verlet, Correction::Both, target)));
            let (mut imp, solve) = latch.impact_pending(v_in, 48_000.0, Some(g), 0.0);
            let exit = solve.unwrap().finish();
            if !(imp.closed_form() && exit.sticks) {
                continue;
            }
            found += 1;
            assert!(!imp.step(), "ends in its first sample");
            assert!(
                !imp.rested() && imp.v() < 0.0,
                "leaves on the provisional target"
            );
            let news = imp.resolve_load(exit, latch.e_target(&imp, g, exit));
            assert_eq!(news, ExitNews::Rests);
            assert!(imp.rested() && imp.v() == 0.0);
            // The bouncer: the train ends at rest after its one impact.
            let train = Train {
                gravity: Some(g),
                in_contact: true,
            };
            let mut b = Bouncer::new(latch, v_in, 48_000.0, train).with_exit_slice(1);
            // (A solve short enough for the strike's slice is known before the contact.)
            let pending = b.exit_pending();
            let mut rested_in_flight = false;
            for _ in 0..1000 {
                if b.is_done() {
                    break;
                }
                let flying = matches!(b.phase(), Phase::Flight { .. });
                b.step(|| latch);
                rested_in_flight |= flying && b.is_done();
            }
            assert!(b.at_rest() && b.impacts() == 1 && (rested_in_flight || !pending));
        }
    }
    assert!(found >= 2, "{found}");
}
