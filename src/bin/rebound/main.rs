//! `rebound`: reproduces the core paper's tables, runs single impacts and bounce
//! sequences from the command line, and renders notes to WAV. Thin: parsing (clap)
//! and printing (serde_json) over `rebound::model` and `rebound::engine`.

mod common;
mod contact_args;
mod coupled;
mod fit;
mod float;
mod limits;
mod measure;
mod measure_play;
mod midi;
mod paper;
mod param_args;
mod plot;
mod plot_sound;
mod plot_style;
mod presets;
mod render;
mod simulate;
mod train;
mod wav;

use clap::{CommandFactory, Parser, Subcommand};
use contact_args::{SequenceArgs, SimulateArgs};
use std::process::ExitCode;

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
    /// The decaying partials (frequency, T60, level) of a recorded strike, to a body file.
    Fit(fit::FitArgs),
}

fn main() -> ExitCode {
    let _ = common::COMMAND.set(Cli::command);
    let cli = Cli::parse();
    let out = match cli.cmd {
        Cmd::Paper(a) => paper::cmd_paper(&a),
        Cmd::Simulate(a) => simulate::cmd_simulate(&a),
        Cmd::Sequence(a) => Ok(simulate::cmd_sequence(&a)),
        Cmd::Render(a) => render::cmd_render(&a),
        Cmd::Presets(a) => presets::cmd_presets(&a),
        Cmd::Fit(a) => fit::cmd_fit(&a),
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
