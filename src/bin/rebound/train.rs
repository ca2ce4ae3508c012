//! Restitution-set damping (seed 000) and the bouncing train with gravity during
//! contact (seed 001) for `simulate` and `sequence`: thin drivers over
//! `rebound::model`, which has no single-impact or chain entry point that latches a
//! restitution's clamp target (see `simulate_restitution`).

use crate::common::{Setup, fmt_sig};
use crate::float::{F, to_json};
use rebound::model::metrics::{DeviationTracker, ImpactReport};
use rebound::model::restitution::mu_for;
use rebound::model::sequence::{Handover, SequenceImpact, SequenceSummary};
use rebound::model::{Bouncer, ClampTarget, Contact, Impact, Latch, Method, Phase, Scheme, Train};
use serde::Serialize;

/// `metrics::simulate_impact` for a contact whose damping `contact.mu` was set from the
/// restitution `e` at `v_in`: the same measurement, with the exact clamp aiming at
/// `−e v_in` (`Impact::with_restitution_target`) and `%err(v_out)` taken against it.
/// (The lines are `simulate_impact`'s; a model entry point taking a built `Impact`
/// would let both share them.)
pub fn simulate_restitution(
    contact: Contact,
    scheme: Scheme,
    v_in: f64,
    fs: f64,
    e: f64,
) -> ImpactReport {
    let mut imp = Impact::new(contact, scheme, v_in, fs).with_restitution_target(e);
    let an = *imp.analytic();
    let mut track = DeviationTracker::default();
    while imp.step() {
        track.observe(&an, imp.x(), imp.v());
    }
    let v_out_sim = imp.v();
    let v_out_exact = an.v_out();
    let v_out_approx = an.v_out_approx();
    let v_out_ref = match scheme.clamp_target {
        ClampTarget::Exact => -e * v_in,
        ClampTarget::Approx => v_out_approx,
    };
    let delta_h = an.delta_h_tau(v_out_ref).abs();
    let x_max = an.x_max();
    let mut with_exit = track;
    with_exit.observe_h(&an, imp.x(), v_out_sim);
    ImpactReport {
        v_in,
        contact_samples: track.samples,
        v_out_sim,
        v_out_exact,
        v_out_approx,
        v_out_ref,
        x_max,
        x_max_sim: track.max_x,
        tau_samples: rebound::model::tau::contact_time(&an) * fs,
        dev_x_pct: 100.0 * track.max_dev_x / x_max,
        dev_h_pct: 100.0 * track.max_dev_h / delta_h,
        err_vout_pct: 100.0 * (v_out_sim - v_out_ref) / v_out_ref,
        newton_iters_mean: imp.newton.mean(),
        newton_iters_max: imp.newton.max,
        runaway: imp.runaway(),
        closed_form: imp.closed_form(),
        substeps: imp.substeps(),
        paper_handover: imp.paper_handover(),
        max_dev_h_abs_with_exit: with_exit.max_dev_h,
        delta_h_tau_abs: delta_h,
    }
}

/// `sequence::run_sequence` with the damping set from the restitution `e`: each impact
/// at `v_in` gets `μ = mu_for(e, v_in)` and the clamp target `−e v_in`, and the exact
/// chain is `v_in eⁱ`. Same measurements and handover as `run_sequence`.
#[allow(clippy::too_many_arguments)]
pub fn restitution_sequence(
    contact: Contact,
    scheme: Scheme,
    v_in: f64,
    fs: f64,
    e: f64,
    n: usize,
    handover: Handover,
    mut each: impl FnMut(usize, &SequenceImpact),
) -> SequenceSummary {
    let m = contact.mass;
    let mut v_sim = v_in;
    let mut v_chain = v_in;
    let mut summary = SequenceSummary {
        impacts: 0,
        accum_err_pct: 0.0,
        max_dev_h_pct: 0.0,
    };
    for i in 0..n {
        if v_sim.is_nan() || v_sim <= 0.0 {
            break;
        }
        let c = Contact {
            mu: mu_for(e, v_sim),
            ..contact
        };
        let mut imp = Impact::new(c, scheme, v_sim, fs).with_restitution_target(e);
        let an = *imp.analytic();
        let mut track = DeviationTracker::default();
        while imp.step() {
            track.observe(&an, imp.x(), imp.v());
        }
        // As in `run_sequence`: the detachment sample counts unless the clamp set it.
        if !scheme.correction.clamp() {
            track.observe_h(&an, imp.x(), imp.v());
        }
        let v_out_sim = imp.v();
        let delta_h = an.delta_h_tau(-e * v_sim).abs();
        v_chain *= e;
        let h_sim = 0.5 * m * v_out_sim * v_out_sim;
        let h_exact = 0.5 * m * v_chain * v_chain;
        let rec = SequenceImpact {
            v_in: v_sim,
            v_out_sim,
            v_out_chain: -v_chain,
            accum_err_pct: 100.0 * (h_sim - h_exact) / h_exact,
            dev_h_pct: 100.0 * track.max_dev_h / delta_h,
            contact_samples: track.samples,
            runaway: imp.runaway(),
            closed_form: imp.closed_form(),
        };
        each(i, &rec);
        summary.impacts = i + 1;
        summary.accum_err_pct = rec.accum_err_pct;
        summary.max_dev_h_pct = summary.max_dev_h_pct.max(rec.dev_h_pct);
        v_sim = match (handover, scheme.method) {
            (Handover::PaperHeunPredicted, Method::Heun) if !imp.runaway() => {
                imp.paper_handover().abs()
            }
            _ => v_out_sim.abs(),
        };
    }
    summary
}

/// One impact of a train with gravity during contact.
struct TrainImpact {
    onset_s: f64,
    v_in: f64,
    mu: f64,
    v_out: f64,
    /// The exact load-aware restitution solved at onset (`load::exit`).
    e_exact: f64,
    sticks: bool,
    load_drift: f64,
    contact_samples: u64,
    runaway: bool,
    closed_form: bool,
}

impl TrainImpact {
    fn of(imp: &Impact, onset_s: f64, last_at_rest: bool) -> Self {
        let exit = imp.load_exit();
        Self {
            onset_s,
            v_in: imp.analytic().v_in,
            mu: imp.analytic().contact.mu,
            v_out: imp.v(),
            e_exact: exit.map_or(f64::NAN, |x| x.e),
            sticks: exit.is_some_and(|x| x.sticks) || imp.rested() || last_at_rest,
            load_drift: imp.load_drift(),
            contact_samples: imp.samples(),
            runaway: imp.runaway(),
            closed_form: imp.closed_form(),
        }
    }
}

/// Longest train simulated, s (as `render`'s longest duration): a light contact at
/// `--gravity 0.1` and `--v-in 50` flies for 1000 s between impacts, which sample by
/// sample would take hours. A train still bouncing then stops, as at the bound.
pub const MAX_SECONDS: f64 = 600.0;

/// What a train did.
struct TrainRun {
    rows: Vec<TrainImpact>,
    /// Impacts the bouncer started (within the bound).
    started: u32,
    rest: bool,
    rest_position: Option<f64>,
    samples: u64,
    /// Stopped by [`MAX_SECONDS`].
    time_limited: bool,
}

/// Runs the instrument's bouncer (`Train { gravity: Some(g), in_contact: true }`) for
/// at most `bound` impacts, recording each impact when it ends.
///
/// An impact's final state is read from the bouncer when its contact ends; where the
/// next contact started in the same sample (the bouncer then shows the new one), the
/// ended contact's last sample is replayed on a copy taken before the sample (the step
/// is deterministic). Contacts that start and end inside one sample after another's
/// exit (at most `bounce::MAX_EVENTS`, only at the very end of a train of sub-sample
/// bounces) are counted in `started` but cannot be itemised.
fn run_train(s: &Setup, g: f64, bound: u32) -> TrainRun {
    let latch = Latch {
        contact: s.contact,
        scheme: s.scheme,
        restitution: s.restitution,
    };
    let train = Train {
        gravity: Some(g),
        in_contact: true,
    };
    let mut b = Bouncer::new(latch, s.v_in, s.fs, train);
    let mut rows = Vec::new();
    // The onset of the impact in progress (the first starts at the first sample).
    let mut onset_s = 0.0;
    let mut n: u64 = 0;
    let mut bounded = false;
    let max_samples = (MAX_SECONDS * s.fs).ceil() as u64;
    let mut time_limited = false;
    while !b.is_done() {
        if n >= max_samples {
            time_limited = true;
            break;
        }
        let (k0, was_contact, before) = (b.impacts(), b.phase() == Phase::Contact, *b.impact());
        b.step(|| latch);
        let k1 = b.impacts();
        if was_contact && (k1 > k0 || !b.impact().in_contact()) {
            let last_at_rest = b.is_done() && b.at_rest();
            let ended = if k1 > k0 {
                let mut replay = before;
                replay.step();
                replay
            } else {
                *b.impact()
            };
            rows.push(TrainImpact::of(&ended, onset_s, last_at_rest));
        }
        if k1 > k0 {
            onset_s = (n as f64 + b.impact().start_fraction()) / s.fs;
        }
        n += 1;
        if k1 > bound {
            // The bound's next impact started: it is not part of the run.
            bounded = true;
            break;
        }
        if k1 == bound && !b.is_done() && !b.impact().in_contact() {
            // The last allowed impact is over and the mass is in flight.
            bounded = true;
            break;
        }
    }
    let rest = !bounded && !time_limited && b.at_rest();
    TrainRun {
        rows,
        started: b.impacts().min(bound),
        rest,
        rest_position: if rest { b.rest_position() } else { None },
        samples: n,
        time_limited,
    }
}

/// `sequence --gravity-in-contact --json`, keys in the order the tool has always
/// printed them.
#[derive(Serialize)]
struct TrainJson {
    method: &'static str,
    correction: &'static str,
    clamp_target: &'static str,
    gravity: F,
    gravity_in_contact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    restitution: Option<F>,
    impact_bound: u64,
    impacts: u64,
    impacts_started: u64,
    rest: bool,
    rest_position_m: F,
    duration_s: F,
    time_limited: bool,
    sequence: Vec<TrainImpactJson>,
}

#[derive(Serialize)]
struct TrainImpactJson {
    impact: u64,
    onset_s: F,
    v_in: F,
    mu: F,
    v_out: F,
    restitution: F,
    restitution_exact: F,
    sticks: bool,
    load_drift: F,
    contact_samples: u64,
    runaway: bool,
    closed_form: bool,
}

/// `sequence --gravity-in-contact`.
pub fn cmd_train(s: &Setup, g: f64, bound: u32, as_json: bool) -> String {
    let run = run_train(s, g, bound);
    let restitution = |r: &TrainImpact| -r.v_out / r.v_in;
    if as_json {
        return to_json(&TrainJson {
            method: s.scheme.method.name(),
            correction: s.scheme.correction.name(),
            clamp_target: s.scheme.clamp_target.name(),
            gravity: F(g),
            gravity_in_contact: true,
            restitution: s.restitution.map(F),
            impact_bound: bound as u64,
            impacts: run.rows.len() as u64,
            impacts_started: run.started as u64,
            rest: run.rest,
            rest_position_m: F(run.rest_position.unwrap_or(f64::NAN)),
            duration_s: F(run.samples as f64 / s.fs),
            time_limited: run.time_limited,
            sequence: run
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| TrainImpactJson {
                    impact: i as u64 + 1,
                    onset_s: F(r.onset_s),
                    v_in: F(r.v_in),
                    mu: F(r.mu),
                    v_out: F(r.v_out),
                    restitution: F(restitution(r)),
                    restitution_exact: F(r.e_exact),
                    sticks: r.sticks,
                    load_drift: F(r.load_drift),
                    contact_samples: r.contact_samples,
                    runaway: r.runaway,
                    closed_form: r.closed_form,
                })
                .collect(),
        });
    }
    let mut out = format!(
        "{:>6} {:>12} {:>14} {:>15} {:>11} {:>11} {:>6} {:>10}\n",
        "impact", "onset s", "v_in", "v_out", "e sim", "e exact", "sticks", "drift"
    );
    for (i, r) in run.rows.iter().enumerate() {
        out += &format!(
            "{:>6} {:>12.6} {:>14.10} {:>15.10} {:>11.7} {:>11.7} {:>6} {:>10}\n",
            i + 1,
            r.onset_s,
            r.v_in,
            r.v_out,
            restitution(r),
            r.e_exact,
            if r.sticks { "yes" } else { "no" },
            fmt_sig(r.load_drift)
        );
    }
    out += &match (run.rest, run.rest_position) {
        (true, Some(x)) => format!(
            "after {} impacts: at rest on the wall at x = {x:.6e} m ({:.6} s)",
            run.rows.len(),
            run.samples as f64 / s.fs
        ),
        _ if run.time_limited => format!(
            "after {} impacts: not at rest, stopped at the {MAX_SECONDS} s limit",
            run.rows.len(),
        ),
        _ => format!(
            "after {} impacts: not at rest (bound {bound} impacts, {:.6} s)",
            run.rows.len(),
            run.samples as f64 / s.fs
        ),
    };
    if run.started as usize > run.rows.len() {
        out += &format!(
            "\n{} further impacts within single samples at the train's end, not itemised",
            run.started as usize - run.rows.len()
        );
    }
    out
}
