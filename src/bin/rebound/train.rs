//! The bouncing train with gravity during contact (seed 001) for `sequence
//! --gravity-in-contact`: a thin driver over `rebound::model::Bouncer`.

use crate::common::{Setup, fmt_sig};
use crate::float::{F, to_json};
use rebound::model::{Bouncer, Impact, Latch, Phase, Train};
use serde::Serialize;

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
    // Each exit solved at its onset: the report gives every contact's exact exit as
    // it ends (the instrument solves it a slice a sample, which moves only a flight
    // whose return passed before its exit arrived: docs/realtime.md).
    let mut b = Bouncer::new(latch, s.v_in, s.fs, train).with_exit_slice(u32::MAX);
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
