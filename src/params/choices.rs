//! The plugin's choice parameters: each enum's stable ids (saved in sessions: never
//! rename one), the names a user reads, and its conversion to the engine's type.

use crate::engine::{Controls, Coupling, ModWheel, NoteOff};
use crate::model::body::BodyType;
use crate::model::{ClampTarget, Correction, Method};
use nice_plug::prelude::*;

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntegratorChoice {
    #[id = "verlet"]
    #[name = "Verlet"]
    Verlet,
    #[id = "heun"]
    #[name = "Heun"]
    Heun,
    #[id = "rk4"]
    #[name = "RK4"]
    Rk4,
    #[id = "am1"]
    #[name = "AM1"]
    Am1,
}

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CorrectionChoice {
    #[id = "none"]
    #[name = "Off"]
    None,
    #[id = "hybrid"]
    #[name = "Shape"]
    Hybrid,
    #[id = "clamp"]
    #[name = "Exit speed"]
    Clamp,
    #[id = "both"]
    #[name = "Both"]
    Both,
}

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClampChoice {
    #[id = "approx"]
    #[name = "Approximate"]
    Approx,
    #[id = "exact"]
    #[name = "Exact"]
    Exact,
}

/// Where the contact's damping comes from.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DampingChoice {
    /// `μ` in s/m, as set: its effect depends on the strike speed.
    #[id = "mu"]
    #[name = "Contact damping"]
    Mu,
    /// A coefficient of restitution `e`: every strike gets the μ that leaves at
    /// `−e·v_in` (seed 000, eq 19).
    #[id = "restitution"]
    #[name = "Bounciness"]
    Restitution,
}

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyChoice {
    #[id = "none"]
    #[name = "None"]
    None,
    #[id = "bar"]
    #[name = "Bar"]
    Bar,
    #[id = "plate"]
    #[name = "Plate"]
    Plate,
    #[id = "membrane"]
    #[name = "Membrane"]
    Membrane,
    #[id = "bell"]
    #[name = "Bell"]
    Bell,
    #[id = "wood"]
    #[name = "Wood block"]
    WoodBlock,
}

/// Which controls set the contact law.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlsChoice {
    /// Hardness (contact time) and Bounciness (restitution).
    #[id = "playable"]
    #[name = "Hardness & Bounciness"]
    Playable,
    /// Stiffness `k` and damping `μ` (or `e`) as the paper names them.
    #[id = "expert"]
    #[name = "Stiffness & Damping"]
    Expert,
}

impl From<ControlsChoice> for Controls {
    fn from(c: ControlsChoice) -> Self {
        match c {
            ControlsChoice::Playable => Controls::Playable,
            ControlsChoice::Expert => Controls::Expert,
        }
    }
}

/// What the mod wheel moves.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModWheelChoice {
    #[id = "off"]
    #[name = "Off"]
    Off,
    #[id = "hardness"]
    #[name = "Hardness"]
    Hardness,
    #[id = "bounciness"]
    #[name = "Bounciness"]
    Bounciness,
    #[id = "position"]
    #[name = "Strike position"]
    Position,
    #[id = "pitch"]
    #[name = "Body pitch"]
    Pitch,
    #[id = "decay"]
    #[name = "Decay"]
    Decay,
    #[id = "brightness"]
    #[name = "Brightness"]
    Brightness,
}

impl From<ModWheelChoice> for ModWheel {
    fn from(c: ModWheelChoice) -> Self {
        match c {
            ModWheelChoice::Off => ModWheel::Off,
            ModWheelChoice::Hardness => ModWheel::Hardness,
            ModWheelChoice::Bounciness => ModWheel::Bounciness,
            ModWheelChoice::Position => ModWheel::Position,
            ModWheelChoice::Pitch => ModWheel::Pitch,
            ModWheelChoice::Decay => ModWheel::Decay,
            ModWheelChoice::Brightness => ModWheel::Brightness,
        }
    }
}

#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteOffChoice {
    #[id = "ring"]
    #[name = "Ring"]
    Ring,
    #[id = "damp"]
    #[name = "Damp"]
    Damp,
}

impl From<NoteOffChoice> for NoteOff {
    fn from(c: NoteOffChoice) -> Self {
        match c {
            NoteOffChoice::Ring => NoteOff::Ring,
            NoteOffChoice::Damp => NoteOff::Damp,
        }
    }
}

/// What the striker meets.
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CouplingChoice {
    #[id = "rigid"]
    #[name = "Rigid wall"]
    Rigid,
    #[id = "twoway"]
    #[name = "Two-way"]
    TwoWay,
}

impl From<CouplingChoice> for Coupling {
    fn from(c: CouplingChoice) -> Self {
        match c {
            CouplingChoice::Rigid => Coupling::Rigid,
            CouplingChoice::TwoWay => Coupling::TwoWay,
        }
    }
}

impl From<IntegratorChoice> for Method {
    fn from(c: IntegratorChoice) -> Self {
        match c {
            IntegratorChoice::Verlet => Method::Verlet,
            IntegratorChoice::Heun => Method::Heun,
            IntegratorChoice::Rk4 => Method::Rk4,
            IntegratorChoice::Am1 => Method::Am1,
        }
    }
}
impl From<CorrectionChoice> for Correction {
    fn from(c: CorrectionChoice) -> Self {
        match c {
            CorrectionChoice::None => Correction::None,
            CorrectionChoice::Hybrid => Correction::Hybrid,
            CorrectionChoice::Clamp => Correction::Clamp,
            CorrectionChoice::Both => Correction::Both,
        }
    }
}
impl From<ClampChoice> for ClampTarget {
    fn from(c: ClampChoice) -> Self {
        match c {
            ClampChoice::Approx => ClampTarget::Approx,
            ClampChoice::Exact => ClampTarget::Exact,
        }
    }
}
impl From<BodyChoice> for BodyType {
    fn from(c: BodyChoice) -> Self {
        match c {
            BodyChoice::None => BodyType::None,
            BodyChoice::Bar => BodyType::Bar,
            BodyChoice::Plate => BodyType::Plate,
            BodyChoice::Membrane => BodyType::Membrane,
            BodyChoice::Bell => BodyType::Bell,
            BodyChoice::WoodBlock => BodyType::WoodBlock,
        }
    }
}
