//! Reading WAV and FLAC files into floating-point channels.
//!
//! The format is chosen by the file's first bytes (`RIFF`/`RIFX`/`RF64` or `fLaC`), not
//! its name, so a mislabelled file still reads and garbage is refused with a message.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::FitError;

/// A decoded recording: the sample rate and one vector per channel, integer formats
/// scaled so that full scale is ±1.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Sample rate in Hz.
    pub fs: f64,
    /// The samples of each channel, all of the same length.
    pub channels: Vec<Vec<f64>>,
}

impl Recording {
    /// Number of samples per channel (0 for a recording without channels).
    pub fn len(&self) -> usize {
        self.channels.first().map_or(0, Vec::len)
    }

    /// True when the recording holds no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Reads a WAV (8/16/24/32-bit integer or 32-bit float) or FLAC file.
///
/// Errors (never panics) for a missing file, bytes that are neither format, a file with
/// no samples and a sample rate of 0.
pub fn read_audio(path: &Path) -> Result<Recording, FitError> {
    let io_err = |source| FitError::Io {
        path: path.to_path_buf(),
        source,
    };
    let format_err = |reason: String| FitError::Format {
        path: path.to_path_buf(),
        reason,
    };
    let mut magic = [0u8; 4];
    let mut file = File::open(path).map_err(io_err)?;
    let got = read_up_to(&mut file, &mut magic).map_err(io_err)?;
    if got == 0 {
        return Err(format_err("the file is empty".into()));
    }
    drop(file);
    let rec = match &magic[..got] {
        b"fLaC" => read_flac(path).map_err(format_err)?,
        b"RIFF" | b"RIFX" | b"RF64" => read_wav(path).map_err(format_err)?,
        _ => {
            return Err(format_err(
                "it starts with neither a RIFF nor a fLaC header".into(),
            ));
        }
    };
    if !(rec.fs.is_finite() && rec.fs > 0.0) {
        return Err(FitError::SampleRate(rec.fs));
    }
    if rec.is_empty() {
        return Err(FitError::Empty);
    }
    Ok(rec)
}

/// Fills `buf` as far as the file allows (a short file is not an error here).
fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

fn read_wav(path: &Path) -> Result<Recording, String> {
    let reader = hound::WavReader::open(path).map_err(|e| e.to_string())?;
    let spec = reader.spec();
    let n_ch = usize::from(spec.channels);
    if n_ch == 0 {
        return Err("it declares no channels".into());
    }
    let interleaved: Vec<f64> = match spec.sample_format {
        hound::SampleFormat::Float => {
            if spec.bits_per_sample != 32 {
                return Err(format!(
                    "{}-bit float is not supported",
                    spec.bits_per_sample
                ));
            }
            let samples = reader.into_samples::<f32>().map(|s| s.map(f64::from));
            samples
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?
        }
        hound::SampleFormat::Int => {
            let scale = int_scale(u32::from(spec.bits_per_sample))?;
            let samples = reader
                .into_samples::<i32>()
                .map(|s| s.map(|v| f64::from(v) * scale));
            samples
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?
        }
    };
    Ok(deinterleave(
        f64::from(spec.sample_rate),
        n_ch,
        &interleaved,
    ))
}

fn read_flac(path: &Path) -> Result<Recording, String> {
    let file = File::open(path).map_err(|e| e.to_string())?;
    let mut reader = claxon::FlacReader::new(BufReader::new(file)).map_err(|e| e.to_string())?;
    let info = reader.streaminfo();
    let n_ch = info.channels as usize;
    let scale = int_scale(info.bits_per_sample)?;
    let interleaved: Vec<f64> = reader
        .samples()
        .map(|s| s.map(|v| f64::from(v) * scale))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    Ok(deinterleave(
        f64::from(info.sample_rate),
        n_ch,
        &interleaved,
    ))
}

/// Maps a signed integer of `bits` bits to ±1 full scale.
fn int_scale(bits: u32) -> Result<f64, String> {
    if !(1..=32).contains(&bits) {
        return Err(format!("{bits}-bit integer samples are not supported"));
    }
    Ok(1.0 / f64::from(1u32 << (bits - 1)))
}

fn deinterleave(fs: f64, n_ch: usize, interleaved: &[f64]) -> Recording {
    let frames = interleaved.len() / n_ch;
    let channels = (0..n_ch)
        .map(|c| (0..frames).map(|i| interleaved[i * n_ch + c]).collect())
        .collect();
    Recording { fs, channels }
}
