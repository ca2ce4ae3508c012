//! Modal analysis of a recorded strike: the frequency, T60 and initial level of each
//! decaying partial of a wine glass, pot lid or bell, for playing them back as a body.
//!
//! The method (the README has the details and the measured accuracy):
//! 1. find the strike's onset (`onset`), and fit from there;
//! 2. split the decay into overlapping complex sub-bands at a low rate (`band`);
//! 3. in each band, find the poles with ESPRIT (Roy & Kailath 1989; `esprit`) and
//!    refine them by variable-projection least squares (`refine`);
//! 4. measure the slow modes again in narrow bands, where a window spans more of their
//!    decay (`merge`);
//! 5. map the poles back to the full rate, keep each from the band where it sits most
//!    centrally, drop growing, too short or noise-level ones and keep the strongest,
//!    band by band (`select`, `merge`, `thirds`); measure what the modes leave
//!    unexplained (`synth`).
//!
//! Conventions: a mode is `amplitude · e^{−t·ln(1000)/t60_s} · cos(2π·freq_hz·t + phase)`
//! with `t` in seconds from the onset; T60 is the time to fall 60 dB; `level_db` is
//! relative to the mode with the largest initial amplitude (which is at 0 dB).

mod audio;
mod band;
mod body;
mod error;
mod esprit;
mod merge;
mod onset;
mod refine;
mod select;
mod synth;
mod thirds;

pub use audio::{Recording, read_audio};
pub use body::BodyFile;
pub use error::FitError;
pub use merge::ATTACK_S;
pub use thirds::{band_energies, keep_by_band, third_octave};

use serde::{Deserialize, Serialize};

/// What to look for and how hard.
#[derive(Debug, Clone, PartialEq)]
pub struct FitOptions {
    /// Keep at most this many modes: the strongest of each third-octave band, then the
    /// others with the most ring energy after the strike's first [`ATTACK_S`].
    pub max_modes: usize,
    /// Modes below this frequency are dropped, Hz.
    pub min_freq_hz: f64,
    /// Bands are analysed up to this frequency (and at most 49 % of the sample rate), Hz.
    pub max_freq_hz: f64,
    /// Modes dying faster than this are the strike's click, not the body, s.
    pub min_t60_s: f64,
    /// At most this much of the recording after the onset is analysed, s.
    pub max_span_s: f64,
    /// A mode's energy must exceed the noise in its band by this much, dB.
    pub min_snr_db: f64,
    /// Modes this far below the strongest are dropped, dB: the band filters let
    /// through 80 dB down, so a clean recording would otherwise show their leaks.
    pub min_level_db: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            max_modes: 32,
            min_freq_hz: 20.0,
            max_freq_hz: 20_000.0,
            min_t60_s: 0.01,
            max_span_s: 4.0,
            min_snr_db: 15.0,
            min_level_db: -70.0,
        }
    }
}

/// One decaying partial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mode {
    /// Frequency, Hz.
    pub freq_hz: f64,
    /// Time to decay by 60 dB, s.
    pub t60_s: f64,
    /// Initial amplitude relative to the strongest mode's, dB (the strongest is 0).
    pub level_db: f64,
    /// Initial amplitude at the onset in the recording's units (full scale 1); for
    /// several channels the RMS over the channels.
    pub amplitude: f64,
    /// Phase of the cosine at the onset, radians (of the channel where it is loudest).
    pub phase: f64,
}

/// The modes of a recording and how well they explain it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Sample rate of the recording, Hz.
    pub fs: f64,
    /// Time of the strike from the start of the file, s.
    pub onset_s: f64,
    /// The modes, by increasing frequency.
    pub modes: Vec<Mode>,
    /// Energy of (recording − modes) over the fitted span relative to the recording's
    /// energy there, dB.
    pub residual_db: f64,
    /// RMS of the residual's quieter half (the median 10 ms frame), relative to the
    /// strongest mode's initial amplitude (to the recording's peak when none was
    /// found), dB.
    pub noise_floor_db: f64,
}

/// Finds the decaying modes of a recorded strike.
///
/// Errors for a recording without samples, an unusable sample rate, non-finite
/// samples and a silent recording; a recording too short to analyse gives no modes.
pub fn fit(rec: &Recording, opts: &FitOptions) -> Result<Fit, FitError> {
    validate(rec)?;
    let energy = onset::sample_energy(&rec.channels);
    let start = onset::detect_onset(&energy, rec.fs).ok_or(FitError::NoSignal)?;
    let span_len = (rec.len() - start).min((opts.max_span_s * rec.fs).round().max(1.0) as usize);
    let dithered: Vec<Vec<f64>> = rec
        .channels
        .iter()
        .map(|c| dither(&c[start..start + span_len]))
        .collect();
    let span: Vec<&[f64]> = dithered.iter().map(Vec::as_slice).collect();
    let decayed = rings_down(&energy[start..start + span_len], rec.fs);
    let chosen = find_modes(&span, rec.fs, opts, decayed);
    let synth = synth::compare(&span, &chosen, rec.fs);
    let reference = chosen.iter().map(|m| m.amplitude()).fold(0.0, f64::max);
    let reference = if reference > 0.0 {
        reference
    } else {
        synth.peak
    };
    let modes = chosen.iter().map(|m| m.to_mode(reference)).collect();
    Ok(Fit {
        fs: rec.fs,
        onset_s: start as f64 / rec.fs,
        modes,
        residual_db: synth.residual_db,
        noise_floor_db: 20.0 * (synth.noise_rms / reference).max(1e-15).log10(),
    })
}

/// `x` with seeded white noise [`DITHER_DB`] under its peak added. A recording made
/// by a synthesiser has no noise at all: every band then finds its leakage and
/// rounding as poles far above a noise floor of nothing, and the narrow pass chases
/// each (a noiseless 2 s bell took a minute). Under a real recording's own noise this
/// changes nothing that shows.
fn dither(x: &[f64]) -> Vec<f64> {
    let peak = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = peak * 10f64.powf(DITHER_DB / 20.0) * 3f64.sqrt();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    x.iter()
        .map(|v| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Uniform in [−1, 1): RMS 1/√3, hence the √3 above.
            let u = (seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
            v + scale * u
        })
        .collect()
}

/// The dither's RMS under the recording's peak, dB: a very good 24-bit converter's
/// own noise floor.
const DITHER_DB: f64 = -110.0;

/// Both passes over the bands: all wide bands, then the narrow bands around the slow
/// modes they found.
fn find_modes(
    span: &[&[f64]],
    fs: f64,
    opts: &FitOptions,
    decayed: bool,
) -> Vec<select::Candidate> {
    use select::Level;
    let wide = band::BandPlan::new(fs, band::WIDE_HZ, opts.max_freq_hz);
    let found = analyse_all(&wide, Level::Wide, &wide.centers, span, decayed);
    let swelling = merge::swelling(&found, fs, opts);
    let wide_modes = merge::screen(found, fs, opts);
    let narrow = band::BandPlan::new(fs, band::NARROW_HZ, 0.0);
    let targets = merge::narrow_targets(&wide_modes, &swelling, |f| narrow.center_of(f));
    let found = analyse_all(&narrow, Level::Narrow, &targets, span, decayed);
    let narrow_modes = merge::screen(found, fs, opts);
    merge::combine(wide_modes, narrow_modes, opts)
}

/// Whether the strike rings down into the recording's noise before the span ends: its
/// last 50 ms are over [`RING_DOWN_DB`] under its loudest 50 ms (`energy` per sample
/// from the onset). A sampler's note cut at its loop, or a recording stopped early,
/// does not.
fn rings_down(energy: &[f64], fs: f64) -> bool {
    let block = ((0.05 * fs) as usize).max(1);
    let blocks: Vec<f64> = energy.chunks(block).map(|b| b.iter().sum()).collect();
    let (Some(&last), true) = (blocks.last(), blocks.len() >= 3) else {
        return true;
    };
    let loudest = blocks.iter().copied().fold(0.0, f64::max);
    last < loudest * 10f64.powf(-RING_DOWN_DB / 10.0)
}

/// How far under its loudest a recording's end must be to have rung down, dB.
const RING_DOWN_DB: f64 = 30.0;

/// The candidates of the bands at `centers`, in their order. The bands are
/// independent, so the machine's cores take them in turn from a shared count (the
/// dearest bands, dense and slow, are not neighbours).
fn analyse_all(
    plan: &band::BandPlan,
    level: select::Level,
    centers: &[f64],
    span: &[&[f64]],
    decayed: bool,
) -> Vec<select::Candidate> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let one = |c: f64| select::analyse_band(plan, level, c, span, decayed);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = threads.min(centers.len());
    if threads <= 1 {
        return centers.iter().flat_map(|&c| one(c)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Vec<select::Candidate>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&c) = centers.get(i) else { break };
                        mine.push((i, one(c)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a band's analysis panicked"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().flat_map(|(_, found)| found).collect()
}

fn validate(rec: &Recording) -> Result<(), FitError> {
    if !(rec.fs.is_finite() && rec.fs > 0.0) {
        return Err(FitError::SampleRate(rec.fs));
    }
    if rec.is_empty() {
        return Err(FitError::Empty);
    }
    if rec.channels.iter().any(|c| c.len() != rec.len()) {
        return Err(FitError::BadSamples("the channels differ in length".into()));
    }
    if rec.channels.iter().flatten().any(|x| !x.is_finite()) {
        return Err(FitError::BadSamples("a sample is NaN or infinite".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strike that falls 60 dB by the end has rung down; one cut 8 dB under its
    /// loudest (a looped note) has not; too short to tell counts as rung down.
    #[test]
    fn rings_down_tells_a_decay_from_a_cut() {
        let fs = 48_000.0;
        let decay = |db_per_s: f64, s: f64| -> Vec<f64> {
            (0..(s * fs) as usize)
                .map(|i| 10f64.powf(-db_per_s * i as f64 / fs / 10.0))
                .collect()
        };
        assert!(rings_down(&decay(60.0, 1.5), fs));
        assert!(!rings_down(&decay(16.0, 0.5), fs));
        assert!(rings_down(&decay(0.0, 0.08), fs));
    }
}
