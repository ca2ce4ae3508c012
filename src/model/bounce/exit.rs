//! A train's contacts and their load-aware exits, solved a slice a sample
//! ([`EXIT_SLICE`]): a contact that ends before its exit is known flies on a
//! provisional speed, corrected when the exit arrives.

use super::*;
use crate::model::load::ExitNews;

impl Bouncer {
    /// This train with its exits solved `slice` steps a sample instead of
    /// [`EXIT_SLICE`], and [`WAIT_FACTOR`] times that in a sample a flight waits for
    /// its exit: `u32::MAX` solves each at its onset, in one go (the first at its
    /// strike).
    pub fn with_exit_slice(self, slice: u32) -> Self {
        self.with_exit_slices(slice, slice.saturating_mul(WAIT_FACTOR))
    }

    /// As [`with_exit_slice`](Self::with_exit_slice), with `wait` steps (at least
    /// `slice`) in a sample that starts in a flight waiting for its exit.
    pub fn with_exit_slices(mut self, slice: u32, wait: u32) -> Self {
        let slice = slice.max(1);
        if self.elapsed == 0 && slice == u32::MAX {
            let mut whole = u32::MAX;
            self.spend(&mut whole);
        }
        self.slice = slice;
        self.wait = wait.max(slice);
        self
    }

    /// True while the exit of the contact in progress, or of the one the mass is
    /// flying from, is still being solved.
    pub fn exit_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The impact at `v_in`, `start` into the current sample, for `train`, whether it
    /// is the train's last, and the load-aware exit to solve for it. In the flight-only
    /// mode a contact is the last when the scaled load has reached [`MERGED_LOAD`], or
    /// (once solved) when the load-aware model says the mass would stick.
    ///
    /// `strided`: the impact may be stepped once every few samples (see `stride`),
    /// which sets the returned [`Stride`].
    pub(super) fn open(
        train: Train,
        fs: f64,
        latch: &Latch,
        v_in: f64,
        start: f64,
        strided: bool,
    ) -> (Impact, bool, Option<load::ExitSolve>, Stride) {
        let g_contact = train.gravity.filter(|_| train.in_contact);
        let (mut imp, solve) = latch.impact_pending(v_in, fs, g_contact, start);
        let single = train.gravity.is_none();
        if single {
            // A single strike: its accuracy rule is the sound's, not a train's timing.
            imp = imp.single_strike();
        }
        let mut stride = Stride::NONE;
        if strided && g_contact.is_none() {
            (imp, stride.d) = imp.strided(Stride::samples_a_step(&imp, fs, single));
        }
        let (imp, last, solve) = Self::with_exit(train, imp, v_in, solve);
        (imp, last, solve, stride)
    }

    /// The impact `imp` at `v_in` with its load-aware exit to solve, and whether it is
    /// its train's last (see [`open`](Self::open)).
    fn with_exit(
        train: Train,
        imp: Impact,
        v_in: f64,
        solve: Option<load::ExitSolve>,
    ) -> (Impact, bool, Option<load::ExitSolve>) {
        match (train.gravity, train.in_contact) {
            (Some(g), false) => {
                let c = imp.analytic().contact;
                let (_, g_tilde) = load::scaled(c.k, c.mu, c.alpha, c.mass, v_in, g);
                if g_tilde >= MERGED_LOAD {
                    (imp, true, None)
                } else {
                    let solve = load::ExitSolve::new(c.k, c.mu, c.alpha, c.mass, v_in, g);
                    (imp, false, Some(solve))
                }
            }
            _ => (imp, false, solve),
        }
    }

    /// Spends at most `budget` steps on the exit being solved, and hands it on when it
    /// is done.
    #[inline(always)]
    pub(super) fn spend(&mut self, budget: &mut u32) {
        // Checked in line: nearly every sample has nothing pending.
        if self.pending.is_some() {
            self.spend_pending(budget);
        }
    }

    #[inline(never)]
    fn spend_pending(&mut self, budget: &mut u32) {
        let Some(solve) = self.pending.as_mut() else {
            return;
        };
        if let load::Progress::Done(exit) = solve.advance_within(budget) {
            self.pending = None;
            self.exit_known(exit);
        }
    }

    /// The exit of the contact in progress or just ended is known. In contact it sets
    /// what the contact reads when it ends. After a contact that ended on a provisional
    /// exit the flight is corrected: it takes off at the exact speed, or ends with the
    /// mass at rest where the exit says it sticks (the flight is silent: only the time
    /// of the next impact moves); a corrected flight whose return has passed lands at
    /// the start of this sample, with the exact flight's return speed.
    fn exit_known(&mut self, exit: load::LoadExit) {
        let g = self.train.gravity.unwrap_or(0.0);
        if !self.train.in_contact {
            // Flight-only: a mass that would stick ended the train at this contact.
            self.last = exit.sticks;
            if exit.sticks && matches!(self.phase, Phase::Flight { .. }) {
                self.finish(true);
            }
            return;
        }
        let e_target = self.latch.e_target(&self.impact, g, exit);
        let news = self.impact.resolve_load(exit, e_target);
        match (news, self.phase) {
            (ExitNews::Rests, Phase::Flight { .. }) => self.finish(true),
            (ExitNews::Leaves, Phase::Flight { t, .. }) => {
                self.take_off();
                if let Phase::Flight {
                    x0, v0, t_return, ..
                } = self.phase
                {
                    let t = t.min(t_return);
                    self.phase = Phase::Flight {
                        x0,
                        v0,
                        t,
                        t_return,
                    };
                }
            }
            _ => {}
        }
    }
}
