//! Roll and Scrape in a voice: while the key is held the striker moves along a rough
//! surface at the note's speed (`model::surface`), pressed onto it by a load, and the
//! Hunt–Crossley contact between them (`model::roll`) drives the body with the force
//! over the load, as a strike under gravity in contact does. A roll's ball slows to
//! rest after the note-off; a scrape's probe stops within milliseconds and is lifted.

use super::Voice;
use super::norm::{EXCITATION_LIMIT, Norm};
use crate::engine::level::law::{GainSource, Gains};
use crate::engine::params::{EngineParams, Gesture};
use crate::model::surface::{Surface, grid_for};
use crate::model::{BounceSample, roll::Rolling};

/// A scraping probe is pressed with its weight and the hand's force: this many times
/// its weight at full key pressure, [`SCRAPE_REST`] of that with none.
pub const SCRAPE_PRESS: f64 = 4.0;
pub const SCRAPE_REST: f64 = 0.25;
/// After the note-off a rolling ball's speed falls with this time constant, s; a
/// scrape's probe stops with [`LIFT_TIME`] and comes off at rest.
pub const ROLL_STOP: f64 = 0.3;
pub const LIFT_TIME: f64 = 0.005;
/// Time constant of the speed's glide to what expression asks, s.
const SPEED_GLIDE: f64 = 0.01;
/// The force over the load is scaled by the peak force of a strike at the note's top
/// speed times the profile's RMS slope (the speed of the bumps it meets), times this,
/// so the excitation stays inside its limit; the level calibration then brings a
/// full-velocity roll to its target (`docs/gestures.md`).
const ROLL_LEVEL: f64 = 0.25;
/// Below this speed, m/s, a released ball has stopped.
const AT_REST: f64 = 1e-4;
/// A held note whose gains were not yet its patch's moves toward them at most this
/// far a control period, in the log (0.25 dB: a few milliseconds for a few dB).
const REGAIN_STEP: f64 = 0.25 * std::f64::consts::LN_10 / 20.0;

/// A voice's rolling or scraping contact.
#[derive(Clone, Copy, Debug)]
pub(super) struct RollVoice {
    surface: Surface,
    contact: Rolling,
    scrape: bool,
    /// Path travelled (m), the surface under the striker there, the speed now and the
    /// note's.
    x: f64,
    s_prev: f64,
    speed: f64,
    top: f64,
    held: bool,
    /// The weight, and the force over the load to the normalised excitation.
    weight: f64,
    scale: f64,
    /// Per-sample glide coefficients: held, a roll slowing, a probe lifting.
    glide: [f64; 3],
    /// Whether the note's gains are its patch's yet (`Voice::regain`).
    pub(super) regain: Regain,
}

/// Where a held note's gains are: its patch's, still asked for (a worker making them),
/// or being glided to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Regain {
    Settled,
    Asking,
    Gliding(Gains),
}

impl RollVoice {
    /// The gesture of a note at speed `v_top` on the patch `p` (its own parameters),
    /// on the contact its normalisation `norm` latched, or `None` when the gesture is
    /// not on a surface.
    pub(super) fn new(p: &EngineParams, norm: &Norm, v_top: f64, seed: u64) -> Option<Self> {
        if !p.gesture.on_surface() {
            return None;
        }
        let (fs, contact) = (norm.fs, norm.contact);
        let seed = seed ^ 0x5CA1E;
        let radius = p.radius_mm * 1e-3;
        // A grid the note's own speed crosses at most twice a sample.
        let dx = grid_for(v_top, fs);
        let mut surface = Surface::new(p.roughness_um * 1e-6, p.roughness_beta, radius, seed, dx);
        let s0 = surface.envelope_at(0);
        let weight = contact.mass * p.gravity;
        let scrape = p.gesture == Gesture::Scrape;
        // A scrape's steps are made for the hardest press.
        let most = if scrape {
            weight * (1.0 + SCRAPE_PRESS)
        } else {
            weight
        };
        let rolling = Rolling::new(contact, weight, s0, fs).stepped_for(most);
        // The peak force goes as v^{2α/(α+1)} (eq 1 made dimensionless).
        let slope = surface.slope_rms().max(1e-6);
        let a = contact.alpha;
        let scale = ROLL_LEVEL * norm.inv_peak * slope.powf(-2.0 * a / (a + 1.0));
        Some(Self {
            surface,
            contact: rolling,
            scrape,
            x: 0.0,
            s_prev: s0,
            speed: 0.0,
            top: v_top,
            held: true,
            weight,
            scale: if scale.is_finite() { scale } else { 0.0 },
            glide: [SPEED_GLIDE, ROLL_STOP, LIFT_TIME].map(|tau| 1.0 - (-1.0 / (tau * fs)).exp()),
            regain: Regain::Settled,
        })
    }

    /// One sample at the speed factor `factor` and key pressure `pressure`: the
    /// normalised excitation, or `None` once the gesture is over.
    #[inline(always)]
    fn sample(&mut self, factor: f64, pressure: f64, fs: f64) -> Option<f64> {
        let (target, coef) = match (self.held, self.scrape) {
            (true, _) => ((self.top * factor).max(0.0), self.glide[0]),
            (false, false) => (0.0, self.glide[1]),
            (false, true) => (0.0, self.glide[2]),
        };
        self.speed += (target - self.speed) * coef;
        if !self.held && self.speed < AT_REST {
            return None;
        }
        // A scrape's press follows the key's pressure while held, and stays as it was
        // while the probe stops (lifted at rest, the force is the load's: no click).
        if self.scrape && self.held {
            let press = 1.0 + SCRAPE_PRESS * (SCRAPE_REST + (1.0 - SCRAPE_REST) * pressure);
            self.contact.set_load(self.weight * press);
        }
        // The speed is never below 0: the path only goes forward.
        self.x += self.speed / fs;
        let s1 = self.surface.under(self.x);
        let f = self.contact.sample(self.s_prev, s1);
        self.s_prev = s1;
        let u = (f - self.contact.load()) * self.scale;
        Some(u.clamp(-EXCITATION_LIMIT, EXCITATION_LIMIT))
    }

    /// The contact's energy balance so far (`model::roll`): `(drift, scale)`, J.
    pub(super) fn balance(&self) -> (f64, f64) {
        (self.contact.drift(self.s_prev), self.contact.energy_scale())
    }
}

impl Voice {
    /// One sample of a rolling or scraping gesture, while there is one.
    #[inline(never)]
    pub(super) fn roll_sample(&mut self, raw: &EngineParams) -> Option<(BounceSample, f64)> {
        #[cfg(target_arch = "x86_64")]
        if self.vector() {
            // SAFETY: the body takes its vector path only where the CPU has AVX2 and FMA.
            return unsafe { self.roll_sample_vex(raw) };
        }
        self.roll_sample_here(raw)
    }

    /// [`roll_sample`](Self::roll_sample) compiled for AVX2 (the envelope's window,
    /// four heights an instruction). The same bits: nothing is fused or reordered.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn roll_sample_vex(&mut self, raw: &EngineParams) -> Option<(BounceSample, f64)> {
        self.roll_sample_here(raw)
    }

    #[inline(always)]
    pub(super) fn roll_sample_here(&mut self, raw: &EngineParams) -> Option<(BounceSample, f64)> {
        let factor = self.expression.speed_factor(raw);
        let pressure = self.expression.pressure();
        let r = self.rolling.as_mut()?;
        match r.sample(factor, pressure, self.fs) {
            Some(u) => Some((BounceSample::default(), u)),
            None => {
                self.rolling = None;
                None
            }
        }
    }

    /// The key is up: the ball slows to rest, the probe comes off.
    pub(super) fn release_surface(&mut self) {
        if let Some(r) = self.rolling.as_mut() {
            r.held = false;
        }
    }

    /// A held roll or scrape found gains not made for its patch yet (a level worker
    /// still making them: a preset just loaded, a knob just moved). Once a control
    /// period it asks again until they are, and glides to what it gets, so a note
    /// played the moment a patch changes settles on its level within milliseconds and
    /// without a step (a strike, over by then, keeps what it found). Where gains are
    /// made before the note (offline) they are always fresh, and this does nothing.
    pub fn regain(&mut self, raw: &EngineParams, mix: f64, levels: &mut dyn GainSource) {
        let (to, fresh) = match self.rolling.as_ref().map(|r| r.regain) {
            Some(Regain::Asking) => {
                let own = self.own_now(raw, self.epoch);
                levels.fresh_gains(self.key, own.as_ref().unwrap_or(raw), raw, mix)
            }
            Some(Regain::Gliding(to)) => (to, true),
            Some(Regain::Settled) | None => return,
        };
        let gain = Gains {
            dry: toward(self.gain.dry, to.dry),
            body: toward(self.gain.body, to.body),
        };
        self.gain = gain;
        if let Some(r) = self.rolling.as_mut() {
            r.regain = match (fresh, gain == to) {
                (false, _) => Regain::Asking,
                (true, false) => Regain::Gliding(to),
                (true, true) => Regain::Settled,
            };
        }
    }

    /// True while a held roll or scrape asks for its patch's gains or glides to them.
    pub fn regaining(&self) -> bool {
        self.rolling
            .as_ref()
            .is_some_and(|r| r.regain != Regain::Settled)
    }

    /// A rolling or scraping gesture's energy balance so far, `(drift, scale)` in J
    /// (`None` without one): its integrator's error, as a strike's drift reports it.
    pub fn surface_balance(&self) -> Option<(f64, f64)> {
        self.rolling.as_ref().map(RollVoice::balance)
    }
}

/// `from` moved toward `to` by at most [`REGAIN_STEP`] in the log; `to` itself when
/// that is nearer, or when either is not a positive number.
fn toward(from: f64, to: f64) -> f64 {
    let step = (to / from).ln();
    if !(from > 0.0 && to > 0.0 && step.is_finite()) || step.abs() <= REGAIN_STEP {
        to
    } else {
        from * REGAIN_STEP.copysign(step).exp()
    }
}

#[cfg(test)]
#[path = "regain_tests.rs"]
mod regain_tests;
