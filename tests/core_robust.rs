//! Property tests (proptest, with shrinking) over the full parameter ranges of the
//! instrument, log-uniform where a range spans decades, with every corner weighted in:
//! k 1e2–1e12 N/m^α, μ 1e-4–10 s/m, α 1–3, m 1e-4–1 kg, v_in 1e-3–50 m/s and fs
//! 22.05–384 kHz. No case is filtered out.
//!
//! - Every method × correction × clamp target: finite state at every sample, detachment
//!   within the guard's bound, and `|v_out| ≤ 1.5 v_in` or a runaway flag.
//! - Both corrections: `v_out` equal to an independent solution of eq (6) (bisection,
//!   written here), and a contact as long as eq (9) says within max(3 samples, 10 %),
//!   or at most 4 samples where eq (9) is under 3.
//!
//! Regressions found by these properties, and the cases of issue 8, are pinned in
//! `core_regressions.rs`.

use proptest::prelude::*;
use rebound::model::impact::EXIT_SPEED_LIMIT;
use rebound::model::tau::{contact_time, contact_time_bound};
use rebound::model::{ClampTarget, Contact, Correction, Impact, Method, Scheme};

/// Log-uniform over `[lo, hi]`, with each end drawn one time in eight.
fn log_range(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(lo),
        1 => Just(hi),
        6 => (lo.ln()..=hi.ln()).prop_map(f64::exp),
    ]
}

fn alpha() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(1.0),
        1 => Just(1.5),
        1 => Just(3.0),
        5 => 1.0..=3.0f64,
    ]
}

fn rate() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(22_050.0),
        1 => Just(44_100.0),
        1 => Just(48_000.0),
        1 => Just(96_000.0),
        1 => Just(384_000.0),
        3 => log_range(22_050.0, 384_000.0),
    ]
}

#[derive(Clone, Copy, Debug)]
pub struct Case {
    contact: Contact,
    v_in: f64,
    fs: f64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        log_range(1e2, 1e12),
        log_range(1e-4, 10.0),
        alpha(),
        log_range(1e-4, 1.0),
        log_range(1e-3, 50.0),
        rate(),
    )
        .prop_map(|(k, mu, alpha, m, v_in, fs)| Case {
            contact: Contact::new(k, mu, alpha, m),
            v_in,
            fs,
        })
}

fn scheme() -> impl Strategy<Value = Scheme> {
    (
        prop::sample::select(Method::ALL.to_vec()),
        prop::sample::select(Correction::ALL.to_vec()),
        prop::sample::select(vec![ClampTarget::Approx, ClampTarget::Exact]),
    )
        .prop_map(|(m, c, t)| Scheme::new(m, c, t))
}

/// What one impact did, run sample by sample with a hard stop at `cap` samples.
struct Run {
    samples: u64,
    detached: bool,
    v_out: f64,
    runaway: bool,
}

fn run(c: &Case, scheme: Scheme, cap: u64) -> Result<Run, TestCaseError> {
    let mut imp = Impact::new(c.contact, scheme, c.v_in, c.fs);
    let mut detached = false;
    while imp.samples() < cap {
        let still = imp.step();
        prop_assert!(
            imp.x().is_finite() && imp.v().is_finite(),
            "non-finite state at sample {}",
            imp.samples()
        );
        let f = imp.wall_force();
        prop_assert!(f.is_finite() && f >= 0.0, "wall force {f}");
        if !still {
            detached = true;
            break;
        }
    }
    Ok(Run {
        samples: imp.samples(),
        detached,
        v_out: imp.v(),
        runaway: imp.runaway(),
    })
}

/// `v_out` from eq (6) by bisection, independently of `model::vout`: with
/// `c = a − ln(1 + a)`, `a = μ v_in`, the root `s = −μ v_out` of `−s − ln(1 − s) = c`,
/// or for `c ≥ 2` the root `L = ln(1 − s)` of `L − e^L + 1 + c = 0`.
fn v_out_by_bisection(mu: f64, v_in: f64) -> f64 {
    // r − ln(1 + r), by its series where the direct form cancels.
    let rem = |r: f64| {
        if r.abs() < 1e-3 {
            let mut sum = 0.0;
            let mut p = r * r;
            for n in 2..12 {
                sum += if n % 2 == 0 { p } else { -p } / n as f64;
                p *= r;
            }
            sum
        } else {
            r - r.ln_1p()
        }
    };
    let c = rem(mu * v_in);
    if c < 2.0 {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..2000 {
            let mid = 0.5 * (lo + hi);
            if mid == lo || mid == hi {
                break;
            }
            if rem(-mid) < c {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        -0.5 * (lo + hi) / mu
    } else {
        let (mut lo, mut hi) = (-(c + 3.0), 0.0f64);
        for _ in 0..2000 {
            let mid = 0.5 * (lo + hi);
            if mid == lo || mid == hi {
                break;
            }
            if mid - mid.exp() + 1.0 + c < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        -(-(0.5 * (lo + hi)).exp_m1()) / mu
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 768, ..ProptestConfig::default() })]

    /// Every method, correction and clamp target, anywhere in the ranges.
    #[test]
    fn every_scheme_detaches_finite_and_bounded(c in case(), scheme in scheme()) {
        let an = c.contact.impact(c.v_in);
        let bound = contact_time_bound(&an) * c.fs;
        prop_assert!(bound.is_finite() && bound > 0.0, "bound {bound}");
        // The guard ends every contact by 4 bounds + 64 samples.
        let cap = (4.0 * bound + 64.0).ceil() as u64 + 2;
        let r = run(&c, scheme, cap)?;
        prop_assert!(r.detached, "still in contact after {} samples", r.samples);
        if scheme.correction.clamp() {
            prop_assert!(!r.runaway, "a clamped contact flagged runaway");
        } else {
            prop_assert!(
                r.v_out.abs() <= EXIT_SPEED_LIMIT * c.v_in || r.runaway,
                "left at {} from {} unflagged", r.v_out, c.v_in
            );
        }
        prop_assert!(r.v_out <= 0.0 || !r.runaway, "runaway exit {}", r.v_out);
    }

    /// Both corrections: the exact exit, when eq (9) says.
    #[test]
    fn both_corrections_exit_exactly_on_time(c in case(),
        method in prop::sample::select(Method::ALL.to_vec())) {
        let scheme = Scheme::new(method, Correction::Both, ClampTarget::Exact);
        let an = c.contact.impact(c.v_in);
        let tau = contact_time(&an) * c.fs;
        prop_assert!(tau.is_finite() && tau > 0.0, "eq (9) gives {tau}");
        let slack = if tau < 3.0 { 4.0 - tau } else { (0.1 * tau).max(3.0) };
        let cap = (tau + slack).ceil() as u64 + 2;
        let r = run(&c, scheme, cap)?;
        prop_assert!(r.detached, "no detachment within {cap} samples (eq 9: {tau:.2})");
        prop_assert!(!r.runaway);
        // Samples with x > 0: all but the one in which the mass left.
        let n = (r.samples - 1) as f64;
        if tau < 3.0 {
            prop_assert!(r.samples <= 4, "{} samples where eq (9) gives {tau:.3}", r.samples);
        } else {
            prop_assert!((n - tau).abs() <= slack, "{n} samples in contact, eq (9) {tau:.2}");
        }
        let want = v_out_by_bisection(c.contact.mu, c.v_in);
        prop_assert!(
            ((r.v_out - want) / want).abs() <= 1e-12,
            "v_out {} against {} by bisection", r.v_out, want
        );
    }

    /// The closed-form bound the guard uses is an upper bound on eq (9), and not a
    /// loose one.
    #[test]
    fn contact_time_bound_bounds_eq_9(c in case()) {
        let an = c.contact.impact(c.v_in);
        let (tau, bound) = (contact_time(&an), contact_time_bound(&an));
        prop_assert!(tau.is_finite() && tau > 0.0);
        prop_assert!(bound >= tau * (1.0 - 1e-12), "bound {bound:e} < tau {tau:e}");
        prop_assert!(bound <= 4.0 * tau, "bound {bound:e} vs tau {tau:e}");
    }
}
