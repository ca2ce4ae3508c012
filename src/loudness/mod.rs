//! Loudness and true peak of rendered stereo audio, as a sound designer reads them: the
//! maximum momentary loudness (ITU-R BS.1770 K-weighting over a 400 ms window, the
//! `ebur128` crate), the integrated loudness, the true peak per channel (4× oversampled,
//! BS.1770 annex 2), the samples over 0 dBFS, and the L/R correlation. Offline only
//! (feature `cli`: the CLI and the tests); the plugin's audio path never measures.

use ebur128::{EbuR128, Mode};

mod true_peak;
pub use true_peak::{Peaks, peaks};

/// The momentary loudness is read every this many seconds (its window slides by this
/// much between readings: the maximum is found to within a 10 ms step).
const HOP_S: f64 = 0.01;

/// What [`measure`] finds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loudness {
    /// Largest momentary loudness, LUFS (−inf for silence).
    pub momentary_max: f64,
    /// Integrated (gated) loudness, LUFS (−inf when every block is under the gate).
    pub integrated: f64,
    /// True peak of the louder channel, dBTP.
    pub true_peak_db: f64,
    /// Sample peak of the louder channel, dBFS.
    pub sample_peak_db: f64,
    /// Samples (per channel, counted on both) with |x| > 1.
    pub over_full_scale: usize,
    /// Pearson correlation of L and R (1: mono; 1 also for silence).
    pub correlation: f64,
}

fn db(x: f64) -> f64 {
    20.0 * x.max(1e-20).log10()
}

/// Measures `left` and `right` (the same length) at `fs` Hz; `None` when the rate is
/// outside what the loudness meter takes or the channels differ in length.
pub fn measure(fs: u32, left: &[f32], right: &[f32]) -> Option<Loudness> {
    if left.len() != right.len() {
        return None;
    }
    let mut m = EbuR128::new(2, fs, Mode::M | Mode::I).ok()?;
    let hop = ((HOP_S * fs as f64) as usize).max(1);
    let mut momentary = Momentary::new(fs);
    let mut at = 0;
    while at < left.len() {
        let end = (at + hop).min(left.len());
        m.add_frames_planar_f32(&[&left[at..end], &right[at..end]])
            .ok()?;
        momentary.read(&m, end - at == hop);
        at = end;
    }
    let momentary_max = momentary.max;
    let p = peaks(fs, left, right)?;
    let over_full_scale = left.iter().chain(right).filter(|s| s.abs() > 1.0).count();
    Some(Loudness {
        momentary_max,
        integrated: m.loudness_global().unwrap_or(f64::NEG_INFINITY),
        true_peak_db: db(p.true_peak),
        sample_peak_db: db(p.sample),
        over_full_scale,
        correlation: correlation(left, right),
    })
}

/// The largest momentary loudness, read every [`HOP_S`]. A reading of the 400 ms
/// window sums 400 ms of the meter's history, 40 times a second of audio, which made it
/// most of a long render's measurement; where the hops tile 100 ms exactly (rates in
/// whole hundreds of Hz) the window's mean energy is made instead from the last four
/// 100 ms windows' (BS.1770's momentary loudness is the mean over its window: the four
/// quarters' means averaged), a quarter of the summing. Equal to the direct reading to
/// rounding.
struct Momentary {
    /// The 100 ms windows' mean energies, one a hop, the last [`QUARTERS`] hops.
    quarters: [f64; QUARTERS],
    readings: usize,
    tiled: bool,
    max: f64,
}

/// Hops kept: the three earlier quarters of a 400 ms window are 10, 20 and 30 hops back.
const QUARTERS: usize = 31;

impl Momentary {
    fn new(fs: u32) -> Self {
        Self {
            quarters: [0.0; QUARTERS],
            readings: 0,
            tiled: fs.is_multiple_of(100),
            max: f64::NEG_INFINITY,
        }
    }

    /// Reads the meter after a hop (`full`: a whole hop's frames were added).
    fn read(&mut self, m: &EbuR128, full: bool) {
        if !(self.tiled && full) {
            // A short last hop does not line up with the quarters before it.
            self.tiled = false;
            if let Ok(l) = m.loudness_momentary() {
                self.max = self.max.max(l);
            }
            return;
        }
        let Ok(l) = m.loudness_window(100) else {
            return;
        };
        self.quarters[self.readings % QUARTERS] = energy(l);
        self.readings += 1;
        let back = |hops: usize| {
            if self.readings > hops {
                self.quarters[(self.readings - 1 - hops) % QUARTERS]
            } else {
                0.0
            }
        };
        let e = 0.25 * (back(0) + back(10) + back(20) + back(30));
        if e > 0.0 {
            self.max = self.max.max(ebur128::energy_to_loudness(e));
        }
    }
}

/// The mean energy a loudness in LUFS stands for (BS.1770: `L = −0.691 + 10 log10 E`).
fn energy(lufs: f64) -> f64 {
    if lufs.is_finite() {
        10f64.powf((lufs + 0.691) / 10.0)
    } else {
        0.0
    }
}

/// Pearson correlation of two signals (1 for identical or silent ones).
pub fn correlation(a: &[f32], b: &[f32]) -> f64 {
    let n = a.len().min(b.len());
    if n == 0 {
        return 1.0;
    }
    let mean = |x: &[f32]| x[..n].iter().map(|&v| v as f64).sum::<f64>() / n as f64;
    let (ma, mb) = (mean(a), mean(b));
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a[..n].iter().zip(&b[..n]) {
        let (x, y) = (x as f64 - ma, y as f64 - mb);
        sab += x * y;
        saa += x * x;
        sbb += y * y;
    }
    if saa == 0.0 || sbb == 0.0 {
        return if saa == sbb { 1.0 } else { 0.0 };
    }
    sab / (saa * sbb).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 kHz sine at −20 dBFS in both channels reads −20 LUFS (BS.1770's −0.691 dB
    /// offsets the K-weighting's gain at 1 kHz, and the two channels' mean squares of
    /// ½ add to 1), a true peak of −20 dBTP and correlation 1.
    #[test]
    fn a_sine_reads_its_level() {
        let fs = 48_000;
        let a = 10f64.powf(-20.0 / 20.0);
        let x: Vec<f32> = (0..fs)
            .map(|i| {
                (a * (2.0 * std::f64::consts::PI * 1000.0 * i as f64 / fs as f64).sin()) as f32
            })
            .collect();
        let l = measure(fs, &x, &x).unwrap();
        assert!((l.momentary_max - -20.0).abs() < 0.1, "{l:?}");
        assert!((l.integrated - -20.0).abs() < 0.1, "{l:?}");
        assert!((l.true_peak_db - -20.0).abs() < 0.1, "{l:?}");
        assert_eq!(l.over_full_scale, 0);
        assert!((l.correlation - 1.0).abs() < 1e-9);
        let silent = vec![0f32; 4800];
        assert_eq!(
            measure(fs, &silent, &silent).unwrap().momentary_max,
            f64::NEG_INFINITY
        );
        assert!(measure(fs, &x, &x[1..]).is_none());
    }

    /// The momentary maximum from 100 ms quarters equals the direct 400 ms readings,
    /// on strikes whose loudest window falls anywhere (also in the first 400 ms).
    #[test]
    fn quarters_read_the_momentary_loudness_as_the_window_does() {
        for (fs, onset) in [(48_000u32, 0.03), (44_100, 0.77), (96_000, 1.234)] {
            let n = (2.5 * fs as f64) as usize;
            let strike = |i: usize, f: f64| {
                let t = i as f64 / fs as f64 - onset;
                if t < 0.0 {
                    0.0
                } else {
                    ((-t / 0.15).exp() * (2.0 * std::f64::consts::PI * f * t).sin()) as f32
                }
            };
            let l: Vec<f32> = (0..n).map(|i| 0.5 * strike(i, 700.0)).collect();
            let r: Vec<f32> = (0..n).map(|i| 0.3 * strike(i, 1900.0)).collect();
            let mut direct = EbuR128::new(2, fs, Mode::M).unwrap();
            let hop = (HOP_S * fs as f64) as usize;
            let mut want = f64::NEG_INFINITY;
            for at in (0..n).step_by(hop) {
                let end = (at + hop).min(n);
                direct
                    .add_frames_planar_f32(&[&l[at..end], &r[at..end]])
                    .unwrap();
                want = want.max(direct.loudness_momentary().unwrap());
            }
            let got = measure(fs, &l, &r).unwrap().momentary_max;
            assert!((got - want).abs() < 1e-9, "{fs} Hz: {got} against {want}");
        }
    }
}
