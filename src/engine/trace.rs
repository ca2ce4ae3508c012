//! The live trace of the last contact, as the editor plots it, and the recorder that
//! fills it sample by sample.

use super::EngineParams;
use crate::model::{Contact, Scheme};

/// Points kept of the last contact's trajectory (decimated by 2 when full).
pub const TRACE_POINTS: usize = 512;
/// Bounces kept in the residual-energy drift trace.
pub const TRACE_BOUNCES: usize = 64;

/// The last contact, as the editor plots it: trajectory, analytic reference data and
/// the figures integrators are compared by. Plain data, copied through a triple buffer.
#[derive(Clone, Debug)]
pub struct ContactTrace {
    /// Bumped at each publication.
    pub seq: u64,
    pub fs: f64,
    pub contact: Contact,
    pub scheme: Scheme,
    pub v_in: f64,
    /// Trajectory points (v, x, H_sim / H₀), every `stride`-th sample.
    pub len: usize,
    pub stride: usize,
    pub v: [f32; TRACE_POINTS],
    pub x: [f32; TRACE_POINTS],
    pub h: [f32; TRACE_POINTS],
    /// Contact time in samples.
    pub samples: u64,
    /// Largest |H_sim − H(v)| / |ΔH_τ| over the contact, % (eq 27, exact v_out).
    pub dev_h_pct: f64,
    /// 100 (v_out,sim − v_out) / v_out against the exact root of eq (6) (eq 28).
    pub err_vout_pct: f64,
    /// The contact went numerically wild and was ended by the core's guard.
    pub runaway: bool,
    pub newton_mean: f64,
    pub newton_max: u32,
    /// Residual energy after each bounce against the exact chain, %.
    pub bounces: usize,
    pub drift_pct: [f32; TRACE_BOUNCES],
    /// Count of guard events (runaway or non-finite output) so far.
    pub guard_events: u64,
}

impl Default for ContactTrace {
    fn default() -> Self {
        let p = EngineParams::default();
        let (contact, scheme) = crate::voice::contact_of(&p);
        Self {
            seq: 0,
            fs: 48000.0,
            contact,
            scheme,
            v_in: 0.0,
            len: 0,
            stride: 1,
            v: [0.0; TRACE_POINTS],
            x: [0.0; TRACE_POINTS],
            h: [0.0; TRACE_POINTS],
            samples: 0,
            dev_h_pct: 0.0,
            err_vout_pct: 0.0,
            runaway: false,
            newton_mean: 0.0,
            newton_max: 0,
            bounces: 0,
            drift_pct: [0.0; TRACE_BOUNCES],
            guard_events: 0,
        }
    }
}

/// Records the contact of the most recently struck voice.
pub(super) struct Tracer {
    pub(super) slot: Option<usize>,
    pub(super) work: ContactTrace,
    /// v_in of the note's first impact, and of the exact bounce chain.
    pub(super) v_first: f64,
    pub(super) v_chain: f64,
    /// Whether the impact in progress is recorded (tiny late bounces are not).
    pub(super) recording: bool,
    pub(super) counter: usize,
    /// Largest |H_sim − H(v)| of the impact in progress, J.
    pub(super) max_dev: f64,
    pub(super) h0: f64,
}

impl Tracer {
    pub(super) fn push(&mut self, v: f64, x: f64, h: f64) {
        self.counter += 1;
        if !(self.counter - 1).is_multiple_of(self.work.stride) {
            return;
        }
        let w = &mut self.work;
        if w.len == TRACE_POINTS {
            for i in 0..TRACE_POINTS / 2 {
                w.v[i] = w.v[2 * i];
                w.x[i] = w.x[2 * i];
                w.h[i] = w.h[2 * i];
            }
            w.len = TRACE_POINTS / 2;
            w.stride *= 2;
            if !(self.counter - 1).is_multiple_of(w.stride) {
                return;
            }
        }
        w.v[w.len] = v as f32;
        w.x[w.len] = x as f32;
        w.h[w.len] = h as f32;
        w.len += 1;
    }
}
