//! `rebound`: reproduces the core paper's tables, runs single impacts and bounce
//! sequences from the command line, and renders notes to WAV. Thin: parsing (clap)
//! and printing (serde_json) over `rebound::model` and `rebound::engine`.

mod common;
mod coupled;
mod float;
mod limits;
mod measure;
mod midi;
mod paper;
mod param_args;
mod plot;
mod plot_sound;
mod plot_style;
mod presets;
mod render;
mod train;
mod wav;

use clap::{Args, CommandFactory, Parser, Subcommand};
use common::{Setup, enum_parser, flag, fmt_sig, names, spec};
use float::{F, to_json};
use rebound::model::coupled::TwoWayMethod;
use rebound::model::metrics::simulate_latched;
use rebound::model::restitution;
use rebound::model::sequence::{Handover, SequenceImpact, run_latched};
use rebound::model::{ClampTarget, Contact, Correction, Latch, Method, Scheme};
use serde::Serialize;
use std::process::ExitCode;

const METHODS: &[TwoWayMethod] = &TwoWayMethod::ALL;
const CORRECTIONS: &[Correction] = &Correction::ALL;
const CLAMP_TARGETS: &[ClampTarget] = &[ClampTarget::Approx, ClampTarget::Exact];

/// The numeric options' ranges, below every subcommand list.
fn after_help() -> String {
    limits::usage_table()
}

#[derive(Parser)]
#[command(
    name = "rebound",
    version,
    about = "Hunt–Crossley impacts: the paper's tables, single impacts, bounce sequences \
             and offline renders through the plugin's engine",
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = after_help()
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Recomputes the paper's Tables I–III and prints them as `paper | ours | diff%`.
    Paper(paper::PaperArgs),
    /// One impact: contact samples, v_out against eqs (6) and (7), %dev(x), %dev(H).
    Simulate(SimulateArgs),
    /// A chain of impacts (Table III), or with --gravity-in-contact the instrument's
    /// bouncing train until the mass rests on the wall.
    Sequence(SequenceArgs),
    /// Notes through the plugin's own voice engine, offline, to a WAV file.
    Render(Box<render::RenderArgs>),
    /// The factory presets and your own (`render --save-preset`): a table, or JSON.
    Presets(presets::PresetsArgs),
}

/// The contact and the numerical scheme, shared by `simulate` and `sequence`.
#[derive(Args)]
struct ContactArgs {
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = limits::parser("k"),
          help = limits::help("k", "Stiffness k"))]
    k: Option<f64>,
    #[arg(long, value_name = "MU", allow_hyphen_values = true, value_parser = limits::parser("mu"),
          help = limits::help("mu", "Damping mu (not with --restitution)"))]
    mu: Option<f64>,
    #[arg(long, value_name = "E", allow_hyphen_values = true, conflicts_with = "mu",
          value_parser = limits::parser("restitution"),
          help = limits::help("restitution", "Damping from a coefficient of restitution \
              (seed 000) instead of --mu: each impact gets the mu that makes it leave at \
              -E v_in, and the exact clamp targets -E v_in"))]
    restitution: Option<f64>,
    #[arg(long, value_name = "A", allow_hyphen_values = true, value_parser = limits::parser("alpha"),
          help = limits::help("alpha", "Contact exponent alpha"))]
    alpha: Option<f64>,
    #[arg(long, value_name = "M", allow_hyphen_values = true, value_parser = limits::parser("mass"),
          help = limits::help("mass", "Striking mass"))]
    mass: Option<f64>,
    #[arg(long = "v-in", value_name = "V", allow_hyphen_values = true,
          value_parser = limits::parser("v-in"), help = limits::help("v-in", "Impact speed"))]
    v_in: Option<f64>,
    #[arg(long, value_name = "FS", allow_hyphen_values = true, value_parser = limits::parser("fs"),
          help = limits::help("fs", "Sample rate"))]
    fs: Option<f64>,
    #[arg(long, value_name = "METHOD", ignore_case = true,
          value_parser = enum_parser(METHODS, TwoWayMethod::name),
          help = spec("Integrator (dg, the discrete gradient, with --coupling only)",
                      "none (a name)", &names(METHODS, TwoWayMethod::name), "verlet"))]
    method: Option<TwoWayMethod>,
    #[arg(long, value_name = "CORRECTION", ignore_case = true,
          value_parser = enum_parser(CORRECTIONS, Correction::name),
          help = spec("Energy correction", "none (a name)",
                      &names(CORRECTIONS, Correction::name), "none"))]
    correction: Option<Correction>,
    #[arg(long = "clamp-target", value_name = "TARGET", ignore_case = true,
          value_parser = enum_parser(CLAMP_TARGETS, ClampTarget::name),
          help = spec("The clamp's exit speed: eq (7)'s approximation or eq (6)'s exact root",
                      "none (a name)", &names(CLAMP_TARGETS, ClampTarget::name), "exact"))]
    clamp_target: Option<ClampTarget>,
    #[arg(long = "per-sample", help = flag("One step of the method per sample, as in the \
          paper's tables (default: sub-steps where the contact is too stiff for the rate, \
          as the plugin)"))]
    per_sample: bool,
    #[arg(long, help = flag("Print JSON instead of text"))]
    json: bool,
}

#[derive(Args)]
struct SimulateArgs {
    #[command(flatten)]
    contact: ContactArgs,
    #[command(flatten)]
    coupling: coupled::CouplingArgs,
}

#[derive(Args)]
struct SequenceArgs {
    #[command(flatten)]
    contact: ContactArgs,
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = limits::parser("impacts"),
          help = limits::help("impacts", "Impacts in the chain (with --gravity-in-contact: \
              at most this many)"))]
    impacts: Option<f64>,
    #[arg(long, value_name = "G", allow_hyphen_values = true,
          value_parser = limits::parser("gravity"), help = limits::help("gravity", "Gravity"))]
    gravity: Option<f64>,
    #[arg(long = "gravity-in-contact", help = flag("The instrument's bouncing train with \
          the load m g during contact too (seed 001): onsets at the exact return instants, \
          at most --impacts impacts, ending earlier when the mass comes to rest on the wall \
          (or after 600 s). Without it: Table III's chain, gravity in flight only"))]
    gravity_in_contact: bool,
    #[arg(long = "paper-heun-handover", conflicts_with = "gravity_in_contact",
          help = flag("Hand Heun's predicted velocity to the next impact, as the paper did \
              (Table III's chain only)"))]
    paper_heun_handover: bool,
}

fn main() -> ExitCode {
    let _ = common::COMMAND.set(Cli::command);
    let cli = Cli::parse();
    let out = match cli.cmd {
        Cmd::Paper(a) => paper::cmd_paper(&a),
        Cmd::Simulate(a) => cmd_simulate(&a),
        Cmd::Sequence(a) => Ok(cmd_sequence(&a)),
        Cmd::Render(a) => render::cmd_render(&a),
        Cmd::Presets(a) => presets::cmd_presets(&a),
    };
    match out {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The value given for `--name`, or its range's default.
fn or_default(v: Option<f64>, name: &str) -> f64 {
    v.unwrap_or(limits::limit(name).default)
}

/// The paper method `--method` names; `dg` is refused in `sub`, which runs the mass–wall
/// contact only.
fn paper_method(a: &ContactArgs, sub: &str) -> Method {
    match a.method.unwrap_or(TwoWayMethod::Paper(Method::Verlet)) {
        TwoWayMethod::Paper(m) => m,
        TwoWayMethod::DiscreteGradient => common::usage_error(
            sub,
            clap::error::ErrorKind::ArgumentConflict,
            "--method dg runs the coupled model only (simulate --coupling)".into(),
        ),
    }
}

/// The contact, `v_in` and `fs` the options give (with a restitution, the `μ` that
/// makes a contact at `v_in` leave at `−e v_in`).
fn setup_contact(a: &ContactArgs) -> (Contact, f64, f64) {
    let v_in = or_default(a.v_in, "v-in");
    let mu = match a.restitution {
        Some(e) => restitution::mu_for(e, v_in),
        None => or_default(a.mu, "mu"),
    };
    let contact = Contact::new(
        or_default(a.k, "k"),
        mu,
        or_default(a.alpha, "alpha"),
        or_default(a.mass, "mass"),
    );
    (contact, v_in, or_default(a.fs, "fs"))
}

fn setup(a: &ContactArgs, sub: &str) -> Setup {
    let (contact, v_in, fs) = setup_contact(a);
    let scheme = Scheme::new(
        paper_method(a, sub),
        a.correction.unwrap_or(Correction::None),
        a.clamp_target.unwrap_or(ClampTarget::Exact),
    );
    Setup {
        contact,
        scheme: if a.per_sample {
            scheme.per_sample()
        } else {
            scheme
        },
        v_in,
        fs,
        restitution: a.restitution,
    }
}

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

fn cmd_simulate(a: &SimulateArgs) -> Result<String, String> {
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

fn cmd_sequence(a: &SequenceArgs) -> String {
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
