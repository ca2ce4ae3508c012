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
    /// Ballistic flight: compression `x < 0` and velocity `v`, exact under gravity.
    Flight {
        x: f64,
        v: f64,
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
    /// `1/fs`, `g/fs` and `g/(2fs²)`: the flight update is two multiply-adds.
    h: f64,
    g_h: f64,
    half_g_h2: f64,
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
        let (g, h) = (gravity.unwrap_or(0.0), 1.0 / fs);
        Self {
            impact: Impact::new(contact, scheme, v_in, fs),
            phase: Phase::Contact,
            fs,
            h,
            g_h: g * h,
            half_g_h2: 0.5 * g * h * h,
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
            Phase::Flight { x, v } => {
                // Exact ballistic update under constant acceleration g (into the wall).
                let x1 = x + self.h * v + self.half_g_h2;
                let v1 = v + self.g_h;
                if x1 >= 0.0 {
                    // Returns to the wall within this sample: start the next impact
                    // aligned, with the exact return speed |v_out| (energy conserved).
                    let g = self.gravity.unwrap_or(0.0);
                    let v_in = (v * v - 2.0 * g * x).max(0.0).sqrt();
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
                    self.phase = Phase::Flight { x: x1, v: v1 };
                    BounceSample::default()
                }
            }
        }
    }

    fn after_contact(&self) -> Phase {
        let v_out = self.impact.v();
        match self.gravity {
            Some(g) if v_out < 0.0 && 2.0 * v_out.abs() / g * self.fs >= 1.0 => Phase::Flight {
                x: self.impact.x().min(0.0),
                v: v_out,
            },
            _ => Phase::Done,
        }
    }
}
