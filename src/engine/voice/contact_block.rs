//! A voice at a rigid wall or on a rolling or scraping surface, a chunk at a time: its
//! contact's samples first (the wall train's or the surface's, and any interrupted
//! contact's, with their gains), then its body driven by the whole chunk with the
//! bank's state in registers, then the mix and the ceiling.
//! Each sample's arithmetic is the sample loop's, in the same order: only samples of
//! independent chains are taken apart.

use super::{ChunkSums, FULL_SCALE, RING_BLOCK, Voice};
use crate::engine::level::law::GainSource;
use crate::engine::params::EngineParams;
use crate::model::BounceSample;

impl Voice {
    /// True when [`contact_into`](Self::contact_into) plays the voice's chunk: nothing
    /// but a rigid wall's train or a surface's contact (or nothing) and an interrupted
    /// contact drives its body,
    /// the hand is not waiting for the contact's end, and the voice is not fading.
    pub fn contact_blocks(&self) -> bool {
        self.active
            && self.fade_step == 0.0
            && self.two_way.as_ref().is_none_or(|t| t.is_done())
            && self.crumple.is_none()
            && self.pending_damp.is_none()
            && !self.probing
    }

    /// One sample of the voice's contact: the surface's first, as `tick_raw` asks (a
    /// rolling voice has no wall train).
    #[inline(always)]
    fn chunk_contact_sample(&mut self, p: &EngineParams) -> (BounceSample, f64) {
        if self.rolling.is_some() {
            self.roll_sample_here(p)
        } else {
            self.wall_sample::<true>(p)
        }
        .unwrap_or_default()
    }

    /// True while the voice rolls or scrapes: it has no bouncer, so the contact trace
    /// records nothing of it, and the traced voice may be played a stage at a time too.
    pub fn on_surface(&self) -> bool {
        self.rolling.is_some()
    }

    /// Plays `mix.len()` samples (at most a ring block) of a voice that
    /// [`contact_blocks`](Self::contact_blocks), as [`tick_with`](Self::tick_with) would
    /// sample by sample, adding into `sums`. Returns the sample at which the voice
    /// ended, and whether the guard ended it, if it did.
    #[inline(always)]
    pub fn contact_into(
        &mut self,
        p: &EngineParams,
        mix: &[f64],
        levels: &mut dyn GainSource,
        sums: ChunkSums,
    ) -> Option<(usize, bool)> {
        let n = mix.len().min(RING_BLOCK);
        let mut drive = [0.0; RING_BLOCK];
        let mut own_dry = [0.0; RING_BLOCK];
        let mut tail_dry = [0.0; RING_BLOCK];
        let mut force = [0.0; RING_BLOCK];
        // Where a retune put off by the contact lands (at most once a chunk: only a
        // control tick puts one off): the body's run is split there.
        let mut retune_at = None;
        for j in 0..n {
            if self.body_stale && !self.pressing() {
                self.body_stale = false;
                retune_at = Some(j);
            }
            let (s, u) = self.chunk_contact_sample(p);
            if s.onset {
                self.onset_gains(p, mix[j], levels);
            }
            let (tail_u, t_dry, t_drive) = if self.tail.is_some() {
                self.tail_sample::<true>()
            } else {
                (0.0, 0.0, 0.0)
            };
            drive[j] = self.gain.body * u * self.norm.body_drive + t_drive + self.held_drive;
            own_dry[j] = FULL_SCALE * self.gain.dry * u;
            if let Some(t) = self.tail.as_mut() {
                t.last_dry = (1.0 - mix[j]) * FULL_SCALE * t_dry;
            }
            (tail_dry[j], force[j]) = (t_dry, u + tail_u);
        }
        if n > 0 {
            self.last_drive = drive[n - 1];
        }
        let mut body = [0.0; RING_BLOCK];
        let mut body_side = [0.0; RING_BLOCK];
        let r = retune_at.unwrap_or(n);
        self.body
            .drive_pickups(&drive[..r], &mut body[..r], &mut body_side[..r]);
        if r < n {
            self.land_retune(p);
            self.body
                .drive_pickups(&drive[r..n], &mut body[r..n], &mut body_side[r..n]);
        }
        let dry = (&own_dry[..n], &tail_dry[..n]);
        let bodies = (&body[..n], &body_side[..n]);
        if self.mix_steady(
            &mix[..n],
            dry,
            bodies,
            (&mut sums.mid[..n], &mut sums.side[..n]),
        ) == n
        {
            for (s, f) in sums.force[..n].iter_mut().zip(&force) {
                *s += f;
            }
            return None;
        }
        for j in 0..n {
            let (y, s, _, _) =
                self.mix_sample(mix[j], own_dry[j], tail_dry[j], body[j], body_side[j]);
            let Some((y, s)) = self.ceiling_and_guard(y, s) else {
                return Some((j, true));
            };
            sums.mid[j] += y;
            sums.side[j] += s;
            sums.force[j] += force[j];
            if !self.active {
                return Some((j, false));
            }
        }
        None
    }
}

#[cfg(test)]
#[path = "contact_block_tests.rs"]
mod tests;
