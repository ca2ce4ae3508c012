//! Hardness is the contact time at the top strike speed: the contact a voice latches,
//! simulated at a fine step, lasts what Hardness says, for every Shape, mass and
//! Bounciness; Shape changes the pulse, not its length; `physical()` reports it; the
//! default patch brightens over the whole range.

use proptest::prelude::*;
use rebound::engine::{Controls, EngineParams, LIMITS, physical};
use rebound::model::Contact;
use rebound::voice::latch_of;

/// Contact time of `c` struck at `v_in`, by RK4 of eqs (1)–(2) at `steps` steps over
/// `tau_guess`, the detachment found by linear interpolation of `x` across zero: an
/// integration independent of the engine's integrators and of eq (9).
fn simulated_contact_time(c: &Contact, v_in: f64, tau_guess: f64, steps: f64) -> f64 {
    let h = tau_guess / steps;
    let acc = |x: f64, v: f64| c.force(x, v) / c.mass;
    let (mut x, mut v, mut t) = (0.0f64, v_in, 0.0);
    loop {
        let (k1x, k1v) = (v, acc(x, v));
        let (k2x, k2v) = (v + 0.5 * h * k1v, acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
        let (k3x, k3v) = (v + 0.5 * h * k2v, acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
        let (k4x, k4v) = (v + h * k3v, acc(x + h * k3x, v + h * k3v));
        let xn = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        let vn = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if xn <= 0.0 && t > 0.0 {
            return t + h * x / (x - xn);
        }
        (x, v, t) = (xn, vn, t + h);
        assert!(t < 10.0 * tau_guess, "no detachment");
    }
}

fn playable(hardness_ms: f64, alpha: f64, mass: f64, e: f64, v_max: f64) -> EngineParams {
    EngineParams {
        controls: Controls::Playable,
        hardness_ms,
        alpha,
        mass,
        restitution: e,
        v_min: LIMITS[0].v_min,
        v_max,
        ..Default::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Over the whole Hardness × Shape × mass × Bounciness × top-speed range.
    #[test]
    fn contact_time_at_v_max_is_hardness(
        hardness_ms in LIMITS[0].hardness_ms..=LIMITS[1].hardness_ms,
        alpha in LIMITS[0].alpha..=LIMITS[1].alpha,
        log_mass in LIMITS[0].mass.log10()..=LIMITS[1].mass.log10(),
        e in LIMITS[0].restitution..=LIMITS[1].restitution,
        log_v in LIMITS[0].v_max.log10()..=LIMITS[1].v_max.log10(),
    ) {
        let (mass, v_max) = (10f64.powf(log_mass), 10f64.powf(log_v));
        let p = playable(hardness_ms, alpha, mass, e, v_max);
        let c = latch_of(&p).contact_at(v_max);
        let tau = 1e-3 * hardness_ms;
        let got = simulated_contact_time(&c, v_max, tau, 20_000.0);
        let rel = (got - tau).abs() / tau;
        prop_assert!(rel < 2e-4, "simulated {got} s for Hardness {tau} s (k {:e})", c.k);
        let ph = physical(&p);
        prop_assert!((ph.k - c.k).abs() <= 1e-12 * c.k);
        prop_assert!((ph.mu - c.mu).abs() <= 1e-12 * c.mu);
        prop_assert_eq!(ph.tau_ms, hardness_ms);
        prop_assert_eq!(ph.e, e);
    }
}

#[test]
fn shape_keeps_the_contact_time() {
    let mut ks = Vec::new();
    for alpha in [1.0, 1.5, 2.0, 3.0] {
        let p = playable(0.6, alpha, 0.01, 0.7, 2.0);
        let c = latch_of(&p).contact_at(2.0);
        let t = simulated_contact_time(&c, 2.0, 6e-4, 20_000.0);
        assert!((t - 6e-4).abs() < 1e-7, "α {alpha}: {t}");
        ks.push(c.k);
    }
    // The inversion absorbed α: k moved by orders of magnitude to keep τ.
    assert!(ks[3] / ks[0] > 1e3, "{ks:?}");
}

#[test]
fn expert_mode_reports_its_contact_time() {
    // paper-notes, case I: k 1e3, μ 0.5, α 1.5, m 0.01, v_in 0.5 lasts 1659.20 samples.
    let p = EngineParams {
        controls: Controls::Expert,
        k: 1e3,
        mu: 0.5,
        alpha: 1.5,
        mass: 0.01,
        v_max: 0.5,
        v_min: 0.1,
        ..Default::default()
    };
    let ph = physical(&p);
    assert_eq!(ph.k, 1e3);
    assert_eq!(ph.mu, 0.5);
    assert!(
        (ph.tau_ms * 44.1 - 1659.20).abs() < 0.01,
        "{}",
        ph.tau_ms * 44.1
    );
    assert!((ph.e - 0.428425508758 / 0.5).abs() < 1e-9, "{}", ph.e);
    let c = latch_of(&p).contact_at(0.5);
    assert_eq!((c.k, c.mu), (1e3, 0.5));
}

#[path = "support/spectrum.rs"]
mod spectrum;

/// The default patch over the Hardness range at 44.1 kHz: (Hardness ms, A-weighted dB,
/// centroid Hz, peak dBFS), softest first.
fn hardness_sweep() -> Vec<(f64, f64, f64, f64)> {
    let fs = 44_100.0;
    let (lo, hi) = (LIMITS[0].hardness_ms, LIMITS[1].hardness_ms);
    (0..=12)
        .map(|i| {
            let hardness_ms = hi * (lo / hi).powf(i as f64 / 12.0);
            let p = EngineParams {
                hardness_ms,
                ..Default::default()
            };
            let r = rebound::engine::render(
                &p,
                fs,
                &[rebound::engine::NoteSpec {
                    at: 0,
                    key: 60,
                    velocity: 1.0,
                    off: None,
                }],
                (0.5 * fs) as usize,
            );
            let x = r.mono();
            let peak = 20.0 * (r.peak() as f64).log10();
            (
                hardness_ms,
                spectrum::a_weighted_db(&x, fs),
                spectrum::centroid(&x, fs),
                peak,
            )
        })
        .collect()
}

/// Over the whole Hardness range the default patch keeps its loudness and changes its
/// timbre: its A-weighted level stays inside a ±3 dB window, its spectral
/// centroid rises at every step up to the top of the range at 44.1 kHz, and every
/// step's peak is inside the calibrated target ±2 dB.
#[test]
fn hardness_changes_timbre_not_loudness() {
    let sweep = hardness_sweep();
    for (h, a, c, pk) in &sweep {
        eprintln!("Hardness {h:7.4} ms: {a:6.2} dB(A), centroid {c:7.1} Hz, peak {pk:6.2} dBFS");
    }
    let (lo, hi) = sweep
        .iter()
        .fold((f64::MAX, f64::MIN), |m, s| (m.0.min(s.1), m.1.max(s.1)));
    eprintln!("A-weighted span: {:.2} dB", hi - lo);
    assert!(
        hi - lo <= 6.0,
        "the A-weighted level spans {:.2} dB: more than a ±3 dB window",
        hi - lo
    );
    for (h, _, _, pk) in &sweep {
        assert!(
            (pk - rebound::engine::level::law::TARGET_PEAK_DB).abs() <= 2.0,
            "Hardness {h} ms peaks at {pk:.2} dBFS"
        );
    }
    for w in sweep.windows(2) {
        assert!(
            w[1].2 > w[0].2,
            "centroid falls from {:.4} ms to {:.4} ms: {:.1} → {:.1} Hz",
            w[0].0,
            w[1].0,
            w[0].2,
            w[1].2
        );
    }
}
