//! The validity ranges of the numeric options of `simulate` and `sequence`: the one
//! place they are written down. Their help prints them and [`parser`] enforces them
//! (as clap value parsers). They are the plugin's ranges (the contact core is made robust over
//! them), with the sample rate wide enough for the paper's RK4 at 16 × 44.1 kHz.
//! Outside them the core may panic, never finish (a contact of 10^100 samples) or give
//! non-finite numbers, so the CLI refuses such values instead of running them.

use rebound::engine::LIMITS as PLUGIN;

/// One numeric option: accepted when `min <= value <= max` (and whole, if `whole`).
pub struct Limit {
    pub name: &'static str,
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    pub default: f64,
    /// A count: only whole numbers are accepted.
    pub whole: bool,
}

const fn real(name: &'static str, unit: &'static str, min: f64, max: f64, default: f64) -> Limit {
    Limit {
        name,
        unit,
        min,
        max,
        default,
        whole: false,
    }
}

/// Every numeric option of `simulate` and `sequence`, in the order of the usage text;
/// the contact's ranges are the plugin's own ([`rebound::engine::LIMITS`]).
pub const LIMITS: [Limit; 13] = [
    real("k", "N/m^alpha", PLUGIN[0].k, PLUGIN[1].k, 1e7),
    real("mu", "s/m", PLUGIN[0].mu, PLUGIN[1].mu, 0.5),
    // No default: without it the damping is --mu's (see `usage_table`).
    real(
        "restitution",
        "",
        PLUGIN[0].restitution,
        PLUGIN[1].restitution,
        f64::NAN,
    ),
    real("alpha", "", PLUGIN[0].alpha, PLUGIN[1].alpha, 1.5),
    real("mass", "kg", PLUGIN[0].mass, PLUGIN[1].mass, 0.01),
    real("v-in", "m/s", PLUGIN[0].v_max, PLUGIN[1].v_max, 0.5),
    real("fs", "Hz", 22_050.0, 768_000.0, 44_100.0),
    real(
        "gravity",
        "m/s^2",
        PLUGIN[0].gravity,
        PLUGIN[1].gravity,
        9.81,
    ),
    // The coupled strike (`simulate --coupling`): from a body far lighter than any
    // striker to one heavy enough to stand for the rigid wall.
    real("body-mass", "kg", 1e-4, 1e9, 0.5),
    real("strike-position", "", 0.0, 1.0, 0.3),
    Limit {
        name: "key",
        unit: "",
        min: 0.0,
        max: 127.0,
        default: 60.0,
        whole: true,
    },
    real("duration", "s", 1e-4, 10.0, 0.05),
    Limit {
        name: "impacts",
        unit: "",
        min: 1.0,
        max: 100_000.0,
        default: 100.0,
        whole: true,
    },
];

/// The limit of `--name`. Every caller passes a name from `LIMITS`; the CLI tests run
/// every one of them, so a misspelt name fails them.
pub fn limit(name: &str) -> &'static Limit {
    LIMITS
        .iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no validity range for --{name}"))
}

impl Limit {
    /// `1e-4 to 10 s/m`: the range as the error messages and the usage text show it.
    pub fn range_text(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        format!(
            "{} to {}{unit}",
            number_text(self.min),
            number_text(self.max)
        )
    }

    /// "a number" or "a whole number".
    pub fn kind(&self) -> &'static str {
        if self.whole {
            "a whole number"
        } else {
            "a number"
        }
    }

    pub fn contains(&self, v: f64) -> bool {
        (self.min..=self.max).contains(&v) && (!self.whole || v.fract() == 0.0)
    }
}

/// Plain digits from 0.01 up to a million, powers-of-ten notation outside.
pub fn number_text(v: f64) -> String {
    if v != 0.0 && !(1e-2..1e6).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A clap value parser for `--name`: a number inside its range (NaN, ±inf, an empty or
/// unreadable value and anything outside are refused, naming the range).
pub fn parser(
    name: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    let lim = limit(name);
    move |s: &str| match s.parse::<f64>() {
        Ok(v) if lim.contains(v) => Ok(v),
        _ => Err(format!("must be {} in {}", lim.kind(), lim.range_text())),
    }
}

/// The help of `--name`: `desc`, then its unit, range and default.
pub fn help(name: &str, desc: &str) -> String {
    let l = limit(name);
    let default = if l.default.is_nan() {
        "off (damping from --mu; not with --mu)".to_string()
    } else {
        number_text(l.default)
    };
    let unit = if l.unit.is_empty() { "none" } else { l.unit };
    let whole = if l.whole { ", whole" } else { "" };
    crate::common::spec(desc, unit, &format!("{}{whole}", l.range_text()), &default)
}

/// The top-level help's table of ranges and defaults, one option a line.
pub fn usage_table() -> String {
    let mut out =
        String::from("numeric options of simulate and sequence (accepted range; default):");
    for l in &LIMITS {
        let default = if l.default.is_nan() {
            "off (damping from --mu; not with --mu)".to_string()
        } else {
            number_text(l.default)
        };
        out += &format!(
            "\n  --{:<11} {:<16} {:<24} default {default}",
            l.name,
            l.kind(),
            l.range_text(),
        );
    }
    out
}
