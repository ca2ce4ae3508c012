//! The onset's bounded computations against what they replaced (`support/onset_ref.rs`):
//! the load-aware exit by DOP853 against the former Dormand–Prince 5(4), and
//! Proposition 1 on its 81-node rule against the 289-node one, over random patches on
//! the full parameter ranges (each end drawn one time in eight) and every corner of
//! them. Where the former solver ran out of steps (a heavily damped contact), the new
//! one is held to the reference integration of `support/load_ref.rs` instead, to the
//! 1e-6 that `core_seeds.rs` asks of it.

#[path = "support/load_ref.rs"]
mod load_ref;
#[path = "support/onset_ref.rs"]
mod onset_ref;

use rebound::engine::LIMITS;
use rebound::model::load::{self, LoadExit};
use rebound::model::prop1::restitution_prop1;
use rebound::model::vout::v_out_exact;

/// Largest difference in `e` between the two exits where both resolved: each is within
/// about 5e-8 of the reference integration at 1e-13.
const EXIT_AGREEMENT: f64 = 2e-7;
/// Largest difference of Proposition 1 between the two rules (its integrals agree to
/// 2e-14 relative; `e` moves by less than 1e-13 for them).
const PROP1_AGREEMENT: f64 = 1e-12;

/// `(k, μ, α, m, v_in, g)`.
type Patch = [f64; 6];

/// The parameter ranges, in [`Patch`] order, and whether each is drawn on a log scale.
fn ranges() -> [(f64, f64, bool); 6] {
    let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
    [
        (lo.k, hi.k, true),
        (lo.mu, hi.mu, true),
        (lo.alpha, hi.alpha, false),
        (lo.mass, hi.mass, true),
        (lo.v_min, hi.v_max, true),
        (lo.gravity, hi.gravity, true),
    ]
}

/// splitmix64, uniform in [0, 1).
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// `n` random patches and the 64 corners of the ranges.
fn patches(n: usize, seed: u64) -> Vec<Patch> {
    let r = ranges();
    let mut state = seed;
    let mut out: Vec<Patch> = (0..n)
        .map(|_| {
            let mut p = [0.0; 6];
            for (x, &(lo, hi, log)) in p.iter_mut().zip(r.iter()) {
                let pick = uniform(&mut state);
                let t = uniform(&mut state);
                *x = if pick < 0.125 {
                    lo
                } else if pick < 0.25 {
                    hi
                } else if log {
                    (lo.ln() + t * (hi.ln() - lo.ln())).exp()
                } else {
                    lo + t * (hi - lo)
                };
            }
            p
        })
        .collect();
    for corner in 0..64u32 {
        let mut p = [0.0; 6];
        for (i, x) in p.iter_mut().enumerate() {
            *x = if corner & (1 << i) == 0 {
                r[i].0
            } else {
                r[i].1
            };
        }
        out.push(p);
    }
    out
}

/// What `load::exit` returned before: the former solver, eq (6) past its 3000 steps.
fn exit_before(p: &Patch) -> LoadExit {
    let [k, mu, alpha, mass, v_in, g] = *p;
    let (gamma, g_tilde) = load::scaled(k, mu, alpha, mass, v_in, g);
    let s = onset_ref::scaled_exit_dp5(alpha, gamma, g_tilde);
    let tau = s.tau * load::time_scale(k, alpha, mass, v_in);
    let e = if s.resolved {
        s.e
    } else {
        (-v_out_exact(mu, v_in) / v_in).clamp(0.0, 1.0)
    };
    LoadExit { e, tau, ..s }
}

#[test]
fn the_load_aware_exit_agrees_with_the_former_solver() {
    let (mut worst, mut at) = (0.0f64, [0.0; 6]);
    let mut worst_tau = 0.0f64;
    let (mut both, mut rescued) = (0, 0);
    for p in patches(2000, 0x0e5e_7001) {
        let [k, mu, alpha, mass, v_in, g] = p;
        let new = load::exit(k, mu, alpha, mass, v_in, g);
        assert!(
            new.e.is_finite() && (0.0..=1.0).contains(&new.e),
            "{p:?}: {new:?}"
        );
        assert!(new.tau.is_finite() && new.tau >= 0.0, "{p:?}: {new:?}");
        let old = exit_before(&p);
        if old.resolved {
            assert!(
                new.resolved,
                "{p:?}: the former solver resolved it: {new:?}"
            );
            assert_eq!(new.sticks, old.sticks, "{p:?}: {new:?} vs {old:?}");
            let d = (new.e - old.e).abs();
            assert!(d <= EXIT_AGREEMENT, "{p:?}: e {} vs {}", new.e, old.e);
            if d > worst {
                (worst, at) = (d, p);
            }
            // The contact time too. It only sizes the runaway guard (four times it
            // plus 64 samples, so 1e-4 of it is under a sample for any contact
            // shorter than 2 500 samples), and a heavily damped creep's accumulates
            // its steps' errors in the damping phase: up to a few 1e-5.
            if !new.sticks {
                worst_tau = worst_tau.max((new.tau / old.tau - 1.0).abs());
                assert!(
                    (new.tau / old.tau - 1.0).abs() < 1e-4,
                    "{p:?}: τ {} vs {}",
                    new.tau,
                    old.tau
                );
            }
            both += 1;
        } else if new.resolved {
            // The former solver gave up (eq 6's exit instead): the reference decides.
            let (gamma, g_tilde) = load::scaled(k, mu, alpha, mass, v_in, g);
            match load_ref::reference_restitution(alpha, gamma, g_tilde) {
                Some(e) => {
                    assert!(!new.sticks, "{p:?}: reference e = {e}");
                    assert!((new.e - e).abs() <= 1e-6, "{p:?}: e {} vs {e}", new.e);
                }
                None => assert!(new.sticks, "{p:?}: reference sticks, e = {}", new.e),
            }
            rescued += 1;
        }
    }
    println!(
        "{both} patches resolved by both: largest |Δe| {worst:.2e} at {at:?}, \
         largest relative Δτ {worst_tau:.2e}; {rescued} resolved only by the new solver"
    );
}

#[test]
fn proposition_1_agrees_with_the_289_node_rule() {
    let mut worst = 0.0f64;
    for p in patches(2000, 0x0e5e_7002) {
        let [k, mu, alpha, mass, v_in, g] = p;
        let (gamma, g_tilde) = load::scaled(k, mu, alpha, mass, v_in, g);
        let new = restitution_prop1(alpha, gamma, g_tilde);
        let old = rebound::model::prop1::restitution_prop1_fine(alpha, gamma, g_tilde);
        assert!(
            new.is_finite() && (0.0..=1.0).contains(&new),
            "{p:?}: {new}"
        );
        let d = (new - old).abs();
        assert!(d <= PROP1_AGREEMENT, "{p:?}: {new} vs {old}");
        worst = worst.max(d);
    }
    println!("largest |Δe| {worst:.2e}");
}

/// Found while bounding the onset: a deep harmonic well (α = 1, `g̃` = 105) whose exit
/// a long DOP853 step went out through and back in (the mass was then taken to stick),
/// a moderately deep one where a step's error estimate let 2e-7 through at the first
/// tolerance tried, and heavily damped creeps (the exponential integrator's range),
/// sticking or not, against the reference integration.
#[test]
fn cases_found_while_bounding_the_onset() {
    for (alpha, gamma, g_tilde) in [
        (1.0, 5.0e-8, 104.86207667768733),
        (1.625670951683373, 9.730381512557469e-6, 6.586245961546593),
        (1.0, 250.0, 1e-4),
        (1.5, 250.0, 1e-6),
        (3.0, 100.0, 1e-4),
        (2.2, 30.0, 1e-3),
    ] {
        let x = load::scaled_exit(alpha, gamma, g_tilde);
        assert!(x.resolved, "({alpha}, {gamma}, {g_tilde}): {x:?}");
        match load_ref::reference_restitution(alpha, gamma, g_tilde) {
            Some(e) => {
                assert!(
                    !x.sticks,
                    "({alpha}, {gamma}, {g_tilde}): reference e = {e}"
                );
                assert!(
                    (x.e - e).abs() < 1e-7,
                    "({alpha}, {gamma}, {g_tilde}): {} vs {e}",
                    x.e
                );
            }
            None => assert!(x.sticks, "({alpha}, {gamma}, {g_tilde}): reference sticks"),
        }
        // The creeps take a few dozen steps where the 5(4) pair took hundreds.
        assert!(
            x.steps <= 100,
            "({alpha}, {gamma}, {g_tilde}): {} steps",
            x.steps
        );
    }
}
