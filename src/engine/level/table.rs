//! The level calibration as a table: the gains of a full-velocity strike (see `level::law`)
//! for every MIDI key of one patch at one rate, so that a note-on reads them instead of
//! playing its strike ahead on the audio thread.
//!
//! A note whose own parameters differ from the patch's (a humanized hit, a poly-mod,
//! MPE pressure or timbre, the mod wheel) reads a correction per parameter it moves:
//! at every octave ([`COARSE`]) each of the [`AXES`] is calibrated at [`POINTS`] values
//! across its whole range, and the note adds, in the log domain, the difference the
//! table shows between its value and the patch's (interpolated in the value, with the
//! patch's own value as one more point, and between the octaves). A note the patch
//! plays as it is reads its key's entry alone; pitch moves along the keys.
//!
//! A table is a pure function of what changes a strike's level ([`level_params`](crate::engine::level::law::level_params)) and
//! the rate: an entry filled on a background worker (`level::worker`) equals one filled
//! on demand before an offline note, bit for bit, so a render does not depend on who
//! filled it or when. Lookups are allocation-free; the table is a fixed array.

use crate::engine::expression::spec;
pub use crate::engine::level::law::sounding_key;
use crate::engine::level::law::{Entry, Gains};
use crate::engine::params::{Controls, EngineParams};
use crate::engine::spec::NumberSpec;
use crate::engine::spec::normalized::{normalize, unnormalize};
use crate::engine::voice::Voice;

/// MIDI keys.
pub const KEYS: usize = 128;
/// The keys the per-parameter corrections are calibrated at: every octave.
pub const COARSE: [u8; 12] = [0, 12, 24, 36, 48, 60, 72, 84, 96, 108, 120, 127];
/// The parameters a note can move away from the patch's that change its level: the
/// contact time (Hardness, or Stiffness with Expert controls), Bounciness, Mass, Strike
/// position, Decay and Brightness. Pitch moves along the keys instead.
pub const AXES: usize = 6;
/// Each axis is calibrated at these normalised values (the host's 0–1, so a log-scaled
/// parameter is sampled evenly in its log).
pub const POINTS: [f64; 9] = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0];
/// The most slots one lookup reads: its key's two and, per axis it moves, six.
pub const NEEDED: usize = 2 + AXES * 6;
/// Entries of a table: one per key, then the corrections.
pub const SLOTS: usize = KEYS + COARSE.len() * AXES * POINTS.len();

static HARDNESS: NumberSpec = spec("hard");
static STIFFNESS: NumberSpec = spec("k");
static AXIS_SPECS: [NumberSpec; AXES - 1] = [
    spec("rest"),
    spec("mass"),
    spec("pos"),
    spec("t60"),
    spec("bright"),
];

/// The parameter of `axis` for a patch with `controls`.
fn axis_spec(axis: usize, controls: Controls) -> &'static NumberSpec {
    match (axis, controls) {
        (0, Controls::Playable) => &HARDNESS,
        (0, Controls::Expert) => &STIFFNESS,
        (a, _) => &AXIS_SPECS[a - 1],
    }
}

/// The slot of the correction entry at coarse key index `c`, axis `a`, point `i`.
fn dev_slot(c: usize, a: usize, i: usize) -> usize {
    KEYS + (c * AXES + a) * POINTS.len() + i
}

/// Where a note's own parameters sit on each axis (normalised), where they differ
/// from the patch's.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Deviation(pub [Option<f64>; AXES]);

impl Deviation {
    /// `own`'s deviation from `p`.
    pub fn of(p: &EngineParams, own: &EngineParams) -> Self {
        let mut d = [None; AXES];
        for (a, x) in d.iter_mut().enumerate() {
            let s = axis_spec(a, p.controls);
            let v = (s.get)(own);
            if v != (s.get)(p) {
                *x = Some(normalize(s, v));
            }
        }
        Self(d)
    }

    pub fn is_none(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }
}

/// The calibration of one patch at one rate, key by key, with its corrections.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelTable {
    /// What it is for ([`level_params`](crate::engine::level::law::level_params)) and the rate; `fs` 0 for none yet.
    params: EngineParams,
    fs: f64,
    entries: [Option<Entry>; SLOTS],
    /// True where the entry was made for `params` and `fs`; false where it is left from
    /// the patch before (it serves until its own is made).
    fresh: [bool; SLOTS],
}

impl Default for LevelTable {
    fn default() -> Self {
        Self {
            params: EngineParams::default(),
            fs: 0.0,
            entries: [None; SLOTS],
            fresh: [false; SLOTS],
        }
    }
}

/// The entries one lookup reads: at most two keys, and per axis two octaves at two
/// points each, with the two octaves' own keys.
pub struct Needed {
    slots: [usize; NEEDED],
    n: usize,
}

impl Needed {
    fn push(&mut self, slot: usize) {
        if !self.slots[..self.n].contains(&slot) {
            self.slots[self.n] = slot;
            self.n += 1;
        }
    }
    pub fn slots(&self) -> &[usize] {
        &self.slots[..self.n]
    }
}

/// The coarse-key indices around fractional key `key`, and the weight of the upper.
fn coarse_around(key: f64) -> (usize, usize, f64) {
    let hi = COARSE
        .iter()
        .position(|&c| c as f64 >= key)
        .unwrap_or(COARSE.len() - 1);
    let lo = hi.saturating_sub(1).min(hi);
    if hi == 0 || COARSE[hi] as f64 == key {
        return (hi, hi, 0.0);
    }
    let (a, b) = (COARSE[lo] as f64, COARSE[hi] as f64);
    (lo, hi, ((key - a) / (b - a)).clamp(0.0, 1.0))
}

/// The grid points around normalised `x`: lower index, upper index, upper's weight.
fn points_around(x: f64) -> (usize, usize, f64) {
    let last = POINTS.len() - 1;
    let hi = POINTS.iter().position(|&p| p >= x).unwrap_or(last);
    if hi == 0 || POINTS[hi] == x {
        return (hi, hi, 0.0);
    }
    let lo = hi - 1;
    (lo, hi, (x - POINTS[lo]) / (POINTS[hi] - POINTS[lo]))
}

/// Gains as the log of each.
fn ln(g: Gains) -> [f64; 2] {
    [g.dry.ln(), g.body.ln()]
}

impl LevelTable {
    /// True when the table is for these level parameters and rate.
    pub fn is_for(&self, q: &EngineParams, fs: f64) -> bool {
        self.fs == fs && self.params == *q
    }

    /// Makes the table one for `q` (already [`level_params`](crate::engine::level::law::level_params)) at `fs`: every entry is
    /// kept, to serve until its own is made, but no longer fresh.
    pub fn retarget(&mut self, q: &EngineParams, fs: f64) {
        if !self.is_for(q, fs) {
            self.params = *q;
            self.fs = fs;
            self.fresh = [false; SLOTS];
        }
    }

    /// The entry in `slot` (fresh or left from the patch before).
    pub fn slot_entry(&self, slot: usize) -> Option<Entry> {
        self.entries[slot % SLOTS]
    }

    /// True when the entry in `slot` was made for this table's patch and rate.
    pub fn is_fresh(&self, slot: usize) -> bool {
        self.fresh[slot % SLOTS]
    }

    /// Slots whose entry is fresh.
    pub fn fresh_count(&self) -> usize {
        self.fresh.iter().filter(|&&f| f).count()
    }

    /// The patch and key `slot` calibrates: a key of the patch, or a coarse key of the
    /// patch with one axis moved to one of its points.
    pub fn slot_params(&self, slot: usize) -> (EngineParams, u8) {
        if slot < KEYS {
            return (self.params, slot as u8);
        }
        let d = slot - KEYS;
        let (i, a, c) = (
            d % POINTS.len(),
            (d / POINTS.len()) % AXES,
            d / (POINTS.len() * AXES),
        );
        let s = axis_spec(a, self.params.controls);
        let mut q = self.params;
        (s.set)(&mut q, unnormalize(s, POINTS[i]));
        (q, COARSE[c % COARSE.len()])
    }

    /// Makes the entry in `slot` on `scratch` (a voice at this table's rate: not for
    /// the audio thread, it plays the strike).
    pub fn fill(&mut self, slot: usize, scratch: &mut Voice) {
        let slot = slot % SLOTS;
        let (q, key) = self.slot_params(slot);
        self.entries[slot] = Some(scratch.entry_of(&q, key));
        self.fresh[slot] = true;
    }

    /// Makes the entry in `slot` unless it is fresh (see [`fill`](Self::fill)).
    pub fn ensure(&mut self, slot: usize, scratch: &mut Voice) {
        if !self.is_fresh(slot) {
            self.fill(slot, scratch);
        }
    }

    /// The gains for a strike at fractional key `key` (a bent note reads between its
    /// neighbours, in the log domain) moved by `dev`, played at the smoothed `mix`
    /// toward `target`. `None` when no key near it has an entry.
    pub fn gains(&self, key: f64, dev: &Deviation, mix: f64, target: f64) -> Option<Gains> {
        Lookup {
            params: &self.params,
            entry: |k: usize| self.entries[k],
            keys: ALL_KEYS,
        }
        .gains(key, dev, mix, target)
    }
}

/// The entries a strike at fractional key `key` with deviation `dev` reads.
pub fn needed(key: f64, dev: &Deviation) -> Needed {
    let key = clamp_key(key);
    let mut n = Needed {
        slots: [0; NEEDED],
        n: 0,
    };
    n.push(key.floor() as usize);
    n.push(key.ceil() as usize);
    let (c0, c1, _) = coarse_around(key);
    for (a, x) in dev.0.iter().enumerate() {
        let Some(x) = *x else { continue };
        let (i0, i1, _) = points_around(x);
        for c in [c0, c1] {
            n.push(COARSE[c] as usize);
            n.push(dev_slot(c, a, i0));
            n.push(dev_slot(c, a, i1));
        }
    }
    n
}

/// A table's lookup over entries read one slot at a time (from a [`LevelTable`], or
/// from the slots a worker publishes one by one): the same arithmetic either way.
pub struct Lookup<'a, F: Fn(usize) -> Option<Entry>> {
    /// The level parameters the table is for.
    pub params: &'a EngineParams,
    /// The entry in a slot, if there is one.
    pub entry: F,
    /// The keys that may have an entry, a bit each: the search for the nearest key
    /// reads no other, so a key not made yet does not read every key's slot cold.
    pub keys: [u64; 2],
}

/// Every key may have an entry: the nearest-key search reads each in turn.
pub const ALL_KEYS: [u64; 2] = [u64::MAX; 2];

impl<F: Fn(usize) -> Option<Entry>> Lookup<'_, F> {
    /// See [`LevelTable::gains`].
    pub fn gains(&self, key: f64, dev: &Deviation, mix: f64, target: f64) -> Option<Gains> {
        let key = clamp_key(key);
        let lo = key.floor();
        let t = key - lo;
        let at = |k: f64| (self.entry)(k as usize).map(|e| ln(e.at_mix(mix, target)));
        let mut g = match (at(lo), at(key.ceil())) {
            (Some(a), Some(b)) => [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])],
            (a, b) => a.or(b).or_else(|| self.nearest(lo as u8, mix, target))?,
        };
        let (c0, c1, w) = coarse_around(key);
        if !dev.is_none() {
            // Each coarse key's own entry in the log, read once for every axis.
            let b0 = self.log_at(COARSE[c0] as usize, mix, target);
            let b1 = self.log_at(COARSE[c1] as usize, mix, target);
            for (a, x) in dev.0.iter().enumerate() {
                let Some(x) = *x else { continue };
                let s = axis_spec(a, self.params.controls);
                let x0 = normalize(s, (s.get)(self.params));
                let (Some(d0), Some(d1)) = (
                    b0.and_then(|b| self.correction((c0, b), a, (x, x0), mix, target)),
                    b1.and_then(|b| self.correction((c1, b), a, (x, x0), mix, target)),
                ) else {
                    continue;
                };
                for j in 0..2 {
                    g[j] += d0[j] + w * (d1[j] - d0[j]);
                }
            }
        }
        let g = Gains {
            dry: g[0].exp(),
            body: g[1].exp(),
        };
        (g.dry.is_finite() && g.body.is_finite()).then_some(g)
    }

    /// The entry in `slot` as log gains at `mix`, if there is one.
    fn log_at(&self, slot: usize, mix: f64, target: f64) -> Option<[f64; 2]> {
        (self.entry)(slot).map(|e| ln(e.at_mix(mix, target)))
    }

    /// The log-gain correction at coarse key index `c` (its own entry's log `base`)
    /// for axis `a` at normalised `x`: piecewise linear over the axis's points, with
    /// the patch's own value `x0` as one more point where it is 0.
    fn correction(
        &self,
        (c, base): (usize, [f64; 2]),
        a: usize,
        (x, x0): (f64, f64),
        mix: f64,
        target: f64,
    ) -> Option<[f64; 2]> {
        let point = |i: usize| -> Option<(f64, [f64; 2])> {
            let g = self.log_at(dev_slot(c, a, i), mix, target)?;
            Some((POINTS[i], [g[0] - base[0], g[1] - base[1]]))
        };
        let (i0, i1, _) = points_around(x);
        let (mut lo, mut hi) = (point(i0)?, point(i1)?);
        // The patch's own value, where it lies between the two points.
        if x0 <= x && x0 > lo.0 {
            lo = (x0, [0.0; 2]);
        }
        if x0 >= x && x0 < hi.0 {
            hi = (x0, [0.0; 2]);
        }
        if hi.0 <= lo.0 {
            return Some(lo.1);
        }
        let t = (x - lo.0) / (hi.0 - lo.0);
        Some([
            lo.1[0] + t * (hi.1[0] - lo.1[0]),
            lo.1[1] + t * (hi.1[1] - lo.1[1]),
        ])
    }

    /// The entry nearest `key` that exists (for a realtime note whose own is still
    /// being made and had none before).
    fn nearest(&self, key: u8, mix: f64, target: f64) -> Option<[f64; 2]> {
        let may = |k: usize| self.keys[k / 64] >> (k % 64) & 1 == 1;
        let entry = |k: usize| may(k).then(|| (self.entry)(k)).flatten();
        (1..KEYS).find_map(|d| {
            let up = (key as usize + d < KEYS).then(|| entry(key as usize + d));
            let down = (d <= key as usize).then(|| entry(key as usize - d));
            down.flatten()
                .or(up.flatten())
                .map(|e| ln(e.at_mix(mix, target)))
        })
    }
}

/// A fractional key inside the keyboard (NaN: middle C).
fn clamp_key(key: f64) -> f64 {
    if key.is_finite() {
        key.clamp(0.0, (KEYS - 1) as f64)
    } else {
        60.0
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
