//! The exit's integration as a resumable state machine ([`ExitSolve`]): the same
//! DOP853 steps, creep steps and Newton iterations as one uninterrupted solve, taken a
//! bounded number at a time, so that a solve can be spread over the samples of its
//! contact. Work is counted in steps, never in time: however it is sliced the solve
//! does the same arithmetic in the same order and ends bit for bit where an
//! uninterrupted one does (`tests::slices_give_the_one_shot_exit`).

use super::creep::{CreepState, CreepStep};
use super::outcome::{LoadExit, scaled, time_scale};
use super::solve::{MAX_STEPS, Scaled, State};
use crate::model::alpha_pow::AlphaPow;
use crate::model::memo::{Last, remembered};

/// The creep's stiffness at which DOP853 hands it over ([`Scaled::creep_ahead`]), and
/// how many times one contact may enter it.
const CREEP_ENTER: f64 = 50.0;
const CREEP_ENTRIES: u32 = 4;
/// Most Newton iterations locating the return to the wall inside the last step.
const LOCATE_MAX: u32 = 8;

/// The exact load-aware exit of a contact at `v_in` under gravity `g` (m/s², ≥ 0), in
/// one go ([`ExitSolve`] takes the same solve a slice at a time). Degenerate inputs
/// give the elastic `e = 1`, never a panic; a solve out of steps gives eq (6)'s exact
/// exit.
pub fn exit(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> LoadExit {
    ExitSolve::new(k, mu, alpha, mass, v_in, g).finish()
}

/// [`exit`] in seed 001's variables: `tau` is in units of `T`.
pub fn scaled_exit(alpha: f64, gamma: f64, g_tilde: f64) -> LoadExit {
    ExitSolve::scaled(alpha, gamma, g_tilde).finish()
}

/// What [`ExitSolve::advance`] left behind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress {
    Done(LoadExit),
    Pending,
}

/// Where DOP853 stands: the state `y`, `f(y)`, the time `t`, the next step `h`, and
/// whether the last step was rejected (a step right after a rejected one does not
/// grow: Hairer's rule, the rejected estimate already said how far the solution
/// stays smooth).
#[derive(Clone, Copy, Debug)]
struct Dop {
    y: State,
    f: State,
    t: f64,
    h: f64,
    rejected: bool,
}

/// Newton on the step length `s` for the return to `u = 0` inside the accepted step of
/// length `h` from `(y, t)` (see [`Scaled::locate_start`]).
#[derive(Clone, Copy, Debug)]
struct Locate {
    y: State,
    f0: State,
    t: f64,
    h: f64,
    s: f64,
    du: f64,
    iter: u32,
}

#[derive(Clone, Copy, Debug)]
enum Stage {
    Dop(Dop),
    /// The creep, and the DOP853 step length to go on with when it leaves.
    Creep(CreepState, f64),
    Locate(Locate),
    Done(LoadExit),
}

/// A load-aware exit in progress: [`super::exit`] taken a slice at a time.
#[derive(Clone, Copy, Debug)]
pub struct ExitSolve {
    sys: Scaled,
    stage: Stage,
    /// Accepted and rejected steps so far (DOP853's and the creep's).
    steps: u32,
    creeps: u32,
    /// The time scale `T` (s) the scaled contact time is multiplied by, and what an
    /// unresolved solve falls back on (`μ`, `v_in`); `T = 1`, no fallback, when solving
    /// in the scaled variables.
    time: f64,
    unscaled: Option<(f64, f64)>,
}

impl ExitSolve {
    /// The solve of the exit of a contact at `v_in` under gravity `g` (see
    /// [`super::exit`]), no step taken yet. Degenerate inputs give the elastic `e = 1`
    /// at once.
    pub fn new(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> Self {
        let ok = [k, alpha, mass, v_in]
            .iter()
            .all(|p| p.is_finite() && *p > 0.0)
            && mu.is_finite()
            && mu >= 0.0
            && g.is_finite()
            && g >= 0.0;
        if !ok {
            return Self::finished(LoadExit::DEGENERATE);
        }
        let (gamma, g_tilde) = scaled(k, mu, alpha, mass, v_in, g);
        Self {
            time: time_scale(k, alpha, mass, v_in),
            unscaled: Some((mu, v_in)),
            ..Self::scaled(alpha, gamma, g_tilde)
        }
    }

    /// The solve in seed 001's variables (`tau` in units of `T`).
    pub fn scaled(alpha: f64, gamma: f64, g_tilde: f64) -> Self {
        let bad = |p: f64| !p.is_finite();
        if bad(alpha) || alpha <= 0.0 || bad(gamma) || bad(g_tilde) {
            return Self::finished(LoadExit::DEGENERATE);
        }
        let sys = Scaled {
            beta: alpha + 1.0,
            gamma,
            g_tilde,
            pow: alpha_pow_cached(alpha),
        };
        let y = [0.0, 1.0];
        let dop = Dop {
            y,
            f: sys.rhs(y).0,
            t: 0.0,
            h: sys.first_step(),
            rejected: false,
        };
        Self {
            sys,
            stage: Stage::Dop(dop),
            steps: 0,
            creeps: 0,
            time: 1.0,
            unscaled: None,
        }
    }

    /// Makes now the power tables a solve at `alpha` sets up (see
    /// [`alpha_pow_cached`]), so that the first onset of a patch does not: for a patch
    /// change, before its notes. The same tables as without it.
    pub fn prime(alpha: f64) {
        if alpha.is_finite() && alpha > 0.0 {
            alpha_pow_cached(alpha);
        }
    }

    fn finished(exit: LoadExit) -> Self {
        Self {
            sys: Scaled {
                beta: 2.0,
                gamma: 0.0,
                g_tilde: 0.0,
                pow: AlphaPow::new(1.0),
            },
            stage: Stage::Done(exit),
            steps: 0,
            creeps: 0,
            time: 1.0,
            unscaled: None,
        }
    }

    /// The exit, once the solve is done.
    pub fn result(&self) -> Option<LoadExit> {
        match self.stage {
            Stage::Done(x) => Some(x),
            _ => None,
        }
    }

    /// The whole solve at once.
    pub fn finish(mut self) -> LoadExit {
        match self.advance(u32::MAX) {
            Progress::Done(x) => x,
            // `advance` ends every solve within its budget.
            Progress::Pending => LoadExit::DEGENERATE,
        }
    }

    /// Takes at most `budget` units of work, each one DOP853 step (accepted or
    /// rejected), one creep step (three ETDRK4 steps, about as much work) or one
    /// Newton iteration of the exit's location (one DOP853 step), and says whether
    /// the exit is known. A whole solve is at most [`MAX_STEPS`] steps and eight
    /// iterations.
    pub fn advance(&mut self, budget: u32) -> Progress {
        let mut budget = budget;
        self.advance_within(&mut budget)
    }

    /// [`Self::advance`] taking the units from `budget`, which it leaves at what is
    /// left (a budget shared by the solves of one sample).
    pub fn advance_within(&mut self, budget: &mut u32) -> Progress {
        loop {
            self.stage = match self.stage {
                Stage::Done(x) => return Progress::Done(x),
                _ if *budget == 0 => return Progress::Pending,
                Stage::Dop(d) => self.dop_step(d),
                Stage::Creep(c, h) => self.creep_step(c, h),
                Stage::Locate(l) => self.newton(l),
            };
            *budget -= 1;
        }
    }

    /// The finished exit in the caller's units: the contact time times `T`, and an
    /// unresolved solve (out of steps: a creeping exit of a heavily damped contact, or
    /// a long orbit in a deep, nearly undamped well, both leaving as without the load
    /// to within the load's small effect) at eq (6)'s exact exit.
    fn done(&self, s: LoadExit) -> Stage {
        let tau = s.tau * self.time;
        let exit = match self.unscaled {
            Some((mu, v_in)) if !s.resolved => {
                let e = -crate::model::vout::v_out_exact(mu, v_in) / v_in;
                LoadExit {
                    e: if e.is_finite() {
                        e.clamp(0.0, 1.0)
                    } else {
                        1.0
                    },
                    tau,
                    ..s
                }
            }
            _ => LoadExit { tau, ..s },
        };
        Stage::Done(exit)
    }

    /// One DOP853 step from `d`, and where the solve goes on.
    fn dop_step(&mut self, mut d: Dop) -> Stage {
        let sys = &self.sys;
        if self.steps >= MAX_STEPS {
            return self.done(LoadExit {
                e: (-d.f[0]).clamp(0.0, 1.0),
                sticks: false,
                tau: d.t,
                resolved: false,
                steps: MAX_STEPS,
            });
        }
        self.steps += 1;
        // Moving out, a step may go at most twice the distance to the wall: beyond, the
        // load (which acts out of contact too) could carry a long step out through the
        // wall and back in unseen.
        let du = d.f[0];
        if du < 0.0 && d.y[0] > 0.0 {
            d.h = d.h.min(2.0 * d.y[0] / -du);
        }
        let s = sys.step(d.y, d.f, d.h);
        if s.err.is_nan() || s.err > 1.0 || !s.y[0].is_finite() || !s.y[1].is_finite() {
            let shrink = if s.err.is_finite() {
                (0.9 * s.err.powf(-0.125)).max(0.2)
            } else {
                0.1
            };
            d.h *= shrink;
            d.rejected = true;
            return Stage::Dop(d);
        }
        if s.y[0] <= 0.0 && d.y[0] > 0.0 && s.f[0] >= 0.0 {
            // Out through the wall and back in within the step (a strong load turns a
            // slow exit round faster than the limit above allows for): the exit was
            // inside it, so a shorter step has to see it.
            d.h *= 0.5;
            d.rejected = true;
            return Stage::Dop(d);
        }
        if s.y[0] <= 0.0 && d.t + d.h > 0.0 && s.f[0] < 0.0 {
            // Returned to the wall within this step.
            let th = sys.locate_start(d.y, d.f, &s, d.h);
            return Stage::Locate(Locate {
                y: d.y,
                f0: d.f,
                t: d.t,
                h: d.h,
                s: (th * d.h).clamp(0.0, d.h),
                du: s.f[0],
                iter: 0,
            });
        }
        d.t += d.h;
        d.y = s.y;
        d.f = s.f;
        if sys.energy(d.y[0], d.f[0], s.u_pow) < 0.0 {
            return self.done(LoadExit::stuck(d.t, self.steps));
        }
        let grow = if s.err > 0.0 {
            0.9 * s.err.powf(-0.125)
        } else {
            6.0
        };
        d.h *= grow.clamp(0.2, if d.rejected { 1.0 } else { 6.0 });
        d.rejected = false;
        if self.creeps < CREEP_ENTRIES && sys.creep_ahead(d.y[0], d.f[0], s.u_pow) > CREEP_ENTER {
            self.creeps += 1;
            let c = sys.creep_start(d.y[0], d.f[0], d.t, MAX_STEPS - self.steps);
            return Stage::Creep(c, d.h);
        }
        Stage::Dop(d)
    }

    /// One step of the creep `c`, and where the solve goes on; `h` is DOP853's step to
    /// go on with, shortened to a tenth of the way to the wall.
    fn creep_step(&mut self, mut c: CreepState, mut h: f64) -> Stage {
        let step = self.sys.creep_step(&mut c);
        match step {
            CreepStep::Going => Stage::Creep(c, h),
            CreepStep::Sticks => self.done(LoadExit::stuck(c.t(), self.steps + c.steps)),
            CreepStep::Leaves => {
                let (u, du, t) = self.sys.creep_left(&c);
                // Back to (u, w): w = u' + γ u^β.
                let y = [u, du + self.sys.gamma * self.sys.power(u) * u];
                if du < 0.0 {
                    h = h.min(0.1 * u / -du);
                }
                self.steps += c.steps;
                Stage::Dop(Dop {
                    y,
                    f: self.sys.rhs(y).0,
                    t,
                    h,
                    rejected: false,
                })
            }
        }
    }

    /// One Newton iteration on `u(s) = 0`, `u(s)` a single step of length `s` from `y`
    /// (inside the tolerance), `u'(s)` from the state: from the cubic's root it
    /// converges in two or three.
    fn newton(&self, mut l: Locate) -> Stage {
        let st = self.sys.step(l.y, l.f0, l.s);
        l.du = st.f[0];
        l.iter += 1;
        let mut over = l.du >= 0.0;
        if !over {
            let ds = -st.y[0] / l.du;
            l.s = (l.s + ds).clamp(0.0, l.h);
            over = ds.abs() <= 1e-15 * l.s.max(1e-300);
        }
        if over || l.iter >= LOCATE_MAX {
            return self.done(LoadExit {
                e: (-l.du).clamp(0.0, 1.0),
                sticks: false,
                tau: l.t + l.s,
                resolved: true,
                steps: self.steps,
            });
        }
        Stage::Locate(l)
    }
}

/// `AlphaPow::new(alpha)`, remembered for the last `alpha` this thread asked for
/// (`model::memo`).
/// Every onset of a patch solves at its `α`, which no humanized hit moves: its 32
/// powers and 32 exponentials are made once per patch, at the patch change
/// ([`ExitSolve::prime`]), not at each onset.
pub(super) fn alpha_pow_cached(alpha: f64) -> AlphaPow {
    thread_local! {
        static LAST: Last<u64, AlphaPow> = const { Last::new(None) };
    }
    remembered(&LAST, alpha.to_bits(), || AlphaPow::new(alpha))
}
