//! The random patches and notes the note-on benches play: the same 1000 patches, keys
//! and velocities in every bench, drawn from one fixed xorshift stream.

use rebound::engine::EngineParams;

/// Patches drawn in [`random_notes`].
pub const PATCHES: usize = 1000;
/// Notes played after each patch change.
pub const NOTES: usize = 16;

/// A patch drawn from the full ranges: every number uniform in the host's normalised
/// value (so log-scaled ones evenly in their log), every choice uniform.
pub fn random_patch(uniform: &mut impl FnMut() -> f64) -> EngineParams {
    use rebound::engine::spec::normalized::unnormalize;
    use rebound::engine::spec::{CHOICES, NUMBERS};
    let mut p = EngineParams::default();
    for n in NUMBERS.iter() {
        (n.set)(&mut p, unnormalize(n, uniform()));
    }
    for c in CHOICES.iter() {
        (c.set)(&mut p, (uniform() * c.choices.len() as f64) as usize);
    }
    p
}

/// [`PATCHES`] random patches, each with its [`NOTES`] notes (key, velocity).
pub fn random_notes() -> Vec<(EngineParams, [(u8, f32); NOTES])> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..PATCHES)
        .map(|_| {
            let p = random_patch(&mut uniform);
            let notes = std::array::from_fn(|_| ((uniform() * 128.0) as u8, uniform() as f32));
            (p, notes)
        })
        .collect()
}
