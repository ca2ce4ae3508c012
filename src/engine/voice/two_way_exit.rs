//! The decision whether a two-way impact is its train's last: the load at once, the
//! load-aware exit a slice a sample, as the rigid wall's bouncer solves it.

#[cfg(test)]
use super::Stage;
use super::TwoWay;
use crate::model::bounce::MERGED_LOAD;
use crate::model::load;

/// Where the load-aware exit of the impact in progress stands.
// (Kept inline: a voice's state is fixed-size and never allocates.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(super) enum Exit {
    /// Known, or not needed: the decision is in `last`.
    Known,
    /// To be solved for this `v_in` under `g`, from the impact's first sample on (its
    /// set-up, the powers of `α` it reads, stays out of the onset too).
    Start {
        v_in: f64,
        g: f64,
    },
    Solving(load::ExitSolve),
}

impl TwoWay {
    /// Whether the impact at `v_in` is the train's last, by the rigid wall's rules
    /// (`bounce`): the one whose scaled load reaches [`MERGED_LOAD`] (its flights have
    /// become shorter than its contact: a buzz), or at which the load-aware model says
    /// the striker would stick. The load is known at once; the load-aware exit is solved
    /// a slice a sample ([`EXIT_SLICE`](crate::model::bounce::EXIT_SLICE) in each sample
    /// of the contact, as the rigid wall's bouncer solves it), as it is needed only when
    /// the contact ends: a flight that would land before it is known waits for it
    /// ([`fly`](Self::fly)). Until then `last` is false.
    pub(super) fn open(&mut self, v_in: f64) {
        self.exit = Exit::Known;
        self.last = false;
        let Some(g) = self.train.gravity else {
            return;
        };
        let c = self.run.sys().contact;
        if load::scaled(c.k, c.mu, c.alpha, c.mass, v_in, g).1 >= MERGED_LOAD {
            self.last = true;
            return;
        }
        self.exit = Exit::Start { v_in, g };
    }

    /// True while the exit of the impact in progress, or of the one the striker flies
    /// from, is not known.
    pub(super) fn exit_pending(&self) -> bool {
        !matches!(self.exit, Exit::Known)
    }

    /// Spends at most `budget` units on the exit being solved; once it is known, the
    /// impact is the last if the striker sticks.
    pub(super) fn spend(&mut self, budget: u32) {
        if let Exit::Start { v_in, g } = self.exit {
            // (The contact is the impact's: `μ` changes only at a landing, before it.)
            let c = self.run.sys().contact;
            self.exit = Exit::Solving(load::ExitSolve::new(c.k, c.mu, c.alpha, c.mass, v_in, g));
        }
        if let Exit::Solving(solve) = &mut self.exit
            && let load::Progress::Done(exit) = solve.advance(budget)
        {
            self.exit = Exit::Known;
            self.last = exit.sticks;
        }
    }

    /// This strike with its exits solved `slice` units a sample (`u32::MAX`: each in
    /// one go in its impact's first sample, before the contact can end).
    #[cfg(test)]
    pub(super) fn with_exit_slice(mut self, slice: u32) -> Self {
        self.slice = slice;
        self
    }

    /// True while a flight waits at its landing for its exit.
    #[cfg(test)]
    pub(super) fn waiting(&self) -> bool {
        matches!(self.stage, Stage::Flight { land: Some(_), .. }) && self.exit_pending()
    }
}
