//! The stereo image and the output stage: each voice's pan (from its key and strike
//! position) and the body's pickups make a side signal next to the voice's mid; the
//! output stage turns mid and side into left and right, with a DC blocker per channel
//! (the dry force pulse is one-signed), the smoothed gain, and the runaway guard on
//! what leaves the engine: nothing musical is clipped or limited here (a chord may go
//! over 0 dBFS in the host's float bus; the host's fader is where it is brought down).
//!
//! Mono compatibility is built in: left = mid + side and right = mid − side, so the
//! mono sum `(L + R) / 2` is the mid, whatever the width. The side is
//! `−p·mid + body_side`, with `|p| ≤` [`PAN_SPREAD`] and the pickups' side
//! (`model::body::pickup`) per mode a small level difference in phase with it and a
//! larger phase difference in quadrature, so a channel's power is at most 1.93 times
//! the mid's per mode (2.9 dB, under the 3 dB the mono sum may lose against either
//! channel; `tests/engine_stereo.rs` checks it over the full ranges).

use crate::engine::smoothing::{SMOOTHING_TIME, Smoothed};

/// The largest pan at Width 1 and Key spread 1 on the linear law `L = (1 − p) mid`,
/// `R = (1 + p) mid` (negative `p` is left; 4.4 dB between the channels at the edge).
pub const PAN_SPREAD: f64 = 0.25;
/// At Key spread 1, keys this many semitones from middle C sit at the edge of the
/// image (C1 and C7; the keys beyond stay there).
pub const PAN_KEYS: f64 = 36.0;

/// The pan of a voice on `key` at Width 1, in `[−PAN_SPREAD, PAN_SPREAD]` (negative:
/// left): low keys left, as a player sees a keyboard or a row of bars, middle C in the
/// centre, and `key_spread` (0–1) of the way to the edge. (Where the note is struck
/// moves its image through the body's pickups, not through the pan.)
pub fn pan_of(key: u8, key_spread: f64) -> f64 {
    let k = ((key as f64 - 60.0) / PAN_KEYS).clamp(-1.0, 1.0);
    let spread = if key_spread.is_finite() {
        key_spread.clamp(0.0, 1.0)
    } else {
        0.0
    };
    PAN_SPREAD * spread * k
}

/// The body's side at a voice panned `pan` (in `[−PAN_SPREAD, PAN_SPREAD]`): whole in
/// the centre, half at the image's edge, where the pan already leans on one channel and
/// a full side would take the mono sum more than 3 dB under it.
#[inline]
pub fn edge_side(pan: f64) -> f64 {
    1.0 - 2.0 * pan.abs()
}

/// Corner of the output DC blocker, Hz.
const DC_CORNER: f64 = 2.0;
/// The runaway guard's threshold, +24 dBFS: a sample over it (or not a number) is not
/// music but a numerical failure upstream, and is silenced. A full-velocity strike
/// peaks at [`TARGET_PEAK`](crate::engine::level::law::TARGET_PEAK) (−10 dBFS), so 16 of them in
/// phase stay 10 dB under it.
pub const RUNAWAY: f64 = 16.0;

fn gain_of_db(db: f64) -> f64 {
    10f64.powf(db / 20.0)
}

pub struct OutputStage {
    gain: Smoothed,
    /// The DC blockers' last input and output, per channel (L, R).
    dc_x1: [f64; 2],
    dc_y1: [f64; 2],
    dc_r: f64,
    /// Largest |output| since the last reset.
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

    /// One sample of mid and side, the side already scaled by the width: left = mid +
    /// side, right = mid − side (exactly `mid` on both when the side is 0), then
    /// [`process`](Self::process).
    #[inline]
    pub fn process_mid_side(&mut self, mid: f64, side: f64, gain_db: f64) -> ([f32; 2], bool) {
        let lr = if side == 0.0 {
            [mid, mid]
        } else {
            [mid + side, mid - side]
        };
        self.process(lr, gain_db)
    }

    /// One stereo sample (L, R): DC blockers, gain gliding to `gain_db`, then the guard.
    /// Returns the output, neither clipped nor limited, and false when the guard caught
    /// a value that is not finite or over [`RUNAWAY`] (both channels are then
    /// silenced, so the image never tears).
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
        // `!(x <= RUNAWAY)` is also true for a NaN.
        let ok = g[0].abs() <= RUNAWAY && g[1].abs() <= RUNAWAY;
        if !ok {
            self.dc_x1 = [0.0; 2];
            self.dc_y1 = [0.0; 2];
            g = [0.0; 2];
        }
        self.peak = self.peak.max(g[0].abs()).max(g[1].abs());
        ([g[0] as f32, g[1] as f32], ok)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loud chord passes as it is (no clip, no limiter); only a value over +24 dBFS,
    /// or one that is not a number, trips the guard, which silences both channels.
    #[test]
    fn only_a_runaway_trips_the_guard() {
        let mut o = OutputStage::new(48_000.0);
        let (y, ok) = o.process([4.0, -3.0], 0.0);
        assert!(ok);
        // The DC blocker's first sample passes the input as it is.
        assert_eq!(y, [4.0, -3.0]);
        assert_eq!(o.peak(), 4.0);
        for bad in [RUNAWAY * 1.01, f64::NAN, f64::INFINITY] {
            let mut o = OutputStage::new(48_000.0);
            assert_eq!(o.process([0.1, bad], 0.0), ([0.0, 0.0], false), "{bad}");
        }
    }
}
