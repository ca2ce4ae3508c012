//! The one error type of the crate: every way a read or a fit can fail, with a message
//! a command-line user can act on.

use std::fmt;
use std::path::PathBuf;

/// Why a recording could not be read or fitted.
#[derive(Debug)]
pub enum FitError {
    /// The file could not be opened or read.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The bytes are not a WAV or FLAC file this crate decodes, or the file is damaged.
    Format { path: PathBuf, reason: String },
    /// The recording holds no samples (or no channels).
    Empty,
    /// The sample rate is zero, negative or not finite.
    SampleRate(f64),
    /// A sample is NaN or infinite, or the channels differ in length.
    BadSamples(String),
    /// Every sample is zero (or the strike is too short to analyse).
    NoSignal,
    /// A body file is not valid JSON of the expected shape or version.
    BodyFile(String),
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "cannot read {}: {source}", path.display()),
            Self::Format { path, reason } => {
                write!(
                    f,
                    "{} is not a readable WAV or FLAC file: {reason}",
                    path.display()
                )
            }
            Self::Empty => write!(f, "the recording holds no samples"),
            Self::SampleRate(fs) => write!(f, "the sample rate {fs} Hz is not usable"),
            Self::BadSamples(why) => write!(f, "the recording's samples are unusable: {why}"),
            Self::NoSignal => write!(f, "the recording is silent: there is no strike to fit"),
            Self::BodyFile(why) => write!(f, "not a body file: {why}"),
        }
    }
}

impl std::error::Error for FitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
