//! Strided contacts: above 44.1 kHz a rigid contact that one step a sample resolves
//! many times over is stepped once every `d` samples (at most `fs / 44.1 kHz`, and
//! only as far as its accuracy rule allows), and each sample in between hears the
//! velocity a cubic Hermite curve draws through the steps (their velocities and
//! accelerations). The impulses of a step's samples then sum to the step's exactly
//! (the sum telescopes), the exit is dated inside its sample as before, and the
//! contact costs at 192 kHz what it costs at 48 kHz. The contact's own numbers (its
//! energy, exit speed and instants) are the steps' own.

use crate::model::contact::Analytic;
use crate::model::impact::Impact;
use crate::model::impact::{MAX_STRIDE, OMEGA_ACCURATE, OMEGA_PULSE, STRIDE_RATE, stride_within};
use crate::model::scheme::Stepping;

/// Where a strided contact is inside its step, and the step's velocity curve: from
/// `(s0, v0, g0)` to `(s1, v1, g1)`, `s` in steps since the step began, `g = dv/ds`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stride {
    /// Samples a step spans (1: the contact is stepped every sample).
    pub(super) d: u32,
    /// Samples of the current step played, and of the contact.
    pub(super) k: u32,
    pub(super) played: u64,
    pub(super) s0: f64,
    pub(super) s1: f64,
    /// `1 / (s1 − s0)`.
    pub(super) inv_len: f64,
    pub(super) v0: f64,
    pub(super) g0: f64,
    pub(super) v1: f64,
    pub(super) g1: f64,
    /// The curve's velocity where the last sample ended.
    pub(super) v_at: f64,
    /// The step ended the contact, at `s1`.
    pub(super) exits: bool,
}

impl Stride {
    pub const NONE: Stride = Stride {
        d: 1,
        k: 0,
        played: 0,
        s0: 0.0,
        s1: 1.0,
        inv_len: 1.0,
        v0: 0.0,
        g0: 0.0,
        v1: 0.0,
        g1: 0.0,
        v_at: 0.0,
        exits: false,
    };

    /// Samples one step of the impact `imp` (made at the sample rate `fs`, one step a
    /// sample) may span, by the accuracy rule it was planned with (`single`: a strike
    /// no bounce follows).
    pub fn samples_a_step(imp: &Impact, fs: f64, single: bool) -> u32 {
        let most = (fs / STRIDE_RATE).floor().min(MAX_STRIDE as f64);
        let auto = imp.scheme().stepping == Stepping::Auto;
        if most.is_nan()
            || most < 2.0
            || !auto
            || imp.substeps() != 1
            || imp.damped()
            || imp.closed_form()
        {
            return 1;
        }
        let an: &Analytic = imp.analytic();
        let omega = if single { OMEGA_PULSE } else { OMEGA_ACCURATE };
        stride_within(
            &an.contact,
            an.v_in,
            an.x_max(),
            1.0 / fs,
            omega,
            most as u32,
        )
    }

    /// The curve's velocity at `s` (clamped to the step's span).
    #[inline(always)]
    pub fn v(&self, s: f64) -> f64 {
        let len = self.s1 - self.s0;
        let u = ((s - self.s0) * self.inv_len).clamp(0.0, 1.0);
        let w = 1.0 - u;
        let (h00, h10) = ((1.0 + 2.0 * u) * w * w, u * w * w);
        let (h01, h11) = (u * u * (3.0 - 2.0 * u), -u * u * w);
        h00 * self.v0 + h10 * len * self.g0 + h01 * self.v1 + h11 * len * self.g1
    }
}

#[cfg(test)]
#[path = "stride_tests.rs"]
mod tests;
