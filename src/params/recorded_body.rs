//! The recorded body a session plays, persisted as its partials
//! (`#[persist = "recorded-body"]`), so that the session reopens with its body when
//! the body file has gone. Setting it registers the body (`body::register`, off the
//! audio thread); the audio thread reads only its index, one atomic load a block.

use crate::engine::recording::{SavedPartial, body_from_saved, partials_of};
use crate::model::body::register;
use nice_plug::params::persist::PersistentField;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, RwLock};

/// The session's recorded body (the built-in one: no partials, index 0). Clones share
/// it.
#[derive(Clone, Debug, Default)]
pub struct RecordedBody {
    inner: Arc<Held>,
}

#[derive(Debug, Default)]
struct Held {
    partials: RwLock<Vec<SavedPartial>>,
    index: AtomicU16,
}

impl RecordedBody {
    /// The body's index in the process's table (0: none), for the engine.
    pub fn index(&self) -> u16 {
        self.inner.index.load(Ordering::Acquire)
    }

    /// Plays the body registered at `index` (0 or an unknown index: the built-in one),
    /// keeping its partials for the session (none for the built-in one).
    pub fn set_index(&self, index: u16) {
        match partials_of(index) {
            Some(partials) => self.store(partials, index),
            None => self.store(Vec::new(), 0),
        }
    }

    fn store(&self, partials: Vec<SavedPartial>, index: u16) {
        match self.inner.partials.write() {
            Ok(mut p) => *p = partials,
            Err(e) => *e.into_inner() = partials,
        }
        self.inner.index.store(index, Ordering::Release);
    }
}

impl<'a> PersistentField<'a, Vec<SavedPartial>> for RecordedBody {
    /// A state's partials: registered and played; partials that make no body (none,
    /// malformed, or a full table) leave the session with the built-in body.
    fn set(&self, new_value: Vec<SavedPartial>) {
        let index = body_from_saved(&new_value)
            .and_then(|b| register(&b))
            .unwrap_or(0);
        self.store(if index > 0 { new_value } else { Vec::new() }, index);
    }

    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&Vec<SavedPartial>) -> R,
    {
        match self.inner.partials.read() {
            Ok(p) => f(&p),
            Err(e) => f(&e.into_inner()),
        }
    }
}
