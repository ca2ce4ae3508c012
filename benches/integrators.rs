//! Per-sample cost of each integrator × correction in contact, of free flight, and of
//! one exact `v_out`. Each iteration is one simulated sample, so criterion's time per
//! iteration reads directly as ns/sample.

use criterion::{Criterion, criterion_group, criterion_main};
use rebound::model::vout::{v_out_approx, v_out_exact};
use rebound::model::{
    Bouncer, ClampTarget, Contact, Correction, Impact, Latch, Method, Phase, Scheme, load, prop1,
    restitution,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Table I's case: a soft contact of ~1660 samples at 44.1 kHz, so that the cost of
/// starting an impact is spread over many samples.
fn contact() -> Contact {
    Contact::new(1e3, 0.5, 1.5, 0.01)
}
const V_IN: f64 = 0.5;
const FS: f64 = 44_100.0;

fn in_contact(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact_ns_per_sample");
    for method in Method::ALL {
        for correction in Correction::ALL {
            let scheme = Scheme::new(method, correction, ClampTarget::Exact);
            let mut imp = Impact::new(contact(), scheme, V_IN, FS);
            group.bench_function(format!("{}/{}", method.name(), correction.name()), |b| {
                b.iter(|| {
                    if !imp.step() {
                        imp = Impact::new(contact(), scheme, V_IN, FS);
                    }
                    // The state, not wall_force(): that would evaluate the force law a
                    // second time and bill it to the integrator.
                    black_box((imp.x(), imp.v()))
                })
            });
            if method == Method::Am1 {
                eprintln!(
                    "am1/{}: Newton iterations mean {:.2}, max {}",
                    correction.name(),
                    imp.newton.mean(),
                    imp.newton.max
                );
            }
        }
    }
    group.finish();
    // A general exponent (Table II(a)'s α = 1.3) takes `exp(α ln x)` instead of the
    // Hertz exponent's `x√x`.
    let mut group = c.benchmark_group("contact_ns_per_sample_alpha_1.3");
    let general = Contact::new(1e3, 0.5, 1.3, 0.01);
    for method in Method::ALL {
        for correction in [Correction::None, Correction::Both] {
            let scheme = Scheme::new(method, correction, ClampTarget::Exact);
            let mut imp = Impact::new(general, scheme, V_IN, FS);
            group.bench_function(format!("{}/{}", method.name(), correction.name()), |b| {
                b.iter(|| {
                    if !imp.step() {
                        imp = Impact::new(general, scheme, V_IN, FS);
                    }
                    black_box((imp.x(), imp.v()))
                })
            });
        }
    }
    group.finish();
}

/// The same contact with the load `m g` during contact (seed 001), and with its damping
/// set from a restitution (seed 000): per sample, as `contact_ns_per_sample`. Each
/// impact is built as the instrument builds it at onset (`Latch::impact`, which under
/// load solves `load::exit` once), so the onset is spread over the contact's samples
/// as `Impact::new` is in the groups above. Under load the hybrid correction stands
/// aside: `both` is the clamp plus the load's bookkeeping.
fn seeded_contacts(c: &mut Criterion) {
    // (group, restitution, gravity in contact)
    for (name, restitution, g) in [
        ("contact_ns_per_sample_gravity_in_contact", None, Some(9.81)),
        ("contact_ns_per_sample_restitution", Some(0.7), None),
    ] {
        let mut group = c.benchmark_group(name);
        for method in Method::ALL {
            for correction in [Correction::None, Correction::Both] {
                let l = Latch {
                    contact: contact(),
                    scheme: Scheme::new(method, correction, ClampTarget::Exact),
                    restitution,
                };
                let start = || l.impact(V_IN, FS, g, 0.0);
                let mut imp = start();
                group.bench_function(format!("{}/{}", method.name(), correction.name()), |b| {
                    b.iter(|| {
                        if !imp.step() {
                            imp = start();
                        }
                        black_box((imp.x(), imp.v()))
                    })
                });
            }
        }
        group.finish();
    }
}

/// What a contact costs once, at its onset: the load-aware exit at the default patch
/// (k 1e7, mu 0.5, alpha 1.5, m 0.01 kg, g 9.81), the restitution's damping, Proposition
/// 1's approximate restitution, and the whole onset (`Latch::impact`) with and without
/// the load, against `Impact::new`.
fn onset(c: &mut Criterion) {
    let patch = Contact::new(1e7, 0.5, 1.5, 0.01);
    let g = 9.81;
    let mut group = c.benchmark_group("onset_ns");
    for v_in in [0.1, 0.01, 0.001] {
        group.bench_function(format!("load_exit/v_in={v_in}"), |b| {
            b.iter(|| {
                load::exit(
                    black_box(patch.k),
                    black_box(patch.mu),
                    patch.alpha,
                    patch.mass,
                    black_box(v_in),
                    g,
                )
            })
        });
        let steps = load::exit(patch.k, patch.mu, patch.alpha, patch.mass, v_in, g).steps;
        eprintln!("load_exit/v_in={v_in}: {steps} Dormand-Prince steps");
    }
    for e in [0.3, 0.7, 0.9] {
        group.bench_function(format!("mu_v_in_for/e={e}"), |b| {
            b.iter(|| restitution::mu_v_in_for(black_box(e)))
        });
    }
    for v_in in [0.1, 0.01, 0.001] {
        let (gamma, g_tilde) = load::scaled(patch.k, patch.mu, patch.alpha, patch.mass, v_in, g);
        group.bench_function(format!("restitution_prop1/v_in={v_in}"), |b| {
            b.iter(|| prop1::restitution_prop1(patch.alpha, black_box(gamma), black_box(g_tilde)))
        });
    }
    let scheme = Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Exact);
    group.bench_function("impact_new/v_in=0.1", |b| {
        b.iter(|| Impact::new(black_box(patch), scheme, black_box(0.1), FS))
    });
    for (name, restitution, gravity) in [
        ("latch_impact/plain", None, None),
        ("latch_impact/restitution", Some(0.7), None),
        ("latch_impact/gravity_in_contact", None, Some(g)),
    ] {
        let l = Latch {
            contact: patch,
            scheme,
            restitution,
        };
        group.bench_function(format!("{name}/v_in=0.1"), |b| {
            b.iter(|| l.impact(black_box(0.1), FS, gravity, 0.0))
        });
    }
    group.finish();
}

fn free_flight(c: &mut Criterion) {
    // A weak gravity keeps the mass in flight for seconds between contacts. A flight
    // sample is a few instructions, less than criterion's own per-iteration cost, so
    // each iteration runs a batch and reports the time per sample.
    const BATCH: u32 = 1000;
    let scheme = Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Exact);
    let strike = || {
        let mut b = Bouncer::strike(contact(), scheme, V_IN, FS, Some(0.05));
        while !matches!(b.phase(), Phase::Flight { .. }) {
            b.step(|| (contact(), scheme));
        }
        b
    };
    let mut bouncer = strike();
    c.bench_function("free_flight_ns_per_sample", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                for _ in 0..BATCH {
                    black_box(bouncer.step(|| (contact(), scheme)));
                }
                if !matches!(bouncer.phase(), Phase::Flight { .. }) {
                    bouncer = strike();
                }
            }
            start.elapsed() / BATCH
        })
    });
}

fn v_out(c: &mut Criterion) {
    let mut group = c.benchmark_group("v_out_ns");
    for a in [1e-6, 0.5, 50.0] {
        group.bench_function(format!("exact/mu_v_in={a}"), |b| {
            b.iter(|| v_out_exact(black_box(1.0), black_box(a)))
        });
    }
    group.bench_function("approx/mu_v_in=0.5", |b| {
        b.iter(|| v_out_approx(black_box(1.0), black_box(0.5)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = in_contact, seeded_contacts, free_flight, v_out, onset
}
criterion_main!(benches);
