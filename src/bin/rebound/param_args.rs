//! One `render` option per plugin parameter, generated from the framework-free spec
//! (`engine::spec`: NUMBERS and CHOICES give the names, units, ranges, defaults and
//! help), so a parameter added to the plugin is an option too. Only the options given
//! are kept: they override the preset (or the defaults) they are applied to.

use crate::common::spec as help_text;
use crate::limits::number_text;
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use rebound::engine::EngineParams;
use rebound::engine::spec::{CHOICES, ChoiceSpec, NUMBERS, NumberSpec, Scale};
use rebound::preset::is_whole;

/// The parameter options given on a command line.
#[derive(Clone, Debug, Default)]
pub struct ParamArgs {
    /// (index in NUMBERS, value).
    numbers: Vec<(usize, f64)>,
    /// (index in CHOICES, choice index).
    choices: Vec<(usize, usize)>,
}

/// A switch: a choice of "off" and "on" (also given as true/false, 1/0).
fn is_switch(c: &ChoiceSpec) -> bool {
    c.choices == ["off", "on"]
}

/// What each choice does, for its help (the spec's name for any not listed).
fn choice_help(c: &ChoiceSpec) -> &'static str {
    match c.cli {
        "controls" => {
            "Contact controls: Hardness and Bounciness (playable) or Stiffness k and \
             Damping mu (expert; implied by --k or --mu)"
        }
        "damping-from" => {
            "Expert controls: damping from --mu or from --bounciness (implied by whichever \
             is given)"
        }
        "method" => "Integrator",
        "correction" => "Energy correction",
        "clamp-target" => "The clamp's exit speed",
        "bouncing" => "The mass bounces back under gravity after each impact",
        "gravity-in-contact" => {
            "Gravity acts during contact too (seed 001): the train comes to rest"
        }
        "body" => "Resonating body",
        "note-off" => "What releasing the key does",
        "coupling" => {
            "What the striker meets: a rigid wall, or the body's surface moving under it \
             (two-way, see --body-mass)"
        }
        "mod-wheel" => "What the mod wheel (CC 1) moves",
        _ => c.name,
    }
}

/// The value name shown in the help.
fn value_name(cli: &str) -> &'static str {
    match cli {
        "v-min" | "v-max" => "V",
        "mass" | "body-mass" => "M",
        "k" => "K",
        "alpha" => "A",
        "mu" => "MU",
        "bounciness" => "E",
        "gravity" => "G",
        "body-freq" => "HZ",
        "t60" | "release" => "S",
        "gain" => "DB",
        "hardness-ms" => "MS",
        "bend-range" => "ST",
        "voices" | "seed" => "N",
        _ => "X",
    }
}

/// The unit as the help shows it ("none" for plain numbers and fractions).
fn unit_of(n: &NumberSpec) -> &'static str {
    let u = n.unit.trim();
    if u.is_empty() || n.scale == Scale::Percent {
        "none"
    } else {
        u
    }
}

/// `lo to hi unit[, whole]`.
fn range_text(n: &NumberSpec) -> String {
    let (lo, hi) = n.range();
    let unit = match unit_of(n) {
        "none" => String::new(),
        u => format!(" {u}"),
    };
    let whole = if is_whole(n) { ", whole" } else { "" };
    format!("{} to {}{unit}{whole}", number_text(lo), number_text(hi))
}

/// A clap value parser for `n`: a number inside the plugin's range.
fn number_parser(n: &'static NumberSpec) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |s: &str| {
        let (lo, hi) = n.range();
        match s.parse::<f64>() {
            Ok(v) if (lo..=hi).contains(&v) && (!is_whole(n) || v.fract() == 0.0) => Ok(v),
            _ => Err(format!(
                "must be {} in {}",
                if is_whole(n) {
                    "a whole number"
                } else {
                    "a number"
                },
                range_text(n)
            )),
        }
    }
}

fn number_arg(n: &'static NumberSpec) -> Arg {
    let default = number_text(n.default_value());
    let mut a = Arg::new(n.cli)
        .long(n.cli)
        .value_name(value_name(n.cli))
        .allow_hyphen_values(true)
        .action(ArgAction::Set)
        .value_parser(number_parser(n))
        .help(help_text(n.help, unit_of(n), &range_text(n), &default));
    if n.cli == "bounciness" {
        a = a.visible_alias("restitution").conflicts_with("mu");
    }
    a
}

fn choice_arg(c: &'static ChoiceSpec) -> Arg {
    let default = c.choices[(c.get)(&EngineParams::default()).min(c.choices.len() - 1)];
    let mut names: Vec<&'static str> = c.choices.to_vec();
    let (unit, range) = if is_switch(c) {
        names.extend(["true", "false", "1", "0"]);
        ("none (a switch)", "on|off".to_string())
    } else {
        ("none (a name)", c.choices.join("|"))
    };
    Arg::new(c.cli)
        .long(c.cli)
        .value_name(if is_switch(c) { "on|off" } else { "NAME" })
        .ignore_case(true)
        .action(ArgAction::Set)
        .value_parser(PossibleValuesParser::new(names))
        .help(help_text(choice_help(c), unit, &range, default))
}

impl Args for ParamArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for n in &NUMBERS {
            cmd = cmd.arg(number_arg(n));
        }
        for c in &CHOICES {
            cmd = cmd.arg(choice_arg(c));
        }
        cmd
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for ParamArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut a = Self::default();
        a.update_from_arg_matches(m)?;
        Ok(a)
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        for (i, n) in NUMBERS.iter().enumerate() {
            if let Some(v) = m.get_one::<f64>(n.cli) {
                self.numbers.retain(|(j, _)| *j != i);
                self.numbers.push((i, *v));
            }
        }
        for (i, c) in CHOICES.iter().enumerate() {
            if let Some(s) = m.get_one::<String>(c.cli) {
                let s = match s.to_ascii_lowercase().as_str() {
                    "true" | "1" if is_switch(c) => "on".to_string(),
                    "false" | "0" if is_switch(c) => "off".to_string(),
                    other => other.to_string(),
                };
                // The parser accepted it, so it is one of the choices.
                let k = c.choices.iter().position(|x| *x == s).unwrap_or(0);
                self.choices.retain(|(j, _)| *j != i);
                self.choices.push((i, k));
            }
        }
        Ok(())
    }
}

impl ParamArgs {
    /// Whether `--cli` was given.
    pub fn given(&self, cli: &str) -> bool {
        self.numbers.iter().any(|(i, _)| NUMBERS[*i].cli == cli)
            || self.choices.iter().any(|(i, _)| CHOICES[*i].cli == cli)
    }

    /// `base` with every given option set on it. `--k` or `--mu` without `--controls`
    /// selects the expert controls, and `--mu` or `--bounciness` without
    /// `--damping-from` picks where the expert damping comes from, as before presets.
    pub fn apply(&self, base: &EngineParams) -> EngineParams {
        let mut p = *base;
        for (i, v) in &self.numbers {
            (NUMBERS[*i].set)(&mut p, *v);
        }
        for (i, k) in &self.choices {
            (CHOICES[*i].set)(&mut p, *k);
        }
        if !self.given("controls") && (self.given("k") || self.given("mu")) {
            p.controls = rebound::engine::Controls::Expert;
        }
        if !self.given("damping-from") {
            if self.given("bounciness") {
                p.from_restitution = true;
            } else if self.given("mu") {
                p.from_restitution = false;
            }
        }
        p
    }
}
