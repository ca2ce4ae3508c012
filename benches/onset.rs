//! What each contact onset computes, timed patch by patch over 1000 random patches
//! drawn from the full parameter ranges (`engine::params::LIMITS`) with a fixed seed,
//! each range's ends drawn one time in eight (the hard regions live there: 1 mm/s
//! strikes, g 100, μ 10, α 1 and 3, k 1e2 and 1e12, masses 1e-4 and 1 kg).
//!
//! For every computation and patch the cost of one call is the least, over
//! [`ROUNDS`] rounds, of the mean over a batch of calls (so an interrupt on a shared
//! core does not count as the patch's cost); the table gives the median and the worst
//! patch, and the worst patch's parameters. Criterion then times the whole set once
//! per computation (its mean is per call, averaged over the 1000 patches). The lines
//! marked "before" time the former methods (`tests/support/onset_ref.rs`, and eq (9)
//! on the refining rule `tau::contact_time`) in the same run, so that the ratios
//! compare like with like.
//!
//! `cargo bench --bench onset` (`-- --table` prints the table only, `-- --slices`
//! only its exit slices; `-- --moves` compares bounce times, `-- --moves --wait
//! 12,36` at other waiting slices).

use criterion::Criterion;
use rebound::model::bounce::{EXIT_SLICE, Latch, WAIT_FACTOR};
use rebound::model::{
    Bouncer, ClampTarget, Contact, Correction, Impact, Method, Scheme, Train, hardness, load,
    prop1, restitution, tau,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "onset/moves.rs"]
mod moves;
#[path = "../tests/support/onset_ref.rs"]
mod onset_ref;
#[path = "../tests/support/rng.rs"]
mod rng;
use moves::moves;
use rng::Rng;

const PATCHES: usize = 1000;
const SEED: u64 = 0x5eed_0001;
const ROUNDS: usize = 3;
/// A batch runs for about this long (at least one call).
const BATCH_TIME: f64 = 30e-6;
const FS: f64 = 48_000.0;

/// One patch: what a contact onset latches.
#[derive(Clone, Copy, Debug)]
struct Patch {
    k: f64,
    mu: f64,
    alpha: f64,
    mass: f64,
    v_in: f64,
    g: f64,
    /// Bounciness (restitution), for the eq (19) root and eq (9)'s unit time.
    e: f64,
}

fn patches() -> Vec<Patch> {
    use rebound::engine::LIMITS;
    let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
    let mut rng = Rng(SEED);
    (0..PATCHES)
        .map(|_| Patch {
            k: rng.range(lo.k, hi.k, true),
            mu: rng.range(lo.mu, hi.mu, true),
            alpha: rng.range(lo.alpha, hi.alpha, false),
            mass: rng.range(lo.mass, hi.mass, true),
            v_in: rng.range(lo.v_min, hi.v_max, true),
            g: rng.range(lo.gravity, hi.gravity, true),
            e: rng.range(lo.restitution, hi.restitution, false),
        })
        .collect()
}

/// A per-onset computation: its name and one call on a patch.
type Computation = (&'static str, fn(&Patch) -> f64);

fn computations() -> Vec<Computation> {
    vec![
        // Before: what `load::exit` did (the scaling, Dormand–Prince 5(4), the time
        // scale, eq (6) past 3000 steps).
        ("load::exit before (DP 5(4))", |p| {
            let (gamma, g_tilde) = load::scaled(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g);
            let s = onset_ref::scaled_exit_dp5(p.alpha, gamma, g_tilde);
            let tau = s.tau * load::time_scale(p.k, p.alpha, p.mass, p.v_in);
            if s.resolved {
                s.e + tau
            } else {
                -rebound::model::vout::v_out_exact(p.mu, p.v_in) / p.v_in + tau
            }
        }),
        ("load::exit", |p| {
            load::exit(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g).e
        }),
        ("prop1 before (289 nodes)", |p| {
            let (gamma, g_tilde) = load::scaled(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g);
            rebound::model::prop1::restitution_prop1_fine(p.alpha, gamma, g_tilde)
        }),
        ("prop1::restitution_prop1", |p| {
            let (gamma, g_tilde) = load::scaled(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g);
            prop1::restitution_prop1(p.alpha, gamma, g_tilde)
        }),
        ("restitution::mu_v_in_for", |p| {
            restitution::mu_v_in_for(p.e)
        }),
        // Before: eq (9) on the refining tanh-sinh rule (what `unit_time` called).
        ("unit_time before (refining)", |p| {
            let z = restitution::mu_v_in_for(p.e);
            tau::contact_time(&Contact::new(1.0, z, p.alpha, 1.0).impact(1.0))
        }),
        ("hardness::unit_time (eq 9)", |p| {
            hardness::unit_time(restitution::mu_v_in_for(p.e), p.alpha)
        }),
        ("Impact::new", |p| {
            let c = Contact::new(p.k, p.mu, p.alpha, p.mass);
            let scheme = Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Exact);
            Impact::new(c, scheme, p.v_in, FS).analytic().v_in
        }),
        // What `Norm::new` does at a latch: eq (6)'s exit and the analytic peak force.
        ("Norm::new (peak force)", |p| {
            let an = Contact::new(p.k, p.mu, p.alpha, p.mass).impact(p.v_in);
            let dv = p.v_in - an.v_out();
            an.peak_force().min(p.mass * dv * FS)
        }),
        // The whole onset of a bouncing patch with gravity in contact and the
        // approximate target (the load-aware exit and Proposition 1 both).
        ("Latch::impact (load, approx)", |p| {
            let latch = Latch {
                contact: Contact::new(p.k, p.mu, p.alpha, p.mass),
                scheme: Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Approx),
                restitution: None,
            };
            latch.impact(p.v_in, FS, Some(p.g), 0.0).analytic().v_in
        }),
        // The same with the damping from Bounciness (eq 19 at each onset).
        ("Latch::impact (load, from e)", |p| {
            let latch = Latch {
                contact: Contact::new(p.k, p.mu, p.alpha, p.mass),
                scheme: Scheme::new(Method::Verlet, Correction::Both, ClampTarget::Exact),
                restitution: Some(p.e),
            };
            latch.impact(p.v_in, FS, Some(p.g), 0.0).analytic().v_in
        }),
        // What an onset computes now: the impact with its load, the exit's solve set
        // up and its first slice of EXIT_SLICE steps (and, where that ends it,
        // Proposition 1's target).
        ("onset: Bouncer::new (approx)", |p| {
            onset(p, ClampTarget::Approx, None)
        }),
        ("onset: Bouncer::new (exact)", |p| {
            onset(p, ClampTarget::Exact, None)
        }),
        ("onset: Bouncer::new (from e)", |p| {
            onset(p, ClampTarget::Exact, Some(p.e))
        }),
    ]
}

/// A bouncing train's strike with gravity in contact (the note-on's onset).
fn onset(p: &Patch, target: ClampTarget, restitution: Option<f64>) -> f64 {
    let latch = Latch {
        contact: Contact::new(p.k, p.mu, p.alpha, p.mass),
        scheme: Scheme::new(Method::Verlet, Correction::Both, target),
        restitution,
    };
    let train = Train {
        gravity: Some(p.g),
        in_contact: true,
    };
    Bouncer::new(latch, p.v_in, FS, train)
        .impact()
        .analytic()
        .v_in
}

/// The worst slice of `units` steps of one patch's exit solve: each slice timed from
/// its own starting state, and the exit's hand-over (Proposition 1's target where the
/// approximate clamp asks for it) with the last.
fn worst_slice(p: &Patch, units: u32) -> f64 {
    let mut s = load::ExitSolve::new(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g);
    let mut starts = vec![s];
    while s.advance(units) == load::Progress::Pending {
        starts.push(s);
    }
    let mut worst: f64 = 0.0;
    for start in starts {
        let t = time_with(|| {
            let mut s = start;
            match s.advance(units) {
                load::Progress::Done(x) => {
                    let (gamma, g_tilde) = load::scaled(p.k, p.mu, p.alpha, p.mass, p.v_in, p.g);
                    x.e + prop1::restitution_prop1(p.alpha, gamma, g_tilde)
                }
                load::Progress::Pending => 0.0,
            }
        });
        worst = worst.max(t);
    }
    worst
}

/// Seconds one call of `f` on `p` takes (see the module doc).
fn time_one(f: fn(&Patch) -> f64, p: &Patch) -> f64 {
    time_with(|| f(black_box(p)))
}

/// Seconds one call of `f` takes: the least over [`ROUNDS`] of a batch's mean.
fn time_with(f: impl Fn() -> f64) -> f64 {
    let t = Instant::now();
    black_box(f());
    let once = t.elapsed().as_secs_f64().max(1e-9);
    let reps = ((BATCH_TIME / once) as usize).clamp(1, 100_000);
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        best = best.min(t.elapsed().as_secs_f64() / reps as f64);
    }
    best
}

fn table(patches: &[Patch], slices_only: bool) {
    println!(
        "{:<32} {:>10} {:>10} {:>10} {:>7}   worst patch (k, mu, alpha, m, v_in, g, e)",
        "per-onset computation", "median µs", "p99 µs", "worst µs", "> 20µs"
    );
    let slice: Computation = ("exit: worst slice of a solve", |_| 0.0);
    let wait: Computation = ("exit: worst waiting slice", |_| 0.0);
    let all = if slices_only {
        Vec::new()
    } else {
        computations()
    };
    for (name, f) in all.into_iter().chain([slice, wait]) {
        let time = |p: &Patch| {
            if name == slice.0 {
                worst_slice(p, EXIT_SLICE)
            } else if name == wait.0 {
                worst_slice(p, EXIT_SLICE * WAIT_FACTOR)
            } else {
                time_one(f, p)
            }
        };
        let mut times: Vec<(f64, usize)> = patches
            .iter()
            .enumerate()
            .map(|(i, p)| (time(p), i))
            .collect();
        times.sort_by(|a, b| a.0.total_cmp(&b.0));
        let median = times[times.len() / 2].0;
        let p99 = times[times.len() * 99 / 100].0;
        let (worst, i) = times[times.len() - 1];
        let over = times.iter().filter(|t| t.0 > 20e-6).count();
        let p = patches[i];
        println!(
            "{:<32} {:>10.3} {:>10.3} {:>10.3} {:>7}   ({:.3e}, {:.3e}, {:.3}, {:.3e}, {:.3e}, {:.3}, {:.3})",
            name,
            median * 1e6,
            p99 * 1e6,
            worst * 1e6,
            over,
            p.k,
            p.mu,
            p.alpha,
            p.mass,
            p.v_in,
            p.g,
            p.e
        );
    }
}

fn main() {
    let patches = patches();
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--moves") {
        // `--wait N,M,...` compares other waiting slices.
        let waits: Vec<u32> = match args.iter().position(|a| a == "--wait") {
            Some(i) => args
                .get(i + 1)
                .map(|l| l.split(',').filter_map(|w| w.parse().ok()).collect())
                .unwrap_or_default(),
            None => vec![EXIT_SLICE * WAIT_FACTOR],
        };
        for wait in waits {
            moves(&patches, wait);
        }
        return;
    }
    table(&patches, args.iter().any(|a| a == "--slices"));
    if args.iter().any(|a| a == "--table" || a == "--slices") {
        return;
    }
    if std::env::args().any(|a| a == "--table") {
        return;
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .configure_from_args();
    let mut group = c.benchmark_group("onset_mean_over_1000_patches");
    for (name, f) in computations() {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    for p in &patches {
                        black_box(f(black_box(p)));
                    }
                }
                t.elapsed() / PATCHES as u32
            })
        });
    }
    group.finish();
    c.final_summary();
}
