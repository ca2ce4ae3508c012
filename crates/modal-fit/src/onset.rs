//! Finding the strike in a recording that may start with silence or noise.
//!
//! The strike is the loudest event; the onset is where the energy, summed over the
//! channels (so that no channel's polarity can hide it), last rose out of the noise
//! before that loudest millisecond.

/// Energy of each sample summed over the channels.
pub fn sample_energy(channels: &[Vec<f64>]) -> Vec<f64> {
    let n = channels.first().map_or(0, Vec::len);
    let mut e = vec![0.0; n];
    for ch in channels {
        for (acc, &x) in e.iter_mut().zip(ch) {
            *acc += x * x;
        }
    }
    e
}

/// The `q`-quantile (0..=1) of `values`; 0 for an empty slice.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    let k = ((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    let (_, kth, _) = v.select_nth_unstable_by(k, f64::total_cmp);
    *kth
}

/// Sample index of the strike's onset, or `None` when every sample is zero.
///
/// Frames of 1 ms give the loudest moment and a noise level (the 10 % quantile of the
/// frame energies: pre-roll or the decayed tail). Walking back from the loudest frame
/// while frames stay above the larger of noise + 12 dB and peak − 40 dB finds the
/// rise; the first sample there above the same level (with a 15 dB margin against
/// single noise samples) is the onset.
pub fn detect_onset(energy: &[f64], fs: f64) -> Option<usize> {
    let frame = ((fs * 1e-3).round() as usize).max(1);
    let frames: Vec<f64> = energy
        .chunks(frame)
        .map(|c| c.iter().sum::<f64>() / c.len() as f64)
        .collect();
    let (peak_idx, &peak) = frames
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    if peak <= 0.0 {
        return None;
    }
    let noise = quantile(&frames, 0.1);
    let level = (noise * 10f64.powf(1.2)).max(peak * 1e-4);
    let mut first = peak_idx;
    while first > 0 && frames[first - 1] > level {
        first -= 1;
    }
    // The rise may begin within the frame before the first loud one.
    let search_from = first.saturating_sub(1) * frame;
    let sample_level = (noise * 10f64.powf(1.5)).max(peak * 1e-4);
    let onset = energy[search_from..]
        .iter()
        .position(|&e| e > sample_level)
        .map_or(first * frame, |i| search_from + i);
    Some(onset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn onset_after_silence_is_exact() {
        let fs = 48_000.0;
        let mut x = vec![0.0; 4800];
        x.extend((0..4800).map(|n| (n as f64 * 0.3 + 0.5).sin() * (-(n as f64) / 2000.0).exp()));
        let e = sample_energy(&[x]);
        assert_eq!(detect_onset(&e, fs), Some(4800));
    }

    #[test]
    fn silence_has_no_onset() {
        assert_eq!(detect_onset(&[0.0; 1000], 48_000.0), None);
        assert_eq!(detect_onset(&[], 48_000.0), None);
    }

    #[test]
    fn quantile_picks_order_statistics() {
        let v = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 1.0), 5.0);
    }
}
