//! The level calibration of a strike (see `level`): the voice plays its own
//! full-velocity note on copies of itself, before its ceiling, and keeps the gains that
//! bring that note's dry path and body, then their mix, to the target peak, moved in
//! Playable mode toward the loudness of the reference Hardness.

use super::{Expression, FULL_SCALE, Jitter, Voice};
use crate::engine::level;
use crate::engine::params::{Controls, EngineParams};
use crate::engine::true_peak::TAPS;

impl Voice {
    /// The gains of a full-velocity strike of `p` on `key`: its dry path and its body
    /// each brought to [`level::TARGET_PEAK`] on its own first (so Mix balances two
    /// signals of the same peak, whatever the contact), then together, then in Playable
    /// mode moved toward the loudness of the reference Hardness within the peak window
    /// (see `level`), for a strike played at `mix`. From the cache, or by playing that
    /// strike (its contact, and the bounces that come back while the body still rings
    /// from it) on copies of this voice.
    pub(super) fn calibrate(&mut self, p: &EngineParams, key: u8, mix: f64) -> level::Gains {
        // Keyed on what this note plays (its expression and jitter included) and the mix.
        let own = EngineParams {
            mix,
            ..self.own(p, &self.jitter)
        };
        if let Some(g) = self.cal.lookup(&own, key, self.fs) {
            return g;
        }
        self.calibrations += 1;
        let (mut g, e) = self.peak_gains(p, key, mix);
        if own.controls == Controls::Playable {
            let r = self.reference_of(p, mix);
            if r == own {
                // A strike at the reference Hardness, neither humanized nor moved by
                // expression (the default patch on a new key), is its own reference.
                self.cal_ref.store(&r, key, self.fs, e);
            }
            let e_ref = self.reference_loudness(&r, key, mix);
            g = g.scaled(level::compensation(e, e_ref));
        }
        self.cal.store(&own, key, self.fs, g);
        g
    }

    /// This note's patch (its expression applied) at the reference Hardness and `mix`,
    /// without its humanize jitter: the target a humanized hit varies around.
    fn reference_of(&self, p: &EngineParams, mix: f64) -> EngineParams {
        EngineParams {
            hardness_ms: level::REFERENCE_HARDNESS_MS,
            mix,
            ..self.expression.apply(p)
        }
    }

    /// The loudness of the reference strike `r` (see `reference_of`) at its peak gains.
    fn reference_loudness(&mut self, r: &EngineParams, key: u8, mix: f64) -> f64 {
        if let Some(e) = self.cal_ref.lookup(r, key, self.fs) {
            return e;
        }
        let mut plain = *self;
        plain.expression = Expression::default();
        plain.jitter = Jitter::NONE;
        let e = plain.peak_gains(r, key, mix).1;
        self.cal_ref.store(r, key, self.fs, e);
        e
    }

    /// The gains that bring the dry path and the body of a full-velocity strike of `q`
    /// to [`level::TARGET_PEAK`] each, then their mix; and its loudness at those gains.
    fn peak_gains(&mut self, q: &EngineParams, key: u8, mix: f64) -> (level::Gains, f64) {
        let (apart, probe) = self.probe(q, key, mix, level::Gains::UNIT, None);
        // The strike that follows latches the contact the probe latched: its
        // normalisation (a root search for the peak force) and eq (9)'s unit time come
        // from the probe, not computed again (`latch` still checks they match).
        self.norm = probe.norm;
        self.unit = probe.unit;
        let mut g = level::Gains {
            dry: level::gain_for(apart.dry.peak()),
            body: level::gain_for(apart.body_peak()),
        };
        if mix > 0.0 && mix < 1.0 {
            // The gains scale what the strike puts into the dry path and the body, not
            // its contact, and the body is linear in its drive: after the last dry
            // sample the output is `mix` times the body's ring at its gain. Only the
            // stretch before is played again.
            let ring = mix * g.body * apart.ring.peak();
            let together = if apart.dry_end > 0 {
                let (run, _) = self.probe(q, key, mix, g, Some(apart.dry_end));
                run.out.peak().max(ring)
            } else {
                ring
            };
            g = g.scaled(level::gain_for(together));
        }
        // The ring is the body's alone, and the body is linear in its drive.
        (g, apart.loudness * g.body * g.body)
    }

    /// The peaks of a full-velocity strike of `q` on `key` played at `gain` on a copy of
    /// this voice, for its first `stop` samples or else in full: its contact, the
    /// bounces that come back while the body rings, and the body's first ringing (see
    /// `level`). Once no contact can come back and the last dry sample is out of the
    /// peak readings, only the body rings: it is played alone (see `ring_out`). Also
    /// returns the copy, as the run left it.
    fn probe(
        &self,
        q: &EngineParams,
        key: u8,
        mix: f64,
        gain: level::Gains,
        stop: Option<usize>,
    ) -> (level::Peaks, Voice) {
        let mut probe = *self;
        probe.probing = true;
        probe.kill();
        probe.gain = gain;
        // Full velocity is the top speed: the hit's speed jitter stays out of the level.
        probe.jitter.speed = 1.0;
        probe.start(q, key, 1.0, 0);
        let ring = level::ring_samples(probe.body.lowest_mode(), self.fs);
        let max = (level::MAX_PROBE * self.fs) as usize;
        let max = stop.map_or(max, |s| s.min(max));
        let (mut peaks, mut after) = (level::Peaks::default(), 0usize);
        let mut last_dry: Option<usize> = None;
        for i in 0..max {
            let dry_read = last_dry.is_some_and(|l| i <= l + TAPS);
            if stop.is_none() && !dry_read && probe.bouncer.is_none_or(|b| b.is_done()) {
                let left = (ring + 1).saturating_sub(after).min(max - i);
                probe.ring_out(&mut peaks, left);
                break;
            }
            let s = probe.tick_raw(q, mix);
            if !s.out.is_finite() {
                break;
            }
            peaks.add(&s);
            if s.dry != 0.0 {
                last_dry = Some(i);
            }
            if last_dry.is_some_and(|l| i <= l + TAPS) {
                peaks.ring.skip(s.body);
            } else {
                peaks.ring.push(s.body);
            }
            // The run ends once the body has rung that long after the last contact: a
            // bounce that comes back within it (a fast rattle, whose impacts pile up in
            // the body) counts, one that comes back later is a strike of its own.
            if probe.touching() {
                after = 0;
            } else {
                after += 1;
                if after > ring {
                    break;
                }
            }
        }
        peaks.dry_end = last_dry.map_or(0, |l| l + TAPS + 1);
        if stop.is_none() {
            let scale = mix * FULL_SCALE;
            peaks.loudness = scale
                * scale
                * probe
                    .body
                    .ring_energy(level::LOUDNESS_WINDOW, level::a_weight);
        }
        (peaks, probe)
    }

    /// The rest of a probe's run, `n` samples, once only the body rings (no contact,
    /// no dry path, no expression that moves: nothing the voice's tick would add):
    /// the body's mid alone, at a third less work than a voice's sample, read once
    /// (every reading there is the ring's).
    fn ring_out(&mut self, peaks: &mut level::Peaks, n: usize) {
        for _ in 0..n {
            let body = FULL_SCALE * self.body.tick(0.0);
            if !body.is_finite() {
                break;
            }
            peaks.ring.push(body);
        }
    }
}
