//! One-pole smoothing of the body and output parameters.

/// Time constant of the smoothing of gain, mix and body settings, s.
pub const SMOOTHING_TIME: f64 = 0.010;

/// How near its target, relative, a glide lands on it.
const SNAP: f64 = 1e-9;

/// One-pole smoothing toward a target.
#[derive(Clone, Copy, Debug)]
pub(super) struct Smoothed {
    pub(super) value: f64,
    pub(super) coef: f64,
}

impl Smoothed {
    pub(super) fn new(value: f64, time: f64, rate: f64) -> Self {
        Self {
            value,
            coef: 1.0 - (-1.0 / (time * rate)).exp(),
        }
    }
    /// One step toward `target`. A state that ever went non-finite jumps to the target,
    /// so one bad value cannot silence the output for good.
    #[inline]
    pub(super) fn next(&mut self, target: f64) -> f64 {
        self.value += (target - self.value) * self.coef;
        // A glide lands on its target once within a billionth of it: alone it would
        // creep on by a few ulps for seconds, and what compares settings (the level
        // calibration's cache, a body's retune) would see new ones at every step.
        if !self.value.is_finite() || (target - self.value).abs() <= SNAP * (1.0 + target.abs()) {
            self.value = target;
        }
        self.value
    }
}
