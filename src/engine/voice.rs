//! One voice: a bounce sequence striking a modal body, with its loudness normalisation,
//! retrigger de-click, steal fade and guard. Framework-free: the plugin and `rebound
//! render` drive the same code.

use super::ceiling::{CEILING, Ceiling};
use super::expression::Expression;
use super::humanize::Jitter;
use super::level;
use super::levels::Levels;
use super::output::pan_of;
use super::params::EngineParams;
use crate::model::body::{BodyType, ModalBody};
use crate::model::hardness::UnitTime;
use crate::model::{BounceSample, Bouncer, Contact, Irregularity, Phase};

mod calibrate;
mod settings;
mod tail;
use settings::contact_cached;
pub use settings::{
    body_settings, contact_of, latch_cached, latch_of, train_of, train_seed, velocity_to_speed,
};
use tail::{Tail, excitation};

/// Output level of a full-velocity strike: the dry pulse peaks here (−6 dBFS).
pub const FULL_SCALE: f64 = 0.5;
/// Samples [`Voice::ring_into`] hands its body at a time.
const RING_BLOCK: usize = 32;
/// The normalised excitation is limited to this many times the analytic peak of a
/// full-velocity strike: anything above is integrator error on a contact shorter than a
/// sample, not physics.
pub const EXCITATION_LIMIT: f64 = 2.0;
/// An impact delivers at most this multiple of its exact momentum transfer
/// `m (v_in − v_out)` (eq 6) to the output. An integrator far off on a contact shorter
/// than a sample can overshoot wildly within one step (the hybrid correction can even
/// keep a state below `v_lim = −1/μ` in contact for a sample); the excess is numerical,
/// not physical, and would otherwise kick the body far too hard. Smaller errors stay
/// audible.
pub const IMPULSE_MARGIN: f64 = 1.5;
/// A voice is over when its contacts are done and its output bound is below −120 dB.
pub const SILENCE: f64 = 1e-6;
/// Time constant of the retrigger de-click, s.
const DECLICK_TIME: f64 = 0.002;
/// The de-click's step is let go below this (400 dB under full scale): decaying on it
/// would reach subnormal numbers, slow where nothing flushes them (the CLI, tests).
const DECLICK_QUIET: f64 = 1e-20;

/// One sample of the de-click's decay.
#[inline(always)]
fn decay_declick(d: f64, coef: f64) -> f64 {
    let d = d * coef;
    if d.abs() < DECLICK_QUIET { 0.0 } else { d }
}
/// Length of the fade of a stolen voice, s.
pub const STEAL_FADE_TIME: f64 = 0.004;

/// Per-contact normalisation, latched with the contact at each onset.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Norm {
    contact: Contact,
    v_max: f64,
    fs: f64,
    /// `1 / min(F_peak(v_max), m Δv fs)`: maps wall force to the dry level.
    inv_peak: f64,
    /// Per-sample body input per unit normalised force: `F_peak / (m Δv fs)`, so that a
    /// full-velocity impulse `∫F dt = m (v_in − v_out)` puts a unit kick into the body.
    body_drive: f64,
    /// The analytic impact's peak force and `Δv = v_max − v_out`.
    f_peak: f64,
    dv: f64,
    /// The peak force the same contact would have at `k = 1`, from which every
    /// stiffness's is scaled (see `relatch`).
    f_unit: f64,
}

impl Norm {
    /// Solved at `k = 1` and scaled to `contact.k` (see `relatch`): the same numbers
    /// whichever stiffness a voice's strikes went through before, so two renders of
    /// one session agree bit for bit however their strikes were humanized before.
    fn new(contact: Contact, v_max: f64, fs: f64) -> Self {
        let an = Contact { k: 1.0, ..contact }.impact(v_max);
        let f_unit = an.peak_force();
        let f_peak = f_unit * contact.k.powf(1.0 / (contact.alpha + 1.0));
        Self::of(contact, v_max, fs, f_peak, v_max - an.v_out()).with_unit(f_unit)
    }

    /// The normalisation for `contact` at `v_max`, from this one where only the
    /// stiffness differs (a humanized hit, a Hardness poly-mod): eq (1) made
    /// dimensionless with `x = L X`, `L = (m v²/k)^{1/(α+1)}`, leaves
    /// `X'' = −X^α (1 + μv X')`, so `v_out` does not move and the peak force goes as
    /// `m v²/L ∝ k^{1/(α+1)}`: scaled from the contact's force at `k = 1`, never from
    /// the last strike's (which would carry its rounding from strike to strike).
    /// Otherwise (or when this one is not a number) solved anew.
    fn relatch(&self, contact: Contact, v_max: f64, fs: f64) -> Self {
        let c = &self.contact;
        let same_but_k = self.fs == fs
            && self.v_max == v_max
            && c.alpha == contact.alpha
            && c.mu == contact.mu
            && c.mass == contact.mass;
        let f_peak = self.f_unit * contact.k.powf(1.0 / (contact.alpha + 1.0));
        if same_but_k && f_peak.is_finite() && f_peak > 0.0 {
            Self::of(contact, v_max, fs, f_peak, self.dv).with_unit(self.f_unit)
        } else {
            Self::new(contact, v_max, fs)
        }
    }

    fn with_unit(self, f_unit: f64) -> Self {
        Self { f_unit, ..self }
    }

    fn of(contact: Contact, v_max: f64, fs: f64, f_peak: f64, dv: f64) -> Self {
        // A contact shorter than a sample cannot show its peak in the output: the most
        // a sample can hold is the whole impulse, m Δv fs. Normalising by the smaller
        // keeps the full-velocity level at −6 dBFS for every stiffness.
        let peak = f_peak.min(contact.mass * dv * fs);
        let ok = peak.is_finite() && peak > 0.0 && dv.is_finite() && dv > 0.0;
        let (inv_peak, body_drive) = if ok {
            (1.0 / peak, peak / (contact.mass * dv * fs))
        } else {
            (0.0, 0.0)
        };
        Self {
            contact,
            v_max,
            fs,
            inv_peak,
            body_drive,
            f_peak,
            dv,
            f_unit: f64::NAN,
        }
    }
}

/// What a strike's set-up solves that other voices' strikes of the same patch reuse:
/// eq (9)'s unit time (a quadrature, per Bounciness and Shape) and the contact's
/// normalisation (a root search for the peak force). The engine hands the last strike's
/// to the next, so a chord on a new patch solves them once, not once per voice.
#[derive(Clone, Copy, Debug)]
pub struct StrikeSetup {
    unit: UnitTime,
    norm: Norm,
}

/// What one voice did at one sample.
#[derive(Clone, Copy, Debug, Default)]
pub struct VoiceSample {
    /// The voice's mono output (the mid of its image).
    pub out: f64,
    /// Its side at Width 1: left = out + width·side, right = out − width·side.
    pub side: f64,
    /// Normalised wall force (the dry excitation, before mix).
    pub force: f64,
    /// The dry path and the body's mid at their calibrated gains, before mix and fade.
    pub dry: f64,
    pub body: f64,
    pub contact: BounceSample,
}

#[derive(Clone, Copy, Debug)]
pub struct Voice {
    pub key: u8,
    pub channel: u8,
    pub voice_id: Option<i32>,
    /// Engine time of the last (re)strike, for stealing the oldest.
    pub started: u64,
    bouncer: Option<Bouncer>,
    /// The contact a re-strike interrupted, finishing into the body (see `tail`).
    tail: Option<Tail>,
    body: ModalBody,
    norm: Norm,
    /// Eq (9) at unit scale for the last Bounciness and Shape (see `model::hardness`).
    unit: UnitTime,
    /// The calibrated gains of this strike: scale what it puts into the dry path and
    /// the body (not the body's output: a re-strike does not step a ringing body).
    gain: level::Gains,
    /// Keeps a voice that ran away off the output (see `ceiling`).
    ceiling: Ceiling,
    fs: f64,
    declick: f64,
    declick_coef: f64,
    last_dry: f64,
    /// Pan at Width 1 ([`pan_of`]), latched at each strike.
    pan: f64,
    /// 1 while sounding; ramps to 0 when stolen or choked.
    fade: f64,
    fade_step: f64,
    last_out: f64,
    /// Normalised impulse (Σu) the impact in progress may still deliver.
    budget: f64,
    active: bool,
    /// Damped by a note-off ([`damp`](Self::damp)).
    damped: bool,
    /// The T60 a note-off asked for, still to be applied: the hand goes on when the
    /// contact in progress is over.
    pending_damp: Option<f64>,
    /// A retune [`update_body`](Self::update_body) put off while a contact pressed: it
    /// lands on the first sample after the contact, not at the next control tick.
    body_stale: bool,
    /// This note's expression (poly-mod, MPE, mod wheel), applied by [`own`](Self::own).
    pub expression: Expression,
    /// The last non-neutral [`own`](Self::own) of `tick`, by its inputs: a modulated
    /// parameter costs a few `log10`/`powf` per sample otherwise, while its inputs
    /// change only at control rate or on an event. Cleared by `strike`.
    own_memo: Option<(u64, EngineParams)>,
    /// The engine's parameter epoch for this sample (see `own_now`); `None` for a voice
    /// played on its own.
    pub epoch: Option<u64>,
    /// This hit's humanize jitter (one draw per note-on, set before `strike`), applied
    /// by [`own`](Self::own) and to the strike speed.
    pub jitter: Jitter,
    /// True on the copy a calibration plays (which must not calibrate itself).
    probing: bool,
    /// Level calibrations played (cache misses), for tests and diagnostics.
    calibrations: u64,
    /// The K-weighted ring energy of middle C for a patch and rate, as the level
    /// calibration last made it (see `entry_of`).
    reference: Option<(EngineParams, f64, f64)>,
}

impl Voice {
    pub fn new(fs: f64) -> Self {
        let p = EngineParams::default();
        let mut unit = UnitTime::default();
        let (c, _) = contact_cached(&p, &mut unit);
        Self {
            key: 0,
            channel: 0,
            voice_id: None,
            started: 0,
            bouncer: None,
            tail: None,
            body: ModalBody::new(body_settings(&p, 60), fs),
            norm: Norm {
                contact: c,
                v_max: 0.0,
                fs,
                inv_peak: 0.0,
                body_drive: 0.0,
                f_peak: 0.0,
                dv: 0.0,
                f_unit: f64::NAN,
            },
            unit,
            gain: level::Gains::UNIT,
            ceiling: Ceiling::new(fs),
            fs,
            declick: 0.0,
            declick_coef: (-1.0 / (DECLICK_TIME * fs)).exp(),
            last_dry: 0.0,
            pan: 0.0,
            fade: 1.0,
            fade_step: 0.0,
            last_out: 0.0,
            budget: 0.0,
            active: false,
            damped: false,
            pending_damp: None,
            body_stale: false,
            expression: Expression::default(),
            own_memo: None,
            epoch: None,
            jitter: Jitter::NONE,
            probing: false,
            calibrations: 0,
            reference: None,
        }
    }

    /// Level calibrations this voice has played since it was made (as a scratch voice
    /// filling a level table, or in [`strike`](Self::strike)).
    pub fn calibrations(&self) -> u64 {
        self.calibrations
    }

    /// Samples at which this voice's ceiling turned it down since it was made (0 for
    /// every strike the calibration got right), for tests and diagnostics.
    pub fn ceiling_engagements(&self) -> u64 {
        self.ceiling.engagements()
    }

    /// How far over the ceiling its loudest turned-down sample was (1: none).
    pub fn ceiling_overshoot(&self) -> f64 {
        self.ceiling.worst_overshoot()
    }

    pub fn sample_rate(&self) -> f64 {
        self.fs
    }

    pub fn is_active(&self) -> bool {
        self.active
    }
    pub fn is_fading(&self) -> bool {
        self.fade_step > 0.0
    }
    pub fn fade_level(&self) -> f64 {
        self.fade
    }
    pub fn bouncer(&self) -> Option<&Bouncer> {
        self.bouncer.as_ref()
    }
    pub fn in_contact(&self) -> bool {
        self.bouncer.is_some_and(|b| !b.is_done())
    }
    /// True while the mass touches the wall (not in a flight between bounces).
    fn touching(&self) -> bool {
        self.bouncer.is_some_and(|b| b.phase() == Phase::Contact)
    }
    /// True while this strike's contact, or one a re-strike interrupted, presses.
    fn pressing(&self) -> bool {
        self.touching() || self.tail.is_some()
    }
    /// The last output sample.
    pub fn output(&self) -> f64 {
        self.last_out
    }
    /// Rough loudness, for stealing the quietest.
    pub fn level(&self) -> f64 {
        self.body.amplitude() + self.last_out.abs()
    }

    /// Starts (or re-strikes) this voice, calibrated by playing its strike first on a
    /// copy of itself: for a voice on its own (tests, tools), never on the audio thread,
    /// where the engine strikes with the gains of its level table
    /// ([`strike_with`](Self::strike_with)).
    pub fn strike(&mut self, p: &EngineParams, key: u8, velocity: f64, now: u64) {
        let mut scratch = *self;
        let own = self.own(p, &self.jitter);
        let entry = scratch.entry_of(&super::level_table::level_params(&own), key);
        self.calibrations = scratch.calibrations;
        self.start(p, key, velocity, now);
        self.gain = entry.strike;
    }

    /// Starts (or re-strikes) this voice with the gains `levels` has for it at the
    /// smoothed `mix`. On a re-strike the body keeps ringing, like a real object struck
    /// again, and the dry pulse of a contact still in progress is handed to the
    /// de-click so the output stays continuous.
    pub fn strike_with(
        &mut self,
        p: &EngineParams,
        key: u8,
        velocity: f64,
        now: u64,
        mix: f64,
        levels: &mut Levels,
    ) {
        let own = self.own(p, &self.jitter);
        let gain = levels.gains(key, &own, p, mix);
        self.start(p, key, velocity, now);
        self.gain = gain;
    }

    /// This voice's strike set-up, for the next strike on any voice.
    pub fn setup(&self) -> StrikeSetup {
        StrikeSetup {
            unit: self.unit,
            norm: self.norm,
        }
    }

    /// Takes another voice's strike set-up before a strike (each part is used only when
    /// it was made for what this strike asks, see `latch`).
    pub fn take_setup(&mut self, s: &StrikeSetup) {
        self.unit = s.unit;
        if s.norm.fs == self.fs {
            self.norm = s.norm;
        }
    }

    /// Starts the strike itself (see [`strike`](Self::strike)), at the current gain.
    fn start(&mut self, p: &EngineParams, key: u8, velocity: f64, now: u64) {
        self.own_memo = None;
        let p = &self.own(p, &self.jitter);
        let restrike = self.active && !self.is_fading() && self.key == key;
        if restrike && self.touching() {
            // The contact in progress finishes into the body (see `tail`); one that an
            // earlier re-strike interrupted is cut, through the de-click.
            if let Some(old) = self.tail {
                self.declick += old.last_dry;
            }
            if let Some(b) = self.bouncer {
                self.tail = Some(Tail::new(
                    b,
                    self.norm,
                    self.gain,
                    self.budget,
                    self.last_dry,
                    self.fs,
                ));
            }
        } else if restrike {
            self.declick += self.last_dry;
        } else {
            self.tail = None;
            self.body.reset();
            self.ceiling.reset();
            self.declick = 0.0;
            self.last_out = 0.0;
        }
        self.last_dry = 0.0;
        self.key = key;
        self.pan = pan_of(key, p.key_spread);
        self.started = now;
        self.fade = 1.0;
        self.fade_step = 0.0;
        self.active = true;
        if self.is_damped() {
            // A re-strike of a damped voice: the hand comes off.
            self.damped = false;
            self.pending_damp = None;
            self.body.undamp();
            self.declick_coef = (-1.0 / (DECLICK_TIME * self.fs)).exp();
        }
        let latch = latch_cached(p, &mut self.unit);
        let v_max = p.v_max.max(p.v_min);
        self.latch(latch.contact_at(v_max), v_max);
        // The strike speed is the note's, not a parameter: its jitter applies here.
        let v_in = velocity_to_speed(p, velocity) * self.jitter.speed;
        let irregular = Irregularity::new(p.irregularity, train_seed(p.seed, key, now));
        self.bouncer =
            Some(Bouncer::new(latch, v_in, self.fs, train_of(p)).with_irregularity(irregular));
        self.body.retune(body_settings(p, key), self.fs);
        self.body_stale = false;
    }

    /// The parameters this voice plays with: the engine's, moved by this note's own
    /// expression and humanize jitter. Every use of the parameters in a voice goes
    /// through here.
    #[inline]
    pub fn own(&self, p: &EngineParams, jitter: &Jitter) -> EngineParams {
        jitter.apply(&self.expression.apply(p))
    }

    /// [`own`](Self::own), remembered for the engine's `epoch` (which it moves whenever
    /// the parameters, the smoothed body parameters or any voice's expression change):
    /// a humanized or expressive note then costs a comparison per sample, not a copy of
    /// the patch and its moves. Without an epoch (a voice on its own, the calibration)
    /// it is made every sample. `None` when it is `p` itself (no expression, no jitter).
    #[inline]
    fn own_now(&mut self, p: &EngineParams, epoch: Option<u64>) -> Option<EngineParams> {
        if self.expression.is_neutral() && self.jitter == Jitter::NONE {
            return None;
        }
        if let (Some(e), Some((at, out))) = (epoch, self.own_memo)
            && at == e
        {
            return Some(out);
        }
        let out = self.own(p, &self.jitter);
        self.own_memo = epoch.map(|e| (e, out));
        Some(out)
    }

    fn latch(&mut self, contact: Contact, v_max: f64) {
        if self.norm.contact != contact || self.norm.v_max != v_max || self.norm.fs != self.fs {
            self.norm = self.norm.relatch(contact, v_max, self.fs);
        }
    }

    /// Fades the voice out over [`STEAL_FADE_TIME`]; it ends when the fade does.
    pub fn release_fast(&mut self) {
        if self.active && !self.is_fading() {
            self.fade_step = 1.0 / (STEAL_FADE_TIME * self.fs).max(1.0);
        }
    }

    /// A hand on the object (note-off in Damp mode): no impact after the contact in
    /// progress, which finishes undamped (its pulse is not cut, and the body hears the
    /// force as it was tuned to); from its end, or at once in a flight or after the
    /// last bounce, every mode of the body, and the retrigger de-click, decays with T60
    /// at most `t60` s, continuing from where it is (no step). The voice then ends as
    /// any other, once below −120 dB. A stolen (fading) or idle voice is left alone.
    pub fn damp(&mut self, t60: f64) {
        if !self.active || self.is_fading() || self.is_damped() {
            return;
        }
        self.pending_damp = Some(if t60 > 1e-4 { t60 } else { 1e-4 });
        self.hand_on();
    }

    /// True once [`damp`](Self::damp)ed (until re-struck).
    pub fn is_damped(&self) -> bool {
        self.damped || self.pending_damp.is_some()
    }

    /// Applies a pending damp once the voice is out of contact: drops the bouncer (no
    /// further impacts) and damps the body and the de-click.
    #[inline]
    fn hand_on(&mut self) {
        let Some(t60) = self.pending_damp else {
            return;
        };
        if self.pressing() {
            return;
        }
        self.pending_damp = None;
        self.damped = true;
        self.bouncer = None;
        self.body.damp(t60);
        let coef = (-(1000f64.ln()) / (t60 * self.fs)).exp();
        self.declick_coef = self.declick_coef.min(coef);
    }

    /// Silences the voice at once.
    pub fn kill(&mut self) {
        self.active = false;
        self.damped = false;
        self.pending_damp = None;
        self.declick_coef = (-1.0 / (DECLICK_TIME * self.fs)).exp();
        self.bouncer = None;
        self.tail = None;
        self.body.reset();
        self.ceiling.reset();
        self.declick = 0.0;
        self.last_dry = 0.0;
        self.last_out = 0.0;
        self.fade = 1.0;
        self.fade_step = 0.0;
    }

    /// Retunes the body to the current (smoothed) settings: control rate.
    /// A contact in progress keeps the body it was calibrated for (see `calibrate`): a
    /// retune waits for its end, a few milliseconds at most for a playable contact.
    pub fn update_body(&mut self, p: &EngineParams) {
        if self.pressing() {
            self.body_stale = true;
            return;
        }
        self.retune_body(&self.own(p, &self.jitter));
    }

    /// Retunes the body to `own` (the voice's own parameters) where they moved it.
    fn retune_body(&mut self, own: &EngineParams) {
        self.body_stale = false;
        let st = body_settings(own, self.key);
        if st != self.body.settings() {
            self.body.retune(st, self.fs);
        }
    }

    /// One sample. `mix` is the smoothed body/dry mix. Returns the output, under the
    /// voice's ceiling, and what the contact did; `None` when the guard reset the voice.
    #[inline]
    pub fn tick(&mut self, p: &EngineParams, mix: f64) -> Option<VoiceSample> {
        self.tick_with(p, mix, None)
    }

    /// [`tick`](Self::tick), each impact taking the gains `levels` has for what it
    /// latched (a bounce after the parameters moved gets its own).
    #[inline]
    pub fn tick_with(
        &mut self,
        p: &EngineParams,
        mix: f64,
        levels: Option<&mut Levels>,
    ) -> Option<VoiceSample> {
        let mut s = self.tick_raw(p, mix, levels);
        (s.out, s.side) = self.ceiling_and_guard(s.out, s.side)?;
        Some(s)
    }

    /// The voice's ceiling on one sample's output and side, then the guard: a finite
    /// sample leaves the ceiling at most on it, so only one that is not a number, or
    /// infinite, is a runaway, and ends the voice (`None`).
    #[inline(always)]
    fn ceiling_and_guard(&mut self, y: f64, side: f64) -> Option<(f64, f64)> {
        let g = self.ceiling.next(y);
        let (y, side) = (y * g, side * g);
        if !y.is_finite() || side.is_nan() {
            self.kill();
            return None;
        }
        Some((y, side))
    }

    /// [`tick`](Self::tick) before the ceiling: what the calibration measures.
    #[inline(always)]
    fn tick_raw(&mut self, p: &EngineParams, mix: f64, levels: Option<&mut Levels>) -> VoiceSample {
        let raw = p;
        // Most notes carry no expression and no jitter: they play the engine's
        // parameters as they are, without copying them (hundreds of bytes, per sample).
        let own = self.own_now(p, self.epoch);
        let p = own.as_ref().unwrap_or(raw);
        let mut s = BounceSample::default();
        let mut u = 0.0;
        let mut onset = false;
        if self.body_stale && !self.pressing() {
            // The contact that kept the body has ended: what moved during it lands now.
            self.retune_body(p);
        }
        self.hand_on();
        if let Some(b) = self.bouncer.as_mut()
            && !b.is_done()
        {
            let norm = &mut self.norm;
            let unit = &mut self.unit;
            let fs = self.fs;
            let v_max = p.v_max.max(p.v_min);
            s = b.step(|| {
                // Latching at onset: the new impact takes the parameters of now.
                let latch = latch_cached(p, unit);
                let c = latch.contact_at(v_max);
                if norm.contact != c || norm.v_max != v_max {
                    *norm = norm.relatch(c, v_max, fs);
                }
                latch
            });
            let imp = b.impact();
            onset = s.onset;
            if s.onset {
                let an = imp.analytic();
                // Impulse budget of this impact: the exact momentum transfer of
                // eq (6), with room for audible integrator error.
                let dv = an.v_in - an.v_out();
                self.budget =
                    IMPULSE_MARGIN * an.contact.mass * dv.max(0.0) * fs * self.norm.inv_peak;
            }
            // The wall force averaged over this sample: the momentum the mass gave the
            // wall, m Σ(v_before − v_after), times fs. Unlike the force sampled at the
            // sample instant it conserves the impulse exactly, also for a contact
            // shorter than one sample (which would otherwise fall between two samples
            // and be silent). Under gravity in contact it is the force over the static
            // load `m g`, which the body does not hear (never below 0: no step when a
            // contact starts or the mass comes to rest).
            let f_avg = imp.analytic().contact.mass * s.dv * fs;
            u = excitation(f_avg, &self.norm, &mut self.budget);
        }
        if onset
            && !self.probing
            && let Some(levels) = levels
        {
            // Each impact is played at the gains made for what it latched (a bounce
            // after the parameters moved gets its own): a table lookup.
            self.gain = levels.gains(self.key, p, raw, mix);
        }
        let (mut tail_u, mut tail_dry, mut tail_drive) = (0.0, 0.0, 0.0);
        if let Some(t) = self.tail.as_mut() {
            match t.tick(self.fs) {
                Some(x) => (tail_u, tail_dry, tail_drive) = x,
                None => self.tail = None,
            }
        }
        let drive = self.gain.body * u * self.norm.body_drive + tail_drive;
        let (body, body_side) = self.body.tick_pickups(drive);
        let own_dry = FULL_SCALE * self.gain.dry * u;
        if let Some(t) = self.tail.as_mut() {
            t.last_dry = (1.0 - mix) * FULL_SCALE * tail_dry;
        }
        let (y, side, dry, body) = self.mix_sample(mix, own_dry, tail_dry, body, body_side);
        VoiceSample {
            out: y,
            side,
            force: u + tail_u,
            dry,
            body,
            contact: s,
        }
    }

    /// The voice's output from its dry path and its body's pickups, one sample: the
    /// de-click, the pan, the fade. Returns `(out, side, dry, body)`.
    #[inline(always)]
    fn mix_sample(
        &mut self,
        mix: f64,
        own_dry: f64,
        tail_dry: f64,
        body: f64,
        body_side: f64,
    ) -> (f64, f64, f64, f64) {
        let (dry, body) = (own_dry + FULL_SCALE * tail_dry, FULL_SCALE * body);
        self.declick = decay_declick(self.declick, self.declick_coef);
        let y = ((1.0 - mix) * dry + mix * body + self.declick) * self.fade;
        // Pan `p` on the linear law: L = (1 − p) y, R = (1 + p) y (p < 0: left).
        let side = -self.pan * y + mix * FULL_SCALE * body_side * self.fade;
        self.last_dry = (1.0 - mix) * own_dry;
        self.last_out = y;
        if self.fade_step > 0.0 {
            self.fade -= self.fade_step;
            if self.fade <= 0.0 {
                self.kill();
            }
        }
        (y, side, dry, body)
    }

    /// True when the voice only rings: no contact, flight or tail to come, nothing
    /// waiting for the contact's end. [`ring_into`](Self::ring_into) then plays it a
    /// block at a time.
    pub fn only_rings(&self) -> bool {
        self.active
            && self.bouncer.is_none_or(|b| b.is_done())
            && self.tail.is_none()
            && !self.body_stale
            && self.pending_damp.is_none()
    }

    /// Plays `mix.len()` samples of a voice that [`only_rings`](Self::only_rings), as
    /// [`tick`](Self::tick) would sample by sample, adding its output and side into
    /// `mid` and `side` (all three the same length). The body runs the block with its
    /// state in registers. Returns the sample at which the voice ended (its fade ran
    /// out) and whether the guard ended it, if it did.
    pub fn ring_into(
        &mut self,
        mix: &[f64],
        mid: &mut [f64],
        side: &mut [f64],
    ) -> Option<(usize, bool)> {
        let mut body = [0.0; RING_BLOCK];
        let mut body_side = [0.0; RING_BLOCK];
        let mut at = 0;
        while at < mix.len() {
            let n = (mix.len() - at).min(RING_BLOCK);
            let (b, bs) = (&mut body[..n], &mut body_side[..n]);
            self.body.ring_pickups(b, bs);
            let (m, s) = (&mut mid[at..at + n], &mut side[at..at + n]);
            let done = self.mix_steady(&mix[at..at + n], b, bs, m, s);
            for j in done..n {
                let (y, s, _, _) = self.mix_sample(mix[at + j], 0.0, 0.0, body[j], body_side[j]);
                let Some((y, s)) = self.ceiling_and_guard(y, s) else {
                    return Some((at + j, true));
                };
                mid[at + j] += y;
                side[at + j] += s;
                if !self.active {
                    return Some((at + j, false));
                }
            }
            at += n;
        }
        None
    }

    /// [`mix_sample`](Self::mix_sample) and the ceiling for a ringing voice in the
    /// common case, not fading and the ceiling open with nothing near it: the same
    /// arithmetic, a block at a time. Returns how many samples it played: all of them,
    /// or none (the voice untouched) when one needs the ceiling or the guard, or while
    /// the voice fades.
    #[inline(always)]
    fn mix_steady(
        &mut self,
        mix: &[f64],
        body: &[f64],
        body_side: &[f64],
        mid: &mut [f64],
        side: &mut [f64],
    ) -> usize {
        let n = mix.len();
        if self.fade_step != 0.0 || self.ceiling.gain() != 1.0 || n == 0 {
            return 0;
        }
        // The de-click's decay, the only state carried from sample to sample.
        let mut declick = [0.0; RING_BLOCK];
        let mut d = self.declick;
        if d != 0.0 {
            for x in &mut declick[..n] {
                d = decay_declick(d, self.declick_coef);
                *x = d;
            }
        }
        let (fade, pan) = (self.fade, self.pan);
        let mut y = [0.0; RING_BLOCK];
        let mut s = [0.0; RING_BLOCK];
        let mut fits = true;
        for j in 0..n {
            // As `mix_sample` with no dry path (own and tail dry 0).
            let dry = 0.0 + FULL_SCALE * 0.0;
            y[j] = ((1.0 - mix[j]) * dry + mix[j] * (FULL_SCALE * body[j]) + declick[j]) * fade;
            s[j] = -pan * y[j] + mix[j] * FULL_SCALE * body_side[j] * fade;
            // Under the ceiling and a number: the ceiling's gain stays 1 (`Ceiling::next`).
            fits &= y[j].abs() <= CEILING && !s[j].is_nan();
        }
        if !fits {
            return 0;
        }
        for j in 0..n {
            mid[j] += y[j];
            side[j] += s[j];
        }
        self.declick = d;
        self.last_dry = (1.0 - mix[n - 1]) * 0.0;
        self.last_out = y[n - 1];
        n
    }

    /// True when the contact sequence is over and everything has rung below −120 dB.
    pub fn is_silent(&self) -> bool {
        let contact_done = self.bouncer.is_none_or(|b| b.is_done()) && self.tail.is_none();
        contact_done
            && FULL_SCALE * self.body.amplitude() < SILENCE
            && self.declick.abs() < SILENCE
            && self.last_out.abs() < SILENCE
    }

    /// Ends the voice (called by the engine once [`is_silent`](Self::is_silent)).
    pub fn finish(&mut self) {
        self.kill();
    }

    pub fn body_kind(&self) -> BodyType {
        self.body.settings().kind
    }
}
