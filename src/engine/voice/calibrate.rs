//! The level calibration of a strike (see `level`): the voice plays its own
//! full-velocity note on a copy of itself, before its ceiling, and keeps the gain that
//! brings that note's peak to the target.

use super::Voice;
use crate::engine::level;
use crate::engine::params::EngineParams;

impl Voice {
    /// The gain that makes a full-velocity strike of `p` on `key`, played at `mix`, peak
    /// at [`level::TARGET_PEAK`]: from the cache, or by playing that strike (its
    /// contact, and the bounces that come back while the body still rings from it) on
    /// a copy of this voice.
    pub(super) fn calibrate(&mut self, p: &EngineParams, key: u8, mix: f64) -> f64 {
        // Keyed on what this note plays (its expression included) and the mix.
        let own = EngineParams {
            mix,
            ..self.own(p, &self.jitter)
        };
        if let Some(g) = self.cal.lookup(&own, key, self.fs) {
            return g;
        }
        let mut probe = *self;
        probe.kill();
        probe.gain = 1.0;
        // Full velocity is the top speed: the hit's speed jitter stays out of the level.
        probe.jitter.speed = 1.0;
        probe.start(p, key, 1.0, 0);
        let ring = level::ring_samples(probe.body.settings().f1, self.fs);
        let max = (level::MAX_PROBE * self.fs) as usize;
        let (mut peak, mut after) = (0.0f64, 0usize);
        for _ in 0..max {
            let s = probe.tick_raw(p, mix);
            if !s.out.is_finite() {
                break;
            }
            peak = peak.max(s.out.abs());
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
        // The strike that follows latches the contact the probe latched: its
        // normalisation (a root search for the peak force) and eq (9)'s unit time come
        // from the probe, not computed again (`latch` still checks they match).
        self.norm = probe.norm;
        self.unit = probe.unit;
        let g = level::gain_for(peak);
        self.cal.store(&own, key, self.fs, g);
        g
    }
}
