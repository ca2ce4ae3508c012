//! The level calibration of a strike (see `level::law`): a scratch voice plays a
//! full-velocity note on copies of itself (a held Roll or Scrape for
//! [`law::MAX_PROBE`] at its full speed, a Crumple its first, hardest strike), before
//! its ceiling, and finds the gains that
//! bring that note's dry path and body, then their mix, to the target peak, moved in
//! Playable mode toward the loudness of the reference Hardness, and cut where a key is
//! louder than middle C. It fills the entries of a `level::table`, off the audio thread.

use super::{Expression, FULL_SCALE, Jitter, Voice};
use crate::engine::level::law;
use crate::engine::level::law::Entry;
use crate::engine::level::true_peak::TAPS;
use crate::engine::params::{Controls, EngineParams};

impl Voice {
    /// The table entry of a full-velocity strike of `p` (its [`level_params`]) on
    /// `key`, played on this voice (a scratch voice at the table's rate: it plays the
    /// strike, so never on the audio thread). The dry path and the body are each brought
    /// to [`law::TARGET_PEAK`] on their own first (so Mix balances two signals of the
    /// same peak, whatever the contact), then together at the patch's mix, then in
    /// Playable mode moved toward the loudness of the reference Hardness within the
    /// peak window (see `level::law`); a key whose ring is then louder than middle C's
    /// (K-weighted) is cut to it ([`law::keyboard_cut`]).
    ///
    /// [`level_params`]: crate::engine::level::law::level_params
    pub fn entry_of(&mut self, p: &EngineParams, key: u8) -> Entry {
        self.calibrations += 1;
        law::count_calibration();
        if p.gesture.on_surface() {
            return self.surface_entry(p, key);
        }
        let (entry, e) = self.uncut_entry(p, key);
        if key == law::REFERENCE_KEY {
            return entry;
        }
        // Middle C's ring is the same for every key of a patch: played once a table.
        let e_ref = match self.reference {
            Some((q, fs, e_ref)) if q == *p && fs == self.fs => e_ref,
            _ => {
                let (_, e_ref) = self.uncut_entry(p, law::REFERENCE_KEY);
                self.reference = Some((*p, self.fs, e_ref));
                e_ref
            }
        };
        let g = law::keyboard_cut(e, e_ref);
        Entry {
            strike: entry.strike.scaled(g),
            glide: entry.glide.scaled(g),
        }
    }

    /// [`entry_of`](Self::entry_of) before the keyboard's cut, and the K-weighted
    /// energy of its ring at its gains.
    fn uncut_entry(&mut self, p: &EngineParams, key: u8) -> (Entry, f64) {
        let mix = self.calibration_mix(p);
        let (apart, together, e, e_k) = self.peak_gains(p, key, mix);
        let mut c = 1.0;
        if p.controls == Controls::Playable {
            let r = EngineParams {
                hardness_ms: law::REFERENCE_HARDNESS_MS,
                ..*p
            };
            // A strike at the reference Hardness is its own reference.
            let e_ref = if r == *p {
                e
            } else {
                self.peak_gains(&r, key, mix).2
            };
            c = law::compensation(e, e_ref);
        }
        let entry = Entry {
            strike: apart.scaled(together * c),
            glide: apart.scaled(c),
        };
        (entry, e_k * c * c)
    }

    /// Clears what a note left on this scratch voice (its expression, its jitter), and
    /// the mix an entry of `p` is made at.
    fn calibration_mix(&mut self, p: &EngineParams) -> f64 {
        self.expression = Expression::default();
        self.jitter = Jitter::NONE;
        law::mix_of(p, p.mix)
    }

    /// The peaks of a full-velocity note of `q` at unit gains ([`probe`](Self::probe)).
    /// A strike that follows on this voice latches the contact the probe latched: its
    /// normalisation (a root search for the peak force) and eq (9)'s unit time come
    /// from the probe, not computed again (`latch` still checks they match).
    fn first_probe(&mut self, q: &EngineParams, key: u8, mix: f64) -> law::Peaks {
        let (apart, probe) = self.probe(q, key, mix, law::Gains::UNIT, None);
        self.norm = probe.norm;
        self.unit = probe.unit;
        apart
    }

    /// A held roll's or scrape's entry: its dry path and body each brought to
    /// [`law::SURFACE_RMS`] over the run (or their peaks to [`law::SURFACE_MAX_PEAK`]),
    /// then their mix. Neither the Playable loudness step nor the keyboard's cut, which
    /// read the body's ring after the run (one state of a chaotic train: they would put
    /// its chaos back), and the RMS is already close to a loudness.
    fn surface_entry(&mut self, q: &EngineParams, key: u8) -> Entry {
        let mix = self.calibration_mix(q);
        let apart = self.first_probe(q, key, mix);
        let [_, dry, body] = apart.rms();
        let g = law::Gains {
            dry: law::surface_gain_for(dry, apart.dry.peak()),
            body: law::surface_gain_for(body, apart.body_peak()),
        };
        let mut together = 1.0;
        if mix > 0.0 && mix < 1.0 {
            let (run, _) = self.probe(q, key, mix, g, Some(apart.samples));
            together = law::surface_gain_for(run.rms()[0], run.out.peak());
        }
        Entry {
            strike: g.scaled(together),
            glide: g,
        }
    }

    /// The gains that bring the dry path and the body of a full-velocity strike of `q`
    /// to [`law::TARGET_PEAK`] each; the factor that then brings their mix there; and
    /// the strike's loudness at both, A- and K-weighted.
    fn peak_gains(&mut self, q: &EngineParams, key: u8, mix: f64) -> (law::Gains, f64, f64, f64) {
        let apart = self.first_probe(q, key, mix);
        let g = law::Gains {
            dry: law::gain_for(apart.dry.peak()),
            body: law::gain_for(apart.body_peak()),
        };
        let mut together = 1.0;
        if mix > 0.0 && mix < 1.0 {
            // The gains scale what the strike puts into the dry path and the body, not
            // its contact, and the body is linear in its drive: after the last dry
            // sample the output is `mix` times the body's ring at its gain. Only the
            // stretch before is played again.
            let ring = mix * g.body * apart.ring.peak();
            let peak = if apart.dry_end > 0 {
                let (run, _) = self.probe(q, key, mix, g, Some(apart.dry_end));
                run.out.peak().max(ring)
            } else {
                ring
            };
            together = law::gain_for(peak);
        }
        // The ring is the body's alone, and the body is linear in its drive.
        let body = g.body * together;
        (
            g,
            together,
            apart.loudness * body * body,
            apart.k_loudness * body * body,
        )
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
        gain: law::Gains,
        stop: Option<usize>,
    ) -> (law::Peaks, Voice) {
        let mut probe = *self;
        probe.probing = true;
        probe.epoch = None;
        probe.kill();
        probe.gain = gain;
        // Full velocity is the top speed: the hit's speed jitter stays out of the level.
        probe.jitter.speed = 1.0;
        probe.start(q, key, 1.0, 0);
        let ring = law::ring_samples(probe.body.lowest_mode(), self.fs);
        let max = (law::MAX_PROBE * self.fs) as usize;
        let max = stop.map_or(max, |s| s.min(max));
        let mut peaks = law::Peaks::default();
        let last_dry = probe.probe_run(q, mix, stop, (ring, max), &mut peaks);
        peaks.dry_end = last_dry.map_or(0, |l| l + TAPS + 1);
        if stop.is_none() {
            let scale = mix * FULL_SCALE;
            let ring =
                |w: fn(f64) -> f64| scale * scale * probe.body.ring_energy(law::LOUDNESS_WINDOW, w);
            peaks.loudness = ring(law::a_weight);
            peaks.k_loudness = ring(law::k_weight);
        }
        (peaks, probe)
    }

    /// The samples of [`probe`](Self::probe)'s run, read into `peaks`, up to `max` and
    /// until `ring` samples after the last contact: returns the last with a dry output.
    /// Compiled for the voice's path, as the engine's loop.
    fn probe_run(
        &mut self,
        q: &EngineParams,
        mix: f64,
        stop: Option<usize>,
        lengths: (usize, usize),
        peaks: &mut law::Peaks,
    ) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if self.vector() {
            // SAFETY: the bank takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.probe_run_vex(q, mix, stop, lengths, peaks) };
        }
        self.probe_run_here(q, mix, stop, lengths, peaks)
    }

    /// [`probe_run`](Self::probe_run) compiled for AVX2 and FMA (the same bits: see
    /// [`Voice::run`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn probe_run_vex(
        &mut self,
        q: &EngineParams,
        mix: f64,
        stop: Option<usize>,
        lengths: (usize, usize),
        peaks: &mut law::Peaks,
    ) -> Option<usize> {
        self.probe_run_here(q, mix, stop, lengths, peaks)
    }

    #[inline(always)]
    fn probe_run_here(
        &mut self,
        q: &EngineParams,
        mix: f64,
        stop: Option<usize>,
        (ring, max): (usize, usize),
        peaks: &mut law::Peaks,
    ) -> Option<usize> {
        let mut after = 0usize;
        let mut last_dry: Option<usize> = None;
        for i in 0..max {
            let dry_read = last_dry.is_some_and(|l| i <= l + TAPS);
            // A roll or scrape presses for the whole run (its key is held).
            let pressing = self.in_contact() || self.rolling.is_some();
            if stop.is_none() && !dry_read && !pressing {
                let left = (ring + 1).saturating_sub(after).min(max - i);
                self.ring_out(peaks, left);
                break;
            }
            let s = self.tick_raw::<true>(q, mix, None);
            if !s.out.is_finite() {
                break;
            }
            peaks.add(s.out, s.dry, s.body);
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
            if self.touching() || self.rolling.is_some() {
                after = 0;
            } else {
                after += 1;
                if after > ring {
                    break;
                }
            }
        }
        last_dry
    }

    /// The rest of a probe's run, `n` samples, once only the body rings (no contact,
    /// no dry path, no expression that moves: nothing the voice's tick would add):
    /// the body's mid alone, at a third less work than a voice's sample, read once
    /// (every reading there is the ring's).
    fn ring_out(&mut self, peaks: &mut law::Peaks, n: usize) {
        for _ in 0..n {
            let body = FULL_SCALE * self.body.tick(0.0);
            if !body.is_finite() {
                break;
            }
            peaks.ring.push(body);
        }
    }
}
