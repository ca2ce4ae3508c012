//! Bouncing (Section IV-B2): gravity in free flight only, so a bounce sequence is a
//! chain of aligned impacts separated by exact ballistic flights.
//!
//! After detachment at `v_out < 0` the mass flies under gravity `g` (toward the wall)
//! and returns with speed `|v_out|` after `2|v_out|/g`: free flight under a constant
//! force is conservative and integrated exactly here, so each impact starts aligned at
//! `x = 0`, `v_in = |v_out|` of the previous one. The sequence ends when the flight
//! would be shorter than one sample (the rebound is too weak to leave the wall).

use super::contact::Contact;
use super::impact::Impact;
use super::scheme::Scheme;

/// What a bouncer is doing at a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    Contact,
    /// Ballistic flight from the detachment state `(x0, v0)`, `n` samples in, back at
    /// the wall at sample `n_return`. Position and velocity at any sample follow in
    /// closed form (see [`Bouncer::flight_state`]).
    Flight {
        x0: f64,
        v0: f64,
        n: u64,
        n_return: u64,
    },
    Done,
}

/// Per-sample output of the bouncer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BounceSample {
    /// True on the first sample of each contact.
    pub onset: bool,
    /// True on the sample at which a contact ended.
    pub detached: bool,
}

/// A chain of impacts driven sample by sample. The contact parameters and scheme are
/// read from the caller at each onset (latched) so that live changes take effect from
/// the next impact and never break a contact in progress.
#[derive(Clone, Copy, Debug)]
pub struct Bouncer {
    impact: Impact,
    phase: Phase,
    fs: f64,
    /// `Some(g)` in bouncing mode (m/s², > 0), `None` for a single impact.
    gravity: Option<f64>,
    impacts: u32,
    pending_onset: bool,
}

impl Bouncer {
    /// Starts a strike: the first contact begins on the next call to `step`.
    pub fn strike(
        contact: Contact,
        scheme: Scheme,
        v_in: f64,
        fs: f64,
        gravity: Option<f64>,
    ) -> Self {
        let gravity = gravity.filter(|g| *g > 0.0 && g.is_finite());
        Self {
            impact: Impact::new(contact, scheme, v_in, fs),
            phase: Phase::Contact,
            fs,
            gravity,
            impacts: 1,
            pending_onset: true,
        }
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }
    /// `(x, v)` of the mass in flight (exact ballistic motion), or `None` off flight.
    pub fn flight_state(&self) -> Option<(f64, f64)> {
        match self.phase {
            Phase::Flight { x0, v0, n, .. } => {
                let g = self.gravity.unwrap_or(0.0);
                let t = n as f64 / self.fs;
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

    /// Advances one sample. `next` gives the contact and scheme to latch if a new
    /// impact starts at this sample.
    #[inline]
    pub fn step(&mut self, next: impl FnOnce() -> (Contact, Scheme)) -> BounceSample {
        match self.phase {
            Phase::Done => BounceSample::default(),
            Phase::Contact => {
                let onset = std::mem::take(&mut self.pending_onset);
                let still = self.impact.step();
                if !still {
                    self.phase = self.after_contact();
                }
                BounceSample {
                    onset,
                    detached: !still,
                }
            }
            Phase::Flight {
                x0,
                v0,
                n,
                n_return,
            } => {
                let n = n + 1;
                if n >= n_return {
                    // Back at the wall within this sample: start the next impact
                    // aligned, with the exact return speed (flight conserves energy).
                    let g = self.gravity.unwrap_or(0.0);
                    let v_in = (v0 * v0 - 2.0 * g * x0).max(0.0).sqrt();
                    let (contact, scheme) = next();
                    self.impact = Impact::new(contact, scheme, v_in, self.fs);
                    self.impacts += 1;
                    self.phase = Phase::Contact;
                    let still = self.impact.step();
                    if !still {
                        self.phase = self.after_contact();
                    }
                    BounceSample {
                        onset: true,
                        detached: !still,
                    }
                } else {
                    self.phase = Phase::Flight {
                        x0,
                        v0,
                        n,
                        n_return,
                    };
                    BounceSample::default()
                }
            }
        }
    }

    /// Flight after a detachment at `(x0 ≤ 0, v0 < 0)`: under constant `g` toward the
    /// wall the return time is the positive root of `x0 + v0 t + g t²/2 = 0`, so the
    /// flight is known in closed form and costs a counter per sample.
    fn after_contact(&self) -> Phase {
        let (x0, v0) = (self.impact.x().min(0.0), self.impact.v());
        match self.gravity {
            Some(g) if v0 < 0.0 && 2.0 * v0.abs() / g * self.fs >= 1.0 => {
                let t_return = (-v0 + (v0 * v0 - 2.0 * g * x0).sqrt()) / g;
                Phase::Flight {
                    x0,
                    v0,
                    n: 0,
                    n_return: ((t_return * self.fs).ceil() as u64).max(1),
                }
            }
            _ => Phase::Done,
        }
    }
}
