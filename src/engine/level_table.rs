//! The level calibration as a table: the gains of a full-velocity strike (see `level`)
//! for every MIDI key of one patch at one rate, so that a note-on reads them instead of
//! playing its strike ahead on the audio thread.
//!
//! A table is a pure function of what changes a strike's level ([`level_params`]) and
//! the rate: an entry filled on a background worker (`level_worker`) equals one filled
//! on demand before an offline note, bit for bit, so a render does not depend on who
//! filled it or when. Lookups are allocation-free; the table is a fixed array.

use super::level::{self, Gains};
use super::params::EngineParams;
use super::voice::Voice;

/// MIDI keys.
pub const KEYS: usize = 128;

/// How far the smoothed mix may be from the patch's for a strike to take the gains made
/// for the patch's mix alone (see [`Entry::glide`]).
pub const MIX_GLIDE_TOLERANCE: f64 = 1e-3;

/// The parameters a strike's level depends on: `p` with everything that cannot change
/// a full-velocity strike's peak or loudness set to its default (the output gain and
/// width, the voice count, what a note-off does, the velocity curve, the humanize
/// amount and seed, the mod wheel's routing and the bend range), and both speeds at the
/// full-velocity one (the larger: a patch may have them either way round). A table is
/// rebuilt only when these change.
pub fn level_params(p: &EngineParams) -> EngineParams {
    let d = EngineParams::default();
    let top = p.v_max.max(p.v_min);
    EngineParams {
        v_min: top,
        v_max: top,
        velocity_curve: d.velocity_curve,
        gain_db: d.gain_db,
        voices: d.voices,
        note_off: d.note_off,
        release: d.release,
        width: d.width,
        humanize: d.humanize,
        seed: d.seed,
        mod_wheel: d.mod_wheel,
        mod_depth: d.mod_depth,
        bend_range: d.bend_range,
        ..*p
    }
}

/// The calibrated gains of one key's strike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// At the patch's mix: the dry path and the body each at the target, then their
    /// mix, then (Playable) moved toward the reference loudness.
    pub strike: Gains,
    /// While the mix glides (a preset just loaded, Mix or Body just moved): the same
    /// without the mix's own step. A mix of two signals that each peak at the target
    /// peaks at most there, whatever the mix (the peak is convex in it), so a strike
    /// struck anywhere along a glide stays at or under the target.
    pub glide: Gains,
}

impl Entry {
    /// The gains for a strike played at the smoothed `mix` of a patch whose own is
    /// `target`.
    pub fn at_mix(&self, mix: f64, target: f64) -> Gains {
        if mix.is_finite() && (mix - target).abs() <= MIX_GLIDE_TOLERANCE {
            self.strike
        } else {
            self.glide
        }
    }
}

/// The calibration of one patch at one rate, key by key.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelTable {
    /// What it is for ([`level_params`]) and the rate; `fs` 0 for none yet.
    params: EngineParams,
    fs: f64,
    entries: [Option<Entry>; KEYS],
    /// True where the entry was made for `params` and `fs`; false where it is left from
    /// the patch before (it serves until its own is made).
    fresh: [bool; KEYS],
}

impl Default for LevelTable {
    fn default() -> Self {
        Self {
            params: EngineParams::default(),
            fs: 0.0,
            entries: [None; KEYS],
            fresh: [false; KEYS],
        }
    }
}

impl LevelTable {
    /// True when the table is for these level parameters and rate.
    pub fn is_for(&self, q: &EngineParams, fs: f64) -> bool {
        self.fs == fs && self.params == *q
    }

    /// Makes the table one for `q` (already [`level_params`]) at `fs`: every entry is
    /// kept, to serve until its own is made, but no longer fresh.
    pub fn retarget(&mut self, q: &EngineParams, fs: f64) {
        if !self.is_for(q, fs) {
            self.params = *q;
            self.fs = fs;
            self.fresh = [false; KEYS];
        }
    }

    /// The entry of `key` (fresh or left from the patch before).
    pub fn entry(&self, key: u8) -> Option<Entry> {
        self.entries[key as usize % KEYS]
    }

    /// True when `key`'s entry was made for this table's patch and rate.
    pub fn is_fresh(&self, key: u8) -> bool {
        self.fresh[key as usize % KEYS]
    }

    /// Keys whose entry is fresh.
    pub fn fresh_count(&self) -> usize {
        self.fresh.iter().filter(|&&f| f).count()
    }

    /// Makes `key`'s entry on `scratch` (a voice at this table's rate: not for the
    /// audio thread, it plays the strike). Returns it.
    pub fn fill(&mut self, key: u8, scratch: &mut Voice) -> Entry {
        let e = scratch.entry_of(&self.params, key);
        let k = key as usize % KEYS;
        self.entries[k] = Some(e);
        self.fresh[k] = true;
        e
    }

    /// The gains for a strike at fractional key `key` (a bent note reads between its
    /// neighbours, in the log domain) played at the smoothed `mix` toward `target`.
    /// `None` when neither neighbour has an entry.
    pub fn gains(&self, key: f64, mix: f64, target: f64) -> Option<Gains> {
        let key = if key.is_finite() {
            key.clamp(0.0, (KEYS - 1) as f64)
        } else {
            60.0
        };
        let lo = key.floor();
        let t = key - lo;
        let a = self.entry(lo as u8).map(|e| e.at_mix(mix, target));
        if t == 0.0 {
            return a.or_else(|| self.nearest(lo as u8, mix, target));
        }
        let b = self.entry(lo as u8 + 1).map(|e| e.at_mix(mix, target));
        match (a, b) {
            (Some(a), Some(b)) => Some(Gains {
                dry: a.dry.powf(1.0 - t) * b.dry.powf(t),
                body: a.body.powf(1.0 - t) * b.body.powf(t),
            }),
            (a, b) => a.or(b).or_else(|| self.nearest(lo as u8, mix, target)),
        }
    }

    /// The entry nearest `key` that exists (for a realtime note whose own is still
    /// being made and had none before).
    fn nearest(&self, key: u8, mix: f64, target: f64) -> Option<Gains> {
        (1..KEYS).find_map(|d| {
            let up = (key as usize + d < KEYS).then(|| self.entries[key as usize + d]);
            let down = (d <= key as usize).then(|| self.entries[key as usize - d]);
            down.flatten()
                .or(up.flatten())
                .map(|e| e.at_mix(mix, target))
        })
    }
}

/// The fractional key whose nominal body a note on `key` playing `own` sounds like:
/// its bend, tuning and pitch modulation moved along the keyboard by the key tracking.
/// Without key tracking every key has the same body, so the note reads its own key.
pub fn sounding_key(p: &EngineParams, own: &EngineParams, key: u8) -> f64 {
    let k = key as f64;
    if own.body_freq == p.body_freq && own.key_track == p.key_track {
        return k;
    }
    let track = p.key_track;
    if track.is_finite() && track > 1e-3 {
        let f_nominal = p.body_freq * 2f64.powf(track * (k - 60.0) / 12.0);
        let f_own = own.body_freq * 2f64.powf(own.key_track * (k - 60.0) / 12.0);
        let semitones = 12.0 * (f_own / f_nominal).log2();
        if semitones.is_finite() {
            return k + semitones / track;
        }
    }
    k
}

/// The level's target mix for `p` (Body None plays the dry path alone).
pub fn target_mix(p: &EngineParams) -> f64 {
    level::mix_of(p, p.mix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_params_ignore_what_cannot_change_a_strike() {
        let p = EngineParams::default();
        let q = EngineParams {
            gain_db: -12.0,
            width: 0.0,
            seed: 7.0,
            release: 1.0,
            bend_range: 48.0,
            humanize: 1.0,
            v_min: 0.01,
            velocity_curve: 2.0,
            ..p
        };
        assert_eq!(level_params(&p), level_params(&q));
        // The full-velocity speed is the larger of the two, either way round.
        let swapped = EngineParams {
            v_min: p.v_max,
            v_max: p.v_min,
            ..p
        };
        assert_eq!(level_params(&p), level_params(&swapped));
        let hard = EngineParams {
            hardness_ms: 2.0,
            ..p
        };
        assert_ne!(level_params(&p), level_params(&hard));
    }

    #[test]
    fn a_bent_note_reads_between_its_neighbours() {
        let p = EngineParams::default();
        let own = EngineParams {
            body_freq: p.body_freq * 2f64.powf(0.5 / 12.0),
            ..p
        };
        assert!((sounding_key(&p, &own, 60) - 60.5).abs() < 1e-12);
        let flat = EngineParams {
            key_track: 0.0,
            ..p
        };
        assert_eq!(sounding_key(&flat, &own, 60), 60.0);
        let mut t = LevelTable::default();
        let e = |g: f64| Entry {
            strike: Gains { dry: g, body: g },
            glide: Gains { dry: g, body: g },
        };
        t.entries[60] = Some(e(1.0));
        t.entries[61] = Some(e(4.0));
        let g = t.gains(60.5, 0.7, 0.7).unwrap();
        assert!((g.dry - 2.0).abs() < 1e-12, "{g:?}");
        // A key with no entry takes the nearest one.
        assert_eq!(t.gains(70.0, 0.7, 0.7).unwrap().dry, 4.0);
        assert_eq!(LevelTable::default().gains(60.0, 0.7, 0.7), None);
    }
}
