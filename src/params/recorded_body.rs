//! The recorded body a session plays, persisted as its partials
//! (`#[persist = "recorded-body"]`), so that the session reopens with its body when
//! the body file has gone. Setting it registers the body (`body::register`, off the
//! audio thread); what is kept is only its index, which the audio thread reads with
//! one atomic load a block, and the partials saved are read back from the process's
//! table.

use crate::engine::recording::{SavedPartial, body_from_saved, partials_of};
use crate::model::body::{recorded, register};
use nice_plug::params::persist::PersistentField;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};

/// The session's recorded body (index 0: the built-in one, saved as no partials).
/// Clones share it.
#[derive(Clone, Debug, Default)]
pub struct RecordedBody {
    index: Arc<AtomicU16>,
}

impl RecordedBody {
    /// The body's index in the process's table (0: the built-in one), for the engine.
    pub fn index(&self) -> u16 {
        self.index.load(Ordering::Acquire)
    }

    /// Plays the body registered at `index` (an index never registered: the built-in
    /// one).
    pub fn set_index(&self, index: u16) {
        let known = recorded(index).is_some();
        self.index
            .store(if known { index } else { 0 }, Ordering::Release);
    }
}

impl<'a> PersistentField<'a, Vec<SavedPartial>> for RecordedBody {
    /// A state's partials: registered and played; partials that make no body (none,
    /// malformed, or a full table) leave the session with the built-in body.
    fn set(&self, new_value: Vec<SavedPartial>) {
        let index = body_from_saved(&new_value)
            .and_then(|b| register(&b))
            .unwrap_or(0);
        self.index.store(index, Ordering::Release);
    }

    /// The partials the body was made of (the ones it keeps, most energy first; none
    /// for the built-in body).
    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&Vec<SavedPartial>) -> R,
    {
        f(&partials_of(self.index()).unwrap_or_default())
    }
}
