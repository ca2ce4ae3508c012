//! The output stage: a DC blocker per channel (the dry force pulse is one-signed), the
//! smoothed gain, and the guard and clip on what leaves the engine.

use super::smoothing::{SMOOTHING_TIME, Smoothed};

/// Corner of the output DC blocker, Hz.
const DC_CORNER: f64 = 2.0;
/// The output stage clips here (+6 dBFS) whatever happens upstream.
pub const OUTPUT_CLIP: f32 = 2.0;

fn gain_of_db(db: f64) -> f64 {
    10f64.powf(db / 20.0)
}

pub struct OutputStage {
    gain: Smoothed,
    /// The DC blockers' last input and output, per channel (L, R).
    dc_x1: [f64; 2],
    dc_y1: [f64; 2],
    dc_r: f64,
    /// Largest |output| before the clip since the last reset.
    peak: f64,
    fs: f64,
}

impl OutputStage {
    pub fn new(fs: f64) -> Self {
        Self {
            gain: Smoothed::new(1.0, SMOOTHING_TIME, fs),
            dc_x1: [0.0; 2],
            dc_y1: [0.0; 2],
            dc_r: (-2.0 * std::f64::consts::PI * DC_CORNER / fs).exp(),
            peak: 0.0,
            fs,
        }
    }

    /// Jumps the gain to `gain_db` (at activation; live changes glide).
    pub fn set_gain(&mut self, gain_db: f64) {
        self.gain = Smoothed::new(gain_of_db(gain_db), SMOOTHING_TIME, self.fs);
    }

    pub fn reset(&mut self) {
        self.dc_x1 = [0.0; 2];
        self.dc_y1 = [0.0; 2];
        self.peak = 0.0;
    }

    /// A non-finite gain state, for the guard's test.
    #[cfg(test)]
    pub fn poison_gain(&mut self) {
        self.gain.value = f64::NAN;
    }

    pub fn peak(&self) -> f64 {
        self.peak
    }

    /// One stereo sample (L, R): DC blockers, gain gliding to `gain_db`, then the guard.
    /// Returns the clipped output and false when the guard caught a non-finite value
    /// (both channels are then silenced, so the image never tears).
    #[inline]
    pub fn process(&mut self, sum: [f64; 2], gain_db: f64) -> ([f32; 2], bool) {
        let gain = self.gain.next(gain_of_db(gain_db));
        let mut g = [0.0; 2];
        for c in 0..2 {
            let y = sum[c] - self.dc_x1[c] + self.dc_r * self.dc_y1[c];
            self.dc_x1[c] = sum[c];
            self.dc_y1[c] = y;
            g[c] = y * gain;
        }
        let ok = g[0].is_finite() && g[1].is_finite();
        if !ok {
            self.dc_x1 = [0.0; 2];
            self.dc_y1 = [0.0; 2];
            g = [0.0; 2];
        }
        self.peak = self.peak.max(g[0].abs()).max(g[1].abs());
        let clip = |v: f64| (v as f32).clamp(-OUTPUT_CLIP, OUTPUT_CLIP);
        ([clip(g[0]), clip(g[1])], ok)
    }
}
