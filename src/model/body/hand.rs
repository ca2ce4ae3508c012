//! A hand on the body: the modes' decay capped, over a ramp that bends the envelope
//! rather than kinking it, until the hand lifts.

use super::bank::{Coefs, cap_decay};
use super::{MODES, ModalBody};

/// The hand goes on over this long (at most a quarter of its T60), s: a decay rate
/// that steps makes a kink in every mode's envelope, a ramp a bend.
const DAMP_RAMP: f64 = 0.002;
/// The hand's decay reaches 60 dB at this fraction of its T60 (after the ramp's loss is
/// made up): room for a body whose beating partials swell over the exponential.
const DAMP_MARGIN: f64 = 0.95;

impl ModalBody {
    /// A hand on the body: every mode comes to decay with T60 at most `t60` seconds
    /// (modes already shorter keep their own), over a ramp of [`DAMP_RAMP`] (at most a
    /// quarter of `t60`) along which each pole's log-radius falls with the square of
    /// the time, so the decay rate rises from zero with zero slope: the envelope bends
    /// rather than kinks, and the first samples move by a few parts in 10^7 (a linear
    /// rise moved the first by 1 part in 10^4, at the contact's end where a membrane's
    /// output curves most: 1.2 % more second difference than its attack). The decay
    /// after the ramp is fast enough to make up for it (60 dB down at `t60` still). The
    /// state and the readout weights carry on, so the output has no step. The force's
    /// tail in the drive high-pass dies twice as fast (see `drive`). It holds through
    /// retunes until [`undamp`](Self::undamp) or [`reset`](Self::reset). NaN or a
    /// non-positive `t60` is taken as 0.1 ms.
    pub fn damp(&mut self, t60: f64) {
        let t60 = if t60 > 1e-4 { t60 } else { 1e-4 };
        let fs = self.fs;
        let n = (DAMP_RAMP.min(0.4 * t60) * fs).round().max(1.0);
        // The ramp loses two thirds of its length of decay; the rest makes it up, with
        // room.
        let t60 = DAMP_MARGIN * t60 - n / fs;
        self.damp_t60 = self.damp_t60.min(t60);
        self.drive.damp(0.5 * self.damp_t60, fs, 2 * n as u32);
        let mut target = self.k;
        cap_decay(&mut target, self.damp_t60, fs);
        for i in 0..MODES {
            let (r0, r1) = (
                self.k.c[i].hypot(self.k.s[i]),
                target.c[i].hypot(target.s[i]),
            );
            // ln r(j) = ln r0 + a j² after j samples: the factor at step j is
            // e^{a(2j+1)}, which grows by e^{2a} per step.
            let a = if r0 > 0.0 {
                (r1 / r0).ln() / (n * n)
            } else {
                0.0
            };
            self.damp_q[i] = a.exp();
            self.damp_dq[i] = (2.0 * a).exp();
        }
        self.damp_left = n as u32;
        cap_decay(&mut self.old, self.damp_t60, fs);
    }

    /// One sample of the hand's ramp.
    #[inline(never)]
    pub(super) fn ramp_damping(&mut self) {
        for i in 0..MODES {
            self.k.c[i] *= self.damp_q[i];
            self.k.s[i] *= self.damp_q[i];
            self.damp_q[i] *= self.damp_dq[i];
        }
        self.damp_left -= 1;
    }

    /// Lifts the damping: the modes decay with their own T60 again (the state carries
    /// on; a crossfade's outgoing bank stays damped for its last few milliseconds).
    /// Control rate.
    pub fn undamp(&mut self) {
        self.damp_t60 = f64::INFINITY;
        self.damp_left = 0;
        self.drive.damp(f64::INFINITY, self.fs, 1);
        self.k = Coefs::of(&self.settings, self.fs, &self.plate);
    }

    /// True while damped ([`damp`](Self::damp)).
    pub fn is_damped(&self) -> bool {
        self.damp_t60.is_finite()
    }
}
