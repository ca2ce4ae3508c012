//! The body file: a fit as versioned JSON that the plugin and the CLI read back.

use serde::{Deserialize, Serialize};

use crate::{Fit, FitError};

/// A [`Fit`] with the format's version, serialised flat:
/// `{"version":1,"fs":…,"onset_s":…,"modes":[…],"residual_db":…,"noise_floor_db":…}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyFile {
    /// Format version; this crate writes and reads 1.
    pub version: u32,
    /// The fit.
    #[serde(flatten)]
    pub fit: Fit,
}

impl BodyFile {
    /// The version this crate writes.
    pub const VERSION: u32 = 1;

    /// Wraps a fit in the current version.
    pub fn new(fit: Fit) -> Self {
        Self {
            version: Self::VERSION,
            fit,
        }
    }

    /// Pretty JSON; every float parses back to the same bits.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a body file is plain data")
    }

    /// Parses a body file, refusing other versions.
    pub fn from_json(text: &str) -> Result<Self, FitError> {
        let body: Self =
            serde_json::from_str(text).map_err(|e| FitError::BodyFile(e.to_string()))?;
        if body.version != Self::VERSION {
            return Err(FitError::BodyFile(format!(
                "version {} (this build reads version {})",
                body.version,
                Self::VERSION
            )));
        }
        Ok(body)
    }
}
