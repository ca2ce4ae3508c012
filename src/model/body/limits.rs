//! The bank's size and band: how many modes every body has and where they fade out.

/// Number of modes of every body. Modes above [`BAND_LIMIT`] are silenced.
pub const MODES: usize = 16;
/// Modes fade out from [`BAND_FADE`] to here, Hz, at every sample rate: 0.45 of
/// 44.1 kHz, the lowest rate the body is meant for, so that every rate from there up
/// rings the same modes with the same gains. (Below 44.1 kHz modes also fade out
/// between 0.40 and 0.45 `fs` so nothing aliases; the gains stay normalised as at
/// 44.1 kHz, so such a rate is only duller, not quieter.)
pub const BAND_LIMIT: f64 = 0.45 * 44_100.0;
/// Start of the fade-out to [`BAND_LIMIT`], Hz (0.40 of 44.1 kHz).
pub const BAND_FADE: f64 = 0.40 * 44_100.0;
/// The Body pitch and Decay controls' ranges, Hz and s (the engine's limits): a
/// recorded body's reference partial is read inside them, so that loading it sets
/// both controls to values they can hold.
pub const PITCH_RANGE: (f64, f64) = (20.0, 5000.0);
pub const DECAY_RANGE: (f64, f64) = (0.01, 10.0);
/// Length of the crossfade when the body type changes, s.
pub const SWITCH_TIME: f64 = 0.010;
