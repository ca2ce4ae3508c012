//! Offline rendering through the same engine the plugin runs (`rebound render`, tests).

use crate::engine::params::EngineParams;
use crate::engine::trace::ContactTrace;
use crate::engine::voices::Engine;

/// A note for [`render`]: key, velocity in `[0, 1]`, start in samples, and the sample
/// at which its key is released (`None`: held to the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoteSpec {
    pub at: usize,
    pub key: u8,
    pub velocity: f32,
    pub off: Option<usize>,
}

/// What [`render`] gives back.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub fs: f64,
    /// The output's left channel.
    pub left: Vec<f32>,
    /// The output's right channel (as long as `left`).
    pub right: Vec<f32>,
    /// Summed normalised wall force (1 = analytic peak of a full-velocity strike).
    pub force: Vec<f32>,
    /// The last contact's trace (with the per-bounce energy drift).
    pub trace: ContactTrace,
    pub guard_events: u64,
}

/// Renders notes offline through the same engine the plugin runs.
pub fn render(params: &EngineParams, fs: f64, notes: &[NoteSpec], samples: usize) -> Rendered {
    render_with_progress(params, fs, notes, samples, usize::MAX, &mut |_| {})
}

/// [`render`] in blocks of at most `block` samples, calling `progress` with the samples
/// rendered so far after each (the output does not depend on the blocks).
pub fn render_with_progress(
    params: &EngineParams,
    fs: f64,
    notes: &[NoteSpec],
    samples: usize,
    block: usize,
    progress: &mut dyn FnMut(usize),
) -> Rendered {
    let block = block.max(1);
    let mut engine = Engine::new(fs);
    engine.set_params(params);
    // Start the smoothers at the parameters, as the plugin's activation does.
    engine.set_sample_rate(fs);
    let mut left = vec![0.0f32; samples];
    let mut right = vec![0.0f32; samples];
    let mut force = vec![0.0f32; samples];
    // Note-ons and note-offs in time order; at the same sample, given order, a note's
    // own on before its off.
    let mut events: Vec<(usize, Option<f32>, u8)> = Vec::with_capacity(2 * notes.len());
    for n in notes {
        events.push((n.at, Some(n.velocity), n.key));
        if let Some(off) = n.off {
            events.push((off.max(n.at), None, n.key));
        }
    }
    events.sort_by_key(|e| (e.0, e.1.is_none()));
    // The level of every key played is calibrated before the first note.
    engine.prepare_levels(notes.iter().map(|n| n.key));
    let mut pos = 0;
    let mut next = 0;
    while pos < samples {
        while next < events.len() && events[next].0 <= pos {
            match events[next] {
                (_, Some(velocity), key) => engine.note_on(key, velocity, 0, None),
                (_, None, key) => engine.note_off(Some(key), Some(0), None),
            }
            next += 1;
        }
        let end = events
            .get(next)
            .map_or(samples, |e| e.0.min(samples))
            .min(pos.saturating_add(block));
        engine.render_with_force(
            &mut left[pos..end],
            &mut right[pos..end],
            Some(&mut force[pos..end]),
        );
        pos = end;
        progress(pos);
    }
    Rendered::from_engine(&engine, fs, left, right, force)
}

impl Rendered {
    /// The audio and force rendered by `engine`, with its last trace and guard count.
    pub fn from_engine(
        engine: &Engine,
        fs: f64,
        left: Vec<f32>,
        right: Vec<f32>,
        force: Vec<f32>,
    ) -> Self {
        Self {
            fs,
            left,
            right,
            force,
            trace: engine.last_trace().clone(),
            guard_events: engine.guard_events(),
        }
    }

    /// Length in samples (per channel).
    pub fn len(&self) -> usize {
        self.left.len()
    }

    pub fn is_empty(&self) -> bool {
        self.left.is_empty()
    }

    /// Largest |sample| over both channels.
    pub fn peak(&self) -> f32 {
        self.left
            .iter()
            .chain(&self.right)
            .fold(0.0f32, |m, v| m.max(v.abs()))
    }

    /// The mono sum `(L + R) / 2`, what a mono fold-down plays.
    pub fn mono(&self) -> Vec<f32> {
        self.left
            .iter()
            .zip(&self.right)
            .map(|(l, r)| 0.5 * (l + r))
            .collect()
    }
}
