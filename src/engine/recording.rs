//! A recorded body's partials in and out of JSON: read from a body file (`rebound
//! fit`'s, version 1), and saved with a preset or the plugin's state, so that a
//! session or preset keeps its body when the file has gone. Loading registers the
//! body (`body::register`), off the audio thread, and sets the patch to play it.

use super::EngineParams;
use crate::model::body::{BodyType, Partial, Recorded, recorded, register};
use serde::{Deserialize, Serialize};

/// The body-file versions this build reads.
pub const BODY_FILE_VERSION: u32 = 1;

/// One partial as a preset, the plugin's state and a body file spell it (a body file's
/// modes carry more fields, which are ignored).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedPartial {
    pub freq_hz: f64,
    pub t60_s: f64,
    pub amplitude: f64,
}

#[derive(Deserialize)]
struct BodyFileText {
    version: u32,
    modes: Vec<SavedPartial>,
}

/// The body of a body file's text.
pub fn body_from_file_text(text: &str) -> Result<Recorded, String> {
    let file: BodyFileText =
        serde_json::from_str(text).map_err(|e| format!("not a body file: {e}"))?;
    if file.version != BODY_FILE_VERSION {
        return Err(format!(
            "body file version {} (this build reads version {BODY_FILE_VERSION})",
            file.version
        ));
    }
    body_from_saved(&file.modes)
}

/// The body of a body file.
pub fn read_body_file(path: &std::path::Path) -> Result<Recorded, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    body_from_file_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The body of saved partials.
pub fn body_from_saved(partials: &[SavedPartial]) -> Result<Recorded, String> {
    let partials: Vec<Partial> = partials
        .iter()
        .map(|p| Partial {
            freq_hz: p.freq_hz,
            t60_s: p.t60_s,
            amplitude: p.amplitude,
        })
        .collect();
    Recorded::new(&partials)
}

/// The partials of the registered body at `index`, to save (none for 0, the built-in
/// one, which every build has, or an index never registered).
pub fn partials_of(index: u16) -> Option<Vec<SavedPartial>> {
    let r = recorded(index).filter(|_| index > 0)?;
    Some(
        r.partials[..r.count]
            .iter()
            .map(|q| SavedPartial {
                freq_hz: q.freq_hz,
                t60_s: q.t60_s,
                amplitude: q.amplitude,
            })
            .collect(),
    )
}

/// Registers `body` and makes `p` play it: Body at Recorded, and (with `tune`) Body
/// pitch and Decay at its reference partial's frequency and T60 (within their ranges),
/// so that it sounds as recorded.
pub fn use_body(p: &mut EngineParams, body: &Recorded, tune: bool) -> Result<(), String> {
    p.recording = register(body)?;
    p.body = BodyType::Recorded;
    if tune {
        let (lo, hi) = (&super::params::LIMITS[0], &super::params::LIMITS[1]);
        p.body_freq = body.f_ref.clamp(lo.body_freq, hi.body_freq);
        p.t60 = body.t60_ref.clamp(lo.t60, hi.t60);
    }
    Ok(())
}

/// Registers the body of saved partials as JSON (a preset's `recorded`): its index.
pub fn register_json(v: &serde_json::Value) -> Result<u16, String> {
    let partials: Vec<SavedPartial> =
        serde_json::from_value(v.clone()).map_err(|e| format!("not a list of partials: {e}"))?;
    register(&body_from_saved(&partials)?)
}
