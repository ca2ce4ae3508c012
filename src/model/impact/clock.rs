//! Exact instants: a contact that starts inside a sample, and the hybrid's exit clock.

use super::*;

impl Impact {
    /// Starts the contact `frac` (in `[0, 1)`) into its first sample: the first call to
    /// [`step`](Self::step) integrates only the rest of that sample.
    pub fn start_at(mut self, frac: f64) -> Self {
        self.start = if frac > 0.0 && frac < 1.0 { frac } else { 0.0 };
        self
    }

    /// Where in its first sample the contact started, as a fraction of the sample.
    pub fn start_fraction(&self) -> f64 {
        self.start
    }

    /// Where in the last sample the contact ended, as a fraction of the sample from its
    /// start (1 while in contact). With the hybrid correction the exit is dated by its
    /// clock (see `tick_clock`), which may put it a little before this sample (< 0) or
    /// after it (> 1).
    pub fn exit_fraction(&self) -> f64 {
        self.exit_frac
    }

    /// Samples a second (the step is a sample over the substeps).
    #[inline]
    pub fn sample_rate(&self) -> f64 {
        self.fs
    }

    /// Whether the exit clock may still move: the mass is on its way out and the clock
    /// has not dated the exit yet.
    #[inline(always)]
    pub(super) fn clock_pending(&self) -> bool {
        !(self.clock_t.is_finite() || self.v.is_nan() || self.v >= 0.0)
    }

    /// Whether [`tick_clock`](Self::tick_clock) has anything to do after this step: it
    /// runs (with the hybrid, below [`CLOCK_ZONE`]), may still move, and has started or
    /// starts now. One compare for the samples above the zone, most of a contact.
    #[inline(always)]
    pub(super) fn clock_may_move(&self) -> bool {
        self.clock_zone > 0.0
            && (self.x < self.clock_zone || self.clock_x.is_finite())
            && self.clock_pending()
    }

    /// The exit clock of the hybrid correction. On the way out, near the wall, `v` is
    /// flat (the force vanishes there) and `x(v) ∝ (v − v_out)^{1/(α+1)}` turns a
    /// small error of the method's `v` into an exit tens of steps early or late, which
    /// would make the bounce rhythm depend on the rate. Below [`CLOCK_ZONE`] of
    /// `x_max` the clock carries its own `x` by the trapezoid rule on the method's `v`
    /// and dates the exit where it reaches 0; the state (and so the energy, eq 20) stays
    /// the hybrid's. `start(n)` is the step's start in samples at sample `n`, made only
    /// where the exit is dated (most steps only carry `x`); `len` is its length.
    #[inline]
    pub(super) fn tick_clock(&mut self, v0: f64, start: impl Fn(u64) -> f64, len: f64) {
        if !self.clock_pending() {
            return;
        }
        if !self.clock_x.is_finite() {
            if self.x > 0.0 && self.x < self.clock_zone {
                self.clock_x = self.x;
            }
            return;
        }
        let x1 = self.clock_x + 0.5 * (v0 + self.v) * len / self.sample_rate();
        if x1 <= 0.0 {
            let theta = self.clock_x / (self.clock_x - x1);
            self.clock_t = start(self.n) + theta * len;
        }
        self.clock_x = x1;
    }
}

impl Impact {
    /// This contact stepped once every `d` samples (before its first sample, on one
    /// step a sample of the method, with no load): its sample becomes `d` samples, its
    /// start `start` samples into the first of them, its guard the same time. The
    /// caller plays each sample from the steps ([`crate::model::Bouncer`] interpolates
    /// the velocity between them). Anything else is left as it is, and `d` = 1.
    pub fn strided(mut self, d: u32) -> (Self, u32) {
        let one = self.substeps == 1 && !self.damped && !self.closed_form;
        if d < 2 || !one || self.n > 0 || self.load.g > 0.0 {
            return (self, 1);
        }
        let df = d as f64;
        self.h_sample *= df;
        self.fs /= df;
        self.h = self.h_sample;
        self.h_m = self.h / self.an.contact.mass;
        self.start /= df;
        self.max_samples = self.max_samples.div_ceil(d as u64);
        (self, d)
    }
}
