//! Calibrated level: a full-velocity strike peaks at [`TARGET_PEAK`] (−6 dBFS) for any
//! patch, body and sample rate.
//!
//! Per strike, the voice plays its own full-velocity note offline (a copy of itself on
//! the stack: no allocation), one contact and the body's first ringing (with any bounce
//! that comes back while it rings: a rattle's impacts pile up), and the gain
//! that brings that peak to the target scales what the strike puts into the dry path
//! and the body. The simulation runs at the voice's own rate, so the level does not
//! move with the rate; it is cached for the parameters and key it was made for, so
//! repeated notes cost nothing. Lower velocities keep their physics: quieter.

use super::params::EngineParams;
use crate::model::body::BodyType;

/// Peak of a full-velocity strike: −6 dBFS.
pub const TARGET_PEAK: f64 = 0.5;
/// Longest calibration run, s: a contact longer than this is calibrated on its start.
pub const MAX_PROBE: f64 = 0.1;
/// After the contact, the body rings this many periods of its fundamental (at least
/// [`MIN_RING`]) before the peak is taken: the first swing of the slowest mode.
const RING_PERIODS: f64 = 1.25;
const MIN_RING: f64 = 0.003;
/// Gains are kept within these (a strike that cannot reach the target stays quiet
/// rather than amplifying numerical noise).
const MAX_GAIN: f64 = 1e4;

/// The body/dry mix a voice plays with: Body None bypasses the mix (dry only).
pub fn mix_of(p: &EngineParams, mix: f64) -> f64 {
    if p.body == BodyType::None {
        0.0
    } else {
        mix.clamp(0.0, 1.0)
    }
}

/// Samples the body rings after the contact before the peak is taken, at `f1` Hz.
pub fn ring_samples(f1: f64, fs: f64) -> usize {
    let t = if f1 > 0.0 && f1.is_finite() {
        (RING_PERIODS / f1).max(MIN_RING)
    } else {
        MIN_RING
    };
    (t.min(MAX_PROBE) * fs) as usize
}

/// The gain that brings a full-velocity `peak` to [`TARGET_PEAK`].
pub fn gain_for(peak: f64) -> f64 {
    let g = TARGET_PEAK / peak;
    if g.is_finite() && g > 0.0 {
        g.min(MAX_GAIN)
    } else {
        1.0
    }
}

/// The last calibration: the parameters, key and rate it was made for, and its gain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    params: Option<EngineParams>,
    key: u8,
    fs: f64,
    gain: f64,
}

impl Default for Calibration {
    fn default() -> Self {
        Self {
            params: None,
            key: 0,
            fs: 0.0,
            gain: 1.0,
        }
    }
}

impl Calibration {
    /// The cached gain, if it was made for exactly these parameters, key and rate.
    pub fn lookup(&self, p: &EngineParams, key: u8, fs: f64) -> Option<f64> {
        (self.params.as_ref() == Some(p) && self.key == key && self.fs == fs).then_some(self.gain)
    }

    pub fn store(&mut self, p: &EngineParams, key: u8, fs: f64, gain: f64) {
        *self = Self {
            params: Some(*p),
            key,
            fs,
            gain,
        };
    }
}
