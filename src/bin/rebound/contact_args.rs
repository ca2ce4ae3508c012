//! The options of the mass–wall contact and its numerical scheme, shared by `simulate`
//! and `sequence`, and the contact they set up.

use crate::common::{self, Setup, enum_parser, flag, names, spec};
use crate::coupled;
use crate::limits;
use clap::Args;
use rebound::model::coupled::TwoWayMethod;
use rebound::model::restitution;
use rebound::model::{ClampTarget, Contact, Correction, Method, Scheme};

pub const METHODS: &[TwoWayMethod] = &TwoWayMethod::ALL;
pub const CORRECTIONS: &[Correction] = &Correction::ALL;
pub const CLAMP_TARGETS: &[ClampTarget] = &[ClampTarget::Approx, ClampTarget::Exact];

/// The contact and the numerical scheme, shared by `simulate` and `sequence`.
#[derive(Args)]
pub struct ContactArgs {
    #[arg(long, value_name = "K", allow_hyphen_values = true, value_parser = limits::parser("k"),
          help = limits::help("k", "Stiffness k"))]
    pub k: Option<f64>,
    #[arg(long, value_name = "MU", allow_hyphen_values = true, value_parser = limits::parser("mu"),
          help = limits::help("mu", "Damping mu (not with --restitution)"))]
    pub mu: Option<f64>,
    #[arg(long, value_name = "E", allow_hyphen_values = true, conflicts_with = "mu",
          value_parser = limits::parser("restitution"),
          help = limits::help("restitution", "Damping from a coefficient of restitution \
              (seed 000) instead of --mu: each impact gets the mu that makes it leave at \
              -E v_in, and the exact clamp targets -E v_in"))]
    pub restitution: Option<f64>,
    #[arg(long, value_name = "A", allow_hyphen_values = true, value_parser = limits::parser("alpha"),
          help = limits::help("alpha", "Contact exponent alpha"))]
    pub alpha: Option<f64>,
    #[arg(long, value_name = "M", allow_hyphen_values = true, value_parser = limits::parser("mass"),
          help = limits::help("mass", "Striking mass"))]
    pub mass: Option<f64>,
    #[arg(long = "v-in", value_name = "V", allow_hyphen_values = true,
          value_parser = limits::parser("v-in"), help = limits::help("v-in", "Impact speed"))]
    pub v_in: Option<f64>,
    #[arg(long, value_name = "FS", allow_hyphen_values = true, value_parser = limits::parser("fs"),
          help = limits::help("fs", "Sample rate"))]
    pub fs: Option<f64>,
    #[arg(long, value_name = "METHOD", ignore_case = true,
          value_parser = enum_parser(METHODS, TwoWayMethod::name),
          help = spec("Integrator (dg, the discrete gradient, with --coupling only)",
                      "none (a name)", &names(METHODS, TwoWayMethod::name), "verlet"))]
    pub method: Option<TwoWayMethod>,
    #[arg(long, value_name = "CORRECTION", ignore_case = true,
          value_parser = enum_parser(CORRECTIONS, Correction::name),
          help = spec("Energy correction", "none (a name)",
                      &names(CORRECTIONS, Correction::name), "none"))]
    pub correction: Option<Correction>,
    #[arg(long = "clamp-target", value_name = "TARGET", ignore_case = true,
          value_parser = enum_parser(CLAMP_TARGETS, ClampTarget::name),
          help = spec("The clamp's exit speed: eq (7)'s approximation or eq (6)'s exact root",
                      "none (a name)", &names(CLAMP_TARGETS, ClampTarget::name), "exact"))]
    pub clamp_target: Option<ClampTarget>,
    #[arg(long = "per-sample", help = flag("One step of the method per sample, as in the \
          paper's tables (default: sub-steps where the contact is too stiff for the rate, \
          as the plugin)"))]
    pub per_sample: bool,
    #[arg(long, help = flag("Print JSON instead of text"))]
    pub json: bool,
}

#[derive(Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub contact: ContactArgs,
    #[command(flatten)]
    pub coupling: coupled::CouplingArgs,
}

#[derive(Args)]
pub struct SequenceArgs {
    #[command(flatten)]
    pub contact: ContactArgs,
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = limits::parser("impacts"),
          help = limits::help("impacts", "Impacts in the chain (with --gravity-in-contact: \
              at most this many)"))]
    pub impacts: Option<f64>,
    #[arg(long, value_name = "G", allow_hyphen_values = true,
          value_parser = limits::parser("gravity"), help = limits::help("gravity", "Gravity"))]
    pub gravity: Option<f64>,
    #[arg(long = "gravity-in-contact", help = flag("The instrument's bouncing train with \
          the load m g during contact too (seed 001): onsets at the exact return instants, \
          at most --impacts impacts, ending earlier when the mass comes to rest on the wall \
          (or after 600 s). Without it: Table III's chain, gravity in flight only"))]
    pub gravity_in_contact: bool,
    #[arg(long = "paper-heun-handover", conflicts_with = "gravity_in_contact",
          help = flag("Hand Heun's predicted velocity to the next impact, as the paper did \
              (Table III's chain only)"))]
    pub paper_heun_handover: bool,
}

/// The value given for `--name`, or its range's default.
pub fn or_default(v: Option<f64>, name: &str) -> f64 {
    v.unwrap_or(limits::limit(name).default)
}

/// The paper method `--method` names; `dg` is refused in `sub`, which runs the mass–wall
/// contact only.
pub fn paper_method(a: &ContactArgs, sub: &str) -> Method {
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
pub fn setup_contact(a: &ContactArgs) -> (Contact, f64, f64) {
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

pub fn setup(a: &ContactArgs, sub: &str) -> Setup {
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
