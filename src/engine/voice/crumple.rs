//! Crumple: while its key is held a voice strikes its body again and again, each event
//! a whole strike of the voice's contact (the re-strike of `note_on`: a contact in
//! progress finishes into the body as a tail), at the instants and speeds of
//! `model::crumple`'s law. The note's own strike is the train's first event and its
//! hardest: every later one is at most as fast, so the level the note's calibration
//! made is the train's ceiling.
//!
//! Its contacts are paid from a budget of work a second ([`CRUMPLE_WORK`]): an event
//! that comes due while the train is in debt is left out. A strike's contact is brief
//! against its note; a train of hundreds of events a second on a dear contact (the
//! implicit methods, two-way on a light body, long or stiff contacts) is in contact
//! all the time, and one such voice took most of a core. Counted in steps, not in time,
//! so a render plays the same events on any machine.

use super::Voice;
use super::settings::gesture_seed;
use crate::engine::params::{EngineParams, Gesture};
use crate::model::crumple::CrumpleLaw;

/// Work a crumpling voice's contacts may take a second, on average, in units of about a
/// Verlet contact step (`model::Impact::work`, the two-way `step_cost`): 48 000, about
/// 2.5 ms of a core, one a sample at 48 kHz. The default Crumple (40 events a second
/// on a 0.6 ms contact) spends a fifth of it; a train that outspends it loses events
/// until it is back in credit, up to [`CRUMPLE_CREDIT`] saved while it spends less.
pub const CRUMPLE_WORK: f64 = 48_000.0;
pub const CRUMPLE_CREDIT: f64 = 20_000.0;

/// A held note's crumpling train.
#[derive(Clone, Copy, Debug)]
pub(super) struct Crumpling {
    law: CrumpleLaw,
    /// The note's strike speed, the top of the events'.
    v_top: f64,
    /// Events drawn from the law so far, struck or left out, the note's own included.
    drawn: u32,
    /// Samples since the note's strike, and the instant of the next event in them.
    elapsed: u64,
    next_at: f64,
    /// Work units in hand, what a sample adds, what the latest event's contacts spent
    /// that is already paid, and the events left out for want of it.
    credit: f64,
    earn: f64,
    paid: u64,
    skipped: u32,
    /// The contact the latest event interrupted goes on as the voice's tail, at a cost
    /// too: what it had spent when the event struck, and what tails ended since then
    /// spent after it.
    tail_base: u64,
    tail_spent: u64,
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
            drawn: 1,
            elapsed: 0,
            next_at: law.event(1).interval * fs,
            credit: CRUMPLE_CREDIT,
            earn: CRUMPLE_WORK / fs,
            paid: 0,
            skipped: 0,
            tail_base: 0,
            tail_spent: 0,
        })
    }

    /// One sample on: the speed of the event that starts at it, if one does.
    #[inline(always)]
    fn tick(&mut self, fs: f64) -> Option<f64> {
        self.elapsed += 1;
        self.credit = (self.credit + self.earn).min(CRUMPLE_CREDIT);
        if (self.elapsed as f64) < self.next_at {
            return None;
        }
        let e = self.law.event(self.drawn);
        self.drawn += 1;
        // At least a sample apart: two events never share one.
        let next = self.law.event(self.drawn).interval * fs;
        self.next_at = self.elapsed as f64 + next.max(1.0);
        Some(self.v_top * e.speed)
    }

    /// Pays what the latest event's contacts have spent by now (`spent`, their work
    /// since that event), and whether an event may be struck: the train is in credit.
    /// One that may not is left out, and counted.
    fn afford(&mut self, spent: u64) -> bool {
        self.credit -= spent.saturating_sub(self.paid) as f64;
        self.paid = spent;
        let ok = self.credit > 0.0;
        if ok {
            self.paid = 0;
        } else {
            self.skipped += 1;
        }
        ok
    }

    /// A tail that ended after spending `work` in all.
    pub(super) fn tail_ended(&mut self, work: u64) {
        self.tail_spent += work.saturating_sub(self.tail_base);
        self.tail_base = 0;
    }

    /// Events struck so far (the note's own strike is the first).
    pub(super) fn struck(&self) -> u32 {
        self.drawn - self.skipped
    }
}

impl Voice {
    /// The crumpling train's sample: strikes its next event where one starts here.
    #[inline(always)]
    pub(super) fn crumple_sample(&mut self, raw: &EngineParams) {
        if let Some(v) = self.crumple.as_mut().and_then(|c| c.tick(self.fs)) {
            let spent = self.contact_work();
            if self.crumple.as_mut().is_some_and(|c| c.afford(spent)) {
                self.crumple_event(raw, v);
            }
        }
    }

    /// The work the voice's contacts have taken since the latest event, in units of
    /// about a Verlet contact step: the strike in progress (its train's contacts, rigid
    /// or two-way) and the contact it interrupted, which goes on as the tail.
    fn contact_work(&self) -> u64 {
        let rigid = self.bouncer.as_ref().map_or(0, |b| b.contact_work());
        let two_way = self.two_way.as_ref().map_or(0, |t| t.work());
        let tail = self.crumple.as_ref().map_or(0, |c| {
            let live = self.tail.as_ref().map_or(0, |t| t.work());
            c.tail_spent + live.saturating_sub(c.tail_base)
        });
        rigid + two_way + tail
    }

    /// One event of the train: the voice re-struck at speed `v` (out of line: an event
    /// is rare against the samples between them).
    #[cold]
    #[inline(never)]
    fn crumple_event(&mut self, raw: &EngineParams, v: f64) {
        let (key, started) = (self.key, self.started);
        let own = self.own(raw, &self.jitter);
        self.start_own(&own, key, v, started);
        // What the tail spent so far was paid with this event: it counts from here.
        let base = self.tail.as_ref().map_or(0, |t| t.work());
        if let Some(c) = self.crumple.as_mut() {
            (c.tail_base, c.tail_spent) = (base, 0);
        }
    }

    /// The tail has left the body: it is gone, and a crumpling train keeps what it
    /// spent.
    #[cold]
    pub(super) fn end_tail(&mut self) {
        if let (Some(c), Some(t)) = (self.crumple.as_mut(), self.tail.as_ref()) {
            c.tail_ended(t.work());
        }
        self.tail = None;
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

    /// Events of this note's train left out for want of work ([`CRUMPLE_WORK`]).
    pub fn crumple_skipped(&self) -> u32 {
        self.crumple.map_or(0, |c| c.skipped)
    }
}
