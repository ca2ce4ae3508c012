//! A voice that only rings, a block at a time: its body's bank run with the state in
//! registers, then the de-click, pan and fade over the block.

use super::{FULL_SCALE, RING_BLOCK, Voice, decay_declick};
use crate::engine::level::ceiling::CEILING;

/// No samples: the dry paths of a voice that only rings, and a de-click that is over.
const QUIET: [f64; RING_BLOCK] = [0.0; RING_BLOCK];

impl Voice {
    /// True when the voice only rings: no contact, flight or tail to come, nothing
    /// waiting for the contact's end. [`ring_into`](Self::ring_into) then plays it a
    /// block at a time; a voice stolen in contact too, its last force held on the body
    /// through its fade (in a storm of new keys most voices are those).
    pub fn only_rings(&self) -> bool {
        self.active
            && self.bouncer.as_ref().is_none_or(|b| b.is_done())
            && self.two_way.as_ref().is_none_or(|t| t.is_done())
            && self.tail.is_none()
            && self.crumple.is_none()
            && self.rolling.is_none()
            && !self.body_stale
            && self.pending_damp.is_none()
    }

    /// Plays `mix.len()` samples of a voice that [`only_rings`](Self::only_rings), as
    /// [`tick`](Self::tick) would sample by sample, adding its output and side into
    /// `mid` and `side` (all three the same length). The body runs the block with its
    /// state in registers. Returns the sample at which the voice ended (its fade ran
    /// out) and whether the guard ended it, if it did.
    pub fn ring_into(
        &mut self,
        mix: &[f64],
        mid: &mut [f64],
        side: &mut [f64],
    ) -> Option<(usize, bool)> {
        let mut body = [0.0; RING_BLOCK];
        let mut body_side = [0.0; RING_BLOCK];
        let mut at = 0;
        while at < mix.len() {
            let n = (mix.len() - at).min(RING_BLOCK);
            let (b, bs) = (&mut body[..n], &mut body_side[..n]);
            self.body.ring_pickups(self.held_drive, b, bs);
            let (m, s) = (&mut mid[at..at + n], &mut side[at..at + n]);
            let done = self.mix_steady(
                &mix[at..at + n],
                (&QUIET[..n], &QUIET[..n]),
                (b, bs),
                (m, s),
            );
            for j in done..n {
                let (y, s, _, _) = self.mix_sample(mix[at + j], 0.0, 0.0, body[j], body_side[j]);
                let Some((y, s)) = self.ceiling_and_guard(y, s) else {
                    return Some((at + j, true));
                };
                mid[at + j] += y;
                side[at + j] += s;
                if !self.active {
                    return Some((at + j, false));
                }
            }
            at += n;
        }
        None
    }

    /// [`mix_sample`](Self::mix_sample) and the ceiling in the common case, the
    /// ceiling open with nothing near it: the same arithmetic, a block at a time, on the
    /// voice's own and its tail's dry samples (zeros for a voice that only rings) and
    /// its body's. Returns how many samples it played: all of them, or none (the voice
    /// untouched) when one needs the ceiling or the guard, or when a steal's fade ends
    /// inside the block.
    #[inline(always)]
    pub(super) fn mix_steady(
        &mut self,
        mix: &[f64],
        (own_dry, tail_dry): (&[f64], &[f64]),
        (body, body_side): (&[f64], &[f64]),
        (mid, side): (&mut [f64], &mut [f64]),
    ) -> usize {
        let n = mix.len();
        if self.ceiling.gain() != 1.0 || n == 0 {
            return 0;
        }
        // The fade of each sample: while the voice fades, taken down a step after it as
        // `mix_sample` does (a chain of subtractions, left out when it is not fading).
        let mut fade = [self.fade; RING_BLOCK];
        let mut f = self.fade;
        if self.fade_step != 0.0 {
            for x in &mut fade[..n] {
                *x = f;
                f -= self.fade_step;
            }
            if f <= 0.0 {
                return 0;
            }
        }
        // The de-click's decay, the other state carried from sample to sample (nearly
        // always over: then zeros, not written for each block).
        let decaying;
        let mut d = self.declick;
        let declick = if d != 0.0 {
            let mut x = [0.0; RING_BLOCK];
            for x in &mut x[..n] {
                d = decay_declick(d, self.declick_coef);
                *x = d;
            }
            decaying = x;
            &decaying
        } else {
            &QUIET
        };
        let (pan, edge) = (self.pan, self.edge);
        let mut y = [0.0; RING_BLOCK];
        let mut s = [0.0; RING_BLOCK];
        let mut fits = true;
        for j in 0..n {
            // As `mix_sample`.
            let dry = own_dry[j] + FULL_SCALE * tail_dry[j];
            y[j] = ((1.0 - mix[j]) * dry + mix[j] * (FULL_SCALE * body[j]) + declick[j]) * fade[j];
            s[j] = -pan * y[j] + mix[j] * FULL_SCALE * body_side[j] * fade[j] * edge;
            // Under the ceiling and a number: the ceiling's gain stays 1 (`Ceiling::next`).
            fits &= y[j].abs() <= CEILING && !s[j].is_nan();
        }
        if !fits {
            return 0;
        }
        for j in 0..n {
            mid[j] += y[j];
            side[j] += s[j];
        }
        self.declick = d;
        self.fade = f;
        self.last_dry = (1.0 - mix[n - 1]) * own_dry[n - 1];
        self.last_out = y[n - 1];
        n
    }
}
