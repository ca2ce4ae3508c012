//! The decision whether a two-way impact is its train's last: the load at once, the
//! load-aware exit a slice a sample, as the rigid wall's bouncer solves it.

use crate::model::Contact;
use crate::model::bounce::MERGED_LOAD;
use crate::model::load;

/// Where the load-aware exit of the impact in progress stands.
// (Kept inline: a voice's state is fixed-size and never allocates.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
enum Exit {
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

/// Whether the impact in progress is its train's last, and how far that is known.
#[derive(Clone, Copy, Debug)]
pub(super) struct LastImpact {
    exit: Exit,
    /// The impact is the train's last (false until its exit is known).
    pub(super) last: bool,
}

impl LastImpact {
    /// Whether the impact of `contact` at `v_in` under `gravity` is the train's last,
    /// by the rigid wall's rules (`bounce`): the one whose scaled load reaches
    /// [`MERGED_LOAD`] (its flights have become shorter than its contact: a buzz), or at
    /// which the load-aware model says the striker would stick. The load is known at
    /// once; the load-aware exit is solved a slice a sample
    /// ([`EXIT_SLICE`](crate::model::bounce::EXIT_SLICE) in each sample of the contact,
    /// as the rigid wall's bouncer solves it), as it is needed only when the contact
    /// ends: a flight that would land before it is known waits for it. Without gravity
    /// no impact follows, and none is the last by these rules.
    pub(super) fn open(contact: &Contact, gravity: Option<f64>, v_in: f64) -> Self {
        let known = |last| LastImpact {
            exit: Exit::Known,
            last,
        };
        let Some(g) = gravity else {
            return known(false);
        };
        let c = contact;
        if load::scaled(c.k, c.mu, c.alpha, c.mass, v_in, g).1 >= MERGED_LOAD {
            return known(true);
        }
        LastImpact {
            exit: Exit::Start { v_in, g },
            last: false,
        }
    }

    /// True while the exit of the impact in progress, or of the one the striker flies
    /// from, is not known.
    pub(super) fn pending(&self) -> bool {
        !matches!(self.exit, Exit::Known)
    }

    /// Stops waiting for an exit no one will read (the train has ended).
    pub(super) fn settle(&mut self) {
        self.exit = Exit::Known;
    }

    /// Spends at most `budget` units on the exit being solved for `contact` (the
    /// impact's: `μ` changes only at a landing, before it); once it is known, the impact
    /// is the last if the striker sticks.
    pub(super) fn spend(&mut self, contact: &Contact, budget: u32) {
        if let Exit::Start { v_in, g } = self.exit {
            let c = contact;
            self.exit = Exit::Solving(load::ExitSolve::new(c.k, c.mu, c.alpha, c.mass, v_in, g));
        }
        if let Exit::Solving(solve) = &mut self.exit
            && let load::Progress::Done(exit) = solve.advance(budget)
        {
            self.exit = Exit::Known;
            self.last = exit.sticks;
        }
    }
}
