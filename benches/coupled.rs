//! Per-sample cost of the two-way contact against the rigid wall with the same body:
//! each iteration is one sample of a contact (restarted when it ends) plus one sample
//! of the sounding body, so the ratio of the two reads as what a voice in two-way
//! contact would pay against a rigid-wall voice while the striker touches the body.

use criterion::{Criterion, criterion_group, criterion_main};
use rebound::model::body::{BodySettings, ModalBody, strike_modes};
use rebound::model::coupled::{Coupled, CoupledRun, StrikeModes, TwoWayMethod};
use rebound::model::{ClampTarget, Contact, Correction, Impact, Method, Scheme};
use std::hint::black_box;

/// The plugin's default contact on the default bar (0.5 kg) at 48 kHz.
const FS: f64 = 48_000.0;
const V_IN: f64 = 0.5;

fn contact() -> Contact {
    Contact::new(1e7, 0.5, 1.5, 0.01)
}

fn coupled() -> Coupled {
    let (m, n) = strike_modes(&BodySettings::default(), 0.5);
    Coupled {
        contact: contact(),
        modes: StrikeModes::from_modes(m[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg))),
    }
}

fn contact_with_body(c: &mut Criterion) {
    let mut group = c.benchmark_group("coupled_ns_per_sample");
    let sys = coupled();
    for method in TwoWayMethod::ALL {
        let start = || CoupledRun::new(sys, method, V_IN, FS).expect("resolvable");
        let mut run = start();
        let mut body = ModalBody::new(BodySettings::default(), FS);
        group.bench_function(format!("two-way/{}", method.name()), |b| {
            b.iter(|| {
                let f = run.tick().unwrap_or(0.0);
                if run.report.contacts > 0 && !run.finish().in_contact_at_end {
                    run = start();
                }
                black_box(body.tick(f / FS))
            })
        });
        eprintln!(
            "two-way/{}: {} steps a sample",
            method.name(),
            run.report.substeps
        );
    }
    for method in Method::ALL {
        let scheme = Scheme::new(method, Correction::Both, ClampTarget::Exact);
        let mut imp = Impact::new(contact(), scheme, V_IN, FS);
        let mut body = ModalBody::new(BodySettings::default(), FS);
        group.bench_function(format!("rigid/{}", method.name()), |b| {
            b.iter(|| {
                if !imp.step() {
                    imp = Impact::new(contact(), scheme, V_IN, FS);
                }
                black_box(body.tick(imp.wall_force() / FS))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, contact_with_body);
criterion_main!(benches);
