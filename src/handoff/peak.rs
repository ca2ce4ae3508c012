//! The output's peak, from the audio thread to the meter: one atomic, folded with a
//! `fetch_max` on the bits (for non-negative floats the bit patterns order as the
//! values do).

use std::sync::atomic::{AtomicU32, Ordering};

/// The largest |sample| since the GUI last took it, shared lock-free.
#[derive(Default)]
pub struct PeakMeter {
    bits: AtomicU32,
}

impl PeakMeter {
    /// Audio thread: folds one block's peak in (non-finite or negative is ignored).
    pub fn record(&self, peak: f32) {
        if peak.is_finite() && peak > 0.0 {
            self.bits.fetch_max(peak.to_bits(), Ordering::Relaxed);
        }
    }
    /// GUI thread: the peak since the last call, and resets it.
    pub fn take(&self) -> f32 {
        f32::from_bits(self.bits.swap(0, Ordering::Relaxed))
    }
}

/// The largest |sample| over the channels of a block.
pub fn block_peak(channels: &[&mut [f32]]) -> f32 {
    channels
        .iter()
        .flat_map(|c| c.iter())
        .fold(0.0f32, |m, s| m.max(s.abs()))
}
