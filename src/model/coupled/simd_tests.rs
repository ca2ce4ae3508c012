use super::{Coupled, CoupledRun, State, StrikeModes, TwoWayMethod};
use crate::model::Contact;
use crate::model::alpha_pow::AlphaPow;
use crate::model::body::{BodySettings, BodyType, strike_modes, vector_path};
use crate::model::scheme::Method;

/// Systems across bodies, masses, contacts and rates: (system, `v_in`, `fs`).
fn cases() -> Vec<(Coupled, f64, f64)> {
    let mut out = Vec::new();
    let bodies = [
        BodyType::Bar,
        BodyType::Plate,
        BodyType::Membrane,
        BodyType::Bell,
        BodyType::WoodBlock,
    ];
    for (i, body) in bodies.into_iter().enumerate() {
        for (j, mass) in [1e-3, 0.05, 10.0].into_iter().enumerate() {
            let st = BodySettings {
                kind: body,
                f1: [55.0, 220.0, 880.0][j],
                position: 0.1 + 0.2 * i as f64,
                ..BodySettings::default()
            };
            let (m, n) = strike_modes(&st, mass);
            let modes =
                StrikeModes::from_modes(m[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
            let contact = Contact::new(
                [1e5, 1e7, 1e9][j],
                [0.0, 0.5, 3.0][i % 3],
                // The exact forms (1, 3/2, 2) and the tables of `AlphaPow`.
                [1.0, 1.5, 2.0, 1.37, 2.71][(i + 2 * j) % 5],
                0.01,
            );
            let fs = [44_100.0, 48_000.0, 96_000.0, 192_000.0][(i + j) % 4];
            out.push((Coupled { contact, modes }, 0.3 + i as f64, fs));
        }
    }
    out
}

fn states(run: CoupledRun, samples: usize) -> Vec<(State, Option<f64>, u32, u64, f64)> {
    let mut run = run;
    (0..samples)
        .map(|_| {
            let f = run.tick();
            let r = run.finish();
            (run.state, f, r.contacts, r.contact_samples, r.v_out)
        })
        .collect()
}

/// The vector path changes the cost, never the result: the voice's run (without its
/// energy balance, by Verlet or Heun) gives the same states, forces and contacts bit for
/// bit on both paths, and the same as the run that keeps its balance.
#[test]
fn the_vector_path_is_the_portable_one() {
    assert!(
        vector_path() || !is_x86_feature_detected!("avx2") || std::env::var("REBOUND_SIMD").is_ok()
    );
    for (sys, v_in, fs) in cases() {
        for method in [Method::Verlet, Method::Heun] {
            let m = TwoWayMethod::Paper(method);
            let Some(run) = CoupledRun::new(sys, m, v_in, fs) else {
                continue;
            };
            let vector = states(run.without_energy(), 600);
            let portable = states(run.without_energy().portable(), 600);
            let balanced = states(run, 600);
            assert!(vector.iter().any(|s| s.2 > 0), "{sys:?}");
            for (i, ((a, b), c)) in vector.iter().zip(&portable).zip(&balanced).enumerate() {
                let same = |p: &(State, Option<f64>, u32, u64, f64),
                            q: &(State, Option<f64>, u32, u64, f64)| {
                    format!("{p:?}") == format!("{q:?}")
                };
                assert!(
                    same(a, b),
                    "{} sample {i}: vector {a:?} portable {b:?}",
                    m.name()
                );
                assert!(
                    same(b, c),
                    "{} sample {i}: without {b:?} with balance {c:?}",
                    m.name()
                );
            }
        }
    }
}

/// A run handed `δ^α` tables made for another exponent (a voice's, kept from a strike
/// before a knob move) makes its own: it plays as a run that made them.
#[test]
fn tables_for_another_alpha_are_made_anew() {
    let stale = AlphaPow::new(2.0);
    let mut tried = 0;
    for (sys, v_in, fs) in cases() {
        let m = TwoWayMethod::Paper(Method::Verlet);
        let Some(own) = CoupledRun::new(sys, m, v_in, fs) else {
            continue;
        };
        let handed = CoupledRun::with_pow(sys, m, v_in, fs, own.substeps(), &stale).unwrap();
        let (a, b) = (states(own, 300), states(handed, 300));
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{sys:?}");
        tried += usize::from(sys.contact.alpha != 2.0);
    }
    assert!(tried > 5);
}
