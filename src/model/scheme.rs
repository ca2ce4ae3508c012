//! The choices a simulation is run with: integrator, correction and clamp target.

use std::fmt;
use std::str::FromStr;

/// The four integrators of Section III-A, eqs (23)–(26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Velocity Verlet, eq (24).
    Verlet,
    /// Heun (RK2 predictor–corrector), eq (25).
    Heun,
    /// Classical fourth-order Runge–Kutta, eq (26).
    Rk4,
    /// One-step Adams–Moulton (trapezoid rule), eq (23), with Newton on the
    /// delay-free loop.
    Am1,
}

impl Method {
    pub const ALL: [Method; 4] = [Method::Verlet, Method::Heun, Method::Rk4, Method::Am1];

    pub fn name(self) -> &'static str {
        match self {
            Method::Verlet => "verlet",
            Method::Heun => "heun",
            Method::Rk4 => "rk4",
            Method::Am1 => "am1",
        }
    }
}

/// The energy corrections of Section IV-A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Correction {
    None,
    /// Hybrid numerical–analytical: `x = x(v)` by eq (3) while in contact (IV-A1).
    Hybrid,
    /// Output-velocity constraint at detachment (IV-A2).
    Clamp,
    /// Both of the above.
    Both,
}

impl Correction {
    pub const ALL: [Correction; 4] = [
        Correction::None,
        Correction::Hybrid,
        Correction::Clamp,
        Correction::Both,
    ];

    pub fn hybrid(self) -> bool {
        matches!(self, Correction::Hybrid | Correction::Both)
    }

    pub fn clamp(self) -> bool {
        matches!(self, Correction::Clamp | Correction::Both)
    }

    pub fn name(self) -> &'static str {
        match self {
            Correction::None => "none",
            Correction::Hybrid => "hybrid",
            Correction::Clamp => "clamp",
            Correction::Both => "both",
        }
    }
}

/// What the output-velocity clamp sets `v` to at detachment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClampTarget {
    /// `ṽ_out`, eq (7), as in the paper.
    Approx,
    /// The exact root of eq (6).
    Exact,
}

impl ClampTarget {
    pub const ALL: [ClampTarget; 2] = [ClampTarget::Approx, ClampTarget::Exact];

    pub fn name(self) -> &'static str {
        match self {
            ClampTarget::Approx => "approx",
            ClampTarget::Exact => "exact",
        }
    }
}

/// How many steps of the method one sample takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stepping {
    /// As many as the contact needs to be stable and resolved at this rate (see
    /// `impact::substeps_for`): the instrument's rule.
    Auto,
    /// Exactly one, as in the paper's tables (whatever the contact's stiffness).
    PerSample,
}

/// A full choice of how to integrate one contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub method: Method,
    pub correction: Correction,
    pub clamp_target: ClampTarget,
    pub stepping: Stepping,
}

impl Scheme {
    pub fn new(method: Method, correction: Correction, clamp_target: ClampTarget) -> Self {
        Self {
            method,
            correction,
            clamp_target,
            stepping: Stepping::Auto,
        }
    }

    /// The plain method, no correction.
    pub fn plain(method: Method) -> Self {
        Self::new(method, Correction::None, ClampTarget::Exact)
    }

    /// The same with one step per sample: the paper's convention.
    pub fn per_sample(self) -> Self {
        Self {
            stepping: Stepping::PerSample,
            ..self
        }
    }
}

/// An unknown name given for one of the enums above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName(pub String);

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown value '{}'", self.0)
    }
}

/// The entry of `all` whose `name` is `s` in any case: how every choice is read back
/// from its name (the command line's options, presets).
pub fn by_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, s: &str) -> Option<T> {
    all.iter()
        .copied()
        .find(|&v| name(v).eq_ignore_ascii_case(s))
}

macro_rules! from_str_by_name {
    ($t:ty, $all:expr) => {
        impl FromStr for $t {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                by_name(&$all, <$t>::name, s).ok_or_else(|| UnknownName(s.to_string()))
            }
        }
    };
}

from_str_by_name!(Method, Method::ALL);
from_str_by_name!(Correction, Correction::ALL);
from_str_by_name!(ClampTarget, [ClampTarget::Approx, ClampTarget::Exact]);
