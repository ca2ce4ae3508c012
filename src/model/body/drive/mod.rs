//! The body's drive high-pass: the body sounds its vibration, not its give under the
//! load.
//!
//! Every mode rings as `e^{−t/τ} sin(2π f t)` per unit of momentum, so it also follows
//! a force much slower than itself with a static deflection (its compliance times the
//! force). Under a contact much longer than the body's lowest period that deflection is
//! all the body does: a sub-audio thump the size of the force pulse, which the level
//! calibration would then scale to full level while the ringing stays inaudible. A
//! struck bar does not radiate its slow bending under a felt mallet; it radiates its
//! modes. A fourth-order Butterworth high-pass half an octave below the lowest mode takes
//! the slow part out of the force before the modes hear it (−0.24 dB and a phase lead
//! at the lowest mode, less above; −48 dB two octaves below the cutoff), so a soft
//! strike rings quietly and a hard one is as before.
//!
//! Two topology-preserving (trapezoidal) state-variable sections with the Butterworth
//! dampings, pre-warped at the cutoff: the response is the analogue one at DC, at the
//! cutoff and above, at every rate, and the cutoff may move while the body rings (a
//! retune) without a step.

use std::f64::consts::PI;

mod span;

/// The cutoff sits this far below the lowest mode (half an octave).
pub const CUTOFF_RATIO: f64 = 0.7;
/// The dampings `2R = 1/Q` of the two sections of a 4th-order Butterworth:
/// `2 cos(π/8)` and `2 cos(3π/8)`.
const TWO_R: [f64; 2] = [1.847_759_065_022_573_5, 0.765_366_864_730_179_8];
/// Integrator states below this (for a force normalised to about 1: 200 dB down, 80 dB
/// under the silence at which a voice ends) are let go once the force has stopped. Until
/// then the bank runs with the tail in its loop, at about half as much again as alone:
/// a low body's tail lasts a quarter of a second after every note (a third at 1e-14,
/// which was half the ringing samples of a pop song on Bell strike), and letting it go
/// here moves a song's output by its float WAV's last bit at most.
const QUIET: f64 = 1e-10;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveHighpass {
    /// `tan(π f_c / f_s)`; 0 passes everything through.
    g: f64,
    /// `1 / (1 + 2R g + g²)` per section.
    h: [f64; 2],
    /// `2R + g` per section and `2g`: the sections' other constants, made at the tune
    /// rather than every sample.
    a: [f64; 2],
    g2: f64,
    /// Each section's sample as a state-space step (see [`Step`]), for the plain sample.
    step: [Step; 2],
    /// The two integrators of each section.
    s: [[f64; 2]; 2],
    /// Per-sample decay of the integrators while a hand damps the body (1: none), so
    /// the tail of the last force dies with the modes instead of ringing them on.
    leak: f64,
    /// The leak it ramps to, by this factor per sample.
    leak_target: f64,
    leak_q: f64,
    /// A cutoff set and no leak now or to come: the sample's sections, nothing else.
    plain: bool,
    /// The input of the last sample: a force held from one sample to the next is
    /// played a span at a time (see `span`).
    last_x: f64,
    /// The span being played, and the maps that make one.
    span: span::Span,
}

/// One section's sample without a leak, `hp = h (x − a s₁ − s₂)`, `s₁ += 2g hp`,
/// `s₂ += 2g (g hp + s₁)`, written out as the linear map it is:
/// `hp = o₁ s₁ + o₂ s₂ + o_x x`, `s₁' = c₁₁ s₁ + c₁₂ s₂ + c₁ₓ x`,
/// `s₂' = c₂₁ s₁ + c₂₂ s₂ + c₂ₓ x`. The same filter (the states are the trapezoidal
/// integrators', so a retune still moves the cutoff without a step), but each state
/// waits for two operations a sample instead of seven: the section is a chain of
/// dependent operations from sample to sample, which is what a voice's sample waits on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Step {
    o: [f64; 3],
    c1: [f64; 3],
    c2: [f64; 3],
}

impl Step {
    /// The map for `h = 1/(1 + 2R g + g²)`, `a = 2R + g` and `g`.
    fn of(h: f64, a: f64, g: f64) -> Self {
        let g2 = 2.0 * g;
        Step {
            o: [-a * h, -h, h],
            c1: [1.0 - g2 * h * a, -g2 * h, g2 * h],
            c2: [g2 - g2 * g * h * a, 1.0 - g2 * g * h, g2 * g * h],
        }
    }
}

impl Default for DriveHighpass {
    fn default() -> Self {
        Self {
            g: 0.0,
            h: [1.0; 2],
            a: TWO_R,
            g2: 0.0,
            step: [Step::default(); 2],
            s: [[0.0; 2]; 2],
            leak: 1.0,
            leak_target: 1.0,
            leak_q: 1.0,
            plain: false,
            last_x: 0.0,
            span: span::Span::default(),
        }
    }
}

impl DriveHighpass {
    /// Sets the cutoff half an octave below `lowest_mode` Hz at `fs` (the state carries on).
    /// A lowest mode that is not a positive finite frequency passes the force through.
    pub fn tune(&mut self, lowest_mode: f64, fs: f64) {
        self.settle();
        let fc = CUTOFF_RATIO * lowest_mode;
        if fc.is_finite() && fc > 0.0 && fs > 0.0 {
            let g = (PI * fc.min(0.45 * fs) / fs).tan();
            self.g = g;
            self.h = TWO_R.map(|r| 1.0 / (1.0 + r * g + g * g));
            self.a = TWO_R.map(|r| r + g);
            self.g2 = 2.0 * g;
            self.step = [0, 1].map(|i| Step::of(self.h[i], self.a[i], g));
        } else {
            *self = Self {
                leak: self.leak,
                leak_target: self.leak_target,
                leak_q: self.leak_q,
                last_x: self.last_x,
                ..Self::default()
            };
        }
        self.set_plain();
    }

    fn set_plain(&mut self) {
        self.plain = self.g != 0.0 && self.leak == 1.0 && self.leak_target == 1.0;
    }

    /// Lets the force heard so far die away by 60 dB in `t60` s at `fs` (a hand on the
    /// body), the leak coming on geometrically over `ramp` samples: no step, and no
    /// tail that outlasts the damped modes. `INFINITY` undoes it at once.
    pub fn damp(&mut self, t60: f64, fs: f64, ramp: u32) {
        self.settle();
        if t60.is_finite() && t60 > 0.0 && fs > 0.0 {
            self.leak_target = (-(1000f64.ln()) / (t60 * fs)).exp();
            self.leak_q = (self.leak_target / self.leak).powf(1.0 / ramp.max(1) as f64);
        } else {
            self.leak = 1.0;
            self.leak_target = 1.0;
            self.leak_q = 1.0;
        }
        self.set_plain();
    }

    /// Forgets the force heard so far.
    pub fn reset(&mut self) {
        self.s = [[0.0; 2]; 2];
        self.span.stop();
    }

    /// True when nothing is left of the force heard so far: with no new force the
    /// output is exactly 0 ([`tick`](Self::tick) of 0 returns 0).
    #[inline]
    pub fn is_quiet(&self) -> bool {
        self.g == 0.0 || (self.s == [[0.0; 2]; 2] && !self.span.is_live())
    }

    /// One sample of the high-passed force.
    #[inline(always)]
    pub fn tick(&mut self, x: f64) -> f64 {
        // A force held since the last sample: its span, made a span at a time.
        if self.span.is_live() {
            if let Some(y) = self.span_next(x) {
                return y;
            }
            self.settle();
        }
        let held = x == self.last_x;
        self.last_x = x;
        if held && self.plain && (x != 0.0 || self.s != [[0.0; 2]; 2]) {
            return self.start_span(x);
        }
        // A force on a body with no hand on it (every contact sample): the sections
        // alone, which is all the general sample below does then.
        if self.plain && x != 0.0 {
            return self.steps(x);
        }
        self.tick_general(x)
    }

    /// The two sections on `x` without a leak, as their linear maps ([`Step`]): for
    /// each state, its own term added last, so that it waits on one multiply and one
    /// add, and on the other state through one more add.
    #[inline(always)]
    fn steps(&mut self, x: f64) -> f64 {
        let (y, s) = self.map(self.s, x);
        self.s = s;
        y
    }

    /// The sections' sample from states `s` on input `x`: the output and the next states.
    #[inline(always)]
    fn map(&self, mut s: [[f64; 2]; 2], x: f64) -> (f64, [[f64; 2]; 2]) {
        let mut y = x;
        for ([s1, s2], m) in s.iter_mut().zip(&self.step) {
            let (a, b) = (*s1, *s2);
            let hp = m.o[0] * a + (m.o[1] * b + m.o[2] * y);
            *s1 = m.c1[0] * a + (m.c1[1] * b + m.c1[2] * y);
            *s2 = m.c2[1] * b + (m.c2[0] * a + m.c2[2] * y);
            y = hp;
        }
        (y, s)
    }

    /// The two sections on `x`, their integrators decaying by the leak (a hand on the
    /// body).
    #[inline(always)]
    fn leaking(&mut self, x: f64) -> f64 {
        let (g, g2, leak) = (self.g, self.g2, self.leak);
        let mut y = x;
        for (i, [s1, s2]) in self.s.iter_mut().enumerate() {
            let hp = (y - self.a[i] * *s1 - *s2) * self.h[i];
            let v1 = g * hp;
            let bp = v1 + *s1;
            *s1 = (bp + v1) * leak;
            *s2 = (*s2 + g2 * bp) * leak;
            y = hp;
        }
        y
    }

    #[inline(always)]
    fn tick_general(&mut self, x: f64) -> f64 {
        if self.g == 0.0 || (x == 0.0 && self.s == [[0.0; 2]; 2]) {
            return x;
        }
        let y = if self.leak == 1.0 {
            self.steps(x)
        } else {
            self.leaking(x)
        };
        // As the modes' ramp: the leak comes on from the sample after the hand's first.
        if self.leak > self.leak_target {
            self.leak = (self.leak * self.leak_q).max(self.leak_target);
            self.set_plain();
        }
        // A force's tail dies away exponentially and would in time reach subnormal
        // numbers, which cost ~100× per operation where nothing flushes them (the CLI,
        // tests): far below anything audible it is let go (the body is then driven by
        // nothing, exactly, and the high-pass costs a compare).
        if x == 0.0 && self.s.iter().flatten().all(|v| v.abs() < QUIET) {
            self.s = [[0.0; 2]; 2];
        }
        y
    }
}

#[cfg(test)]
mod tests;
