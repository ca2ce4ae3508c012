//! A voice sample by sample: the contact (the wall's bouncer or the two-way contact),
//! the re-strike tail, the body, the mix, the ceiling and the guard.

use super::norm::{IMPULSE_MARGIN, Norm, excitation};
use super::note_on::own_params;
use super::settings::latch_cached;
use super::{FULL_SCALE, Voice, VoiceSample, decay_declick};
use crate::engine::expression::Expression;
use crate::engine::expression::humanize::Jitter;
use crate::engine::level::law::GainSource;
use crate::engine::params::EngineParams;
use crate::model::hardness::UnitTime;
use crate::model::{BounceSample, Impact, Latch};

impl Voice {
    /// One sample. `mix` is the smoothed body/dry mix. Returns the output, under the
    /// voice's ceiling, and what the contact did; `None` when the guard reset the voice.
    #[inline]
    pub fn tick(&mut self, p: &EngineParams, mix: f64) -> Option<VoiceSample> {
        self.tick_with(p, mix, None)
    }

    /// [`tick`](Self::tick), each impact taking the gains `level` has for what it
    /// latched (a bounce after the parameters moved gets its own). In line in its
    /// caller's sample loop, the contact's step and the bank called on their paths: for
    /// a caller that plays a voice sample by sample (a run of samples is cheaper through
    /// [`run`](Self::run)).
    #[inline(always)]
    pub fn tick_with(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
    ) -> Option<VoiceSample> {
        self.tick_on::<false>(p, mix, levels)
    }

    /// Up to `n` samples at the mix `mix`, each handed to `each` with the voice as the
    /// sample left it (the sample `None` where the guard ended the voice), until `each`
    /// returns false: returns how many were played. The loop is compiled for the
    /// voice's path with its samples in line, as the engine's: no call per sample.
    pub fn run(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
        n: usize,
        each: impl FnMut(Option<VoiceSample>, &Voice) -> bool,
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.vector() {
            // SAFETY: the bank takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.run_vex(p, mix, levels, n, each) };
        }
        self.run_here(p, mix, levels, n, each)
    }

    /// [`run`](Self::run) compiled for AVX2 and FMA: the contact's step and the bank in
    /// line, in the three-operand forms. Nothing is fused that the portable build does
    /// not fuse (Rust never contracts `a·b + c`), so the bits are the same.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn run_vex(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
        n: usize,
        each: impl FnMut(Option<VoiceSample>, &Voice) -> bool,
    ) -> usize {
        self.run_here(p, mix, levels, n, each)
    }

    #[inline(always)]
    fn run_here(
        &mut self,
        p: &EngineParams,
        mix: f64,
        mut levels: Option<&mut dyn GainSource>,
        n: usize,
        mut each: impl FnMut(Option<VoiceSample>, &Voice) -> bool,
    ) -> usize {
        for i in 0..n {
            let here = levels.as_mut().map(|l| &mut **l as &mut dyn GainSource);
            let s = self.tick_here(p, mix, here);
            if !each(s, self) {
                return i + 1;
            }
        }
        n
    }

    /// The path the voice's samples are compiled for: its bank's.
    #[inline]
    pub(crate) fn vector(&self) -> bool {
        self.body.vector()
    }

    /// [`tick_with`](Self::tick_with) with the contact's step in line, for a sample
    /// loop compiled for the voice's path (the engine's, [`run`](Self::run)).
    #[inline(always)]
    pub(crate) fn tick_here(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
    ) -> Option<VoiceSample> {
        self.tick_on::<true>(p, mix, levels)
    }

    /// One sample under the ceiling and the guard, the contact's step in line where
    /// `HERE` (see `Bouncer::step_contact`). In line in its caller: the sample it hands
    /// back is then not moved through memory.
    #[inline(always)]
    fn tick_on<const HERE: bool>(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
    ) -> Option<VoiceSample> {
        let mut s = self.tick_raw::<HERE>(p, mix, levels);
        (s.out, s.side) = self.ceiling_and_guard(s.out, s.side)?;
        Some(s)
    }

    /// The voice's ceiling on one sample's output and side, then the guard: a finite
    /// sample leaves the ceiling at most on it, so only one that is not a number, or
    /// infinite, is a runaway, and ends the voice (`None`).
    #[inline(always)]
    pub(super) fn ceiling_and_guard(&mut self, y: f64, side: f64) -> Option<(f64, f64)> {
        let g = self.ceiling.next(y);
        let (y, side) = (y * g, side * g);
        if !y.is_finite() || side.is_nan() {
            self.kill();
            return None;
        }
        Some((y, side))
    }

    /// [`tick`](Self::tick) before the ceiling: what the calibration measures.
    ///
    /// What a sample rarely does (land a retune a contact put off, play a two-way strike
    /// or an interrupted contact, latch an impact's gains) is out of line: the sample of
    /// a wall contact keeps its values in registers, not in a frame sized for those.
    #[inline(always)]
    pub(super) fn tick_raw<const HERE: bool>(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut dyn GainSource>,
    ) -> VoiceSample {
        // The voice's own parameters (the engine's, moved by this note's expression and
        // jitter) matter only where something latches them: a contact's onset, its
        // gains, a retune put off by a contact. They are made there, not every sample.
        let raw = p;
        if self.body_stale && !self.pressing() {
            self.land_retune(raw);
        }
        self.hand_on();
        if self.crumple.is_some() {
            self.crumple_sample(raw);
        }
        let (mut s, mut u) = (BounceSample::default(), 0.0);
        if self.rolling.is_some() {
            (s, u) = self.roll_sample(raw).unwrap_or_default();
        } else if self.two_way.as_ref().is_some_and(|t| !t.is_done()) {
            (s, u) = self.two_way_sample();
        } else if let Some(wall) = self.wall_sample::<HERE>(raw) {
            (s, u) = wall;
        }
        if s.onset
            && !self.probing
            && let Some(levels) = levels
        {
            self.onset_gains(raw, mix, levels);
        }
        let (tail_u, tail_dry, tail_drive) = if self.tail.is_some() {
            self.tail_sample::<HERE>()
        } else {
            (0.0, 0.0, 0.0)
        };
        let drive = self.gain.body * u * self.norm.body_drive + tail_drive + self.held_drive;
        self.last_drive = drive;
        let (body, body_side) = self.body.tick_pickups(drive);
        let own_dry = FULL_SCALE * self.gain.dry * u;
        if let Some(t) = self.tail.as_mut() {
            t.last_dry = (1.0 - mix) * FULL_SCALE * tail_dry;
        }
        let (y, side, dry, body) = self.mix_sample(mix, own_dry, tail_dry, body, body_side);
        VoiceSample {
            out: y,
            side,
            force: u + tail_u,
            dry,
            body,
            // Field by field: moved whole, its padding was copied too.
            contact: BounceSample {
                onset: s.onset,
                detached: s.detached,
                dv: s.dv,
            },
        }
    }

    /// The contact that kept the body has ended: what moved during it lands now.
    #[cold]
    #[inline(never)]
    pub(super) fn land_retune(&mut self, raw: &EngineParams) {
        let own = self.own_now(raw, self.epoch);
        self.retune_body(own.as_ref().unwrap_or(raw));
    }

    /// One sample of the two-way strike in progress.
    #[inline(never)]
    fn two_way_sample(&mut self) -> (BounceSample, f64) {
        match self.two_way.as_mut() {
            Some(t) => t.excite(&self.norm, &mut self.budget),
            None => (BounceSample::default(), 0.0),
        }
    }

    /// Each impact is played at the gains made for what it latched (a bounce after the
    /// parameters moved gets its own): a table lookup.
    #[cold]
    #[inline(never)]
    pub(super) fn onset_gains(
        &mut self,
        raw: &EngineParams,
        mix: f64,
        levels: &mut dyn GainSource,
    ) {
        let own = self.own_now(raw, self.epoch);
        self.gain = levels.gains(self.key, own.as_ref().unwrap_or(raw), raw, mix);
    }

    /// One sample of the contact a re-strike interrupted: `(u, dry, drive)`, zeros once
    /// it has left the wall (and then it is gone). Out of line (a tail is rare), but
    /// where `HERE` with its contact's step in line, on the voice's path: a note storm
    /// that re-strikes keys within their contacts plays a tail in most of its voices.
    #[inline(always)]
    pub(super) fn tail_sample<const HERE: bool>(&mut self) -> (f64, f64, f64) {
        #[cfg(target_arch = "x86_64")]
        if HERE && self.vector() {
            // SAFETY: the bank takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.tail_sample_vex() };
        }
        self.tail_sample_on::<HERE>()
    }

    /// [`tail_sample`](Self::tail_sample) compiled for AVX2 and FMA (the same bits: see
    /// [`run`](Self::run)).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn tail_sample_vex(&mut self) -> (f64, f64, f64) {
        self.tail_sample_here::<true>()
    }

    #[inline(never)]
    fn tail_sample_on<const HERE: bool>(&mut self) -> (f64, f64, f64) {
        self.tail_sample_here::<HERE>()
    }

    #[inline(always)]
    fn tail_sample_here<const HERE: bool>(&mut self) -> (f64, f64, f64) {
        let fs = self.fs;
        let Some(t) = self.tail.as_mut() else {
            return (0.0, 0.0, 0.0);
        };
        match t.tick::<HERE>(fs) {
            Some(out) => out,
            None => {
                self.end_tail();
                (0.0, 0.0, 0.0)
            }
        }
    }

    /// One sample of the rigid-wall bouncer, while it has impacts to play: what the
    /// contact did and the normalised excitation it hands the body.
    #[inline(always)]
    pub(super) fn wall_sample<const HERE: bool>(
        &mut self,
        raw: &EngineParams,
    ) -> Option<(BounceSample, f64)> {
        let b = self.bouncer.as_mut().filter(|b| !b.is_done())?;
        let norm = &mut self.norm;
        let unit = &mut self.unit;
        let fs = self.fs;
        let (expression, jitter, memo) = (&self.expression, &self.jitter, &mut self.own_memo);
        let epoch = self.epoch;
        // The latching closure is made only where the sample is more than a contact's
        // step: its captures would otherwise be laid out every sample.
        let s = match b.step_contact::<HERE>() {
            Ok(s) => s,
            Err(rest) => b.step_rest(rest, || {
                // Latching at onset: the new impact takes the parameters of now.
                let own = OwnAt {
                    expression,
                    jitter,
                    memo,
                    epoch,
                    raw,
                };
                latch_at_onset(own, unit, norm, fs)
            }),
        };
        if s.onset {
            self.budget = onset_budget(b.impact(), &self.norm, fs);
        }
        if s.detached && b.cut() {
            self.train_cuts += 1;
        }
        // The wall force averaged over this sample: the momentum the mass gave the
        // wall, m Σ(v_before − v_after), times fs. Unlike the force sampled at the
        // sample instant it conserves the impulse exactly, also for a contact
        // shorter than one sample (which would otherwise fall between two samples
        // and be silent). Under gravity in contact it is the force over the static
        // load `m g`, which the body does not hear (never below 0: no step when a
        // contact starts or the mass comes to rest).
        let f_avg = b.impact().analytic().contact.mass * s.dv * fs;
        let u = excitation(f_avg, &self.norm, &mut self.budget);
        Some((s, u))
    }

    /// The voice's output from its dry path and its body's pickups, one sample: the
    /// de-click, the pan, the fade. Returns `(out, side, dry, body)`.
    #[inline(always)]
    pub(super) fn mix_sample(
        &mut self,
        mix: f64,
        own_dry: f64,
        tail_dry: f64,
        body: f64,
        body_side: f64,
    ) -> (f64, f64, f64, f64) {
        let (dry, body) = (own_dry + FULL_SCALE * tail_dry, FULL_SCALE * body);
        self.declick = decay_declick(self.declick, self.declick_coef);
        let y = ((1.0 - mix) * dry + mix * body + self.declick) * self.fade;
        // Pan `p` on the linear law: L = (1 − p) y, R = (1 + p) y (p < 0: left).
        let side = -self.pan * y + mix * FULL_SCALE * body_side * self.fade * self.edge;
        self.last_dry = (1.0 - mix) * own_dry;
        self.last_out = y;
        if self.fade_step > 0.0 {
            self.fade -= self.fade_step;
            if self.fade <= 0.0 {
                self.kill();
            }
        }
        (y, side, dry, body)
    }
}

/// What a voice's own parameters are made from (see [`own_params`]), borrowed from it.
struct OwnAt<'a> {
    expression: &'a Expression,
    jitter: &'a Jitter,
    memo: &'a mut Option<(u64, EngineParams)>,
    epoch: Option<u64>,
    raw: &'a EngineParams,
}

/// What a new impact of the wall's train latches at its onset (the parameters of now),
/// relatching the normalisation where the contact moved. Out of line: an onset inside a
/// train is rare, and its parameter copies would otherwise size every sample's frame.
#[cold]
#[inline(never)]
fn latch_at_onset(own: OwnAt, unit: &mut UnitTime, norm: &mut Norm, fs: f64) -> Latch {
    let mine = own_params(own.expression, own.jitter, own.memo, own.epoch, own.raw);
    let p = mine.as_ref().unwrap_or(own.raw);
    let v_max = p.v_max.max(p.v_min);
    let latch = latch_cached(p, unit);
    let c = latch.contact_at(v_max);
    if norm.contact != c || norm.v_max != v_max {
        *norm = norm.relatch(c, v_max, fs);
    }
    latch
}

/// Impulse budget of an impact at its onset: the exact momentum transfer of eq (6),
/// with room for audible integrator error.
#[cold]
#[inline(never)]
fn onset_budget(imp: &Impact, norm: &Norm, fs: f64) -> f64 {
    let an = imp.analytic();
    let dv = an.v_in - an.v_out();
    IMPULSE_MARGIN * an.contact.mass * dv.max(0.0) * fs * norm.inv_peak
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod run_tests;
