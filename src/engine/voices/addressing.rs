//! Which voices a note event addresses: by the host's voice ID, else by key and
//! channel, with CLAP's wildcards. One rule for note-offs, chokes, per-note expression
//! and poly-mod, and the MIDI CCs the engine listens to.

use crate::engine::voice::Voice;

/// MIDI CC numbers the engine listens to.
pub const CC_MOD_WHEEL: u8 = 1;
pub const CC_TIMBRE: u8 = 74;
/// The sustain (damper) pedal: down at 64 and above.
pub const CC_SUSTAIN: u8 = 64;

/// True when the note event (`voice_id`, `key`, `channel`) addresses sounding voice `v`
/// (see [`reaches`]).
pub fn addresses(v: &Voice, voice_id: Option<i32>, key: Option<u8>, channel: Option<u8>) -> bool {
    v.is_active() && reaches((v.voice_id, v.key, v.channel), voice_id, key, channel)
}

/// True when the note event (`voice_id`, `key`, `channel`) addresses the note `(id, key,
/// channel)`: by the host's voice ID when both have one, else by key and channel, where
/// `None` (a CLAP wildcard) matches any. One rule for sounding voices and for a note
/// that a note-on of the same timestamp starts.
pub fn reaches(
    note: (Option<i32>, u8, u8),
    voice_id: Option<i32>,
    key: Option<u8>,
    channel: Option<u8>,
) -> bool {
    let (id, k0, c0) = note;
    match (voice_id, id) {
        (Some(ev), Some(on)) => ev == on,
        _ => key.is_none_or(|k| k == k0) && channel.is_none_or(|c| c == c0),
    }
}
