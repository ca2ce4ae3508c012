//! What a calibration run reads of a strike: its peaks between the samples, where its
//! body rings alone, its ring's loudness, and (a held surface gesture) its RMS.

use super::true_peak::TruePeak;

/// The peaks of a calibration run, between the samples too (see `true_peak`): the
/// output (up to where the run left the body ringing alone), its dry path and its body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Peaks {
    pub out: TruePeak,
    pub dry: TruePeak,
    pub body: TruePeak,
    /// The body's peak where the output is its ring alone: read where no dry sample
    /// is in reach of the reading.
    pub ring: TruePeak,
    /// Samples from the start to the last whose peak reading can hold a dry sample
    /// (0: none can).
    pub dry_end: usize,
    /// The A-weighted energy of the output's ring from the end of the run over
    /// [`LOUDNESS_WINDOW`](super::law::LOUDNESS_WINDOW).
    pub loudness: f64,
    /// The same, K-weighted ([`k_weight`](super::law::k_weight)).
    pub k_loudness: f64,
    /// Sums of squares of the output, the dry path and the body over the run, and its
    /// samples (a held surface gesture's RMS, [`surface_gain_for`](super::law::surface_gain_for)).
    pub energy: [f64; 3],
    pub samples: usize,
}

impl Peaks {
    /// The body's peak over the whole run (the ring's readings are the body's too; the
    /// run's last stretch may have been read into the ring alone).
    pub fn body_peak(&self) -> f64 {
        self.body.peak().max(self.ring.peak())
    }

    /// One sample of the strike: its output, dry path and body.
    pub fn add(&mut self, out: f64, dry: f64, body: f64) {
        self.out.push(out);
        self.dry.push(dry);
        self.body.push(body);
        for (e, x) in self.energy.iter_mut().zip([out, dry, body]) {
            *e += x * x;
        }
        self.samples += 1;
    }

    /// The RMS of the output, the dry path and the body over the run.
    pub fn rms(&self) -> [f64; 3] {
        self.energy.map(|e| (e / self.samples.max(1) as f64).sqrt())
    }
}
