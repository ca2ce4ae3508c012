//! Writing the rendered audio: a stereo WAV through hound, 32-bit float or 24-bit PCM.

use std::path::Path;

/// Writes `left` and `right` (as long as each other) as a stereo WAV at the integer rate
/// `fs`: 32-bit IEEE float (as rendered, bit for bit) or 24-bit PCM (rounded, clipped at
/// full scale). Returns how many samples the PCM clipped (counted per channel).
pub fn write_wav(
    path: &Path,
    fs: u32,
    bits: u16,
    left: &[f32],
    right: &[f32],
) -> Result<usize, hound::Error> {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: fs,
        bits_per_sample: bits,
        sample_format: if bits == 24 {
            hound::SampleFormat::Int
        } else {
            hound::SampleFormat::Float
        },
    };
    let mut w = hound::WavWriter::create(path, spec)?;
    let mut clipped = 0;
    for (&l, &r) in left.iter().zip(right) {
        for s in [l, r] {
            if bits == 24 {
                const FULL: f64 = 8_388_607.0;
                let v = (s as f64 * FULL).round();
                if v.abs() > FULL {
                    clipped += 1;
                }
                w.write_sample(v.clamp(-FULL, FULL) as i32)?;
            } else {
                w.write_sample(s)?;
            }
        }
    }
    w.finalize()?;
    Ok(clipped)
}
