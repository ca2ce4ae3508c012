//! `rebound simulate` (one impact, or with `--coupling` the two-way contact) and
//! `rebound sequence` (a chain of impacts, or the instrument's bouncing train).

use crate::common::{self, Setup, fmt_sig};
use crate::contact_args::{SequenceArgs, SimulateArgs, or_default, setup, setup_contact};
use crate::coupled;
use crate::float::{F, to_json};
use crate::train;
use rebound::model::coupled::TwoWayMethod;
use rebound::model::metrics::simulate_latched;
use rebound::model::sequence::{Handover, SequenceImpact, run_latched};
use rebound::model::{Latch, Method};
use serde::Serialize;

/// `simulate --json`, keys in the order the tool has always printed them.
#[derive(Serialize)]
struct SimulateJson {
    method: &'static str,
    correction: &'static str,
    clamp_target: &'static str,
    v_in: F,
    #[serde(skip_serializing_if = "Option::is_none")]
    restitution: Option<F>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mu: Option<F>,
    contact_samples: u64,
    v_out_sim: F,
    v_out_exact: F,
    v_out_approx: F,
    x_max: F,
    x_max_sim: F,
    tau_samples: F,
    dev_x_pct: F,
    dev_h_pct: F,
    err_vout_pct: F,
    newton_iters_mean: F,
    newton_iters_max: u64,
    runaway: bool,
    closed_form: bool,
    /// Taken by the damping-exact step, not the method.
    damped: bool,
    substeps: u64,
}

/// What each contact latches: the damping from `--mu`, or from `--restitution`.
fn latch_of(s: &Setup) -> Latch {
    Latch {
        contact: s.contact,
        scheme: s.scheme,
        restitution: s.restitution,
    }
}

pub fn cmd_simulate(a: &SimulateArgs) -> Result<String, String> {
    let c = &a.coupling;
    if let Some(coupling) = c.coupling {
        if a.contact.per_sample || a.contact.clamp_target.is_some() {
            common::usage_error(
                "simulate",
                clap::error::ErrorKind::ArgumentConflict,
                "--per-sample and --clamp-target belong to the mass-wall contact \
                 (simulate without --coupling)"
                    .into(),
            );
        }
        let method = a
            .contact
            .method
            .unwrap_or(TwoWayMethod::Paper(Method::Verlet));
        // The coupled run builds its own scheme: the contact is set up as without it.
        let s = setup_contact(&a.contact);
        let run = (s.1, s.2, a.contact.json);
        return coupled::cmd_coupled(c, coupling, s.0, method, a.contact.correction, run);
    }
    coupled::refuse_without_coupling(c);
    Ok(cmd_simulate_wall(a))
}

fn cmd_simulate_wall(a: &SimulateArgs) -> String {
    let s = setup(&a.contact, "simulate");
    // %err(v_out) against the exact root unless the approximate clamp target is
    // asked for (as in Table II(b)).
    let r = simulate_latched(latch_of(&s), s.v_in, s.fs, s.scheme.clamp_target);
    if a.contact.json {
        return to_json(&SimulateJson {
            method: s.scheme.method.name(),
            correction: s.scheme.correction.name(),
            clamp_target: s.scheme.clamp_target.name(),
            v_in: F(s.v_in),
            restitution: s.restitution.map(F),
            mu: s.restitution.map(|_| F(s.contact.mu)),
            contact_samples: r.contact_samples,
            v_out_sim: F(r.v_out_sim),
            v_out_exact: F(r.v_out_exact),
            v_out_approx: F(r.v_out_approx),
            x_max: F(r.x_max),
            x_max_sim: F(r.x_max_sim),
            tau_samples: F(r.tau_samples),
            dev_x_pct: F(r.dev_x_pct),
            dev_h_pct: F(r.dev_h_pct),
            err_vout_pct: F(r.err_vout_pct),
            newton_iters_mean: F(r.newton_iters_mean),
            newton_iters_max: r.newton_iters_max as u64,
            runaway: r.runaway,
            closed_form: r.closed_form,
            damped: r.damped,
            substeps: r.substeps as u64,
        });
    }
    let damping = match s.restitution {
        Some(e) => format!(
            "restitution       {e} (seed 000): mu {:.12} s/m, mu v_in {:.9}\n",
            s.contact.mu,
            s.contact.mu * s.v_in
        ),
        None => String::new(),
    };
    format!(
        "{} / correction {} / clamp target {}\n\
         {damping}\
         contact samples   {}\n\
         tau (eq 9)        {:.4} samples\n\
         v_out sim         {:.12}\n\
         v_out exact (6)   {:.12}\n\
         v_out approx (7)  {:.12}\n\
         x_max (4)         {:.6e} m   simulated {:.6e} m\n\
         %dev(x)           {}\n\
         %dev(H)           {}\n\
         %err(v_out)       {}\n\
         Newton iterations mean {:.2}, max {}{}",
        s.scheme.method.name(),
        s.scheme.correction.name(),
        s.scheme.clamp_target.name(),
        r.contact_samples,
        r.tau_samples,
        r.v_out_sim,
        r.v_out_exact,
        r.v_out_approx,
        r.x_max,
        r.x_max_sim,
        fmt_sig(r.dev_x_pct),
        fmt_sig(r.dev_h_pct),
        fmt_sig(r.err_vout_pct),
        r.newton_iters_mean,
        r.newton_iters_max,
        if r.runaway {
            "\nwarning: the contact ran away and was ended by the guard"
        } else {
            ""
        },
    )
}

/// `sequence --json` (Table III's chain).
#[derive(Serialize)]
struct SequenceJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    restitution: Option<F>,
    impacts: u64,
    accum_err_pct: F,
    max_dev_h_pct: F,
    sequence: Vec<ChainImpactJson>,
}

#[derive(Serialize)]
struct ChainImpactJson {
    impact: u64,
    onset_s: F,
    v_in: F,
    v_out_sim: F,
    v_out_exact_chain: F,
    accum_err_pct: F,
    dev_h_pct: F,
    contact_samples: u64,
    runaway: bool,
    closed_form: bool,
}

pub fn cmd_sequence(a: &SequenceArgs) -> String {
    let s = setup(&a.contact, "sequence");
    // A whole number within 1..=100000, so the conversion is exact.
    let impacts = or_default(a.impacts, "impacts") as usize;
    let g = or_default(a.gravity, "gravity");
    if a.gravity_in_contact {
        return train::cmd_train(&s, g, impacts as u32, a.contact.json);
    }
    let handover = if a.paper_heun_handover {
        Handover::PaperHeunPredicted
    } else {
        Handover::Corrected
    };
    let mut rows = Vec::new();
    let mut t = 0.0;
    let mut each = |i: usize, r: &SequenceImpact| {
        rows.push((i + 1, t, *r));
        // Onset of the next impact: this contact, then the exact flight 2|v_out|/g.
        t += r.contact_samples as f64 / s.fs + 2.0 * r.v_out_sim.abs() / g;
    };
    // With a restitution each impact (and the exact chain's) takes the μ of its v_in.
    let summary = run_latched(latch_of(&s), s.v_in, s.fs, impacts, handover, &mut each);
    if a.contact.json {
        return to_json(&SequenceJson {
            restitution: s.restitution.map(F),
            impacts: summary.impacts as u64,
            accum_err_pct: F(summary.accum_err_pct),
            max_dev_h_pct: F(summary.max_dev_h_pct),
            sequence: rows
                .iter()
                .map(|(i, t, r)| ChainImpactJson {
                    impact: *i as u64,
                    onset_s: F(*t),
                    v_in: F(r.v_in),
                    v_out_sim: F(r.v_out_sim),
                    v_out_exact_chain: F(r.v_out_chain),
                    accum_err_pct: F(r.accum_err_pct),
                    dev_h_pct: F(r.dev_h_pct),
                    contact_samples: r.contact_samples,
                    runaway: r.runaway,
                    closed_form: r.closed_form,
                })
                .collect(),
        });
    }
    let mut out = format!(
        "{:>6} {:>12} {:>16} {:>16} {:>14} {:>12}\n",
        "impact", "onset s", "v_out sim", "v_out exact", "accum %err", "%dev(H)"
    );
    for (i, t, r) in &rows {
        out += &format!(
            "{:>6} {:>12.6} {:>16.10} {:>16.10} {:>14} {:>12}\n",
            i,
            t,
            r.v_out_sim,
            r.v_out_chain,
            fmt_sig(r.accum_err_pct),
            fmt_sig(r.dev_h_pct)
        );
    }
    out += &format!(
        "after {} impacts: accumulated residual-energy error {} %, max %dev(H) {} %",
        summary.impacts,
        fmt_sig(summary.accum_err_pct),
        fmt_sig(summary.max_dev_h_pct)
    );
    out
}
