//! Per-note expression: what moves one voice's parameters away from the engine's. CLAP
//! polyphonic modulation (normalised offsets per voice), MPE and per-note expression
//! (pressure, timbre, pitch bend, tuning) and the mod wheel. [`Expression::apply`] is
//! what `Voice::own` runs; the engine routes the events to the voices they address
//! (`voices::routing`). Framework-free, allocation-free.

pub mod humanize;
pub mod mpe;

use crate::engine::params::{EngineParams, Gesture, LIMITS, ModWheel};
use crate::engine::spec::normalized::modulate;
use crate::engine::spec::{NUMBERS, NumberSpec};
use mpe::BendRanges;

/// The parameters a host can modulate per voice (CLAP polyphonic modulation). The
/// index in [`PolyTarget::ALL`] is the poly-modulation id the plugin declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolyTarget {
    Hardness,
    Bounciness,
    Mass,
    Position,
    BodyPitch,
}

impl PolyTarget {
    pub const ALL: [PolyTarget; 5] = [
        PolyTarget::Hardness,
        PolyTarget::Bounciness,
        PolyTarget::Mass,
        PolyTarget::Position,
        PolyTarget::BodyPitch,
    ];

    /// The poly-modulation id (stable: hosts save modulation routings by it).
    pub const fn id(self) -> u32 {
        self as u32
    }
    pub fn from_id(id: u32) -> Option<Self> {
        Self::ALL.get(id as usize).copied()
    }
    /// The spec id of the modulated parameter.
    pub fn param_id(self) -> &'static str {
        self.spec().id
    }
    fn spec(self) -> &'static NumberSpec {
        match self {
            PolyTarget::Hardness => &HARDNESS,
            PolyTarget::Bounciness => &BOUNCINESS,
            PolyTarget::Mass => &MASS,
            PolyTarget::Position => &POSITION,
            PolyTarget::BodyPitch => &BODY_PITCH,
        }
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The spec of number `id`, found at compile time (a missing id does not build).
pub(crate) const fn spec(id: &str) -> NumberSpec {
    let mut i = 0;
    while i < NUMBERS.len() {
        if same(NUMBERS[i].id, id) {
            return NUMBERS[i];
        }
        i += 1;
    }
    panic!("no such number in the spec")
}

static HARDNESS: NumberSpec = spec("hard");
static BOUNCINESS: NumberSpec = spec("rest");
static MASS: NumberSpec = spec("mass");
static POSITION: NumberSpec = spec("pos");
static BODY_PITCH: NumberSpec = spec("bfreq");
static DECAY: NumberSpec = spec("t60");
static BRIGHTNESS: NumberSpec = spec("bright");

/// Full pressure multiplies the body's T60 by this (a finger on the surface).
pub const PRESSURE_DAMP: f64 = 0.05;
/// Timbre (CC 74, CLAP brightness) at 0 or 1 moves the strike position by ∓/± this.
pub const TIMBRE_SPAN: f64 = 0.5;
/// Mod wheel on Pitch at full depth: semitones.
pub const WHEEL_PITCH: f64 = 12.0;
/// Per-note tuning is limited to CLAP's ±128 semitones.
pub const MAX_TUNING: f64 = 128.0;
/// The bent body pitch stays inside this (Hz): the body handles any positive
/// fundamental, these only keep it finite and audible-ish at absurd bends.
pub const BENT_PITCH: (f64, f64) = (1.0, 1e5);
/// Pressure's damping stops at this T60 (s).
const MIN_T60: f64 = LIMITS[0].t60 * PRESSURE_DAMP;

/// A value from a host event in `[lo, hi]`; NaN gives `neutral`.
pub fn sane(v: f32, lo: f64, hi: f64, neutral: f64) -> f64 {
    crate::engine::within(v as f64, lo, hi, neutral)
}

/// A note's own expression event as a host sent it (CLAP poly-mod and note expressions,
/// poly pressure): one type, so an event and a note-on that takes it at its own
/// timestamp (`Engine::note_on_with`) make it sane the same way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NoteExpression {
    /// A normalised offset of the parameter with poly-modulation id `target`.
    PolyMod { target: u32, offset: f32 },
    /// Polyphonic key pressure in `[0, 1]`.
    Pressure(f32),
    /// Tuning, semitones.
    Tuning(f32),
    /// Brightness in `[0, 1]`.
    Brightness(f32),
}

/// What a MIDI channel applies to its notes (MPE: one note per channel).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChannelExpression {
    /// Pitch bend in `[-1, 1]` (× the bend range in semitones).
    pub bend: f64,
    /// Channel pressure in `[0, 1]`.
    pub pressure: f64,
    /// Timbre (CC 74) in `[0, 1]`, 0.5 = none.
    pub timbre: f64,
}

impl Default for ChannelExpression {
    fn default() -> Self {
        Self {
            bend: 0.0,
            pressure: 0.0,
            timbre: 0.5,
        }
    }
}

/// Everything that moves one voice's parameters: its own (poly-mod, poly pressure,
/// tuning, brightness), its channel's, its MPE zone's and the mod wheel.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Expression {
    /// CLAP poly-mod offsets, normalised, by [`PolyTarget`] index.
    pub poly: [f64; 5],
    /// Polyphonic key pressure in `[0, 1]` (the largest of it, the channel's and the
    /// zone's pressure acts).
    pub pressure: f64,
    /// Per-note tuning, semitones.
    pub tuning: f64,
    /// Per-note brightness (CLAP note expression), in place of the channel's timbre.
    pub brightness: Option<f64>,
    pub channel: ChannelExpression,
    /// What its MPE zone's master channel applies to every note of the zone, on top of
    /// the note's own channel: its bend (× the zone's master bend range), pressure and
    /// timbre. Neutral outside a zone.
    pub zone: ChannelExpression,
    /// Its MPE zone's bend ranges (`None` outside a zone: the channel bend is × the Bend
    /// range parameter).
    pub ranges: Option<BendRanges>,
    /// Mod wheel (CC 1) in `[0, 1]`.
    pub wheel: f64,
}

impl Expression {
    /// A new note's expression: nothing of its own yet, its channel's and the wheel.
    pub fn new(channel: ChannelExpression, wheel: f64) -> Self {
        Self {
            channel,
            wheel,
            ..Self::default()
        }
    }

    /// Takes a note expression event into this note's own part, made sane (NaN →
    /// neutral, clamped; an unknown poly-mod id changes nothing). It replaces the
    /// previous value of what it moves.
    pub fn take(&mut self, x: NoteExpression) {
        match x {
            NoteExpression::PolyMod { target, offset } => {
                if let Some(t) = PolyTarget::from_id(target) {
                    self.poly[t as usize] = sane(offset, -1.0, 1.0, 0.0);
                }
            }
            NoteExpression::Pressure(p) => self.pressure = sane(p, 0.0, 1.0, 0.0),
            NoteExpression::Tuning(t) => self.tuning = sane(t, -MAX_TUNING, MAX_TUNING, 0.0),
            NoteExpression::Brightness(b) => self.brightness = Some(sane(b, 0.0, 1.0, 0.5)),
        }
    }

    /// The pressure that acts: the largest of the note's, its channel's and its zone's.
    pub fn pressure(&self) -> f64 {
        self.pressure
            .max(self.channel.pressure)
            .max(self.zone.pressure)
    }

    /// Roll and Scrape: the factor on the note's speed, `(1 + pressure)` for a roll
    /// (a push), and the mod wheel's on Speed up to `1 + depth`.
    pub fn speed_factor(&self, p: &EngineParams) -> f64 {
        let wheel = if p.mod_wheel == ModWheel::Speed {
            1.0 + self.wheel * p.mod_depth
        } else {
            1.0
        };
        let push = if p.gesture == Gesture::Roll {
            1.0 + self.pressure()
        } else {
            1.0
        };
        wheel * push
    }

    /// True when it moves nothing.
    #[inline]
    pub fn is_neutral(&self) -> bool {
        *self == Self::new(ChannelExpression::default(), 0.0)
    }

    /// `p` moved by this expression. Poly-mod offsets add in the host's normalised
    /// units (so they follow each parameter's taper and stay in its range); pressure
    /// scales the T60 by `0.05^pressure`; timbre shifts the strike position by ±0.5,
    /// the zone's timbre adding its offset from 0.5 to the note's (held within the
    /// same span); bend (× `bend_range`, or × its MPE zone's ranges), the zone's bend
    /// and tuning transpose the body. The mod wheel moves its target by `mod_depth` ×
    /// wheel (Hardness towards harder).
    #[inline]
    pub fn apply(&self, p: &EngineParams) -> EngineParams {
        if self.is_neutral() {
            return *p;
        }
        let mut q = *p;
        for (t, &off) in PolyTarget::ALL.iter().zip(&self.poly) {
            if off != 0.0 {
                let s = t.spec();
                let v = modulate(s, (s.get)(&q), off);
                (s.set)(&mut q, v);
            }
        }
        let mut semitones = self.tuning
            + match self.ranges {
                Some(r) => self.channel.bend * r.member + self.zone.bend * r.master,
                None => self.channel.bend * p.bend_range,
            };
        let w = self.wheel * p.mod_depth;
        if w > 0.0 {
            let wheel = |q: &mut EngineParams, s: &NumberSpec, w: f64| {
                let v = modulate(s, (s.get)(q), w);
                (s.set)(q, v);
            };
            match p.mod_wheel {
                ModWheel::Off => {}
                ModWheel::Hardness => wheel(&mut q, &HARDNESS, -w),
                ModWheel::Bounciness => wheel(&mut q, &BOUNCINESS, w),
                ModWheel::Position => wheel(&mut q, &POSITION, w),
                ModWheel::Pitch => semitones += WHEEL_PITCH * w,
                ModWheel::Decay => wheel(&mut q, &DECAY, w),
                ModWheel::Brightness => wheel(&mut q, &BRIGHTNESS, w),
                // Read by a rolling or scraping voice (`speed_factor`).
                ModWheel::Speed => {}
            }
        }
        let pressure = self.pressure();
        // On a surface the key's pressure moves the gesture (`speed_factor`), not a
        // finger on the body.
        if pressure > 0.0 && !p.gesture.on_surface() {
            q.t60 = (q.t60 * PRESSURE_DAMP.powf(pressure)).max(MIN_T60);
        }
        let own = self.brightness.unwrap_or(self.channel.timbre);
        let timbre = (own + (self.zone.timbre - 0.5)).clamp(0.0, 1.0);
        if timbre != 0.5 {
            let shift = (timbre - 0.5) * 2.0 * TIMBRE_SPAN;
            q.position = (q.position + shift).clamp(0.0, 1.0);
        }
        if semitones != 0.0 {
            let f = q.body_freq * (semitones / 12.0).exp2();
            q.body_freq = f.max(BENT_PITCH.0).min(BENT_PITCH.1);
        }
        q
    }
}

#[cfg(test)]
mod tests;
