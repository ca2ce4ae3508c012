//! The level worker's table as the audio thread sees it: one slot per entry, each
//! published on its own the moment the worker makes it, behind its own sequence
//! number (a seqlock of atomics), tagged with the generation of the patch it was
//! made for.
//!
//! A note-on reads only the slots it interpolates, and a slot's cache line changes
//! only when its own entry is made: the first note after a patch change no longer
//! reads a whole table the worker has just copied on the other core (it did when the
//! worker published the table whole after every entry).
//!
//! The reader never waits: a slot caught being written (its sequence number odd or
//! moved during the read, a few stores' window) reads as missing for that lookup,
//! which then interpolates from its neighbours as for an entry not yet made.

use crate::engine::level::law::{Entry, Gains};
use crate::engine::level::table::{KEYS, SLOTS};
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// Reads of a slot tried before it counts as missing for one lookup.
const TRIES: usize = 4;

/// The writer's stores to a slot, in order (see [`write_step`]).
const WRITE_STEPS: usize = 7;

/// An entry's four gains as bits, in the order the slot holds them.
fn gain_bits(e: &Entry) -> [u64; 4] {
    [e.strike.dry, e.strike.body, e.glide.dry, e.glide.body].map(f64::to_bits)
}

/// The writer's store number `step` of a write of `bits` made for `generation` to a
/// slot whose sequence number was `seq`: the sequence number made odd, the generation,
/// the four gains, the sequence number made even again. `write` runs them in turn; the
/// protocol test runs a reader between them.
#[inline(always)]
fn write_step(s: &Slot, step: usize, seq: u64, generation: u64, bits: &[u64; 4]) {
    match step {
        0 => {
            s.seq.store(seq.wrapping_add(1), Ordering::Relaxed);
            fence(Ordering::Release);
        }
        1 => s.generation.store(generation, Ordering::Relaxed),
        2..=5 => s.gains[step - 2].store(bits[step - 2], Ordering::Relaxed),
        _ => s.seq.store(seq.wrapping_add(2), Ordering::Release),
    }
}

/// One entry: its sequence number (odd while it is written), the generation of the
/// patch it was made for (0: never made) and its four gains as bits. One cache line
/// each (48 bytes padded to 64): a read touches one line, not two where a slot
/// straddled them, and the worker's write of one slot does not take the line of its
/// neighbour, which a note may be reading, to the other core.
#[derive(Default)]
#[repr(align(64))]
struct Slot {
    seq: AtomicU64,
    generation: AtomicU64,
    gains: [AtomicU64; 4],
}

/// The slots of one worker, shared by it (the only writer) and the audio thread, and
/// the keys whose slot ever held an entry (a bit each, set once the entry is
/// published): a note whose key has none yet looks for the nearest key that has one
/// among these, not by reading every key's slot.
pub struct LevelSlots {
    slots: Box<[Slot]>,
    made: [AtomicU64; KEYS / 64],
}

impl Default for LevelSlots {
    fn default() -> Self {
        Self {
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
            made: Default::default(),
        }
    }
}

impl LevelSlots {
    /// Publishes `entry` in `slot`, made for the patch of `generation` (the worker
    /// only: one writer).
    pub fn write(&self, slot: usize, generation: u64, entry: Entry) {
        let s = &self.slots[slot % SLOTS];
        let seq = s.seq.load(Ordering::Relaxed);
        let bits = gain_bits(&entry);
        for step in 0..WRITE_STEPS {
            write_step(s, step, seq, generation, &bits);
        }
        let k = slot % SLOTS;
        if k < KEYS && self.made[k / 64].load(Ordering::Relaxed) & (1 << (k % 64)) == 0 {
            self.made[k / 64].fetch_or(1 << (k % 64), Ordering::Release);
        }
    }

    /// The keys whose slot has held an entry, a bit each (key `k`: bit `k % 64` of
    /// word `k / 64`). A key without its bit has none.
    pub fn made_keys(&self) -> [u64; KEYS / 64] {
        self.made.each_ref().map(|w| w.load(Ordering::Acquire))
    }

    /// The entry in `slot` and the generation it was made for; `None` when none was
    /// ever made, or when the read met a write [`TRIES`] times (never waits).
    pub fn read(&self, slot: usize) -> Option<(u64, Entry)> {
        self.read_with(slot, |_| {})
    }

    /// [`read`](Self::read), calling `between` after each of its loads of the entry
    /// (0 after the sequence number, 1 after the generation, 2–5 after each gain): the
    /// protocol test runs writer steps there; `read` passes nothing, inlined away.
    #[inline(always)]
    fn read_with(&self, slot: usize, mut between: impl FnMut(usize)) -> Option<(u64, Entry)> {
        let s = &self.slots[slot % SLOTS];
        for _ in 0..TRIES {
            let seq = s.seq.load(Ordering::Acquire);
            between(0);
            if seq % 2 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let generation = s.generation.load(Ordering::Relaxed);
            between(1);
            let mut g = [0.0; 4];
            for (i, (x, a)) in g.iter_mut().zip(&s.gains).enumerate() {
                *x = f64::from_bits(a.load(Ordering::Relaxed));
                between(2 + i);
            }
            fence(Ordering::Acquire);
            if s.seq.load(Ordering::Relaxed) != seq {
                continue;
            }
            if generation == 0 {
                return None;
            }
            let entry = Entry {
                strike: Gains {
                    dry: g[0],
                    body: g[1],
                },
                glide: Gains {
                    dry: g[2],
                    body: g[3],
                },
            };
            return Some((generation, entry));
        }
        None
    }

    /// True when the entry in `slot` was made for the patch of `generation`.
    pub fn is_current(&self, slot: usize, generation: u64) -> bool {
        self.read(slot).is_some_and(|(g, _)| g == generation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(x: f64) -> Entry {
        let g = Gains { dry: x, body: -x };
        Entry {
            strike: g,
            glide: Gains {
                dry: 2.0 * x,
                body: 0.5 * x,
            },
        }
    }

    #[test]
    fn a_slot_reads_what_was_written_bit_for_bit() {
        let slots = LevelSlots::default();
        assert!(slots.read(3).is_none());
        for (i, x) in [1.0, f64::MIN_POSITIVE, 1e300, 0.123_456_789]
            .into_iter()
            .enumerate()
        {
            slots.write(3, i as u64 + 1, entry(x));
            assert_eq!(slots.read(3), Some((i as u64 + 1, entry(x))));
            assert!(slots.is_current(3, i as u64 + 1));
            assert!(!slots.is_current(3, i as u64 + 2));
        }
        assert!(slots.read(4).is_none());
    }

    /// The made keys are the keys written, and no correction slot counts as a key.
    #[test]
    fn the_made_keys_are_the_keys_written() {
        let slots = LevelSlots::default();
        assert_eq!(slots.made_keys(), [0, 0]);
        for k in [0, 5, 63, 64, 127, KEYS, SLOTS - 1] {
            slots.write(k, 1, entry(1.0));
        }
        slots.write(5, 2, entry(2.0));
        let want = [1 | 1 << 5 | 1 << 63, 1 | 1 << 63];
        assert_eq!(slots.made_keys(), want);
    }

    /// The seqlock's protocol, on one thread: a read against a write stopped after
    /// each of its stores, in every order of the reader's loads and the writer's
    /// stores (each interleaving of one read attempt with one write). Every read is the
    /// old entry, the new one or missing, never a mix, and each of the three happens.
    /// It catches a protocol bug: a store out of order, the odd check or the second
    /// look at the sequence number dropped. It cannot catch a wrong memory ordering or
    /// a missing fence: one thread sees its own stores in program order whatever the
    /// orderings (as x86 does between threads).
    #[test]
    fn every_interleaving_of_a_read_with_a_write_is_whole_or_missing() {
        let (old, new) = (entry(1.0), entry(2.0));
        let mut seen = [0u32; 3];
        // The writer's steps done before the read, then after each of its six loads.
        let mut schedule = [0usize; 7];
        loop {
            let slots = LevelSlots::default();
            slots.write(0, 1, old);
            let s = &slots.slots[0];
            let seq = s.seq.load(Ordering::Relaxed);
            let bits = gain_bits(&new);
            let mut done = 0;
            let mut advance = |to: usize| {
                while done < to {
                    write_step(s, done, seq, 2, &bits);
                    done += 1;
                }
            };
            advance(schedule[0]);
            let mut call = 0;
            let got = slots.read_with(0, |_| {
                call += 1;
                if let Some(&t) = schedule.get(call) {
                    advance(t);
                }
            });
            match got {
                None => seen[0] += 1,
                Some((1, e)) if e == old => seen[1] += 1,
                Some((2, e)) if e == new => seen[2] += 1,
                _ => panic!("a torn read {got:?} with the writer at {schedule:?}"),
            }
            // The next non-decreasing schedule, or the end.
            let Some(i) = schedule.iter().rposition(|&t| t < WRITE_STEPS) else {
                break;
            };
            let t = schedule[i] + 1;
            schedule[i..].fill(t);
        }
        assert!(seen.iter().all(|&n| n > 0), "missing, old, new: {seen:?}");
    }

    /// A reader never sees a torn entry while the writer rewrites the slot: every
    /// entry it reads is one that was written whole, with its own generation. On x86
    /// it passes whatever the orderings (see the test above for what can fail).
    #[test]
    fn a_read_during_writes_is_whole_or_missing() {
        use std::sync::atomic::AtomicBool;
        let slots = std::sync::Arc::new(LevelSlots::default());
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (w, s) = (slots.clone(), stop.clone());
        let writer = std::thread::spawn(move || {
            let mut i = 1u64;
            while !s.load(Ordering::Relaxed) {
                w.write(0, i, entry(i as f64));
                i += 1;
            }
        });
        while slots.read(0).is_none() {
            std::thread::yield_now();
        }
        let (mut whole, mut missing) = (0, 0);
        for _ in 0..2_000_000 {
            match slots.read(0) {
                Some((g, e)) => {
                    assert_eq!(e, entry(g as f64), "a torn read");
                    whole += 1;
                }
                None => missing += 1,
            }
        }
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap();
        // (How many reads met a write depends on the scheduling, not asserted.)
        assert!(whole > 0, "{whole} whole reads, {missing} missing");
    }
}
