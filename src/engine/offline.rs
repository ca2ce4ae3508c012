//! Offline rendering through the same engine the plugin runs (`rebound render`, tests).

use super::{ContactTrace, Engine, EngineParams};

/// A note for [`render`]: key, velocity in `[0, 1]`, start in samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoteSpec {
    pub at: usize,
    pub key: u8,
    pub velocity: f32,
}

/// What [`render`] gives back.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub fs: f64,
    /// The output (mono; the plugin writes it to both channels).
    pub audio: Vec<f32>,
    /// Summed normalised wall force (1 = analytic peak of a full-velocity strike).
    pub force: Vec<f32>,
    /// The last contact's trace (with the per-bounce energy drift).
    pub trace: ContactTrace,
    pub guard_events: u64,
}

/// Renders notes offline through the same engine the plugin runs.
pub fn render(params: &EngineParams, fs: f64, notes: &[NoteSpec], samples: usize) -> Rendered {
    let mut engine = Engine::new(fs);
    engine.set_params(params);
    // Start the smoothers at the parameters, as the plugin's activation does.
    engine.set_sample_rate(fs);
    let mut audio = vec![0.0f32; samples];
    let mut force = vec![0.0f32; samples];
    let mut notes: Vec<NoteSpec> = notes.to_vec();
    notes.sort_by_key(|n| n.at);
    let mut pos = 0;
    let mut next = 0;
    while pos < samples {
        while next < notes.len() && notes[next].at <= pos {
            engine.note_on(notes[next].key, notes[next].velocity, 0, None);
            next += 1;
        }
        let end = notes.get(next).map_or(samples, |n| n.at.min(samples));
        engine.render_with_force(&mut audio[pos..end], Some(&mut force[pos..end]));
        pos = end;
    }
    Rendered {
        fs,
        audio,
        force,
        trace: engine.last_trace().clone(),
        guard_events: engine.guard_events(),
    }
}
