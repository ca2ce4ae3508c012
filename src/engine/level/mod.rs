//! Where a note-on finds its calibrated gains (see `table`): filled on demand
//! before the note (offline renders, the CLI, tests: deterministic, and nobody waits
//! in real time), or by a background worker while the audio thread reads the latest
//! table lock-free and never plays a strike ahead.
//!
//! With the worker (`worker`), a patch change keeps the previous patch's entries
//! serving until their own are made; a key that sounds before its entry is ready is
//! made next. The worker publishes each entry on its own (`slots`), so a note-on
//! reads only the entries it interpolates, and never waits for one.

pub mod ceiling;
pub mod law;
mod peaks;
pub mod slots;
pub mod table;
pub(super) mod true_peak;
mod weighting;
mod worker;

use crate::engine::params::EngineParams;
use crate::engine::voice::Voice;
use law::{GainSource, Gains, level_params};
use table::{Deviation, KEYS, LevelTable, Lookup, SLOTS, needed, sounding_key};
pub use worker::{LevelWorker, WorkerLink};

enum Source {
    /// Filled before the note that needs it, on this thread.
    OnDemand {
        table: Box<LevelTable>,
        scratch: Box<Voice>,
    },
    /// Filled by a [`LevelWorker`].
    Worker(WorkerLink),
}

/// The engine's calibrated gains, by key.
pub struct Levels {
    /// The level parameters of the patch now, and the rate.
    params: EngineParams,
    fs: f64,
    source: Source,
}

impl Levels {
    /// Gains made on demand (allocates: not on the audio thread).
    pub fn on_demand(fs: f64) -> Self {
        let mut table = Box::<LevelTable>::default();
        let params = level_params(&EngineParams::default());
        table.retarget(&params, fs);
        Self {
            params,
            fs,
            source: Source::OnDemand {
                table,
                scratch: Box::new(Voice::new(fs)),
            },
        }
    }

    /// Gains from a worker's tables from now on.
    pub fn use_worker(&mut self, link: WorkerLink) {
        self.source = Source::Worker(link);
        let (p, fs) = (self.params, self.fs);
        self.fs = 0.0;
        self.set(&p, fs);
    }

    /// Gains made on demand again (allocates: not on the audio thread).
    pub fn use_on_demand(&mut self) {
        let p = self.params;
        *self = Self::on_demand(self.fs);
        self.set(&p, self.fs);
    }

    /// True when a worker fills the tables.
    pub fn has_worker(&self) -> bool {
        matches!(self.source, Source::Worker(_))
    }

    /// The patch now (once per block: a comparison unless the level parameters moved).
    pub fn set(&mut self, p: &EngineParams, fs: f64) {
        let q = level_params(p);
        if q == self.params && fs == self.fs {
            return;
        }
        self.params = q;
        self.fs = fs;
        match &mut self.source {
            Source::OnDemand { table, scratch } => {
                if scratch.sample_rate() != fs {
                    **scratch = Voice::new(fs);
                }
                table.retarget(&q, fs);
            }
            Source::Worker(link) => link.publish(q, fs),
        }
    }

    /// Makes the entries of `keys` now, where they are made on demand (an offline
    /// render does this before its first note); nothing with a worker.
    pub fn prepare(&mut self, keys: impl IntoIterator<Item = u8>) {
        if let Source::OnDemand { table, scratch } = &mut self.source {
            for k in keys {
                table.ensure(k as usize % KEYS, scratch);
            }
        }
    }

    /// True when every key's entry is made for the patch now.
    pub fn is_complete(&mut self) -> bool {
        let (p, fs) = (self.params, self.fs);
        match &mut self.source {
            Source::OnDemand { table, .. } => table.is_for(&p, fs) && table.fresh_count() == SLOTS,
            Source::Worker(link) => (0..SLOTS).all(|k| link.slots.is_current(k, link.generation)),
        }
    }

    /// Entries made on demand so far (the worker's are not counted).
    pub fn calibrations(&self) -> u64 {
        match &self.source {
            Source::OnDemand { scratch, .. } => scratch.calibrations(),
            Source::Worker(_) => 0,
        }
    }
}

impl GainSource for Levels {
    fn fresh_gains(
        &mut self,
        key: u8,
        own: &EngineParams,
        p: &EngineParams,
        mix: f64,
    ) -> (Gains, bool) {
        let at = sounding_key(p, own, key);
        let dev = if own == p {
            Deviation::default()
        } else {
            Deviation::of(p, own)
        };
        let target = crate::engine::level::law::mix_of(p, p.mix);
        let (gains, fresh) = match &mut self.source {
            Source::OnDemand { table, scratch } => {
                for &k in needed(at, &dev).slots() {
                    table.ensure(k, scratch);
                }
                (table.gains(at, &dev, mix, target), true)
            }
            Source::Worker(link) => {
                let (read, fresh) = link.read_needed(at, &dev);
                let gains = Lookup {
                    params: &self.params,
                    entry: |k: usize| match read.iter().find(|r| r.0 == k) {
                        Some(r) => r.1,
                        None => link.slots.read(k).map(|(_, e)| e),
                    },
                    keys: link.slots.made_keys(),
                }
                .gains(at, &dev, mix, target);
                (gains, fresh)
            }
        };
        (gains.unwrap_or(Gains::UNIT), fresh && gains.is_some())
    }
}
