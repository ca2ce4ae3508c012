//! The strike pad's notes, from the GUI thread to the audio thread, through a fixed
//! single-producer single-consumer ring (`rtrb`): [`PadSender`] for the GUI,
//! [`PadReceiver`] owned by the plugin, so the audio thread never locks or allocates
//! for them.

use std::sync::Mutex;

/// Ring size: more notes than a user clicks between two audio blocks.
pub const PAD_QUEUE: usize = 64;

/// A note from the pad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadEvent {
    On { key: u8, velocity: f32 },
    Off { key: u8 },
}

/// The two ends of a ring of [`PAD_QUEUE`] pad notes (allocated here, once).
pub fn pad_channel() -> (PadSender, PadReceiver) {
    let (tx, rx) = rtrb::RingBuffer::new(PAD_QUEUE);
    (PadSender(Mutex::new(tx)), PadReceiver(rx))
}

/// The GUI's end: shared with the editor, which may run on any GUI thread (only GUI
/// threads ever lock it).
pub struct PadSender(Mutex<rtrb::Producer<PadEvent>>);

impl PadSender {
    /// Queues a note; false when the ring is full (the note is dropped).
    pub fn push(&self, e: PadEvent) -> bool {
        match self.0.lock() {
            Ok(mut tx) => tx.push(e).is_ok(),
            Err(_) => false,
        }
    }
}

/// The audio thread's end.
pub struct PadReceiver(rtrb::Consumer<PadEvent>);

impl PadReceiver {
    /// The oldest queued note: wait-free, no allocation.
    pub fn pop(&mut self) -> Option<PadEvent> {
        self.0.pop().ok()
    }
}
