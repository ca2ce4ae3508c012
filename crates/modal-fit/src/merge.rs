//! Choosing the modes among the candidates of both sets of bands: each mode once,
//! measured by the bands that suit its decay, above the noise, the strongest kept.

use rustfft::num_complex::Complex64;
use std::f64::consts::{LN_10, PI};

use crate::FitOptions;
use crate::select::{Candidate, Level};
use crate::thirds::{keep_by_band, third_octave};

/// T60 from which the narrow bands measure a mode better than the wide ones, s: the
/// wide bands' 50 ms window spans a tenth of such a decay's time constant.
pub const SLOW_T60: f64 = 0.25;

/// Longest T60 a fit reports, s. A partial that does not decay measurably over the
/// span (a looped sample's sustain, a tone held by its player) has a decay rate of
/// nearly nothing, a T60 of millions of seconds, and ranked by its ring's energy it
/// would outrank every real partial; past a minute it rings on for any playing.
pub const MAX_T60: f64 = 60.0;

/// Candidates that are modes of the body (decaying, in range, above the noise), each
/// once: of the bands of one set that saw the same mode, the one where it sits most
/// centrally reports it.
pub fn screen(mut cands: Vec<Candidate>, fs: f64, opts: &FitOptions) -> Vec<Candidate> {
    cands.retain(|c| c.alpha > 0.0 && c.t60() >= opts.min_t60_s && heard_above_noise(c, fs, opts));
    cands.sort_by(|a, b| a.centrality.total_cmp(&b.centrality));
    let mut kept: Vec<Candidate> = Vec::new();
    for c in cands {
        // Modes a band resolved as two are never merged: only other bands' are.
        let duplicate = kept.iter().any(|k| k.band != c.band && same_mode(k, &c));
        if !duplicate {
            kept.push(c);
        }
    }
    kept
}

/// Frequencies of the partials the wide bands saw growing, above the noise and in
/// range. A partial that swells after the strike (a celesta's or a glockenspiel's
/// fundamental rises for 30–50 ms) is a growing pole in the wide bands' 50 ms window,
/// which `screen` drops; the narrow bands' longer window sees it decay.
pub fn swelling(cands: &[Candidate], fs: f64, opts: &FitOptions) -> Vec<f64> {
    cands
        .iter()
        .filter(|c| c.alpha <= 0.0 && heard_above_noise(c, fs, opts))
        .map(|c| c.freq)
        .collect()
}

/// In the analysed range, `opts.min_snr_db` over its band's noise, and finite: what a
/// candidate must be to be a mode or a narrow band's target.
fn heard_above_noise(c: &Candidate, fs: f64, opts: &FitOptions) -> bool {
    let min_snr = 10f64.powf(opts.min_snr_db / 10.0);
    let top = opts.max_freq_hz.min(fs / 2.0);
    c.freq >= opts.min_freq_hz
        && c.freq <= top
        && c.snr >= min_snr
        && c.coefs.iter().all(|z| z.is_finite())
}

/// Two estimates of one mode lie within a fraction of its bandwidth (and 1 Hz) and
/// agree on its decay within a factor of 3 (a slow mode beside a fast one is two).
fn same_mode(a: &Candidate, b: &Candidate) -> bool {
    let tol = ((a.alpha + b.alpha) / (2.0 * PI) * 0.5).max(1.0);
    (a.freq - b.freq).abs() < tol && (a.alpha / b.alpha).ln().abs() < 3f64.ln()
}

/// Centres of the narrow bands worth analysing: those holding a mode the wide bands
/// found decaying slowly (or nearly so: their T60 estimate of a slow mode is rough),
/// and those at `swelling` (see [`swelling`]).
pub fn narrow_targets(
    wide: &[Candidate],
    swelling: &[f64],
    center_of: impl Fn(f64) -> f64,
) -> Vec<f64> {
    let mut centers: Vec<f64> = wide
        .iter()
        .filter(|c| c.t60() >= SLOW_T60 / 2.0)
        .map(|c| c.freq)
        .chain(swelling.iter().copied())
        .map(center_of)
        .collect();
    centers.sort_by(f64::total_cmp);
    centers.dedup();
    centers
}

/// The final modes: fast ones from the wide bands, slow ones from the narrow bands
/// (falling back on the wide estimate where the narrow bands found nothing near), at
/// most `max_modes` of them kept band by band ([`by_band`]), by increasing frequency.
///
/// The energy of the ring after the strike's first [`ATTACK_S`] ranks (see [`heard`]),
/// rather than the initial amplitude, so that a brief loud click loses to a quieter
/// mode that rings on.
pub fn combine(wide: Vec<Candidate>, narrow: Vec<Candidate>, opts: &FitOptions) -> Vec<Candidate> {
    let narrow: Vec<Candidate> = narrow
        .into_iter()
        .filter(|c| c.t60() >= SLOW_T60 / 2.0)
        .collect();
    let mut out: Vec<Candidate> = wide
        .into_iter()
        .filter(|w| {
            // A slow wide-band mode yields to the narrow bands' view of it, which
            // may also have parted what the wide window saw as one mode.
            let reach = (w.alpha / PI).max(5.0);
            w.t60() < SLOW_T60 || !narrow.iter().any(|n| (n.freq - w.freq).abs() < reach)
        })
        .collect();
    for n in narrow {
        let duplicate = out
            .iter()
            .any(|w| w.level == Level::Wide && w.t60() < SLOW_T60 && same_mode(w, &n));
        if !duplicate {
            out.push(n);
        }
    }
    let min_alpha = 3.0 * LN_10 / MAX_T60;
    out.iter_mut()
        .for_each(|c| c.alpha = c.alpha.max(min_alpha));
    let mut out = coalesce(out);
    let loudest = out.iter().map(Candidate::amplitude).fold(0.0, f64::max);
    let floor = loudest * 10f64.powf(opts.min_level_db / 20.0);
    out.retain(|c| c.amplitude() >= floor);
    out.sort_by(|a, b| heard(b).total_cmp(&heard(a)));
    let mut out = by_band(out, opts.max_modes);
    out.sort_by(|a, b| a.freq.total_cmp(&b.freq));
    out
}

/// At most `most` of `modes` (sorted by [`heard`], most first), kept band by band
/// ([`keep_by_band`]). Kept by energy alone, a recording whose loudest octave holds
/// dozens of partials (a timpani's, a bell's) filled the slots there, and the upper
/// bands a body needs for the recording's brightness were never reported.
fn by_band(modes: Vec<Candidate>, most: usize) -> Vec<Candidate> {
    if modes.len() <= most {
        return modes;
    }
    let band: Vec<i64> = modes.iter().map(|c| third_octave(c.freq)).collect();
    let energy: Vec<f64> = modes.iter().map(heard).collect();
    let keep = keep_by_band(&band, &energy, most);
    modes
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// The strike's attack, s: a mode gone within it is the mallet's click, which a body
/// struck by a modelled contact makes for itself. The Recorded body ranks partials
/// by the same.
pub const ATTACK_S: f64 = 0.02;

/// A mode's ring energy after [`ATTACK_S`] (`∫ |c e^{−αt}|² dt` from there, over the
/// channels): what ranks the modes kept.
fn heard(c: &Candidate) -> f64 {
    c.amplitude().powi(2) / c.alpha * (-2.0 * c.alpha * ATTACK_S).exp()
}

/// Modes whose spectral peaks overlap (closer than the sum of their half-widths,
/// `α/2π` each) and that decay alike (within a factor of 3) are one partial to a body,
/// which plays no phases: ESPRIT may split one partial into such a pair, opposite in
/// phase, each far louder than the partial (a kalimba's tine gave two at 0.4 Hz apart,
/// 25 dB over the recording's peak there). Each such group becomes its most energetic
/// member's frequency and decay with the group's own ring energy (`ring_energy`), and
/// its phase.
fn coalesce(mut modes: Vec<Candidate>) -> Vec<Candidate> {
    let energy = |c: &Candidate| c.amplitude().powi(2) / c.alpha;
    modes.sort_by(|a, b| energy(b).total_cmp(&energy(a)));
    let mut groups: Vec<Vec<Candidate>> = Vec::new();
    for c in modes {
        match groups.iter_mut().find(|g| overlap(&g[0], &c)) {
            Some(g) => g.push(c),
            None => groups.push(vec![c]),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let mut head = g[0].clone();
            if g.len() > 1 {
                for (ch, coef) in head.coefs.iter_mut().enumerate() {
                    let e = ring_energy(&g, ch);
                    let scale = (2.0 * head.alpha * e).max(0.0).sqrt();
                    *coef = Complex64::from_polar(scale, coef.arg());
                }
            }
            head
        })
        .collect()
}

fn overlap(a: &Candidate, b: &Candidate) -> bool {
    (a.freq - b.freq).abs() < (a.alpha + b.alpha) / (2.0 * PI)
        && (a.alpha / b.alpha).ln().abs() < 3f64.ln()
}

/// `∫₀^∞ |Σ_k c_k e^{(−α_k + iω_k)t}|² dt` on channel `ch`: the energy of the group's
/// summed ring, cross terms (beats, cancellation) included.
fn ring_energy(group: &[Candidate], ch: usize) -> f64 {
    let mut e = 0.0;
    for a in group {
        for b in group {
            let rate = Complex64::new(a.alpha + b.alpha, -2.0 * PI * (a.freq - b.freq));
            e += (a.coefs[ch] * b.coefs[ch].conj() / rate).re;
        }
    }
    e
}

#[cfg(test)]
#[path = "merge_tests.rs"]
mod tests;
