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
mod latch;

pub use latch::Latch;

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
        let train = Train {
            gravity: train.gravity.filter(|g| *g > 0.0 && g.is_finite()),
            ..train
        };
        let (impact, last, pending) = Self::open(train, fs, &latch, v_in, 0.0);
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
                Some((x0 + v0 * t + 0.5 * g * t * t, v0 + g * t))
            }
            _ => None,
        }
    }

    /// The contact in progress, or the last one.
    pub fn impact(&self) -> &Impact {
        &self.impact
    }
    /// Impacts started so far.
    pub fn impacts(&self) -> u32 {
        self.impacts
    }

    /// Ends the train (`rest`: with the mass on the wall).
    fn finish(&mut self, rest: bool) {
        self.phase = Phase::Done;
        self.rest = rest;
        self.pending = None;
    }

    /// Advances one sample. `next` gives what a new impact starting in this sample
    /// latches.
    #[inline]
    pub fn step<L: Into<Latch>>(&mut self, next: impl FnOnce() -> L) -> BounceSample {
        match self.step_contact() {
            Ok(out) => out,
            Err(rest) => self.step_rest(rest, next),
        }
    }

    /// [`step`](Self::step) in two parts, for a caller whose `next` costs something to
    /// make: the sample of a contact in progress with no exit being solved (nearly
    /// every sample: the event loop's first pass, in line, with nothing to spend), or
    /// what is left of the sample for [`step_rest`](Self::step_rest).
    #[inline(always)]
    pub fn step_contact(&mut self) -> Result<BounceSample, Rest> {
        let mut out = BounceSample::default();
        self.elapsed += 1;
        if self.pending.is_none() && matches!(self.phase, Phase::Contact) {
            out.onset = std::mem::take(&mut self.pending_onset);
            let before = self.impact.v();
            let still = self.impact.step();
            out.dv += before - self.impact.v();
            if still {
                return Ok(out);
            }
            out.detached = true;
            let pos = self.impact.exit_fraction();
            self.after_contact();
            return Err(Rest {
                out,
                pos,
                done: 1,
                budget: self.slice,
            });
        }
        // The exit's solve takes at most this much of the sample, whatever starts in it:
        // more while a flight waits for it (its landing cannot happen before).
        let waiting = self.pending.is_some() && matches!(self.phase, Phase::Flight { .. });
        let mut budget = if waiting { self.wait } else { self.slice };
        self.spend(&mut budget);
        Err(Rest {
            out,
            pos: 0.0,
            done: 0,
            budget,
        })
    }

    /// The rest of [`step`](Self::step)'s sample after
    /// [`step_contact`](Self::step_contact).
    #[inline(never)]
    pub fn step_rest<L: Into<Latch>>(
        &mut self,
        rest: Rest,
        next: impl FnOnce() -> L,
    ) -> BounceSample {
        self.events(rest.out, rest.pos, rest.done, rest.budget, next)
    }

    /// The rest of [`step`](Self::step)'s sample from `pos` (how much of it has been
    /// accounted for), `done` of its [`MAX_EVENTS`] passes taken, with `budget` steps of
    /// the exit's solve left for an impact landing in it.
    #[inline(always)]
    fn events<L: Into<Latch>>(
        &mut self,
        mut out: BounceSample,
        mut pos: f64,
        done: u32,
        mut budget: u32,
        next: impl FnOnce() -> L,
    ) -> BounceSample {
        let mut next = Some(next);
        for _ in done..MAX_EVENTS {
            match self.phase {
                Phase::Done => return out,
                Phase::Contact => {
                    out.onset |= std::mem::take(&mut self.pending_onset);
                    let before = self.impact.v();
                    let still = self.impact.step();
                    out.dv += before - self.impact.v();
                    if still {
                        return out;
                    }
                    out.detached = true;
                    pos = self.impact.exit_fraction();
                    self.after_contact();
                }
                Phase::Flight {
                    x0,
                    v0,
                    t,
                    t_return,
                } => {
                    let rest_of_sample = (1.0 - pos) / self.fs;
                    // A flight whose exit is still being solved does not land: its
                    // return time is not known yet (see `exit_known`).
                    if t + rest_of_sample < t_return || self.pending.is_some() {
                        self.phase = Phase::Flight {
                            x0,
                            v0,
                            t: t + rest_of_sample,
                            t_return,
                        };
                        return out;
                    }
                    // Back at the wall inside this sample: the next impact starts there
                    // with the exact return speed (flight conserves energy).
                    let g = self.train.gravity.unwrap_or(0.0);
                    let v_in = (v0 * v0 - 2.0 * g * x0).max(0.0).sqrt();
                    pos = (pos + (t_return - t) * self.fs).clamp(0.0, 1.0);
                    let latch: Latch = match next.take() {
                        Some(f) => f().into(),
                        None => self.latch,
                    };
                    let late = self.elapsed as f64 > MAX_TRAIN_TIME * self.fs;
                    let no_speed = v_in.is_nan() || v_in <= 0.0;
                    if self.impacts >= MAX_IMPACTS || late || no_speed || pos >= 1.0 {
                        self.finish(false);
                        return out;
                    }
                    (self.impact, self.last, self.pending) =
                        Self::open(self.train, self.fs, &latch, v_in, pos);
                    self.latch = latch;
                    self.spend(&mut budget);
                    self.impacts += 1;
                    self.phase = Phase::Contact;
                    self.pending_onset = true;
                }
            }
        }
        // More contacts than MAX_EVENTS in one sample: the train has ended.
        self.finish(self.train.in_contact);
        out
    }

    /// Flight after a detachment at `(x0 ≤ 0, v0 < 0)`: under constant `g` toward the
    /// wall the return time is the positive root of `x0 + v0 t + g t²/2 = 0`, so the
    /// flight is known in closed form.
    fn after_contact(&mut self) {
        if self.impact.rested() || self.last {
            self.finish(true);
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
                let t_return = (-v0 + (v0 * v0 - 2.0 * g * x0).sqrt()) / g;
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
