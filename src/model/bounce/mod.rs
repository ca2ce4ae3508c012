//! Bouncing: a chain of impacts separated by exact ballistic flights.
//!
//! Two modes (see [`Train`]):
//! - **Flight only** (Section IV-B2 of the core paper): gravity acts in free flight
//!   only, each contact is the paper's.
//! - **In contact too** (seed 001): the load `m g` also acts during contact, so the
//!   restitution falls at low speeds and a slow enough mass sticks and comes to rest.
//!
//! After detachment at `v_out < 0` the mass flies under `g` and returns with speed
//! `|v_out|` after `2|v_out|/g`. Flight is integrated exactly in continuous time: a
//! contact ends at an instant interpolated inside its last sample, and the next one
//! starts at the exact return instant inside its first sample ([`Impact::start_at`]),
//! so the rhythm of a bounce does not depend on the sample rate.
//!
//! A train always ends. With gravity in contact it ends when the mass rests (it could
//! not leave: seed 001's sticking, eqs 21–22, found by the exact solver at onset or by
//! the energy going negative). With gravity in flight only it ends after the first
//! impact at which the scaled load reaches [`MERGED_LOAD`] (the flight-only model has
//! stopped holding) or the load-aware model says the mass would stick: the rule that
//! stops the endless sub-audible buzz of ever smaller bounces (Hunt–Crossley's
//! restitution tends to 1 as `v_in → 0`, so without it the train never ends). Either
//! train also ends after [`MAX_IMPACTS`] impacts (an elastic `μ = 0` contact bounces for
//! ever) or [`MAX_TRAIN_TIME`], or when more than [`MAX_EVENTS`] contacts would fall in
//! one sample.

use super::contact::Contact;
use super::impact::Impact;
use super::irregular::Irregularity;
use super::load;
use super::scheme::Scheme;

mod exit;
mod flight;
mod latch;
mod step;
mod stride;

pub use flight::{flight_at, flight_return, landing_speed};
pub use latch::Latch;
use stride::Stride;

/// With gravity in flight only, the train ends at the first impact whose scaled load
/// `g̃` (seed 001, eq 4) reaches this: `g̃ ≈ 2 T/t_flight`, so from here the flight is
/// shorter than about two of the contact's time scales `T`, the bounces have merged
/// into a buzz at the contact's own frequency, and neglecting gravity in contact (the
/// paper's premise) no longer holds.
pub const MERGED_LOAD: f64 = 1.0;

/// Most impacts of one train.
pub const MAX_IMPACTS: u32 = 10_000;
/// Longest train, s: no impact starts later (at low gravity and light damping a train
/// would otherwise go on for minutes; the flight it ends in is silent).
pub const MAX_TRAIN_TIME: f64 = 60.0;
/// Most contacts starting within one sample: a train bouncing faster than this has
/// ended.
pub const MAX_EVENTS: u32 = 8;
/// Units of work (steps) of the load-aware exit's solve (`load::ExitSolve`) a bouncer
/// spends in each sample, from its strike's first (never at the note-on, which only
/// sets the solve up): about 4 µs on the build machine. A
/// solve takes 10–90 steps (at most 412), so it ends within its contact's first
/// few samples, and always before the guard, which allows a contact without load at
/// least 64 samples.
pub const EXIT_SLICE: u32 = 12;
/// A sample that starts in a flight whose exit is still being solved spends this many
/// times [`EXIT_SLICE`] on it: the flight's landing waits for that exit, and a flight
/// sample has no contact to step, so its budget goes to the solve. Its worst sample
/// (the waiting slice, then a landing's new contact set up and stepped) stays within
/// the per-sample bound.
pub const WAIT_FACTOR: u32 = 3;

/// Most work one train's contacts and exit solves take, in units of about a Verlet
/// contact step's cost ([`Impact::work`], and [`EXIT_WORK`] an impact for its exit's
/// solve): 35–55 ns a unit here, so 25–50 ms of a core. Each contact's
/// work was bounded, not a train's: a buzz of thousands of impacts could go on for a
/// minute. A train that has spent this lifts the mass off at its next exit (the body
/// rings on; the train reports it, [`Bouncer::cut`]). A ball dropped at 1 m/s on the
/// default contact bounces 450 times in 430 000 units at the most (AM1, flight only).
pub const TRAIN_WORK_BUDGET: u64 = 1_000_000;
/// What an impact's load-aware exit solve counts in [`TRAIN_WORK_BUDGET`]'s units: 10–90
/// units of `load::ExitSolve` at 0.2–0.4 µs, about 600 Verlet steps' worth. Counted a
/// fixed amount an impact, not as solved, so that a train's cut does not depend on how
/// its solves are sliced (`EXIT_SLICE`).
pub const EXIT_WORK: u64 = 600;

/// Which bouncing the train does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Train {
    /// `Some(g)` (m/s², > 0) to bounce; `None` for a single impact.
    pub gravity: Option<f64>,
    /// Gravity acts during contact too (seed 001).
    pub in_contact: bool,
}

impl Train {
    pub const SINGLE: Train = Train {
        gravity: None,
        in_contact: false,
    };
}

/// What a bouncer is doing at a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    Contact,
    /// Ballistic flight from the detachment state `(x0, v0)`; `t` s have passed since
    /// detachment at the end of the last sample, and the mass is back at the wall
    /// `t_return` s after detachment.
    Flight {
        x0: f64,
        v0: f64,
        t: f64,
        t_return: f64,
    },
    Done,
}

/// Per-sample output of the bouncer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BounceSample {
    /// True on the sample in which a contact started.
    pub onset: bool,
    /// True on the sample in which a contact ended.
    pub detached: bool,
    /// The velocity the contacts took from the mass over this sample, `Σ (v_before −
    /// v_after)` (m/s): times `m fs`, the sample's average wall force over the load.
    pub dv: f64,
}

/// What is left of a sample after [`Bouncer::step_contact`]: what the sample did so
/// far, how much of it is accounted for, the event passes taken and the exit's budget.
#[derive(Clone, Copy, Debug)]
pub struct Rest {
    out: BounceSample,
    pos: f64,
    done: u32,
    budget: u32,
}

/// A chain of impacts driven sample by sample. The contact parameters and scheme are
/// read from the caller at each onset (latched) so that live changes take effect from
/// the next impact and never break a contact in progress.
#[derive(Clone, Copy, Debug)]
pub struct Bouncer {
    impact: Impact,
    /// What the contact in progress latched (a second contact starting within the same
    /// sample reuses it).
    latch: Latch,
    phase: Phase,
    fs: f64,
    train: Train,
    impacts: u32,
    pending_onset: bool,
    /// The contact in progress is the train's last.
    last: bool,
    /// The train ended with the mass at rest on the wall.
    rest: bool,
    /// Samples stepped.
    elapsed: u64,
    /// Each flight's take-off speed varies by this (`irregular`; none by default).
    irregular: Irregularity,
    /// The load-aware exit of the contact in progress (or just ended), while it is
    /// being solved: under gravity in contact the contact's exit, in the flight-only
    /// mode whether the mass would stick (the train's last contact).
    pending: Option<load::ExitSolve>,
    /// Steps of the exit's solve a sample ([`EXIT_SLICE`]).
    slice: u32,
    /// Steps of it in a sample that starts in a flight waiting for it
    /// ([`WAIT_FACTOR`] times `slice`).
    wait: u32,
    /// Work spent by the contacts ended and their exits ([`TRAIN_WORK_BUDGET`]'s
    /// units), and whether the train was ended on a budget.
    work: u64,
    cut: bool,
    /// The steps of the contacts ended, without their exits (`contact_work`).
    stepped: u64,
    /// Its rigid contacts may be strided (see `stride`), and where the one in progress is.
    strided: bool,
    stride: Stride,
}

impl Bouncer {
    /// Starts a strike with the paper's contact: the first contact begins on the next
    /// call to `step`.
    pub fn strike(
        contact: Contact,
        scheme: Scheme,
        v_in: f64,
        fs: f64,
        gravity: Option<f64>,
    ) -> Self {
        let train = Train {
            gravity,
            in_contact: false,
        };
        Self::new(Latch::from((contact, scheme)), v_in, fs, train)
    }

    /// Starts a strike at `v_in`, the first contact aligned on the next sample.
    pub fn new(latch: Latch, v_in: f64, fs: f64, train: Train) -> Self {
        Self::new_with(latch, v_in, fs, train, false)
    }

    /// [`new`](Self::new) for a voice: above 44.1 kHz a rigid contact that its steps
    /// resolve many times over is stepped every few samples, each sample hearing the
    /// velocity drawn between the steps (`stride`). Same physics, a quarter of the
    /// steps at 192 kHz; the contact's instants, speeds and energy are its steps'.
    pub fn strided(latch: Latch, v_in: f64, fs: f64, train: Train) -> Self {
        Self::new_with(latch, v_in, fs, train, true)
    }

    fn new_with(latch: Latch, v_in: f64, fs: f64, train: Train, strided: bool) -> Self {
        let train = Train {
            gravity: train.gravity.filter(|g| *g > 0.0 && g.is_finite()),
            ..train
        };
        let (impact, last, pending, stride) = Self::open(train, fs, &latch, v_in, 0.0, strided);
        let mut b = Self {
            impact,
            latch,
            phase: Phase::Contact,
            fs,
            train,
            impacts: 1,
            pending_onset: true,
            last,
            rest: false,
            elapsed: 0,
            irregular: Irregularity::NONE,
            pending,
            slice: EXIT_SLICE,
            wait: EXIT_SLICE * WAIT_FACTOR,
            work: 0,
            stepped: 0,
            cut: false,
            strided,
            stride,
        };
        // (The first slice of the exit is the first sample's, which spends it before
        // its contact steps: the note-on only sets the solve up.)
        b.spend(&mut 0);
        b
    }

    /// This train with each flight's take-off speed varied by `irregular` (see
    /// `irregular`; [`Irregularity::NONE`] leaves the exact chain).
    pub fn with_irregularity(self, irregular: Irregularity) -> Self {
        Self { irregular, ..self }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }
    /// True when the train ended with the mass resting on the wall.
    pub fn at_rest(&self) -> bool {
        self.rest
    }
    /// The rest position `x̄` (m) when [`at_rest`](Self::at_rest).
    pub fn rest_position(&self) -> Option<f64> {
        self.rest.then(|| {
            let c = self.impact.analytic().contact;
            load::x_rest(c.k, c.alpha, c.mass, self.train.gravity.unwrap_or(0.0))
        })
    }
    pub fn train(&self) -> Train {
        self.train
    }
    /// What the impact in progress latched.
    pub fn latch(&self) -> Latch {
        self.latch
    }
    /// `(x, v)` of the mass in flight (exact ballistic motion), or `None` off flight.
    pub fn flight_state(&self) -> Option<(f64, f64)> {
        match self.phase {
            Phase::Flight { x0, v0, t, .. } => {
                let g = self.train.gravity.unwrap_or(0.0);
                Some(flight_at(x0, v0, g, t))
            }
            _ => None,
        }
    }

    /// The contact in progress, or the last one.
    pub fn impact(&self) -> &Impact {
        &self.impact
    }

    /// Samples the contact in progress (or the last) has taken: its impact's, or
    /// where it is strided the samples played, not its steps.
    pub fn contact_samples(&self) -> u64 {
        if self.stride.d > 1 {
            self.stride.played
        } else {
            self.impact.samples()
        }
    }

    /// Impacts started so far.
    pub fn impacts(&self) -> u32 {
        self.impacts
    }
    /// The train was ended on a work budget: its mass lifted off on
    /// [`TRAIN_WORK_BUDGET`], or put at rest, trapped, on `impact::TRAPPED_WORK`.
    pub fn cut(&self) -> bool {
        self.cut
    }
    /// Work spent so far in [`TRAIN_WORK_BUDGET`]'s units (the contact in progress
    /// counts once it ends).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The work of the train so far, the contact in progress's steps included: what a
    /// crumpling voice's budget counts. A single impact solves no exit, so its
    /// [`EXIT_WORK`] is left out of it; a bouncing train's contact in progress counts
    /// its exit from the start, as its solve runs from the onset (a crumple's next
    /// event may interrupt it before it ends).
    pub fn contact_work(&self) -> u64 {
        let (done, exit) = if self.train.gravity.is_some() {
            (self.work, EXIT_WORK)
        } else {
            (self.stepped, 0)
        };
        let now = matches!(self.phase, Phase::Contact).then(|| self.impact.work() + exit);
        done + now.unwrap_or(0)
    }

    /// Ends the train (`rest`: with the mass on the wall).
    fn finish(&mut self, rest: bool) {
        self.phase = Phase::Done;
        self.rest = rest;
        self.pending = None;
    }

    /// Flight after a detachment at `(x0 ≤ 0, v0 < 0)`: under constant `g` toward the
    /// wall the return time is the positive root of `x0 + v0 t + g t²/2 = 0`, so the
    /// flight is known in closed form.
    fn after_contact(&mut self) {
        self.work += self.impact.work() + EXIT_WORK;
        self.stepped += self.impact.work();
        self.cut = self.impact.spent();
        if self.impact.rested() || self.last {
            self.finish(true);
            return;
        }
        if self.work > TRAIN_WORK_BUDGET {
            self.cut = true;
            self.finish(false);
            return;
        }
        self.take_off();
    }

    /// The flight from the impact's detachment state, `t = 0` into it.
    fn take_off(&mut self) {
        let (x0, mut v0) = (self.impact.x().min(0.0), self.impact.v());
        if self.irregular.amount() > 0.0 {
            v0 *= self.irregular.factor(self.impacts);
        }
        match self.train.gravity {
            Some(g) if v0 < 0.0 && v0.is_finite() && self.impacts < MAX_IMPACTS => {
                let t_return = flight_return(x0, v0, g, 0.0);
                self.phase = Phase::Flight {
                    x0,
                    v0,
                    t: 0.0,
                    t_return,
                };
            }
            Some(_) if v0 >= 0.0 => self.finish(self.train.in_contact),
            _ => self.finish(false),
        }
    }
}
