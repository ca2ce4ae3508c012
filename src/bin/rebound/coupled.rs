//! `simulate --coupling rigid|two-way`: one strike of the striker on a body that gives
//! (`rebound::model::coupled`), over a window, reporting what was simulated: the modes
//! at the strike point, the exit velocity, the samples and intervals in contact and the
//! energy balance.

use crate::common::{enum_parser, names, spec, usage_error};
use crate::float::{F, to_json};
use crate::limits;
use clap::Args;
use clap::error::ErrorKind;
use rebound::engine::EngineParams;
use rebound::engine::voice::body_settings;
use rebound::model::body::{BodyType, StrikeMode, strike_modes};
use rebound::model::coupled::{
    Coupled, CoupledReport, StrikeModes, TwoWayMethod, simulate_coupled,
};
use rebound::model::scheme::by_name;
use rebound::model::{Contact, Correction};
use serde::Serialize;

/// Most steps one `simulate --coupling` takes (a stiff contact's fine step over a long
/// window at a high rate would otherwise run for hours): about a minute of work.
const MAX_STEPS: u64 = 200_000_000;

/// The wall the striker meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coupling {
    /// A wall that does not move: the mass–wall model, by the coupled code.
    Rigid,
    /// The body's modes at the strike point move under the contact force.
    TwoWay,
}

impl Coupling {
    pub const ALL: [Coupling; 2] = [Coupling::Rigid, Coupling::TwoWay];
    pub fn name(self) -> &'static str {
        match self {
            Coupling::Rigid => "rigid",
            Coupling::TwoWay => "two-way",
        }
    }
}

impl std::str::FromStr for Coupling {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        by_name(&Coupling::ALL, Coupling::name, s).ok_or_else(|| format!("unknown coupling '{s}'"))
    }
}

const COUPLINGS: &[Coupling] = &Coupling::ALL;
const BODIES: &[BodyType] = &BodyType::ALL;

/// The options of a coupled strike.
#[derive(Args)]
pub struct CouplingArgs {
    #[arg(long, value_name = "COUPLING", ignore_case = true,
          value_parser = enum_parser(COUPLINGS, Coupling::name),
          help = spec("Run the coupled model over a window instead of the mass-wall contact \
              with its corrections: a rigid wall, or the body's modes moving under the \
              striker (two-way). Methods: the four, or dg (discrete gradient, exact energy \
              balance)", "none (a name)", &names(COUPLINGS, Coupling::name), "off"))]
    pub coupling: Option<Coupling>,
    #[arg(long, value_name = "BODY", ignore_case = true,
          value_parser = enum_parser(BODIES, BodyType::name),
          help = spec("The body struck (with --coupling two-way)", "none (a name)",
              &names(BODIES, BodyType::name), "bar"))]
    pub body: Option<BodyType>,
    #[arg(long = "body-mass", value_name = "M", allow_hyphen_values = true,
          value_parser = limits::parser("body-mass"),
          help = limits::help("body-mass", "The body's mass; each mode weighs M / phi_k^2 \
              at the strike point (with --coupling two-way)"))]
    pub body_mass: Option<f64>,
    #[arg(long = "strike-position", value_name = "P", allow_hyphen_values = true,
          value_parser = limits::parser("strike-position"),
          help = limits::help("strike-position", "Where the body is struck, 0 = centre, \
              1 = edge (with --coupling two-way)"))]
    pub strike_position: Option<f64>,
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          value_parser = limits::parser("key"),
          help = limits::help("key", "MIDI key: tunes the body as the plugin's default \
              patch does (with --coupling two-way)"))]
    pub key: Option<f64>,
    #[arg(long, value_name = "S", allow_hyphen_values = true,
          value_parser = limits::parser("duration"),
          help = limits::help("duration", "The window simulated (with --coupling)"))]
    pub duration: Option<f64>,
}

/// `simulate --coupling … --json`.
#[derive(Serialize)]
struct CoupledJson {
    coupling: &'static str,
    method: &'static str,
    body: &'static str,
    body_mass: Option<F>,
    strike_position: Option<F>,
    key: Option<u8>,
    v_in: F,
    fs: F,
    duration_s: F,
    substeps: u64,
    modes: Vec<ModeJson>,
    v_out: F,
    contact_samples: u64,
    contacts: u64,
    energy_drift: F,
    in_contact_at_end: bool,
}

#[derive(Serialize)]
struct ModeJson {
    f_hz: F,
    t60_s: F,
    mass_kg: F,
}

/// Options that mean something only with `--coupling two-way` (or only without
/// `--coupling`) given where they do not: a usage error, not a silent default.
fn check(a: &CouplingArgs, coupling: Coupling, correction: Option<Correction>) {
    let body_opts =
        a.body.is_some() || a.body_mass.is_some() || a.strike_position.is_some() || a.key.is_some();
    if coupling == Coupling::Rigid && body_opts {
        usage_error(
            "simulate",
            ErrorKind::ArgumentConflict,
            "--body, --body-mass, --strike-position and --key need --coupling two-way".into(),
        );
    }
    if correction.is_some_and(|c| c != Correction::None) {
        usage_error(
            "simulate",
            ErrorKind::ArgumentConflict,
            "the corrections apply to the mass-wall contact (simulate without --coupling): \
             eq (3)'s curve and eq (6)'s exit do not hold for a body that gives"
                .into(),
        );
    }
}

/// The coupled strike's options given without `--coupling`: a usage error.
pub fn refuse_without_coupling(a: &CouplingArgs) {
    let given = a.body.is_some()
        || a.body_mass.is_some()
        || a.strike_position.is_some()
        || a.key.is_some()
        || a.duration.is_some();
    if given {
        usage_error(
            "simulate",
            ErrorKind::ArgumentConflict,
            "--body, --body-mass, --strike-position, --key and --duration need --coupling".into(),
        );
    }
}

/// The modes at the strike point of `kind` struck at `position`, tuned for `key` as the
/// plugin's default patch tunes it, for a body of `mass` kg.
fn body_modes(kind: BodyType, mass: f64, position: f64, key: u8) -> Vec<StrikeMode> {
    let p = EngineParams {
        body: kind,
        position,
        ..EngineParams::default()
    };
    let (m, n) = strike_modes(&body_settings(&p, key), mass);
    m[..n].to_vec()
}

/// Runs the coupled strike `a` asks for with `contact`, `method`, `v_in` and `fs`.
pub fn cmd_coupled(
    a: &CouplingArgs,
    coupling: Coupling,
    contact: Contact,
    method: TwoWayMethod,
    correction: Option<Correction>,
    (v_in, fs, json): (f64, f64, bool),
) -> Result<String, String> {
    check(a, coupling, correction);
    let (kind, body_mass, position, key) = match coupling {
        Coupling::Rigid => (BodyType::None, None, None, None),
        Coupling::TwoWay => (
            a.body.unwrap_or(BodyType::Bar),
            Some(a.body_mass.unwrap_or(limits::limit("body-mass").default)),
            Some(
                a.strike_position
                    .unwrap_or(limits::limit("strike-position").default),
            ),
            // A whole number within 0..=127.
            Some(a.key.unwrap_or(limits::limit("key").default) as u8),
        ),
    };
    let listed = match (body_mass, position, key) {
        (Some(mass), Some(pos), Some(key)) => body_modes(kind, mass, pos, key),
        _ => Vec::new(),
    };
    let modes = StrikeModes::from_modes(listed.iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
    let duration = a.duration.unwrap_or(limits::limit("duration").default);
    let samples = (duration * fs).ceil() as u64;
    let sys = Coupled { contact, modes };
    let too_stiff = || {
        format!(
            "this contact needs more than {} steps a sample at {fs} Hz to resolve; \
             raise --fs or soften the contact",
            rebound::model::impact::MAX_SUBSTEPS
        )
    };
    let steps = sys.substeps(v_in, 1.0 / fs).ok_or_else(too_stiff)? as u64;
    if steps * samples > MAX_STEPS {
        return Err(format!(
            "a window of {samples} samples at {steps} steps a sample is more than {MAX_STEPS} \
             steps (minutes of work); shorten --duration"
        ));
    }
    let r = simulate_coupled(sys, method, v_in, fs, samples).ok_or_else(too_stiff)?;
    if r.runaway {
        return Err("the coupled simulation went non-finite".into());
    }
    let out = CoupledJson {
        coupling: coupling.name(),
        method: method.name(),
        body: kind.name(),
        body_mass: body_mass.map(F),
        strike_position: position.map(F),
        key,
        v_in: F(v_in),
        fs: F(fs),
        duration_s: F(samples as f64 / fs),
        substeps: r.substeps as u64,
        modes: listed
            .iter()
            .map(|m| ModeJson {
                f_hz: F(m.f_hz),
                t60_s: F(m.t60_s),
                mass_kg: F(m.mass_kg),
            })
            .collect(),
        v_out: F(r.v_out),
        contact_samples: r.contact_samples,
        contacts: r.contacts as u64,
        energy_drift: F(r.energy_drift),
        in_contact_at_end: r.in_contact_at_end,
    };
    if json {
        return Ok(to_json(&out));
    }
    Ok(text_of(&out, &listed, &r))
}

/// The text form of a coupled strike's report.
fn text_of(out: &CoupledJson, listed: &[StrikeMode], r: &CoupledReport) -> String {
    let mut text = format!(
        "{} / {} / body {}\nsteps a sample     {}\n",
        out.coupling, out.method, out.body, out.substeps
    );
    for m in listed {
        text += &format!(
            "mode {:>10.3} Hz  t60 {:>8.4} s  mass {:.4e} kg\n",
            m.f_hz, m.t60_s, m.mass_kg
        );
    }
    text += &format!(
        "v_out              {:.12}{}\ncontact samples    {}\ncontacts           {}\nenergy drift       {:+.3e}",
        r.v_out,
        if r.in_contact_at_end {
            " (still in contact at the window's end)"
        } else {
            ""
        },
        r.contact_samples,
        r.contacts,
        r.energy_drift
    );
    text
}
