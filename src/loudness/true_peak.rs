//! The true peak of a long render without interpolating all of it. `ebur128`'s true
//! peak runs every sample through a 48-tap polyphase interpolator (4× under 96 kHz, 2×
//! under 192 kHz), about a third of the whole level summary of a song. An interpolated
//! value is a sum of the last `taps` samples times one phase's coefficients, so it is at
//! most the largest |sample| among them times that phase's L1 norm: a stretch whose
//! samples (and the `taps − 1` before it) are too small for that bound to pass the
//! running peak cannot raise it and is skipped. The stretches that can are fed to the
//! crate's own meter, preceded by their history as seed frames (which warm the
//! interpolator and are not measured), so every value it finds is one the whole scan
//! finds, bit for bit, and the largest is among them.

use ebur128::{EbuR128, Mode};
use std::f64::consts::PI;

/// Frames judged at once: long against the interpolator's history (a scanned stretch
/// after a skipped one first re-reads up to 23 frames), short enough that the loud
/// moments of a song are a small part of its stretches.
const STRETCH: usize = 256;

/// `ebur128`'s interpolation filter length over all phases.
const FILTER_LEN: usize = 48;

/// Sample peak and true peak (the larger channel's of each, linear).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Peaks {
    /// Largest |sample|.
    pub sample: f64,
    /// Largest |value| of the crate's interpolation, or the sample peak if larger.
    pub true_peak: f64,
}

/// The largest |sample| of both channels and their true peak: exactly the larger of
/// `EbuR128::true_peak(0)` and `(1)` after a `Mode::TRUE_PEAK` meter was fed all of
/// `left` and `right` (the same length). `None` where the meter does not take `fs`.
pub fn peaks(fs: u32, left: &[f32], right: &[f32]) -> Option<Peaks> {
    scan(fs, left, right).map(|(p, _)| p)
}

/// [`peaks`], and how many stretches it interpolated.
fn scan(fs: u32, left: &[f32], right: &[f32]) -> Option<(Peaks, usize)> {
    let mut meter = EbuR128::new(2, fs, Mode::TRUE_PEAK).ok()?;
    let n = left.len().min(right.len());
    let peak = |from: usize, to: usize| abs_max(&left[from..to]).max(abs_max(&right[from..to]));
    let stretch_peaks: Vec<f32> = (0..n)
        .step_by(STRETCH)
        .map(|a| peak(a, (a + STRETCH).min(n)))
        .collect();
    let sample = stretch_peaks.iter().fold(0f32, |a, &p| a.max(p)) as f64;
    // From 192 kHz the crate does not interpolate: its true peak is the sample peak.
    let Some(filter) = Interpolator::at(fs) else {
        let true_peak = sample;
        return Some((Peaks { sample, true_peak }, 0));
    };
    let mut top = sample;
    let mut fed = 0;
    let mut scanned = 0;
    for (i, &p) in stretch_peaks.iter().enumerate() {
        let (a, b) = (i * STRETCH, ((i + 1) * STRETCH).min(n));
        let from = a.saturating_sub(filter.taps - 1);
        if !filter.may_reach(p, top) && !filter.may_reach(peak(from, a), top) {
            continue;
        }
        // The interpolator must hold the real frames before `a`, as in a whole scan.
        let seed = from.max(fed);
        if seed < a {
            meter
                .seed_frames_planar_f32(&[&left[seed..a], &right[seed..a]])
                .ok()?;
        }
        meter
            .add_frames_planar_f32(&[&left[a..b], &right[a..b]])
            .ok()?;
        fed = b;
        scanned += 1;
        top = top.max(meter.true_peak(0).ok()?.max(meter.true_peak(1).ok()?));
    }
    Some((
        Peaks {
            sample,
            true_peak: top,
        },
        scanned,
    ))
}

fn abs_max(x: &[f32]) -> f32 {
    x.iter().fold(0f32, |a, s| a.max(s.abs()))
}

/// What of `ebur128`'s interpolator the skip test needs.
struct Interpolator {
    /// Samples each interpolated value sums.
    taps: usize,
    /// A bound on |interpolated value| / largest |sample| summed.
    gain: f64,
}

impl Interpolator {
    /// The crate's interpolator at `fs` (its factor per rate), `None` where it has none.
    fn at(fs: u32) -> Option<Self> {
        let factor = if fs < 96_000 {
            4
        } else if fs < 192_000 {
            2
        } else {
            return None;
        };
        let taps = FILTER_LEN / factor;
        let l1 = (0..factor)
            .map(|phase| {
                (0..taps)
                    .map(|tap| coefficient(tap * factor + phase, factor).abs())
                    .sum::<f64>()
            })
            .fold(0.0, f64::max);
        // The f32 sum of `taps` f32 products is within (1 + taps·2⁻²⁴)-ish of the exact
        // one (at most 1.5e-6 for 24 taps); 1e-5 covers it with room.
        Some(Self {
            taps,
            gain: l1 * (1.0 + 1e-5),
        })
    }

    /// Whether values interpolated from samples no larger than `peak` may exceed `top`.
    fn may_reach(&self, peak: f32, top: f64) -> bool {
        peak as f64 * self.gain > top
    }
}

/// Coefficient `j` of the crate's filter (`interp.rs`: a Hann-windowed sinc over 48
/// taps, cut at the original band, rounded to f32), laid out tap-major by phase.
fn coefficient(j: usize, factor: usize) -> f64 {
    let j = j as f64;
    let window = FILTER_LEN as f64;
    let w = 0.5 * (1.0 - f64::cos(2.0 * PI * j / window));
    let m = j - window / 2.0;
    let c = if m.abs() > 0.000001 {
        w * f64::sin(m * PI / factor as f64) / (m * PI / factor as f64)
    } else {
        w
    };
    c as f32 as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's true peak over the whole signal, fed in one go.
    fn plain(fs: u32, left: &[f32], right: &[f32]) -> f64 {
        let mut m = EbuR128::new(2, fs, Mode::TRUE_PEAK).unwrap();
        m.add_frames_planar_f32(&[left, right]).unwrap();
        m.true_peak(0).unwrap().max(m.true_peak(1).unwrap())
    }

    fn sine(n: usize, cycles_per_sample: f64, phase: f64, a: f64) -> Vec<f32> {
        (0..n)
            .map(|i| (a * (2.0 * PI * cycles_per_sample * i as f64 + phase).sin()) as f32)
            .collect()
    }

    /// Signals whose true peak lies between samples, late, alone or nowhere.
    fn signals(fs: u32) -> Vec<(&'static str, Vec<f32>, Vec<f32>)> {
        let n = fs as usize / 2;
        let near_quarter = sine(n, 0.2497, 0.77, 0.5);
        // Loud early, then quiet, then a clipped burst near fs/4 whose inter-sample
        // peaks exceed the early part's samples.
        let mut late = sine(n, 0.013, 0.0, 0.9);
        for (i, s) in late.iter_mut().enumerate().skip(n / 10) {
            *s = if i > n - 3000 && i < n - 2000 {
                (1.3 * (2.0 * PI * 0.249 * i as f64 + 0.4).sin()).clamp(-1.0, 1.0) as f32
            } else {
                *s * 0.01
            };
        }
        let mut impulse = vec![0f32; n];
        impulse[n / 3 + 7] = -0.8;
        let alternating: Vec<f32> = (0..n)
            .map(|i| if (i / 3) % 2 == 0 { 0.7 } else { -0.7 })
            .collect();
        vec![
            (
                "sine near fs/4",
                near_quarter.clone(),
                sine(n, 0.2501, 2.1, 0.4),
            ),
            (
                "clipped burst late",
                late.clone(),
                late.iter().map(|s| -0.5 * s).collect(),
            ),
            ("silence", vec![0.0; n], vec![0.0; n]),
            ("impulse", vec![0.0; n], impulse),
            ("square-ish", alternating.clone(), alternating),
            (
                "shorter than a stretch",
                near_quarter[..100].to_vec(),
                near_quarter[5..105].to_vec(),
            ),
            ("one frame", vec![0.3], vec![-0.9]),
            ("empty", vec![], vec![]),
        ]
    }

    /// The skipping scan reads the crate's whole-signal true peak, bit for bit, on
    /// signals whose peaks fall between samples, at each rate's interpolation factor.
    #[test]
    fn the_skipping_scan_reads_the_whole_scan_exactly() {
        for fs in [44_100, 48_000, 96_000, 192_000] {
            for (name, l, r) in signals(fs) {
                let got = peaks(fs, &l, &r).unwrap();
                let want = plain(fs, &l, &r);
                assert_eq!(got.true_peak.to_bits(), want.to_bits(), "{name} at {fs} Hz");
                let sample = l.iter().chain(&r).fold(0f32, |a, s| a.max(s.abs()));
                assert_eq!(got.sample, sample as f64, "{name} at {fs} Hz");
            }
        }
    }

    /// The signals test what they mean to: inter-sample peaks above the sample peak;
    /// and the scan skips what cannot count (the late burst's quiet lead-in).
    #[test]
    fn the_signals_peak_between_samples_and_quiet_stretches_are_skipped() {
        for fs in [44_100, 48_000, 96_000] {
            let signals = signals(fs);
            for (name, l, r) in &signals[..2] {
                let p = peaks(fs, l, r).unwrap();
                assert!(p.true_peak > 1.01 * p.sample, "{name} at {fs} Hz: {p:?}");
            }
            let (_, l, r) = &signals[1];
            let (_, scanned) = scan(fs, l, r).unwrap();
            assert!(
                scanned * 4 < l.len() / STRETCH,
                "{scanned} stretches at {fs} Hz"
            );
        }
    }
}
