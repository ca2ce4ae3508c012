//! Which partials to keep when there are more than slots: band by band, so that the
//! loudest octave does not take every slot. The fit keeps its modes so, and the
//! Recorded body the partials its bank plays.

/// Third-octave band of a frequency: `round(3 log₂(f / 1 kHz))`.
pub fn third_octave(freq_hz: f64) -> i64 {
    (3.0 * (freq_hz / 1000.0).log2()).round() as i64
}

/// Which of `n` partials to keep, at most `most`: given each one's band and energy,
/// sorted by energy (most first), the strongest of all, then the strongest of each
/// band (the bands with the most energy first), then the strongest still out.
pub fn keep_by_band(band: &[i64], energy: &[f64], most: usize) -> Vec<bool> {
    let n = band.len().min(energy.len());
    let bands = band_energies(band, energy);
    let firsts = bands
        .iter()
        .filter_map(|&(b, _)| band.iter().position(|&o| o == b));
    let mut keep = vec![false; n];
    let mut count = 0;
    for i in std::iter::once(0).chain(firsts).chain(0..n) {
        if count == most || i >= n {
            break;
        }
        count += usize::from(!keep[i]);
        keep[i] = true;
    }
    keep
}

/// Each band's summed energy, the most first (ties by band, so the order is the
/// input's alone).
pub fn band_energies(band: &[i64], energy: &[f64]) -> Vec<(i64, f64)> {
    let mut bands: Vec<(i64, f64)> = Vec::new();
    for (&b, &e) in band.iter().zip(energy) {
        match bands.iter_mut().find(|x| x.0 == b) {
            Some(x) => x.1 += e,
            None => bands.push((b, e)),
        }
    }
    bands.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    bands
}
