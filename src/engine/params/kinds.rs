//! The parameters with named kinds: the engine's own types, whose `ALL` order the
//! plugin's choices and the CLI follow (`engine::spec::CHOICES`).

use crate::model::scheme::by_name;

/// Which controls set the contact law.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    /// Hardness (contact time at `v_max`) and Bounciness (restitution `e`).
    #[default]
    Playable,
    /// Stiffness `k` and damping `μ` (or `e`, by "Damping from") as the paper names them.
    Expert,
}

impl Controls {
    pub const ALL: [Controls; 2] = [Controls::Playable, Controls::Expert];
}

/// The parameter the mod wheel moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModWheel {
    #[default]
    Off,
    Hardness,
    Bounciness,
    Position,
    Pitch,
    Decay,
    Brightness,
    /// Roll and Scrape: the speed (up to twice the note's at full depth).
    Speed,
}

impl ModWheel {
    pub const ALL: [ModWheel; 8] = [
        ModWheel::Off,
        ModWheel::Hardness,
        ModWheel::Bounciness,
        ModWheel::Position,
        ModWheel::Pitch,
        ModWheel::Decay,
        ModWheel::Brightness,
        ModWheel::Speed,
    ];
}

/// What a note plays with the contact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Gesture {
    /// One strike at the note's speed, and the bounces that follow it.
    #[default]
    Strike,
    /// While the key is held, a seeded train of strikes on a power law of energies at
    /// Poisson instants (`model::crumple`): paper, foil, leaves crushed in the hand.
    Crumple,
    /// While the key is held, a ball rolls over a rough surface at the note's speed
    /// (`model::roll`), and slows to rest after the note-off.
    Roll,
    /// While the key is held, a probe is dragged over a rough surface at the note's
    /// speed, pressed by its weight and the key's pressure; lifted at the note-off.
    Scrape,
}

impl Gesture {
    pub const ALL: [Gesture; 4] = [
        Gesture::Strike,
        Gesture::Crumple,
        Gesture::Roll,
        Gesture::Scrape,
    ];

    /// Roll and Scrape: a contact held on a moving surface, not strikes.
    pub fn on_surface(self) -> bool {
        matches!(self, Gesture::Roll | Gesture::Scrape)
    }
}

/// What the striker meets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coupling {
    /// A wall that never moves; its force drives the body one way (the paper's model).
    #[default]
    Rigid,
    /// The body's modes at the strike point move under the striker, and the contact
    /// acts on the compression between them (`model::coupled`): a light body lengthens
    /// the contact and can meet the striker again.
    TwoWay,
}

impl Coupling {
    pub const ALL: [Coupling; 2] = [Coupling::Rigid, Coupling::TwoWay];
}

/// What releasing a key does to its voice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoteOff {
    /// Nothing: the struck object rings on, as it does in the world.
    #[default]
    Ring,
    /// A hand on the object: no further bounces (a contact in progress finishes), and
    /// from the note-off every mode of the body decays with T60 at most `release`, its
    /// ringing carried on (no gain step). The voice then ends as usual, below −120 dB.
    Damp,
}

impl NoteOff {
    pub const ALL: [NoteOff; 2] = [NoteOff::Ring, NoteOff::Damp];

    pub fn name(self) -> &'static str {
        match self {
            NoteOff::Ring => "ring",
            NoteOff::Damp => "damp",
        }
    }
}

impl std::str::FromStr for NoteOff {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        by_name(&NoteOff::ALL, NoteOff::name, s)
            .ok_or_else(|| format!("expected ring or damp (got '{s}')"))
    }
}
