//! Crumple: while its key is held a voice strikes its body again and again, each event
//! a whole strike of the voice's contact (the re-strike of `note_on`: a contact in
//! progress finishes into the body as a tail), at the instants and speeds of
//! `model::crumple`'s law. The note's own strike is the train's first event and its
//! hardest: every later one is at most as fast, so the level the note's calibration
//! made is the train's ceiling.

use super::Voice;
use super::settings::gesture_seed;
use crate::engine::params::{EngineParams, Gesture};
use crate::model::crumple::CrumpleLaw;

/// A held note's crumpling train.
#[derive(Clone, Copy, Debug)]
pub(super) struct Crumpling {
    law: CrumpleLaw,
    /// The note's strike speed, the top of the events'.
    v_top: f64,
    /// Events struck so far, the note's own included.
    struck: u32,
    /// Samples since the note's strike, and the instant of the next event in them.
    elapsed: u64,
    next_at: f64,
}

impl Crumpling {
    /// The train of a note struck at `v_top` on key `key` at engine time `now`, or
    /// `None` when the patch's gesture is not Crumple.
    pub(super) fn new(p: &EngineParams, key: u8, now: u64, v_top: f64, fs: f64) -> Option<Self> {
        if p.gesture != Gesture::Crumple {
            return None;
        }
        let law = CrumpleLaw {
            rate: p.crumple_rate,
            tau: p.crumple_tau,
            // Not the bounce irregularity's draw: its own stream of the same seed.
            seed: gesture_seed(p, key, now) ^ 0xC0_FFEE,
        };
        Some(Self {
            law,
            v_top,
            struck: 1,
            elapsed: 0,
            next_at: law.event(1).interval * fs,
        })
    }

    /// One sample on: the speed of the event that starts at it, if one does.
    #[inline(always)]
    fn tick(&mut self, fs: f64) -> Option<f64> {
        self.elapsed += 1;
        if (self.elapsed as f64) < self.next_at {
            return None;
        }
        let e = self.law.event(self.struck);
        self.struck += 1;
        // At least a sample apart: two events never share one.
        let next = self.law.event(self.struck).interval * fs;
        self.next_at = self.elapsed as f64 + next.max(1.0);
        Some(self.v_top * e.speed)
    }

    /// Events struck so far (the note's own strike is the first).
    pub(super) fn struck(&self) -> u32 {
        self.struck
    }
}

impl Voice {
    /// The crumpling train's sample: strikes its next event where one starts here.
    #[inline(always)]
    pub(super) fn crumple_sample(&mut self, raw: &EngineParams) {
        if let Some(c) = self.crumple.as_mut()
            && let Some(v) = c.tick(self.fs)
        {
            self.crumple_event(raw, v);
        }
    }

    /// One event of the train: the voice re-struck at speed `v` (out of line: an event
    /// is rare against the samples between them).
    #[cold]
    #[inline(never)]
    fn crumple_event(&mut self, raw: &EngineParams, v: f64) {
        let (key, started) = (self.key, self.started);
        let own = self.own(raw, &self.jitter);
        self.start_own(&own, key, v, started);
    }

    /// The key (or the pedal holding it) is up: no more crumpling events (the strike in
    /// progress and the body ring on as the note-off mode says), and a rolling ball
    /// slows to rest, a scraping probe comes off.
    pub fn release_gesture(&mut self) {
        self.crumple = None;
        self.release_surface();
    }

    /// Events the crumpling train of this note has struck, its own strike included
    /// (0 for a note that does not crumple or has been released).
    pub fn crumple_events(&self) -> u32 {
        self.crumple.map_or(0, |c| c.struck())
    }
}
