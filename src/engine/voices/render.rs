//! The engine's render loop: control-rate chunks, voice by voice.
//!
//! Between two control ticks nothing a voice reads changes (the parameters move only
//! between renders, the body settings at control ticks), so a chunk is rendered one
//! voice at a time into per-sample sums: a voice that only rings then runs its whole
//! chunk with its body's state held in registers (`Voice::ring_into`), and the others
//! tick sample by sample as before. Each sample's sum still adds the voices in slot
//! order, so the output is the same as a sample-by-sample loop over the voices.

use super::{CONTROL_BLOCK, Engine, SLOTS};
use crate::engine::smoothing::Smoothed;
use crate::engine::voice::ChunkSums;

/// Stack chunk of [`Engine::render_mono`].
const MONO_CHUNK: usize = 64;

/// The longest chunk: one control period.
const CHUNK: usize = CONTROL_BLOCK as usize;

/// One chunk's per-sample sums over the voices.
struct Sums {
    mid: [f64; CHUNK],
    side: [f64; CHUNK],
    force: [f64; CHUNK],
    /// Voices that ended in the chunk: `(sample, slot)`, in the order found.
    ended: [(usize, usize); SLOTS],
    n_ended: usize,
}

impl Sums {
    fn new() -> Self {
        Self {
            mid: [0.0; CHUNK],
            side: [0.0; CHUNK],
            force: [0.0; CHUNK],
            ended: [(0, 0); SLOTS],
            n_ended: 0,
        }
    }

    fn end(&mut self, sample: usize, slot: usize) {
        if self.n_ended < SLOTS {
            self.ended[self.n_ended] = (sample, slot);
            self.n_ended += 1;
        }
    }
}

impl Engine {
    /// Renders `out.len()` samples of the mono sum `(L + R) / 2`, for a one-channel
    /// output: through stack chunks, so without allocation.
    pub fn render_mono(&mut self, out: &mut [f32]) {
        let mut l = [0.0f32; MONO_CHUNK];
        let mut r = [0.0f32; MONO_CHUNK];
        for chunk in out.chunks_mut(MONO_CHUNK) {
            let n = chunk.len();
            self.render(&mut l[..n], &mut r[..n]);
            for ((o, a), b) in chunk.iter_mut().zip(&l).zip(&r) {
                *o = 0.5 * (a + b);
            }
        }
    }

    /// Renders `min(left.len(), right.len())` samples of stereo after the events given
    /// so far.
    pub fn render(&mut self, left: &mut [f32], right: &mut [f32]) {
        self.render_with_force(left, right, None);
    }

    /// As [`render`](Self::render), also writing the summed normalised wall force (the
    /// length is then also at most `force.len()`).
    pub fn render_with_force(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        force: Option<&mut [f32]>,
    ) {
        self.render_chunks(left, right, force, false);
    }

    /// As [`render_with_force`](Self::render_with_force) while a voice sounds: stops
    /// after the sample at which the last voice ended, as a loop rendering one sample
    /// at a time while [`active_voices`](Self::active_voices) is not 0 would (a voice
    /// must sound before the first sample). Returns the samples rendered; the engine is
    /// then as that loop leaves it.
    pub fn render_while_sounding(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        force: Option<&mut [f32]>,
    ) -> usize {
        if self.active_voices() == 0 {
            return 0;
        }
        self.render_chunks(left, right, force, true)
    }

    /// The control-period chunks of a render, to its end or (`until_silent`) to the
    /// sample at which the last voice ended. Returns the samples rendered.
    fn render_chunks(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        mut force: Option<&mut [f32]>,
        until_silent: bool,
    ) -> usize {
        let mut len = left.len().min(right.len());
        if let Some(f) = force.as_deref() {
            len = len.min(f.len());
        }
        let mut at = 0;
        while at < len {
            if self.control == 0 {
                self.control_tick();
            }
            let n = ((CONTROL_BLOCK - self.control) as usize).min(len - at);
            let f = force.as_deref_mut().map(|f| &mut f[at..at + n]);
            let (l, r) = (&mut left[at..at + n], &mut right[at..at + n]);
            let done = self.render_chunk(l, r, f, until_silent);
            self.control = (self.control + done as u32) % CONTROL_BLOCK;
            at += done;
            if done < n || (until_silent && self.active_voices() == 0) {
                break;
            }
        }
        at
    }

    /// One chunk (at most [`CHUNK`] samples, inside one control period): all of it, or
    /// (`until_silent`) up to the sample at which the last voice ended. Returns the
    /// samples rendered.
    fn render_chunk(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        force: Option<&mut [f32]>,
        until_silent: bool,
    ) -> usize {
        let n = left.len();
        let smoothers = (self.mix, self.width);
        let mut mix = [0.0; CHUNK];
        let mut width = [0.0; CHUNK];
        for j in 0..n {
            (mix[j], width[j]) = self.next_mix_width();
        }
        let mut sums = Sums::new();
        for i in 0..SLOTS {
            if !self.voices[i].is_active() {
                continue;
            }
            self.voices[i].epoch = Some(self.epoch);
            // The followed voice too: once it only rings its contact is over and
            // published, and nothing it does would be published again.
            if self.voices[i].only_rings() {
                let (mid, side) = (&mut sums.mid[..n], &mut sums.side[..n]);
                if let Some((j, guard)) = self.voices[i].ring_into(&mix[..n], mid, side) {
                    self.guard_events += u64::from(guard);
                    sums.end(j, i);
                }
            } else if self.voices[i].contact_blocks()
                && (self.tracer.slot != Some(i) || self.voices[i].on_surface())
            {
                self.contact_voice(i, &mix[..n], &mut sums);
            } else {
                self.tick_voice(i, &mix[..n], &mut sums);
            }
        }
        self.report_ended(&mut sums);
        let n = if until_silent && self.active_voices() == 0 {
            self.silent_from(&sums, n, smoothers)
        } else {
            n
        };
        for j in 0..n {
            let ([l, r], ok) = self.output.process_mid_side(
                sums.mid[j],
                width[j] * sums.side[j],
                self.params.gain_db,
            );
            if !ok {
                self.guard_events += 1;
            }
            left[j] = l;
            right[j] = r;
        }
        if let Some(f) = force {
            for (f, s) in f[..n].iter_mut().zip(&sums.force) {
                *f = *s as f32;
            }
        }
        self.clock += n as u64;
        n
    }

    /// The voice in `slot` over the chunk (`mix.len()` samples) a stage at a time
    /// (`Voice::contact_into`), compiled for the voice's path.
    fn contact_voice(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        #[cfg(target_arch = "x86_64")]
        if self.voices[slot].vector() {
            // SAFETY: the bank takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.contact_voice_vex(slot, mix, sums) };
        }
        self.contact_voice_here(slot, mix, sums)
    }

    /// [`contact_voice`](Self::contact_voice) compiled for AVX2 and FMA (the same bits).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn contact_voice_vex(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        self.contact_voice_here(slot, mix, sums)
    }

    #[inline(always)]
    fn contact_voice_here(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        let p = self.body_params_now();
        let n = mix.len();
        let chunk = ChunkSums {
            mid: &mut sums.mid[..n],
            side: &mut sums.side[..n],
            force: &mut sums.force[..n],
        };
        let ended = self.voices[slot].contact_into(&p, mix, &mut self.levels, chunk);
        if let Some((j, guard)) = ended {
            self.guard_events += u64::from(guard);
            sums.end(j, slot);
        }
    }

    /// The voice in `slot` sample by sample over the chunk (`mix.len()` samples), the
    /// loop compiled for the voice's path: its samples in line, with no call per sample.
    fn tick_voice(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        #[cfg(target_arch = "x86_64")]
        if self.voices[slot].vector() {
            // SAFETY: the bank takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.tick_voice_vex(slot, mix, sums) };
        }
        self.tick_voice_here(slot, mix, sums)
    }

    /// [`tick_voice`](Self::tick_voice) compiled for AVX2 and FMA (the same bits: see
    /// `Voice::run`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn tick_voice_vex(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        self.tick_voice_here(slot, mix, sums)
    }

    #[inline(always)]
    fn tick_voice_here(&mut self, slot: usize, mix: &[f64], sums: &mut Sums) {
        let p = self.body_params_now();
        for (j, &mix) in mix.iter().enumerate() {
            match self.voices[slot].tick_here(&p, mix, Some(&mut self.levels)) {
                Some(s) => {
                    sums.mid[j] += s.out;
                    sums.side[j] += s.side;
                    sums.force[j] += s.force;
                    if self.tracer.slot == Some(slot) {
                        self.trace_sample(slot, &s);
                    }
                    if !self.voices[slot].is_active() {
                        sums.end(j, slot);
                        return;
                    }
                }
                None => {
                    self.guard_events += 1;
                    sums.end(j, slot);
                    return;
                }
            }
        }
    }

    /// The samples of an `n`-sample chunk up to the one at which its last voice ended
    /// (voices ended by the control tick end at its first sample), the smoothers set
    /// back from `smoothers` (as the chunk began) to where that many samples leave them.
    fn silent_from(&mut self, sums: &Sums, n: usize, smoothers: (Smoothed, Smoothed)) -> usize {
        let last = sums.ended[..sums.n_ended].iter().map(|e| e.0).max();
        let n = last.map_or(1, |j| j + 1).min(n);
        (self.mix, self.width) = smoothers;
        for _ in 0..n {
            self.next_mix_width();
        }
        n
    }

    /// The next sample of the smoothed mix and width. Body None bypasses the mix
    /// (smoothed: no click when the body is switched).
    #[inline]
    fn next_mix_width(&mut self) -> (f64, f64) {
        let mix = crate::engine::level::law::mix_of(&self.params, self.params.mix);
        (self.mix.next(mix), self.next_width())
    }

    /// Reports the chunk's ended voices in time order (slot order within a sample), as
    /// a sample-by-sample loop would have found them.
    fn report_ended(&mut self, sums: &mut Sums) {
        let ended = &mut sums.ended[..sums.n_ended];
        ended.sort_unstable();
        for k in 0..sums.n_ended {
            let (j, slot) = sums.ended[k];
            self.report_at(slot, self.clock + j as u64);
        }
    }
}
