//! The recorder that fills the live trace of the last contact ([`ContactTrace`]) sample
//! by sample, on the audio thread, and says when to publish it.

use crate::engine::params::EngineParams;
use crate::engine::trace::{
    BounceMode, ContactTrace, LastContact, RestState, TRACE_BOUNCES, TRACE_POINTS,
};
use crate::engine::voice::Voice;
use crate::model::load::SETTLE_ZETA;
use crate::model::{Analytic, BounceSample, Bouncer, Impact};

/// Records the contact of the most recently struck voice.
pub(in crate::engine) struct Tracer {
    pub(in crate::engine) slot: Option<usize>,
    pub(in crate::engine) work: ContactTrace,
    /// v_in of the note's first impact, and of the exact bounce chain.
    pub(in crate::engine) v_first: f64,
    pub(in crate::engine) v_chain: f64,
    /// Whether the impact in progress is recorded (tiny late bounces are not).
    pub(in crate::engine) recording: bool,
    pub(in crate::engine) counter: usize,
    /// Largest |H_sim − H(v)| of the impact in progress, J.
    pub(in crate::engine) max_dev: f64,
    pub(in crate::engine) h0: f64,
    /// Under load: energy dissipated so far in the recorded contact (J, trapezoid over
    /// samples) and the dissipation rate at the last sample (W).
    pub(in crate::engine) dissipated: f64,
    pub(in crate::engine) rate: f64,
    /// The restitution the contact in progress latched its damping from.
    pub(in crate::engine) restitution: Option<f64>,
}

impl Tracer {
    pub(in crate::engine) fn new() -> Self {
        Self {
            slot: None,
            work: ContactTrace::default(),
            v_first: 0.0,
            v_chain: 0.0,
            recording: false,
            counter: 0,
            max_dev: 0.0,
            h0: 1.0,
            dissipated: 0.0,
            rate: 0.0,
            restitution: None,
        }
    }

    /// A new note in `slot`: its train is `train_of(p)`.
    pub(in crate::engine) fn follow(&mut self, slot: usize, p: &EngineParams) {
        let train = crate::engine::voice::train_of(p);
        self.slot = Some(slot);
        self.v_first = 0.0;
        self.v_chain = 0.0;
        self.recording = false;
        let w = &mut self.work;
        w.bounces = 0;
        w.drift_load = false;
        w.bounce = BounceMode::of(&train);
        w.gravity = train.gravity.unwrap_or(0.0);
        w.rest = match w.bounce {
            BounceMode::Off => RestState::Single,
            _ => RestState::Bouncing,
        };
    }

    fn push(&mut self, v: f64, x: f64, h: f64, d: f64, surface: f64) {
        if self.keeps_next() {
            self.store(v, x, h, d, surface);
        }
    }

    /// Counts a sample of the trajectory: true when it is one the trace keeps (every
    /// `stride`-th; the kept points are halved, and the stride doubled, when full).
    fn keeps_next(&mut self) -> bool {
        self.counter += 1;
        if !(self.counter - 1).is_multiple_of(self.work.stride) {
            return false;
        }
        let w = &mut self.work;
        if w.len == TRACE_POINTS {
            for i in 0..TRACE_POINTS / 2 {
                w.v[i] = w.v[2 * i];
                w.x[i] = w.x[2 * i];
                w.h[i] = w.h[2 * i];
                w.d[i] = w.d[2 * i];
                w.w[i] = w.w[2 * i];
            }
            w.len = TRACE_POINTS / 2;
            w.stride *= 2;
            return (self.counter - 1).is_multiple_of(w.stride);
        }
        true
    }

    /// Stores a point [`keeps_next`](Self::keeps_next) kept.
    fn store(&mut self, v: f64, x: f64, h: f64, d: f64, surface: f64) {
        let w = &mut self.work;
        w.v[w.len] = v as f32;
        w.x[w.len] = x as f32;
        w.h[w.len] = h as f32;
        w.d[w.len] = d as f32;
        w.w[w.len] = surface as f32;
        w.len += 1;
    }

    /// Records one sample of the followed voice's train `b`, which did `s`; `p` are
    /// the parameters the voice latched a new contact from in this sample
    /// (`latch_of(p)`). Returns true when the trace should be published: at each
    /// detachment, when the mass gets trapped, and when the train ends in flight.
    fn sample(&mut self, b: &Bouncer, s: &BounceSample, p: &EngineParams, fs: f64) -> bool {
        let imp = b.impact();
        let an = *imp.analytic();
        let g = imp.gravity();
        if s.onset {
            self.onset(b, &an, p, fs);
        }
        if self.recording {
            let (x, v) = (imp.x(), imp.v());
            let (h, d) = if g > 0.0 {
                self.loaded_balance(imp, s, x, v, fs)
            } else {
                // The potential once: eq (13)'s H and the deviation from eq (12)'s curve
                // share it (a `powf` each was a tenth of a long contact's sample).
                let potential = an.contact.potential(x);
                if imp.in_contact() {
                    let dev = an.deviation_from(potential, v).abs();
                    if dev.is_finite() {
                        self.max_dev = self.max_dev.max(dev);
                    }
                }
                (an.contact.hamiltonian_from(potential, v) / self.h0, 0.0)
            };
            self.push(v, x, h, d, 0.0);
        }
        let mut publish = false;
        if g > 0.0
            && imp.trapped()
            && !s.detached
            && !b.is_done()
            && self.work.rest != RestState::Sticking
        {
            self.work.rest = RestState::Sticking;
            publish = true;
        }
        if s.detached {
            self.detached(b, fs);
            publish = true;
        } else if b.is_done() && matches!(self.work.rest, RestState::Bouncing) {
            // The train ended in flight (the next bounce would be under a sample).
            self.work.rest = rest_of(b);
            publish = true;
        }
        publish
    }

    /// Records one sample of the followed voice `v`, which did `s` (its rigid wall's
    /// train or its two-way strike); true when the trace should be published.
    pub(in crate::engine) fn voice_sample(
        &mut self,
        v: &Voice,
        s: &BounceSample,
        p: &EngineParams,
        fs: f64,
    ) -> bool {
        if v.is_two_way() {
            // Between a strike's end and the next onset there is nothing to record.
            if !(self.recording || s.onset) {
                return false;
            }
            self.sample_two_way(v, s, p, fs)
        } else if let Some(b) = v.bouncer() {
            self.sample(b, s, p, fs)
        } else {
            false
        }
    }

    /// Records one sample of the followed voice's two-way strike `voice` after a
    /// sample that did `s`. Returns true when the trace should be published: when the
    /// striker is clear of the body (a strike, or a bounce of a train, is over).
    fn sample_two_way(
        &mut self,
        voice: &Voice,
        s: &BounceSample,
        p: &EngineParams,
        fs: f64,
    ) -> bool {
        let Some(t) = voice.two_way() else {
            return false;
        };
        if s.onset {
            self.restitution = crate::engine::physical::restitution_of(p);
            if self.v_first == 0.0 {
                self.v_first = t.v_in;
            }
            // The whole strike is recorded from its first onset; a bounce's onset
            // starts a new recording, unless it is a tiny late one.
            self.recording = t.v_in >= 0.1 * self.v_first;
            if self.recording {
                let w = &mut self.work;
                (w.len, w.stride, w.samples) = (0, 1, 0);
                self.counter = 0;
                self.h0 = (0.5 * t.contact.mass * t.v_in * t.v_in).max(f64::MIN_POSITIVE);
                (w.contact, w.v_in, w.fs) = (t.contact, t.v_in, fs);
                (w.load, w.load_g, w.two_way) = (false, 0.0, true);
                (w.dev_h_pct, w.err_vout_pct) = (f64::NAN, f64::NAN);
                (w.runaway, w.newton_mean, w.newton_max) = (false, 0.0, 0);
                self.push(t.v_in, 0.0, 1.0, 0.0, 0.0);
            }
        }
        if self.recording {
            self.work.samples += u64::from(t.x_s - t.w > 0.0);
            // The coupled H (a sum over the modes) only for the points kept.
            if self.keeps_next() {
                let h = voice.two_way_energy().unwrap_or(f64::NAN) / self.h0;
                self.store(t.v, t.x_s, h, 0.0, t.w);
            }
        }
        if !s.detached {
            return false;
        }
        // The striker is clear: nothing more to record until an onset.
        self.recording = false;
        let w = &mut self.work;
        w.last = LastContact {
            impact: t.impacts,
            v_in: t.v_in,
            e: -t.v / t.v_in,
            e_exact: f64::NAN,
            mu: t.contact.mu,
            restitution: self.restitution,
            load_drift_pct: f64::NAN,
        };
        w.rest = match (w.bounce, t.done) {
            (BounceMode::Off, _) => RestState::Single,
            (_, false) => RestState::Bouncing,
            (_, true) => RestState::Ended,
        };
        true
    }

    /// A new contact of the followed train: recorded unless it is a tiny late bounce.
    fn onset(&mut self, b: &Bouncer, an: &Analytic, p: &EngineParams, fs: f64) {
        let imp = b.impact();
        let g = imp.gravity();
        self.restitution = crate::engine::physical::restitution_of(p);
        self.work.bounce = BounceMode::of(&b.train());
        self.work.gravity = b.train().gravity.unwrap_or(0.0);
        if self.v_first == 0.0 {
            self.v_first = an.v_in;
            self.v_chain = an.v_in;
        }
        self.recording = an.v_in >= 0.1 * self.v_first;
        if self.recording {
            let w = &mut self.work;
            w.len = 0;
            w.stride = 1;
            self.counter = 0;
            self.max_dev = 0.0;
            self.h0 = an.h_0().max(f64::MIN_POSITIVE);
            self.dissipated = 0.0;
            self.rate = 0.0;
            w.contact = an.contact;
            w.scheme = imp.scheme();
            w.v_in = an.v_in;
            w.fs = fs;
            w.load = g > 0.0;
            w.load_g = g;
            w.two_way = false;
            self.push(an.v_in, 0.0, 1.0, 0.0, 0.0);
        }
    }

    /// The load-aware balance at `(x, v)`, over the contact's `H₀`: `H` falls by what
    /// the damping (and, once the mass is trapped, the settling drag) dissipates.
    fn loaded_balance(
        &mut self,
        imp: &Impact,
        s: &BounceSample,
        x: f64,
        v: f64,
        fs: f64,
    ) -> (f64, f64) {
        let c = imp.analytic().contact;
        let g = imp.gravity();
        let xp = if x > 0.0 { c.x_pow_alpha(x) } else { 0.0 };
        let h = 0.5 * c.mass * v * v + c.k * x.max(0.0) * xp / (c.alpha + 1.0)
            - c.mass * g * x.max(0.0);
        let drag = if imp.trapped() {
            let x_rest = crate::model::load::x_rest(c.k, c.alpha, c.mass, g);
            let k_eq = c.k * c.alpha * x_rest.powf(c.alpha - 1.0);
            2.0 * SETTLE_ZETA * (c.mass * k_eq).sqrt()
        } else {
            0.0
        };
        let rate = (c.mu * c.k * xp + drag) * v * v;
        let from = if s.onset { imp.start_fraction() } else { 0.0 };
        let to = if s.detached { imp.exit_fraction() } else { 1.0 };
        self.dissipated += 0.5 * (to - from).max(0.0) / fs * (rate + self.rate);
        self.rate = rate;
        (h / self.h0, self.dissipated / self.h0)
    }

    /// The figures of a contact that just ended.
    fn detached(&mut self, b: &Bouncer, _fs: f64) {
        let imp = b.impact();
        let an = *imp.analytic();
        let g = imp.gravity();
        let v_sim = imp.v();
        // The exact exit of the contact latched: eq (6), or the load-aware one.
        let exact = match imp.load_exit() {
            Some(x) if g > 0.0 => -x.e * an.v_in,
            // Still being solved (a contact shorter than its solve's slices).
            None if g > 0.0 => f64::NAN,
            _ => an.v_out(),
        };
        let t = self;
        if t.recording {
            let w = &mut t.work;
            w.samples = b.contact_samples();
            if g > 0.0 {
                w.dev_h_pct = 100.0 * imp.load_drift();
                w.err_vout_pct = if exact != 0.0 {
                    100.0 * (v_sim - exact) / exact
                } else {
                    f64::NAN
                };
            } else {
                // Eqs (27) and (28) as `rebound simulate` measures them (metrics.rs).
                w.dev_h_pct = 100.0 * t.max_dev / an.delta_h_tau(exact).abs();
                w.err_vout_pct = 100.0 * (v_sim - exact) / exact;
            }
            w.runaway = imp.runaway();
            w.newton_mean = imp.newton.mean();
            w.newton_max = imp.newton.max;
        }
        let w = &mut t.work;
        w.last = LastContact {
            impact: b.impacts(),
            v_in: an.v_in,
            e: if imp.rested() { 0.0 } else { -v_sim / an.v_in },
            e_exact: -exact / an.v_in,
            mu: an.contact.mu,
            restitution: t.restitution,
            load_drift_pct: if g > 0.0 {
                100.0 * imp.load_drift()
            } else {
                f64::NAN
            },
        };
        if g > 0.0 {
            // Under load the per-bounce figure is the model's own energy balance.
            w.drift_load = true;
            if w.bounces < TRACE_BOUNCES {
                w.drift_pct[w.bounces] = (100.0 * imp.load_drift()) as f32;
                w.bounces += 1;
            }
        } else {
            // Exact chain: each bounce of the analytic model starts at the previous
            // exact |v_out| with the contact latched for this impact (in restitution
            // mode the exact chain loses the factor e at every bounce).
            let v_exact_chain = match t.restitution {
                Some(e) => e * t.v_chain,
                None => an.contact.impact(t.v_chain).v_out().abs(),
            };
            t.v_chain = v_exact_chain;
            if w.bounces < TRACE_BOUNCES {
                let e = (v_sim * v_sim) / (v_exact_chain * v_exact_chain) - 1.0;
                w.drift_pct[w.bounces] = (100.0 * e) as f32;
                w.bounces += 1;
            }
        }
        w.rest = if b.is_done() {
            rest_of(b)
        } else {
            RestState::Bouncing
        };
    }
}

/// The rest state of a train.
fn rest_of(b: &Bouncer) -> RestState {
    if b.train().gravity.is_none() {
        RestState::Single
    } else if !b.is_done() {
        RestState::Bouncing
    } else {
        match b.rest_position() {
            Some(x_rest) => RestState::Resting { x_rest },
            None => RestState::Ended,
        }
    }
}

#[cfg(test)]
#[path = "recorder_tests.rs"]
mod tests;
