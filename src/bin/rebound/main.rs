//! `rebound`: reproduces the core paper's tables, runs single impacts and bounce
//! sequences from the command line. Thin: parsing and printing over `rebound::model`.

mod args;
mod json;
mod limits;
mod midi;
mod plot;
mod render;
mod train;

use args::{ArgError, Options};
use rebound::model::paper::{self, Table, TableId};
use rebound::model::restitution;
use rebound::model::sequence::{Handover, SequenceImpact, run_sequence};
use rebound::model::{ClampTarget, Contact, Correction, Method, Scheme, simulate_impact};
use std::process::ExitCode;

const USAGE: &str = "usage:
  rebound paper [--table 1|2a|2b|3a|3b] [--json]
  rebound simulate [contact options] [--v-in V] [--per-sample] [--json]
  rebound sequence [contact options] [--v-in V] [--impacts N] [--gravity G]
                   [--gravity-in-contact] [--paper-heun-handover] [--per-sample] [--json]
  rebound render --out FILE.wav [--note N] [--velocity 1..127] [--duration S] [--fs FS]
                 [--hold S (release the key after S s; default: held)]
                 [--plot FILE.png] [every plugin parameter: --k --mu --alpha --mass
                 --v-min --v-max --velocity-curve --method --correction --clamp-target
                 --restitution E (damping from e, not with --mu)
                 --bouncing on|off --gravity --gravity-in-contact on|off
                 --body none|bar|plate|membrane|bell|wood
                 --body-freq --key-track --t60 --brightness --position --mix
                 --note-off ring|damp --release --gain --voices]
  rebound render --midi FILE.mid [--midi …] [--per-track] --out FILE.wav|DIR/
                 [--duration S (default: until every voice has ended)] [--fs FS]
                 [every plugin parameter, as above]
contact options:
  --k K  --mu MU | --restitution E  --alpha A  --mass M  --fs FS
  --method verlet|heun|rk4|am1  --correction none|hybrid|clamp|both
  --clamp-target approx|exact
  --restitution E  damping from a coefficient of restitution (seed 000) instead of --mu:
                 each impact gets the mu that makes it leave at -E v_in, and the exact
                 clamp targets -E v_in
  --per-sample   one step of the method per sample, as in the paper's tables (default:
                 sub-steps where the contact is too stiff for the rate, as the plugin)
sequence:
  without --gravity-in-contact: Table III's chain of aligned impacts, gravity in flight
                 only, exactly --impacts N of them
  --gravity-in-contact  the instrument's bouncing train with the load m g during contact
                 too (seed 001): onsets at the exact return instants, at most N impacts,
                 ending earlier when the mass comes to rest on the wall (or after 600 s)";

/// The usage text with the validity ranges of `simulate` and `sequence`.
fn usage() -> String {
    format!("{USAGE}\n{}", limits::usage_table())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rebound: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(argv: &[String]) -> Result<String, ArgError> {
    let Some((cmd, rest)) = argv.split_first() else {
        return Err(ArgError(format!("missing command\n{}", usage())));
    };
    match cmd.as_str() {
        "paper" => cmd_paper(rest),
        "simulate" => cmd_simulate(rest),
        "sequence" => cmd_sequence(rest),
        "render" => render::cmd_render(rest),
        "help" | "--help" | "-h" => Ok(usage()),
        other => Err(ArgError(format!("unknown command '{other}'\n{}", usage()))),
    }
}

const CONTACT_OPTS: [&str; 10] = [
    "k",
    "mu",
    "restitution",
    "alpha",
    "mass",
    "v-in",
    "fs",
    "method",
    "correction",
    "clamp-target",
];

/// The physical and numerical setup shared by `simulate` and `sequence`.
struct Setup {
    /// With a restitution, `contact.mu` is the damping at `v_in` it gives.
    contact: Contact,
    scheme: Scheme,
    v_in: f64,
    fs: f64,
    /// Damping from a coefficient of restitution (seed 000) instead of `--mu`.
    restitution: Option<f64>,
}

fn setup(o: &Options) -> Result<Setup, ArgError> {
    let k = o.within("k")?;
    if o.has("mu") && o.has("restitution") {
        return Err(ArgError(
            "--restitution: not with --mu (the restitution sets the damping: give one \
             of them)"
                .into(),
        ));
    }
    let restitution = if o.has("restitution") {
        Some(o.within("restitution")?)
    } else {
        None
    };
    let mu = o.within("mu")?;
    let alpha = o.within("alpha")?;
    let mass = o.within("mass")?;
    let v_in = o.within("v-in")?;
    let fs = o.within("fs")?;
    let method: Method = o.get("method", Method::Verlet)?;
    let correction: Correction = o.get("correction", Correction::None)?;
    let clamp_target: ClampTarget = o.get("clamp-target", ClampTarget::Exact)?;
    let mu = match restitution {
        Some(e) => restitution::mu_for(e, v_in),
        None => mu,
    };
    Ok(Setup {
        contact: Contact::new(k, mu, alpha, mass),
        scheme: if o.flag("per-sample") {
            Scheme::new(method, correction, clamp_target).per_sample()
        } else {
            Scheme::new(method, correction, clamp_target)
        },
        v_in,
        fs,
        restitution,
    })
}

fn cmd_paper(rest: &[String]) -> Result<String, ArgError> {
    let o = Options::parse(rest, &["table"], &["json"])?;
    let ids: Vec<TableId> = match o.get::<String>("table", String::new())?.as_str() {
        "" => TableId::ALL.to_vec(),
        t => vec![TableId::from_arg(t).ok_or_else(|| {
            ArgError(format!(
                "--table: unknown table '{t}' (expected 1, 2a, 2b, 3a or 3b)"
            ))
        })?],
    };
    let tables: Vec<Table> = ids.into_iter().map(paper::table).collect();
    if o.flag("json") {
        return Ok(json::array(tables.iter().map(table_json)));
    }
    Ok(tables.iter().map(table_text).collect::<Vec<_>>().join("\n"))
}

fn table_text(t: &Table) -> String {
    let mut out = format!("{}\n", t.title);
    out += &format!("{:<14}", "errors");
    for c in &t.columns {
        out += &format!("  {c:>30}");
    }
    out += &format!("\n{:<14}", "");
    for _ in &t.columns {
        out += &format!("  {:>30}", "paper | ours | diff%");
    }
    out.push('\n');
    for row in &t.rows {
        out += &format!("{row:<14}");
        for col in &t.columns {
            match t.cells.iter().find(|c| c.row == *row && c.column == *col) {
                Some(c) => {
                    let diff = c.rel_diff_pct();
                    let diff = if diff.is_finite() {
                        format!("{diff:+.2}")
                    } else {
                        "-".into()
                    };
                    out += &format!(
                        "  {:>30}",
                        format!("{} | {} | {}", c.printed, fmt_sig(c.ours), diff)
                    );
                }
                None => out += &format!("  {:>30}", "-"),
            }
        }
        out.push('\n');
    }
    out
}

/// Four significant digits, in the notation that reads best for the magnitude.
fn fmt_sig(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e4).contains(&a) {
        format!("{v:+.3e}")
    } else {
        format!("{v:+.4}")
    }
}

fn table_json(t: &Table) -> String {
    let cells = t.cells.iter().map(|c| {
        json::Object::default()
            .str("row", c.row)
            .str("column", c.column)
            .str("printed", c.printed)
            .num("paper", c.paper())
            .num("ours", c.ours)
            .num("rel_diff_pct", c.rel_diff_pct())
            .build()
    });
    json::Object::default()
        .str("table", t.id.arg())
        .str("title", t.title)
        .raw("cells", &json::array(cells))
        .build()
}

fn cmd_simulate(rest: &[String]) -> Result<String, ArgError> {
    let o = Options::parse(rest, &CONTACT_OPTS, &["json", "per-sample"])?;
    let s = setup(&o)?;
    // %err(v_out) against the exact root unless the approximate clamp target is
    // asked for (as in Table II(b)).
    let r = match s.restitution {
        None => simulate_impact(s.contact, s.scheme, s.v_in, s.fs, s.scheme.clamp_target),
        Some(e) => train::simulate_restitution(s.contact, s.scheme, s.v_in, s.fs, e),
    };
    if o.flag("json") {
        let mut j = json::Object::default()
            .str("method", s.scheme.method.name())
            .str("correction", s.scheme.correction.name())
            .str("clamp_target", s.scheme.clamp_target.name())
            .num("v_in", s.v_in);
        if let Some(e) = s.restitution {
            j = j.num("restitution", e).num("mu", s.contact.mu);
        }
        return Ok(j
            .int("contact_samples", r.contact_samples)
            .num("v_out_sim", r.v_out_sim)
            .num("v_out_exact", r.v_out_exact)
            .num("v_out_approx", r.v_out_approx)
            .num("x_max", r.x_max)
            .num("x_max_sim", r.x_max_sim)
            .num("tau_samples", r.tau_samples)
            .num("dev_x_pct", r.dev_x_pct)
            .num("dev_h_pct", r.dev_h_pct)
            .num("err_vout_pct", r.err_vout_pct)
            .num("newton_iters_mean", r.newton_iters_mean)
            .int("newton_iters_max", r.newton_iters_max as u64)
            .boolean("runaway", r.runaway)
            .boolean("closed_form", r.closed_form)
            .int("substeps", r.substeps as u64)
            .build());
    }
    let damping = match s.restitution {
        Some(e) => format!(
            "restitution       {e} (seed 000): mu {:.12} s/m, mu v_in {:.9}\n",
            s.contact.mu,
            s.contact.mu * s.v_in
        ),
        None => String::new(),
    };
    Ok(format!(
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
    ))
}

fn cmd_sequence(rest: &[String]) -> Result<String, ArgError> {
    let mut valued = CONTACT_OPTS.to_vec();
    valued.extend(["impacts", "gravity"]);
    let o = Options::parse(
        rest,
        &valued,
        &[
            "json",
            "paper-heun-handover",
            "per-sample",
            "gravity-in-contact",
        ],
    )?;
    let s = setup(&o)?;
    // A whole number within 1..=100000, so the conversion is exact.
    let impacts = o.within("impacts")? as usize;
    let g = o.within("gravity")?;
    if o.flag("gravity-in-contact") {
        if o.flag("paper-heun-handover") {
            return Err(ArgError(
                "--paper-heun-handover: only for Table III's chain, not with \
                 --gravity-in-contact"
                    .into(),
            ));
        }
        return Ok(train::cmd_train(&s, g, impacts as u32, o.flag("json")));
    }
    let handover = if o.flag("paper-heun-handover") {
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
    let summary = match s.restitution {
        None => run_sequence(
            s.contact, s.scheme, s.v_in, s.fs, impacts, handover, &mut each,
        ),
        Some(e) => train::restitution_sequence(
            s.contact, s.scheme, s.v_in, s.fs, e, impacts, handover, &mut each,
        ),
    };
    if o.flag("json") {
        let items = rows.iter().map(|(i, t, r)| {
            json::Object::default()
                .int("impact", *i as u64)
                .num("onset_s", *t)
                .num("v_in", r.v_in)
                .num("v_out_sim", r.v_out_sim)
                .num("v_out_exact_chain", r.v_out_chain)
                .num("accum_err_pct", r.accum_err_pct)
                .num("dev_h_pct", r.dev_h_pct)
                .int("contact_samples", r.contact_samples)
                .boolean("runaway", r.runaway)
                .boolean("closed_form", r.closed_form)
                .build()
        });
        let mut j = json::Object::default();
        if let Some(e) = s.restitution {
            j = j.num("restitution", e);
        }
        return Ok(j
            .int("impacts", summary.impacts as u64)
            .num("accum_err_pct", summary.accum_err_pct)
            .num("max_dev_h_pct", summary.max_dev_h_pct)
            .raw("sequence", &json::array(items))
            .build());
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
    Ok(out)
}
