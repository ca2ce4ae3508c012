//! The two-way contact against an independent high-accuracy integration of the same
//! model (`support::coupled_ref`): exit velocity, samples in contact and the number of
//! contacts, for the discrete-gradient scheme and the paper's four methods, over
//! bodies, body masses 1e-3–10 kg, strikers, contacts and rates 44.1–192 kHz.

#[path = "support/coupled_ref.rs"]
mod coupled_ref;

use coupled_ref::Model;
use rebound::model::Contact;
use rebound::model::body::{BodySettings, BodyType, strike_modes};
use rebound::model::coupled::{
    Coupled, CoupledReport, StrikeModes, TwoWayMethod, simulate_coupled,
};

/// One case: body, its mass, the contact, `v_in`, the rate and the window.
#[derive(Clone, Copy, Debug)]
struct Case {
    body: BodyType,
    f1: f64,
    position: f64,
    body_mass: f64,
    contact: Contact,
    v_in: f64,
    fs: f64,
    window_s: f64,
}

fn system(c: &Case) -> Coupled {
    let st = BodySettings {
        kind: c.body,
        f1: c.f1,
        t60: 1.0,
        brightness: 0.5,
        position: c.position,
        recording: 0,
    };
    let (modes, n) = strike_modes(&st, c.body_mass);
    let modes = StrikeModes::from_modes(modes[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
    Coupled {
        contact: c.contact,
        modes,
    }
}

fn reference(sys: &Coupled, c: &Case) -> coupled_ref::Reference {
    let b = &sys.modes;
    let model = Model {
        k: c.contact.k,
        mu: c.contact.mu,
        alpha: c.contact.alpha,
        m: c.contact.mass,
        modes: (0..b.n)
            .map(|i| (b.omega[i], b.sigma[i], b.inv_mass[i]))
            .collect(),
    };
    model.run(c.v_in, c.fs, (c.window_s * c.fs).round() as u64, 1e-11)
}

#[allow(clippy::too_many_arguments)]
const fn case(
    body: BodyType,
    body_mass: f64,
    k: f64,
    mu: f64,
    alpha: f64,
    m: f64,
    v_in: f64,
    fs: f64,
) -> Case {
    Case {
        body,
        f1: 220.0,
        position: 0.3,
        body_mass,
        contact: Contact {
            k,
            mu,
            alpha,
            mass: m,
        },
        v_in,
        fs,
        window_s: 0.03,
    }
}

const CASES: [Case; 14] = [
    case(BodyType::Bar, 1e-3, 1e7, 0.5, 1.5, 0.01, 0.5, 44_100.0),
    case(BodyType::Bar, 10.0, 1e7, 0.5, 1.5, 0.01, 0.5, 48_000.0),
    case(BodyType::Plate, 0.05, 1e6, 0.2, 1.3, 0.02, 1.0, 96_000.0),
    case(
        BodyType::Membrane,
        0.01,
        1e5,
        1.0,
        1.0,
        0.005,
        2.0,
        192_000.0,
    ),
    case(BodyType::Bell, 1.0, 1e9, 0.5, 1.5, 0.01, 1.0, 192_000.0),
    case(BodyType::WoodBlock, 0.2, 1e8, 0.1, 2.0, 0.05, 0.3, 44_100.0),
    case(BodyType::Bar, 0.003, 1e4, 0.05, 1.5, 0.1, 0.2, 88_200.0),
    case(BodyType::Plate, 3.0, 1e3, 0.5, 1.5, 0.01, 0.5, 44_100.0),
    case(BodyType::Bar, 0.02, 1e6, 2.0, 2.5, 0.002, 5.0, 96_000.0),
    case(
        BodyType::Membrane,
        1e-3,
        1e8,
        0.01,
        1.2,
        1e-3,
        0.1,
        48_000.0,
    ),
    case(BodyType::Bell, 5.0, 1e11, 0.3, 1.5, 0.5, 2.0, 192_000.0),
    case(BodyType::Plate, 0.01, 1e6, 5.0, 3.0, 0.2, 1.0, 96_000.0),
    case(
        BodyType::WoodBlock,
        1e-3,
        1e5,
        0.5,
        1.0,
        0.001,
        20.0,
        44_100.0,
    ),
    case(BodyType::Membrane, 0.1, 1e2, 1e-4, 2.0, 1.0, 1e-3, 48_000.0),
];

fn run(c: &Case, m: TwoWayMethod) -> CoupledReport {
    let sys = system(c);
    simulate_coupled(sys, m, c.v_in, c.fs, (c.window_s * c.fs).round() as u64).expect("resolvable")
}

/// The acceptance of one method on one case against the reference.
fn check(i: usize, c: &Case, r: &coupled_ref::Reference, m: TwoWayMethod, s: &CoupledReport) {
    let at = format!("case {i} {}: {s:?} ref {r:?}", m.name());
    let rel = ((s.v_out - r.v_out) / r.v_out).abs();
    assert!(rel <= 1e-3, "v_out off by {rel:e}: {at}");
    let tol = (0.05 * r.contact_samples as f64).max(3.0);
    let diff = (s.contact_samples as f64 - r.contact_samples as f64).abs();
    assert!(diff <= tol, "contact samples off by {diff}: {at}");
    if r.intervals.iter().all(|(a, b)| (b - a) * c.fs > 2.0) {
        assert_eq!(s.contacts as usize, r.intervals.len(), "contacts: {at}");
    }
    if m == TwoWayMethod::DiscreteGradient {
        assert!(s.energy_drift_max <= 1e-9, "drift: {at}");
    }
}

#[test]
fn every_method_against_the_reference() {
    for (i, c) in CASES.iter().enumerate() {
        let sys = system(c);
        let r = reference(&sys, c);
        for m in TwoWayMethod::ALL {
            let s = run(c, m);
            eprintln!(
                "case {i} {:6} v_out {:+.3e} rel, samples {} / {}, contacts {} / {}, drift {:.2e}, substeps {}",
                m.name(),
                (s.v_out - r.v_out) / r.v_out,
                s.contact_samples,
                r.contact_samples,
                s.contacts,
                r.intervals.len(),
                s.energy_drift_max,
                s.substeps
            );
            check(i, c, &r, m, &s);
        }
    }
}

/// A light bar struck by a heavier striker swings back into it: the reference sees
/// three contacts, every method the same three; the same strike on a 10 kg bar is one.
#[test]
fn micro_contacts_where_the_physics_has_them() {
    let light = CASES[0];
    let heavy = Case {
        body_mass: 10.0,
        ..light
    };
    let r = reference(&system(&light), &light);
    assert_eq!(r.intervals.len(), 3, "{r:?}");
    assert_eq!(reference(&system(&heavy), &heavy).intervals.len(), 1);
    for m in TwoWayMethod::ALL {
        assert_eq!(run(&light, m).contacts, 3, "{}", m.name());
        assert_eq!(run(&heavy, m).contacts, 1, "{}", m.name());
    }
}
