//! A voice's runaway guard: what keeps a voice that has gone numerically wild (a
//! contact whose integration blows up, a body driven past any strike's reach) from
//! reaching the output, without touching anything musical.
//!
//! The level calibration (`level::law`) plays a strike's first contact and the body's first
//! ringing, so a calibrated full-velocity strike peaks at −10 dBFS. Some patches outgrow
//! the calibration (an Expert contact slower than its run keeps pressing harder after
//! it; a near-elastic bounce train piles up in a long-ringing body) and come out a few
//! dB louder than that: that is their sound, and it passes as it is. Only a voice over
//! [`CEILING`] (+24 dBFS, 34 dB over the calibrated peak: no strike of any patch gets
//! there) is turned down, by just enough for that sample to sit on it (a gain change at
//! a peak, where the wave is flat: a bend, not a step), and comes back up with a
//! [`RECOVERY`] time constant. Per voice, so a wild voice does not duck the others, and
//! in the voice's own path, so its output stays continuous through a re-strike.

use crate::engine::output::RUNAWAY;

/// The ceiling on a voice's mono output: the output's runaway threshold, +24 dBFS.
pub const CEILING: f64 = RUNAWAY;
/// Time constant of the gain's way back to 1, s.
pub const RECOVERY: f64 = 0.2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ceiling {
    /// The gain applied now, in (0, 1].
    gain: f64,
    /// Per-sample recovery coefficient toward 1.
    coef: f64,
    /// Samples it turned down since it was made, and the largest of them over the
    /// ceiling (1: none): a strike that is music leaves these at 0 and 1, so tests can
    /// tell a sound the guard changed from one it never touched.
    engaged: u64,
    worst: f64,
}

impl Ceiling {
    pub fn new(fs: f64) -> Self {
        let n = RECOVERY * fs;
        Self {
            gain: 1.0,
            coef: if n > 1.0 { (-1.0 / n).exp() } else { 0.0 },
            engaged: 0,
            worst: 1.0,
        }
    }

    /// Back to unity: a voice that starts afresh (its body silent). The engagement
    /// count and the worst overshoot stay: they are the ceiling's lifetime record.
    pub fn reset(&mut self) {
        self.gain = 1.0;
    }

    /// The gain now (1: untouched).
    pub fn gain(&self) -> f64 {
        self.gain
    }

    /// Samples at which the ceiling turned the gain down, since it was made.
    pub fn engagements(&self) -> u64 {
        self.engaged
    }

    /// The loudest sample it turned down, over the ceiling (1: none): how far over
    /// +24 dBFS the voice would have gone without it.
    pub fn worst_overshoot(&self) -> f64 {
        self.worst
    }

    /// The gain for a sample whose mono output is `y`: recovers, then drops to what
    /// puts `y` on the ceiling if it would go over. A `y` that is not finite leaves the
    /// gain alone (the voice's guard deals with it).
    #[inline]
    pub fn next(&mut self, y: f64) -> f64 {
        if self.gain < 1.0 {
            self.gain = 1.0 - (1.0 - self.gain) * self.coef;
        }
        let a = y.abs();
        if a * self.gain > CEILING && a.is_finite() {
            self.gain = CEILING / a;
            self.engaged += 1;
            self.worst = self.worst.max(a / CEILING);
        }
        self.gain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calibrated_strike_passes_untouched() {
        let mut c = Ceiling::new(48_000.0);
        for i in 0..48_000 {
            let y = 0.999 * CEILING * (i as f64 * 0.01).sin();
            assert_eq!(c.next(y), 1.0);
        }
        assert_eq!((c.engagements(), c.worst_overshoot()), (0, 1.0));
    }

    #[test]
    fn an_overshoot_sits_on_the_ceiling_then_recovers() {
        let fs = 48_000.0;
        let mut c = Ceiling::new(fs);
        // A swell to 8x the ceiling: never out over it. Against the definition in closed
        // form: from the last sample turned down (to C/|y|) the gain comes back as
        // 1 − (1 − g)·e^(−k/(RECOVERY·fs)) after k samples, and a sample is turned down
        // when it would be over the ceiling at that gain.
        let (mut last, mut want) = (None::<(usize, f64)>, 0u64);
        for i in 0..4800 {
            let y = 8.0 * CEILING * (i as f64 / 4800.0) * (i as f64 * 0.05).sin();
            let recovered = last.map_or(1.0, |(j, g): (usize, f64)| {
                1.0 - (1.0 - g) * (-((i - j) as f64) / (RECOVERY * fs)).exp()
            });
            if y.abs() * recovered > CEILING {
                last = Some((i, CEILING / y.abs()));
                want += 1;
            }
            let g = c.next(y);
            assert!((g * y).abs() <= CEILING * (1.0 + 1e-12), "{i}: {}", g * y);
            let g_want = if last.is_some_and(|(j, _)| j == i) {
                CEILING / y.abs()
            } else {
                recovered
            };
            assert!((g - g_want).abs() <= 1e-12, "{i}: gain {g}, want {g_want}");
        }
        assert!(c.gain() < 0.2, "{}", c.gain());
        // Engaged on the rising peaks, exactly where the definition says; the loudest
        // 8x over.
        let (n, worst) = (c.engagements(), c.worst_overshoot());
        assert_eq!(n, want, "engagements");
        assert!(worst > 7.5 && worst <= 8.0, "{worst}");
        // Silence: back within 1 % of unity after 5 time constants.
        for _ in 0..(5.0 * RECOVERY * fs) as usize {
            c.next(0.0);
        }
        assert!(c.gain() > 0.99, "{}", c.gain());
        c.reset();
        assert_eq!(c.gain(), 1.0);
        assert_eq!(c.engagements(), n, "a reset keeps the record");
        // Not a number: the gain stays as it is.
        assert_eq!(c.next(f64::NAN), 1.0);
        assert_eq!(c.next(f64::INFINITY), 1.0);
    }
}
