//! The decision whether a two-way impact is its train's last: the load at once, the
//! load-aware exit a slice a sample, as the rigid wall's bouncer solves it.

#[cfg(test)]
use super::Stage;
use super::TwoWay;
use crate::model::bounce::MERGED_LOAD;
use crate::model::load;

impl TwoWay {
    /// Whether the impact at `v_in` is the train's last, by the rigid wall's rules
    /// (`bounce`): the one whose scaled load reaches [`MERGED_LOAD`] (its flights have
    /// become shorter than its contact: a buzz), or at which the load-aware model says
    /// the striker would stick. The load is known at once; the load-aware exit is solved
    /// a slice a sample ([`EXIT_SLICE`](crate::model::bounce::EXIT_SLICE), as the rigid wall's bouncer solves it), as it
    /// is needed only when the contact ends: a flight that would land before it is known
    /// waits for it ([`fly`](Self::fly)).
    pub(super) fn open(&mut self, v_in: f64) {
        self.exit = None;
        self.last = false;
        let Some(g) = self.train.gravity else {
            return;
        };
        let c = self.run.sys().contact;
        if load::scaled(c.k, c.mu, c.alpha, c.mass, v_in, g).1 >= MERGED_LOAD {
            self.last = true;
            return;
        }
        self.exit = Some(load::ExitSolve::new(c.k, c.mu, c.alpha, c.mass, v_in, g));
        self.spend(self.slice);
    }

    /// Spends at most `budget` units on the exit being solved; once it is known, the
    /// impact is the last if the striker sticks.
    pub(super) fn spend(&mut self, budget: u32) {
        if let Some(solve) = self.exit.as_mut()
            && let load::Progress::Done(exit) = solve.advance(budget)
        {
            self.exit = None;
            self.last = exit.sticks;
        }
    }

    /// This strike with its exits solved `slice` units a sample (`u32::MAX`: each at
    /// its onset, in one go), the first one's rest spent now.
    #[cfg(test)]
    pub(super) fn with_exit_slice(mut self, slice: u32) -> Self {
        if self.elapsed == 0 && slice > self.slice {
            self.spend(slice - self.slice);
        }
        self.slice = slice;
        self
    }

    /// True while a flight waits at its landing for its exit.
    #[cfg(test)]
    pub(super) fn waiting(&self) -> bool {
        matches!(self.stage, Stage::Flight { land: Some(_), .. }) && self.exit.is_some()
    }
}
