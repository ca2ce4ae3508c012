//! Where a note-on finds its calibrated gains (see `level_table`): filled on demand
//! before the note (offline renders, the CLI, tests: deterministic, and nobody waits
//! in real time), or by a background worker while the audio thread reads the latest
//! table lock-free and never plays a strike ahead.
//!
//! With the worker, a patch change keeps the previous patch's entries serving until
//! their own are made; a key that sounds before its entry is ready is made next. The
//! worker polls (every [`IDLE_POLL`]) rather than being woken, so the audio thread
//! neither locks nor makes a system call. The worker publishes each entry on its own
//! (`level_slots`), so a note-on reads only the entries it interpolates.

use super::level::level_params;
use super::level::{Entry, GainSource, Gains};
use super::level_slots::LevelSlots;
use super::level_table::{
    Deviation, KEYS, LevelTable, Lookup, NEEDED, SLOTS, needed, sounding_key,
};
use super::params::EngineParams;
use super::voice::Voice;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long an idle worker sleeps before it looks for work again.
pub const IDLE_POLL: Duration = Duration::from_millis(2);

/// What the audio thread asks the worker for: a table of these level parameters at
/// this rate (`fs` 0: nothing yet), its entries tagged with `generation` (a new one at
/// every change of either).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Request {
    params: EngineParams,
    fs: f64,
    generation: u64,
}

impl Default for Request {
    fn default() -> Self {
        Self {
            params: EngineParams::default(),
            fs: 0.0,
            generation: 0,
        }
    }
}

/// Entries a note asked for before they were fresh: made first. Kept across patch
/// changes: a note may ask before the worker has seen the patch it asks for, and a slot
/// one patch wanted is one the next patch's table makes too.
#[derive(Default)]
struct Wanted([AtomicU64; WORDS]);

/// Words of [`Wanted`]'s bits.
const WORDS: usize = SLOTS.div_ceil(64);

impl Wanted {
    /// Sets every bit of `bits` (one word of 64 slots each).
    fn want_all(&self, bits: &[u64; WORDS]) {
        for (w, &b) in self.0.iter().zip(bits) {
            if b != 0 && w.load(Ordering::Relaxed) & b != b {
                w.fetch_or(b, Ordering::Relaxed);
            }
        }
    }

    /// Takes the first wanted slot from `from` on, round the slots: in turn, so that
    /// notes asking again and again for low slots (keys, while knob moves keep the
    /// patch changing) do not keep the high ones (the corrections) waiting for ever.
    fn take(&self, from: usize) -> Option<usize> {
        let from = from % (WORDS * 64);
        let (first, skip) = (from / 64, from % 64);
        // The first word's bits from `from` on, the other words, then its bits before.
        let others = (1..WORDS).map(|i| ((first + i) % WORDS, !0u64));
        let order = std::iter::once((first, !0u64 << skip))
            .chain(others)
            .chain(std::iter::once((first, !(!0u64 << skip))));
        for (i, mask) in order {
            let bits = self.0[i].load(Ordering::Relaxed) & mask;
            if bits != 0 {
                let b = bits.trailing_zeros() as usize;
                self.0[i].fetch_and(!(1 << b), Ordering::Relaxed);
                return Some(i * 64 + b);
            }
        }
        None
    }
}

/// The audio thread's end of a worker.
pub struct WorkerLink {
    request: triple_buffer::Input<Request>,
    slots: Arc<LevelSlots>,
    wanted: Arc<Wanted>,
    /// The generation of the last request.
    generation: u64,
}

/// The slots a lookup reads, each read once, and which of them it found.
type Read = [(usize, Option<Entry>); NEEDED];

impl WorkerLink {
    /// Reads the slots a strike at `key` moved by `dev` interpolates, each once, and asks
    /// the worker for those not yet made for the patch now: one read-modify-write per
    /// word of wanted bits, none for bits already set. The first note after a patch
    /// change meets these cache lines cold, or last written on the other core, so each
    /// touch counts (it read every slot twice and set each wanted bit on its own).
    fn read_needed(&self, key: f64, dev: &Deviation) -> Read {
        let mut read: Read = [(usize::MAX, None); NEEDED];
        let mut bits = [0u64; WORDS];
        for (r, &k) in read.iter_mut().zip(needed(key, dev).slots()) {
            let got = self.slots.read(k);
            if got.is_none_or(|(g, _)| g != self.generation) {
                let k = k % SLOTS;
                bits[k / 64] |= 1 << (k % 64);
            }
            *r = (k, got.map(|(_, e)| e));
        }
        self.wanted.want_all(&bits);
        read
    }
}

/// The worker thread; stopped and joined when dropped.
pub struct LevelWorker {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for LevelWorker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl LevelWorker {
    /// Starts a worker (allocates and spawns: not on the audio thread).
    pub fn spawn() -> (LevelWorker, WorkerLink) {
        let (request_in, mut request_out) = triple_buffer::triple_buffer(&Request::default());
        let slots = Arc::new(LevelSlots::default());
        let wanted = Arc::new(Wanted::default());
        let stop = Arc::new(AtomicBool::new(false));
        let (w, s, out) = (wanted.clone(), stop.clone(), slots.clone());
        let handle = std::thread::Builder::new()
            .name("rebound-levels".into())
            .spawn(move || {
                let mut table = Box::new(LevelTable::default());
                let mut scratch = Box::new(Voice::new(48_000.0));
                let mut scratch_fs = 48_000.0;
                let (mut generation, mut cursor) = (0, 0);
                while !s.load(Ordering::Relaxed) {
                    let req = *request_out.read();
                    if req.fs.is_nan() || req.fs <= 0.0 {
                        std::thread::sleep(IDLE_POLL);
                        continue;
                    }
                    if req.generation != generation {
                        retag(&mut table, &out, &req);
                        generation = req.generation;
                    }
                    if scratch_fs != req.fs {
                        *scratch = Voice::new(req.fs);
                        scratch_fs = req.fs;
                    }
                    match next_slot(&table, &w, &mut cursor) {
                        Some(k) => {
                            table.fill(k, &mut scratch);
                            if let Some(e) = table.slot_entry(k) {
                                out.write(k, generation, e);
                            }
                        }
                        None => std::thread::sleep(IDLE_POLL),
                    }
                }
            })
            .ok();
        (
            LevelWorker { stop, handle },
            WorkerLink {
                request: request_in,
                slots,
                wanted,
                generation: 0,
            },
        )
    }
}

/// Points the worker's table at a new request: a patch it already has (the audio
/// thread went back to it before the worker saw the one between) keeps its fresh
/// entries, published again under the new generation; another one starts over, its
/// old entries serving until their own are made.
fn retag(table: &mut LevelTable, slots: &LevelSlots, req: &Request) {
    if table.is_for(&req.params, req.fs) {
        for k in (0..SLOTS).filter(|&k| table.is_fresh(k)) {
            if let Some(e) = table.slot_entry(k) {
                slots.write(k, req.generation, e);
            }
        }
    } else {
        table.retarget(&req.params, req.fs);
    }
}

/// The next entry to make: one a note asked for, else the stale key nearest middle C,
/// else the first stale correction.
/// `cursor` is where the next look at the wanted slots starts (after the last taken).
fn next_slot(table: &LevelTable, wanted: &Wanted, cursor: &mut usize) -> Option<usize> {
    while let Some(k) = wanted.take(*cursor) {
        *cursor = k + 1;
        if !table.is_fresh(k) {
            return Some(k);
        }
    }
    (0..KEYS as i32)
        .flat_map(|d| [60 - d, 60 + d + 1])
        .filter(|k| (0..KEYS as i32).contains(k))
        .map(|k| k as usize)
        .chain(KEYS..SLOTS)
        .find(|&k| !table.is_fresh(k))
}

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
            Source::Worker(link) => {
                link.generation += 1;
                let r = link.request.input_buffer_mut();
                r.params = q;
                r.fs = fs;
                r.generation = link.generation;
                link.request.publish();
            }
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
    fn gains(&mut self, key: u8, own: &EngineParams, p: &EngineParams, mix: f64) -> Gains {
        let at = sounding_key(p, own, key);
        let dev = if own == p {
            Deviation::default()
        } else {
            Deviation::of(p, own)
        };
        let target = super::level::mix_of(p, p.mix);
        match &mut self.source {
            Source::OnDemand { table, scratch } => {
                for &k in table.needed(at, &dev).slots() {
                    table.ensure(k, scratch);
                }
                table.gains(at, &dev, mix, target)
            }
            Source::Worker(link) => {
                let read = link.read_needed(at, &dev);
                Lookup {
                    params: &self.params,
                    entry: |k: usize| match read.iter().find(|r| r.0 == k) {
                        Some(r) => r.1,
                        None => link.slots.read(k).map(|(_, e)| e),
                    },
                    keys: link.slots.made_keys(),
                }
                .gains(at, &dev, mix, target)
            }
        }
        .unwrap_or(Gains::UNIT)
    }
}

#[cfg(test)]
#[path = "levels_tests.rs"]
mod tests;
