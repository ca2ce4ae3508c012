//! Fewer partials than a recording has, with its spectral balance kept.
//!
//! The bank plays at most [`MODES`](super::limits::MODES) modes, and a fit of a
//! recording with dense partials (a cymbal, a pot lid, a large bell) finds more. Kept
//! by energy alone, the survivors crowd into the loudest octaves and the upper bands go
//! silent: the body loses the recording's brightness and texture. So the partials are
//! kept by third-octave band: each band that holds energy keeps its strongest partial
//! (the loudest bands first, where there are more bands than modes), the slots left go
//! to the strongest partials still out, and the partials kept in each band are scaled
//! to carry the whole band's ring energy ([`energy`]), so each band sounds as
//! loud as in the recording. The strongest partial as fitted is always kept; the body's
//! pitch reference is the partial with the most energy as kept (a band of many weak
//! partials may outweigh it). A set that already fits is left as it is, so a body made
//! again from what it kept is the same body.

use modal_fit::{ATTACK_S, band_energies, third_octave};

/// One partial of a recording, as a body file holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Partial {
    pub freq_hz: f64,
    pub t60_s: f64,
    /// Linear amplitude (any scale: only the ratios between partials count).
    pub amplitude: f64,
}

/// The ring energy a partial carries after the strike's first [`ATTACK_S`]
/// (amplitude² × T60, times what is left of it by then): what the fit ranks partials
/// by. A partial gone within those milliseconds is the recording mallet's click, which
/// a strike's own contact makes; ranked by its whole energy, a loud click took a slot
/// from a quieter partial that rings on.
pub(super) fn energy(p: &Partial) -> f64 {
    p.amplitude * p.amplitude * p.t60_s * 10f64.powf(-6.0 * ATTACK_S / p.t60_s)
}

fn band(p: &Partial) -> i64 {
    third_octave(p.freq_hz)
}

/// At most `most` of `partials` (sorted by [`energy`], most first; finite and
/// positive), sorted the same way, each band's energy kept (see the module doc).
pub(super) fn keep_by_band(partials: Vec<Partial>, most: usize) -> Vec<Partial> {
    if partials.len() <= most || most == 0 {
        return partials;
    }
    let of: Vec<i64> = partials.iter().map(band).collect();
    let energies: Vec<f64> = partials.iter().map(energy).collect();
    let keep = modal_fit::keep_by_band(&of, &energies, most);
    // Each band's energy, carried by what it keeps.
    let bands = band_energies(&of, &energies);
    let mut kept: Vec<Partial> = Vec::with_capacity(most);
    for &(b, e_band) in &bands {
        let in_band: Vec<usize> = (0..partials.len())
            .filter(|&i| keep[i] && of[i] == b)
            .collect();
        let e_kept: f64 = in_band.iter().map(|&i| energy(&partials[i])).sum();
        let g = (e_band / e_kept).sqrt();
        kept.extend(in_band.iter().map(|&i| Partial {
            amplitude: partials[i].amplitude * g,
            ..partials[i]
        }));
    }
    kept.sort_by(|a, b| energy(b).total_cmp(&energy(a)));
    kept
}
