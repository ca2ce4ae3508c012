//! Offline output for `rebound render`: a 32-bit float WAV writer (a hand-written RIFF
//! header). The plot is drawn by the command-line tool itself (`src/bin/rebound/plot.rs`).

use std::io::{self, Write};
use std::path::Path;

/// Writes mono `samples` as a 32-bit float WAV with `channels` identical channels.
pub fn write_wav(path: &Path, fs: u32, channels: u16, samples: &[f32]) -> io::Result<()> {
    let mut out = io::BufWriter::new(std::fs::File::create(path)?);
    let data_len = (samples.len() * channels as usize * 4) as u32;
    let block_align = channels * 4;
    out.write_all(b"RIFF")?;
    out.write_all(&(36 + data_len).to_le_bytes())?;
    out.write_all(b"WAVEfmt ")?;
    out.write_all(&16u32.to_le_bytes())?;
    out.write_all(&3u16.to_le_bytes())?; // IEEE float
    out.write_all(&channels.to_le_bytes())?;
    out.write_all(&fs.to_le_bytes())?;
    out.write_all(&(fs * block_align as u32).to_le_bytes())?;
    out.write_all(&block_align.to_le_bytes())?;
    out.write_all(&32u16.to_le_bytes())?;
    out.write_all(b"data")?;
    out.write_all(&data_len.to_le_bytes())?;
    for s in samples {
        for _ in 0..channels {
            out.write_all(&s.to_le_bytes())?;
        }
    }
    out.flush()
}
