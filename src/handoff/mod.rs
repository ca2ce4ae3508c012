//! What the audio thread and the editor hand each other, lock-free: the contact trace
//! and the last note's capture through triple buffers, the strike pad's notes through a
//! wait-free ring, the output's peak through an atomic. The audio thread's ends are
//! owned by the plugin; the GUI's ends sit in [`EditorShared`].

pub mod capture;
pub mod pad;
pub mod peak;

use crate::engine::ContactTrace;
use nice_plug_egui::RepaintNotifier;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64};

/// What the audio thread shares with the editor.
pub struct EditorShared {
    /// The consumer end of the trace triple buffer (only the GUI thread locks this).
    pub trace: Mutex<triple_buffer::Output<ContactTrace>>,
    pub guard_events: AtomicU64,
    pub active_voices: AtomicU32,
    pub repaint: RepaintNotifier,
    /// Notes from the strike pad to the audio thread (the plugin holds the other end).
    pub pad: pad::PadSender,
    /// The output peak, for the meter.
    pub meter: peak::PeakMeter,
    /// The consumer end of the last note's capture (only the GUI thread locks this).
    pub capture: Mutex<triple_buffer::Output<capture::Capture>>,
}
