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

use super::level::{Entry, Gains};
use super::level_table::{KEYS, SLOTS};
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// Reads of a slot tried before it counts as missing for one lookup.
const TRIES: usize = 4;

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
        s.seq.store(seq.wrapping_add(1), Ordering::Relaxed);
        fence(Ordering::Release);
        s.generation.store(generation, Ordering::Relaxed);
        let bits = [
            entry.strike.dry,
            entry.strike.body,
            entry.glide.dry,
            entry.glide.body,
        ];
        for (g, b) in s.gains.iter().zip(bits) {
            g.store(b.to_bits(), Ordering::Relaxed);
        }
        s.seq.store(seq.wrapping_add(2), Ordering::Release);
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
        let s = &self.slots[slot % SLOTS];
        for _ in 0..TRIES {
            let seq = s.seq.load(Ordering::Acquire);
            if seq % 2 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let generation = s.generation.load(Ordering::Relaxed);
            let g = s
                .gains
                .each_ref()
                .map(|g| f64::from_bits(g.load(Ordering::Relaxed)));
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

    /// A reader never sees a torn entry while the writer rewrites the slot: every
    /// entry it reads is one that was written whole, with its own generation.
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
