//! One voice: a bounce sequence striking a modal body, with its loudness normalisation,
//! retrigger de-click, steal fade and guard. Framework-free: the plugin and `rebound
//! render` drive the same code.

use crate::engine::expression::Expression;
use crate::engine::expression::humanize::Jitter;
use crate::engine::level::ceiling::Ceiling;
use crate::engine::level::law;
use crate::engine::params::EngineParams;
use crate::model::body::{BodyType, ModalBody};
use crate::model::hardness::UnitTime;
use crate::model::{BounceSample, Bouncer, Phase};

mod calibrate;
mod contact_block;
mod crumple;
mod hand;
mod norm;
mod note_on;
mod ring_block;
mod roll;
mod settings;
mod tail;
mod tick;
mod two_way;
use norm::Norm;
pub use norm::{EXCITATION_LIMIT, IMPULSE_MARGIN};
use settings::contact_cached;
pub use settings::{
    body_settings, contact_of, latch_cached, latch_of, train_of, train_seed, velocity_to_speed,
};
use tail::Tail;
pub use two_way::TwoWayView;
use two_way::{ModesCache, TwoWay};

/// Output level of a full-velocity strike: the dry pulse peaks here (−6 dBFS).
pub const FULL_SCALE: f64 = 0.5;
/// Samples [`Voice::ring_into`] hands its body at a time.
pub(super) const RING_BLOCK: usize = 32;
/// A voice is over when its contacts are done and its output bound is below −120 dB.
pub const SILENCE: f64 = 1e-6;
/// Time constant of the retrigger de-click, s.
const DECLICK_TIME: f64 = 0.002;
/// The de-click's step is let go below this (400 dB under full scale): decaying on it
/// would reach subnormal numbers, slow where nothing flushes them (the CLI, tests).
const DECLICK_QUIET: f64 = 1e-20;

/// One sample of the de-click's decay.
#[inline(always)]
pub(super) fn decay_declick(d: f64, coef: f64) -> f64 {
    let d = d * coef;
    if d.abs() < DECLICK_QUIET { 0.0 } else { d }
}
/// Length of the fade of a stolen voice, s.
pub const STEAL_FADE_TIME: f64 = 0.004;

/// What a strike's set-up solves that other voices' strikes of the same patch reuse:
/// eq (9)'s unit time (a quadrature, per Bounciness and Shape) and the contact's
/// normalisation (a root search for the peak force). The engine hands the last strike's
/// to the next, so a chord on a new patch solves them once, not once per voice.
/// One chunk's sums a voice adds into: its output's mid and side, and its force.
pub struct ChunkSums<'a> {
    pub mid: &'a mut [f64],
    pub side: &'a mut [f64],
    pub force: &'a mut [f64],
}

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

/// `repr(C)`, the fields a note-on scans first: finding a note's voice reads the key,
/// channel, age and state of every slot, and with these fields together at the start
/// of a line that is one cache line a slot, not three scattered over a voice of several
/// kilobytes (the first note after a patch change meets them cold).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Voice {
    /// Engine time of the last (re)strike, for stealing the oldest.
    pub started: u64,
    /// 1 while sounding; ramps to 0 when stolen or choked.
    fade: f64,
    fade_step: f64,
    pub voice_id: Option<i32>,
    pub key: u8,
    pub channel: u8,
    active: bool,
    bouncer: Option<Bouncer>,
    /// The strike on a body that gives, in place of `bouncer` (see `two_way`).
    two_way: Option<TwoWay>,
    /// The body's modes at the strike point the last two-way strike used.
    strike_modes: ModesCache,
    /// The contact a re-strike interrupted, finishing into the body (see `tail`).
    tail: Option<Tail>,
    body: ModalBody,
    norm: Norm,
    /// Eq (9) at unit scale for the last Bounciness and Shape (see `model::hardness`).
    unit: UnitTime,
    /// The calibrated gains of this strike: scale what it puts into the dry path and
    /// the body (not the body's output: a re-strike does not step a ringing body).
    gain: law::Gains,
    /// Keeps a voice that ran away off the output (see `ceiling`).
    ceiling: Ceiling,
    fs: f64,
    declick: f64,
    declick_coef: f64,
    last_dry: f64,
    /// The body's drive of the last sample, and the drive held on a stolen voice
    /// whose contact was lifted (see `release_fast`): the body stays where the force
    /// held it while the fade takes it out, instead of springing back (a pluck).
    last_drive: f64,
    held_drive: f64,
    /// Rigid trains this voice played that were ended on their work budget
    /// (`bounce::TRAIN_WORK_BUDGET`), for tests and the cost bench.
    train_cuts: u32,
    /// The crumpling train of a held note (Gesture Crumple), until the key is up.
    crumple: Option<crumple::Crumpling>,
    /// The rolling or scraping contact of a held note (Gesture Roll or Scrape).
    rolling: Option<roll::RollVoice>,
    /// Released while the sustain pedal held it: it sounds on, undamped, until the
    /// pedal comes up or the key is struck again.
    pub sustained: bool,
    /// Pan at Width 1 ([`pan_of`]), latched at each strike.
    pan: f64,
    /// The body's side at that pan (`output::edge_side`), latched with it.
    edge: f64,
    last_out: f64,
    /// Normalised impulse (Σu) the impact in progress may still deliver.
    budget: f64,
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
            two_way: None,
            strike_modes: ModesCache::EMPTY,
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
            gain: law::Gains::UNIT,
            ceiling: Ceiling::new(fs),
            fs,
            declick: 0.0,
            declick_coef: (-1.0 / (DECLICK_TIME * fs)).exp(),
            last_dry: 0.0,
            last_drive: 0.0,
            held_drive: 0.0,
            train_cuts: 0,
            crumple: None,
            rolling: None,
            sustained: false,
            pan: 0.0,
            edge: 1.0,
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
    /// Rigid trains of this voice ended on their work budget so far.
    pub fn train_cuts(&self) -> u32 {
        self.train_cuts
    }
    /// This strike is two-way (a body that gives), not the rigid wall's.
    pub fn is_two_way(&self) -> bool {
        self.two_way.is_some()
    }
    /// The two-way strike as the trace reads it, where this strike is one.
    pub fn two_way(&self) -> Option<TwoWayView> {
        self.two_way.as_ref().map(|t| t.view())
    }
    /// The two-way strike's coupled energy `H`, J (see `TwoWay::energy`).
    pub fn two_way_energy(&self) -> Option<f64> {
        self.two_way.as_ref().map(|t| t.energy())
    }
    pub fn in_contact(&self) -> bool {
        self.bouncer.as_ref().is_some_and(|b| !b.is_done())
            || self.two_way.as_ref().is_some_and(|t| !t.is_done())
    }
    /// True while the mass touches the wall (not in a flight between bounces).
    fn touching(&self) -> bool {
        self.bouncer
            .as_ref()
            .is_some_and(|b| b.phase() == Phase::Contact)
            || self.two_way.as_ref().is_some_and(|t| t.touching())
    }
    /// True while this strike's contact, or one a re-strike interrupted, presses.
    fn pressing(&self) -> bool {
        self.touching() || self.tail.is_some()
    }
    /// The last output sample.
    pub fn output(&self) -> f64 {
        self.last_out
    }
    /// True when the contact sequence is over and everything has rung below −120 dB.
    pub fn is_silent(&self) -> bool {
        let contact_done = self.bouncer.as_ref().is_none_or(|b| b.is_done())
            && self.two_way.as_ref().is_none_or(|t| t.is_done())
            && self.tail.is_none()
            && self.crumple.is_none()
            && self.rolling.is_none();
        // The bank's bound (16 moduli) last: a sounding voice's last sample is over
        // the threshold, so a ringing voice is told apart without it.
        contact_done
            && self.last_out.abs() < SILENCE
            && self.declick.abs() < SILENCE
            && FULL_SCALE * self.body.amplitude() < SILENCE
    }

    pub fn body_kind(&self) -> BodyType {
        self.body.settings().kind
    }
}

#[cfg(test)]
mod layout_tests {
    use super::Voice;
    use std::mem::offset_of;

    /// What a note-on reads of every slot lies in the voice's first cache line.
    #[test]
    fn the_fields_a_note_on_scans_share_one_cache_line() {
        let ends = [
            offset_of!(Voice, started) + 8,
            offset_of!(Voice, fade) + 8,
            offset_of!(Voice, fade_step) + 8,
            offset_of!(Voice, voice_id) + size_of::<Option<i32>>(),
            offset_of!(Voice, key) + 1,
            offset_of!(Voice, channel) + 1,
            offset_of!(Voice, active) + 1,
        ];
        assert!(ends.iter().all(|&e| e <= 64), "{ends:?}");
        // Each slot starts a line, so no slot's fields straddle two.
        assert_eq!(align_of::<Voice>(), 64);
    }
}
