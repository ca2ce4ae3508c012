//! Choosing the modes among the candidates of both sets of bands: each mode once,
//! measured by the bands that suit its decay, above the noise, the strongest kept.

use std::f64::consts::PI;

use crate::FitOptions;
use crate::select::{Candidate, Level};

/// T60 from which the narrow bands measure a mode better than the wide ones, s: the
/// wide bands' 50 ms window spans a tenth of such a decay's time constant.
pub const SLOW_T60: f64 = 0.25;

/// Candidates that are modes of the body (decaying, in range, above the noise), each
/// once: of the bands of one set that saw the same mode, the one where it sits most
/// centrally reports it.
pub fn screen(mut cands: Vec<Candidate>, fs: f64, opts: &FitOptions) -> Vec<Candidate> {
    let min_snr = 10f64.powf(opts.min_snr_db / 10.0);
    let top = opts.max_freq_hz.min(fs / 2.0);
    cands.retain(|c| {
        c.alpha > 0.0
            && c.freq >= opts.min_freq_hz
            && c.freq <= top
            && c.t60() >= opts.min_t60_s
            && c.snr >= min_snr
            && c.coefs.iter().all(|z| z.is_finite())
    });
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

/// Two estimates of one mode lie within a fraction of its bandwidth (and 1 Hz) and
/// agree on its decay within a factor of 3 (a slow mode beside a fast one is two).
fn same_mode(a: &Candidate, b: &Candidate) -> bool {
    let tol = ((a.alpha + b.alpha) / (2.0 * PI) * 0.5).max(1.0);
    (a.freq - b.freq).abs() < tol && (a.alpha / b.alpha).ln().abs() < 3f64.ln()
}

/// Centres of the narrow bands worth analysing: those holding a mode the wide bands
/// found decaying slowly (or nearly so: their T60 estimate of a slow mode is rough).
pub fn narrow_targets(wide: &[Candidate], center_of: impl Fn(f64) -> f64) -> Vec<f64> {
    let mut centers: Vec<f64> = wide
        .iter()
        .filter(|c| c.t60() >= SLOW_T60 / 2.0)
        .map(|c| center_of(c.freq))
        .collect();
    centers.sort_by(f64::total_cmp);
    centers.dedup();
    centers
}

/// The final modes: fast ones from the wide bands, slow ones from the narrow bands
/// (falling back on the wide estimate where the narrow bands found nothing near), the
/// `max_modes` with the most energy, by increasing frequency.
///
/// Energy (amplitude² × T60) ranks rather than the initial amplitude so that a brief
/// loud click loses to a quieter mode that rings on.
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
    let loudest = out.iter().map(Candidate::amplitude).fold(0.0, f64::max);
    let floor = loudest * 10f64.powf(opts.min_level_db / 20.0);
    out.retain(|c| c.amplitude() >= floor);
    let energy = |c: &Candidate| c.amplitude().powi(2) / c.alpha;
    out.sort_by(|a, b| energy(b).total_cmp(&energy(a)));
    out.truncate(opts.max_modes);
    out.sort_by(|a, b| a.freq.total_cmp(&b.freq));
    out
}
