//! Spectra of rendered audio, shared by the editor's spectrum plot and the tests: a
//! radix-2 FFT and a Hann-windowed spectrum in dBFS. Plain numbers, no framework types.

/// The spectrum's floor, dBFS.
pub const FLOOR_DB: f64 = -140.0;

/// In-place radix-2 FFT (`re.len()` a power of two).
pub fn fft(re: &mut [f64], im: &mut [f64]) {
    let n = re.len();
    debug_assert!(n.is_power_of_two() && im.len() == n);
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            re.swap(i, j);
            im.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let ang = -2.0 * std::f64::consts::PI / len as f64;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let (s, c) = (ang * k as f64).sin_cos();
                let (a, b) = (start + k, start + k + len / 2);
                let tr = re[b] * c - im[b] * s;
                let ti = re[b] * s + im[b] * c;
                re[b] = re[a] - tr;
                im[b] = im[a] - ti;
                re[a] += tr;
                im[a] += ti;
            }
        }
        len <<= 1;
    }
}

/// `[frequency Hz, level dBFS]` of every bin from DC to Nyquist: Hann window over the
/// samples, zero-padded to a power of two, scaled so that a full-scale sine on a bin
/// reads 0 dBFS.
pub fn spectrum_db(samples: &[f32], fs: f64) -> Vec<[f64; 2]> {
    let len = samples.len();
    if len < 2 || !fs.is_finite() || fs <= 0.0 {
        return Vec::new();
    }
    let n = len.next_power_of_two();
    let mut re = vec![0.0; n];
    let mut im = vec![0.0; n];
    let mut wsum = 0.0;
    for (i, s) in samples.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / (len - 1) as f64).cos();
        wsum += w;
        re[i] = *s as f64 * w;
    }
    fft(&mut re, &mut im);
    (0..=n / 2)
        .map(|k| {
            let mag = (re[k] * re[k] + im[k] * im[k]).sqrt() * 2.0 / wsum;
            let db = if mag > 0.0 {
                (20.0 * mag.log10()).max(FLOOR_DB)
            } else {
                FLOOR_DB
            };
            [k as f64 * fs / n as f64, db]
        })
        .collect()
}
