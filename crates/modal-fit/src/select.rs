//! From band poles to modes: mapping back to the full rate, keeping each pole from the
//! band where it is most central, and dropping what is not a mode of the body.

use rustfft::num_complex::Complex64;
use std::f64::consts::{LN_10, PI};

use crate::band::BandPlan;
use crate::{Mode, esprit, refine};

/// Longest analysis window, band samples (50 ms at the 4 kHz band rate): long enough
/// to part modes a few Hz apart at high SNR, short enough for a fast eigensolver.
const MAX_WINDOW: usize = 200;
/// Most poles sought in one band.
const MAX_ORDER: usize = 40;
/// The wide bands' poles are refined on their first this many seconds: enough for
/// their fast decays (the slow ones are measured again in the narrow bands), s.
const REFINE_WIDE_S: f64 = 0.3;
/// Band blocks for the noise-floor truncation, s.
const BLOCK_S: f64 = 0.01;
/// A pole a little outside its band's own range is still kept (the neighbour's
/// estimate of it may land a little outside too); duplicates are merged afterwards.
pub const GUARD: f64 = 0.05;

/// Which set of bands found a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The wide bands: all of the spectrum, short filters, good for fast decays.
    Wide,
    /// The narrow bands around slow modes: long windows, good for slow decays.
    Narrow,
}

/// A mode as found in one band.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Frequency, Hz.
    pub freq: f64,
    /// Decay rate, 1/s (amplitude ∝ e^{−αt}).
    pub alpha: f64,
    /// Per channel, half the initial amplitude times e^{jφ} at the onset.
    pub coefs: Vec<Complex64>,
    /// Distance from the band's centre in units of half its own range (≤ 1 inside).
    pub centrality: f64,
    /// Which set of bands found it, and which band of the set.
    pub level: Level,
    pub band: usize,
    /// Energy in the band over the noise power per band sample.
    pub snr: f64,
}

impl Candidate {
    /// Initial amplitude, RMS over the channels.
    pub fn amplitude(&self) -> f64 {
        let mean =
            self.coefs.iter().map(Complex64::norm_sqr).sum::<f64>() / self.coefs.len() as f64;
        2.0 * mean.sqrt()
    }

    /// T60 in seconds.
    pub fn t60(&self) -> f64 {
        3.0 * LN_10 / self.alpha
    }

    /// The public mode, its level relative to `reference` (an amplitude).
    pub fn to_mode(&self, reference: f64) -> Mode {
        let loudest = self
            .coefs
            .iter()
            .max_by(|a, b| a.norm_sqr().total_cmp(&b.norm_sqr()));
        let amplitude = self.amplitude();
        Mode {
            freq_hz: self.freq,
            t60_s: self.t60(),
            level_db: 20.0 * (amplitude / reference).log10(),
            amplitude,
            phase: loudest.map_or(0.0, |c| c.arg()),
        }
    }
}

/// The candidate modes of one band of `span` (the channels from the onset on).
/// `decayed`: the recording rings down into its noise before it ends, so a band's
/// quieter blocks are its noise (see [`useful_len`]).
pub fn analyse_band(
    plan: &BandPlan,
    level: Level,
    center: f64,
    span: &[&[f64]],
    decayed: bool,
) -> Vec<Candidate> {
    let band = (center / plan.spacing).floor() as usize;
    let len = plan.band_len(span[0].len());
    let mut ys: Vec<Vec<Complex64>> = span.iter().map(|x| plan.extract(x, center, len)).collect();
    let n = if decayed {
        useful_len(&ys, ((BLOCK_S * plan.fs_band) as usize).max(8))
    } else {
        ys[0].len()
    };
    if n < 24 {
        return Vec::new();
    }
    ys.iter_mut().for_each(|y| y.truncate(n));
    let window = (n / 3).min(MAX_WINDOW);
    let occupied = (2.0 * plan.pass_half / plan.fs_band).min(1.0);
    let mut found = esprit::band_poles(&ys, window, occupied, MAX_ORDER);
    if found.poles.is_empty() {
        return Vec::new();
    }
    let refine_len = match level {
        Level::Wide => n.min((REFINE_WIDE_S * plan.fs_band) as usize),
        Level::Narrow => n,
    };
    refine::refine(&ys, refine_len, &mut found.poles);
    let b = esprit::amplitudes(&ys, &found.poles);
    let d = plan.decim as f64;
    let n0 = plan.first_sample() as f64;
    let mut out = Vec::new();
    for (k, &w) in found.poles.iter().enumerate() {
        let offset = w.arg() * plan.fs_band / (2.0 * PI);
        let centrality = offset.abs() / (plan.spacing / 2.0);
        if centrality > 1.0 + 2.0 * GUARD {
            continue;
        }
        // The full-rate baseband pole: the D-th root inside the band's own range.
        let q = Complex64::from_polar(w.norm().powf(1.0 / d), w.arg() / d);
        let delay = Complex64::from_polar(q.norm().powf(n0), q.arg() * n0);
        let gain = plan.response(q) * delay;
        let coefs: Vec<Complex64> = (0..ys.len()).map(|c| b[(k, c)] / gain).collect();
        let band_energy: f64 = (0..ys.len()).map(|c| b[(k, c)].norm_sqr()).sum();
        out.push(Candidate {
            freq: center + offset,
            alpha: -w.norm().ln() * plan.fs_band,
            coefs,
            centrality,
            level,
            band,
            snr: band_energy * esprit::pole_energy(w, n) / found.noise_psd.max(1e-300),
        });
    }
    out
}

/// Band samples worth analysing: up to the last block standing 10 dB above the band's
/// noise (the 20 % quantile of the block energies); the rest would only add noise.
/// Only for a recording that rings down into its noise: in one cut while it still
/// rings (a sampler's looped note) that quantile is the slowest partial itself, and
/// the band was cut to its first 20 ms (a celesta's fundamental, 0 dB, went unfound).
fn useful_len(ys: &[Vec<Complex64>], block: usize) -> usize {
    let n = ys[0].len();
    let blocks: Vec<f64> = (0..n / block)
        .map(|i| {
            ys.iter()
                .map(|y| {
                    y[i * block..(i + 1) * block]
                        .iter()
                        .map(Complex64::norm_sqr)
                        .sum::<f64>()
                })
                .sum()
        })
        .collect();
    if blocks.len() < 4 {
        return n;
    }
    let noise = crate::onset::quantile(&blocks, 0.2);
    let last = blocks.iter().rposition(|&e| e > noise * 10.0).unwrap_or(0);
    ((last + 2) * block).min(n)
}
