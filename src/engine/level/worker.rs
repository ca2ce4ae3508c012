//! The background thread that makes the level tables in real time (see `level`): the
//! audio thread hands it the patch through a triple buffer and asks for the entries a
//! note needs through a bit set; it publishes each entry on its own (`level::slots`).
//!
//! It sleeps while it has nothing to make (parked, not polling) and the audio thread
//! wakes it when it hands over work: at most one `unpark` per sleep, a futex wake that
//! never waits. It stops and is joined when its [`LevelWorker`] is dropped (the plugin
//! drops it on deactivate), and a spawn that fails is an error its caller reports.

use crate::engine::level::law::Entry;
use crate::engine::level::slots::LevelSlots;
use crate::engine::level::table::{Deviation, KEYS, LevelTable, NEEDED, SLOTS, needed};
use crate::engine::params::EngineParams;
use crate::engine::voice::Voice;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};
use std::thread::{JoinHandle, Thread};

/// What the audio thread asks the worker for: a table of these level parameters at
/// this rate (`fs` 0: nothing yet), its entries tagged with `generation` (a new one at
/// every change of either).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Request {
    pub params: EngineParams,
    pub fs: f64,
    pub generation: u64,
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

/// A set of slots, a bit each, that the audio thread adds to and the worker reads:
/// the entries notes asked for before they were fresh (made first, then taken out),
/// and every entry a note has read (made next after a patch change, and kept). Kept
/// across patch changes: a note may ask before the worker has seen the patch it asks
/// for, and a slot one patch wanted is one the next patch's table makes too.
#[derive(Default)]
pub(super) struct Wanted([AtomicU64; WORDS]);

/// Words of [`Wanted`]'s bits.
pub(super) const WORDS: usize = SLOTS.div_ceil(64);

impl Wanted {
    /// Sets every bit of `bits` (one word of 64 slots each); true when one was not set.
    pub fn want_all(&self, bits: &[u64; WORDS]) -> bool {
        let mut new = false;
        for (w, &b) in self.0.iter().zip(bits) {
            if b != 0 && w.load(Ordering::Relaxed) & b != b {
                w.fetch_or(b, Ordering::Relaxed);
                new = true;
            }
        }
        new
    }

    /// True when some slot is wanted.
    fn any(&self) -> bool {
        self.0.iter().any(|w| w.load(Ordering::Relaxed) != 0)
    }

    /// The slots in the set, lowest first (the set left as it is).
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, w)| {
            let bits = w.load(Ordering::Relaxed);
            (0..64usize)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| i * 64 + b)
        })
    }

    /// Takes the first wanted slot from `from` on, round the slots: in turn, so that
    /// notes asking again and again for low slots (keys, while knob moves keep the
    /// patch changing) do not keep the high ones (the corrections) waiting for ever.
    pub fn take(&self, from: usize) -> Option<usize> {
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

/// How the audio thread wakes a sleeping worker, and how tests see it sleep.
struct Wake {
    /// Set by the worker just before it parks, taken by whoever wakes it.
    asleep: AtomicBool,
    stop: AtomicBool,
    /// Passes of the worker's loop: an idle worker adds none.
    rounds: AtomicU64,
}

impl Wake {
    /// Wakes the worker if it sleeps (after the work it must see is published): the
    /// fence pairs with the worker's, so either it sees the work or we see it asleep.
    fn rouse(&self, worker: &Thread) {
        fence(Ordering::SeqCst);
        if self.asleep.load(Ordering::Relaxed) && self.asleep.swap(false, Ordering::AcqRel) {
            worker.unpark();
        }
    }
}

/// The audio thread's end of a worker.
pub struct WorkerLink {
    pub(super) request: triple_buffer::Input<Request>,
    pub(super) slots: Arc<LevelSlots>,
    sets: Arc<Sets>,
    wake: Arc<Wake>,
    worker: Thread,
    /// The generation of the last request.
    pub(super) generation: u64,
}

/// The slots a lookup reads, each read once, and which of them it found.
pub(super) type Read = [(usize, Option<Entry>); NEEDED];

impl WorkerLink {
    /// Hands the worker a new patch or rate (once per change, never per sample).
    pub(super) fn publish(&mut self, params: EngineParams, fs: f64) {
        self.generation += 1;
        let r = self.request.input_buffer_mut();
        r.params = params;
        r.fs = fs;
        r.generation = self.generation;
        self.request.publish();
        self.wake.rouse(&self.worker);
    }

    /// Reads the slots a strike at `key` moved by `dev` interpolates, each once, and asks
    /// the worker for those not yet made for the patch now, and marks every one played:
    /// one read-modify-write per word of new bits, none for bits already set (a key
    /// played again costs a load a word). The first note after a patch
    /// change meets these cache lines cold, or last written on the other core, so each
    /// touch counts (it read every slot twice and set each wanted bit on its own).
    /// With them, whether each was made for the patch now.
    pub(super) fn read_needed(&self, key: f64, dev: &Deviation) -> (Read, bool) {
        let mut read: Read = [(usize::MAX, None); NEEDED];
        let (mut bits, mut all) = ([0u64; WORDS], [0u64; WORDS]);
        for (r, &k) in read.iter_mut().zip(needed(key, dev).slots()) {
            let got = self.slots.read(k);
            let k = k % SLOTS;
            if got.is_none_or(|(g, _)| g != self.generation) {
                bits[k / 64] |= 1 << (k % 64);
            }
            all[k / 64] |= 1 << (k % 64);
            *r = (k, got.map(|(_, e)| e));
        }
        self.sets.played.want_all(&all);
        if self.sets.wanted.want_all(&bits) {
            self.wake.rouse(&self.worker);
        }
        (read, bits == [0; WORDS])
    }
}

/// The worker thread; stopped and joined when dropped.
pub struct LevelWorker {
    wake: Arc<Wake>,
    handle: Option<JoinHandle<()>>,
}

impl Drop for LevelWorker {
    fn drop(&mut self) {
        self.wake.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            h.thread().unpark();
            // A worker that panicked has nothing left to stop; dropping must not panic.
            let _ = h.join();
        }
    }
}

impl LevelWorker {
    /// Starts a worker (allocates and spawns: not on the audio thread).
    pub fn spawn() -> std::io::Result<(LevelWorker, WorkerLink)> {
        Self::spawn_with(std::thread::Builder::new())
    }

    /// [`spawn`](Self::spawn) on a thread made by `builder` (its name is set here): an
    /// error when the system cannot start the thread.
    pub fn spawn_with(builder: std::thread::Builder) -> std::io::Result<(LevelWorker, WorkerLink)> {
        let (request_in, request_out) = triple_buffer::triple_buffer(&Request::default());
        let slots = Arc::new(LevelSlots::default());
        let sets = Arc::new(Sets::default());
        let wake = Arc::new(Wake {
            asleep: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            rounds: AtomicU64::new(0),
        });
        let (w, k, out) = (sets.clone(), wake.clone(), slots.clone());
        let handle = builder
            .name("rebound-levels".into())
            .spawn(move || work(request_out, &w, &k, &out))?;
        let worker = handle.thread().clone();
        let link = WorkerLink {
            request: request_in,
            slots,
            sets,
            wake: wake.clone(),
            worker,
            generation: 0,
        };
        let worker = LevelWorker {
            wake,
            handle: Some(handle),
        };
        Ok((worker, link))
    }

    /// Passes the worker's loop has made: it stands still while the worker sleeps.
    pub fn rounds(&self) -> u64 {
        self.wake.rounds.load(Ordering::Relaxed)
    }
}

/// The slots the audio thread marks for the worker.
#[derive(Default)]
pub(super) struct Sets {
    pub wanted: Wanted,
    pub played: Wanted,
}

/// The worker's loop: the entry most wanted next, else sleep until there is work.
fn work(
    mut request_out: triple_buffer::Output<Request>,
    sets: &Sets,
    wake: &Wake,
    out: &LevelSlots,
) {
    let mut table = Box::new(LevelTable::default());
    let mut scratch = Box::new(Voice::new(48_000.0));
    let (mut generation, mut cursor) = (0, 0);
    while !wake.stop.load(Ordering::Relaxed) {
        wake.rounds.fetch_add(1, Ordering::Relaxed);
        let req = *request_out.read();
        let slot = if req.fs.is_nan() || req.fs <= 0.0 {
            None
        } else {
            if req.generation != generation {
                retag(&mut table, out, &req);
                generation = req.generation;
            }
            if scratch.sample_rate() != req.fs {
                *scratch = Voice::new(req.fs);
            }
            next_slot(&table, sets, &mut cursor)
        };
        match slot {
            Some(k) => {
                table.fill(k, &mut scratch);
                if let Some(e) = table.slot_entry(k) {
                    out.write(k, generation, e);
                }
            }
            None => {
                wake.asleep.store(true, Ordering::Relaxed);
                fence(Ordering::SeqCst);
                let work = request_out.updated() || sets.wanted.any();
                if !work && !wake.stop.load(Ordering::Relaxed) {
                    std::thread::park();
                }
                wake.asleep.store(false, Ordering::Relaxed);
            }
        }
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

/// The next entry to make: one a note asked for, else one a note has played (after a
/// knob move, the keys being played are the ones struck next: a sound designer
/// re-striking a key while turning a knob, a riff under automation), else the stale
/// key nearest middle C, else the first stale correction.
/// `cursor` is where the next look at the wanted slots starts (after the last taken).
pub(super) fn next_slot(table: &LevelTable, sets: &Sets, cursor: &mut usize) -> Option<usize> {
    while let Some(k) = sets.wanted.take(*cursor) {
        *cursor = k + 1;
        if !table.is_fresh(k) {
            return Some(k);
        }
    }
    if let Some(k) = sets.played.iter().find(|&k| !table.is_fresh(k)) {
        return Some(k);
    }
    (0..KEYS as i32)
        .flat_map(|d| [60 - d, 60 + d + 1])
        .filter(|k| (0..KEYS as i32).contains(k))
        .map(|k| k as usize)
        .chain(KEYS..SLOTS)
        .find(|&k| !table.is_fresh(k))
}

#[cfg(test)]
#[path = "worker_tests.rs"]
mod tests;
