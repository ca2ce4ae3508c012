//! The resonating body (product signal flow, step 4): a bank of [`MODES`] damped modes
//! driven one way by the contact force on the wall, so the contact stays the rigid-wall
//! model of the paper and its corrections stay exact.
//!
//! Each mode is a complex one-pole resonator `z ← r e^{iω} z + u` read out as `Im z`:
//! a unit impulse rings as `r^n sin(nω)`, which starts at zero (no click at onset), and
//! changing `r` or `ω` between samples rotates the phasor on without a jump, so decay,
//! pitch, brightness and strike position can move while the body rings.
//!
//! The body sounds the same at every sample rate: a mode rings as the sampled
//! continuous-time `e^{−t/τ} sin(2π f t)` per unit of momentum delivered (its poles are
//! the impulse-invariant `r e^{±iω}`; the voice hands in momentum per sample, which
//! sums to the same kick at any rate), and each mode's readout `a Im z + b Re z + d u`
//! makes its response to the force equal the continuous mode's both at its resonance
//! and at DC, through the sinc droop of the per-sample average (so a long contact,
//! which drives the modes far below their frequency, sounds the same at every rate
//! too). The mode set, gains and normalisation are fixed in Hz: modes above
//! [`BAND_LIMIT`], the band limit of 44.1 kHz, are silent at every rate.
//!
//! Switching the body type crossfades: the old coefficients keep ringing from the same
//! state in a second bank for [`SWITCH_TIME`] while the new ones fade in, so a switch,
//! also to or from [`BodyType::None`], never steps the output.
//!
//! Everything is fixed-size; `tick` touches only the arrays of this struct.

use std::f64::consts::PI;

mod bands;
mod bank;
mod drive;
mod driven;
mod hand;
mod limits;
mod modes;
mod pickup;
mod powers;
mod recorded;
mod ring_energy;
mod simd;
mod strike_point;

use bank::{Coefs, bank_amplitude, cap_decay};
pub use bank::{poles_made, prime_retune};
use drive::DriveHighpass;
pub use limits::{BAND_FADE, BAND_LIMIT, MODES, SWITCH_TIME};

pub use crate::model::dispatch::{force_portable, vector_path};
use modes::*;
pub use modes::{BodySettings, BodyType};
pub use pickup::{Pickup, SideWeights, pickup_shape, pickups, side_weights, side_weights_of};
pub use recorded::{Partial, Recorded, WINE_GLASS, recorded, reference_spectrum, register};
pub use strike_point::{StrikeMode, StrikeShapes, strike_modes};

/// A bank of [`MODES`] resonators, and while the body type changes, a second bank with
/// the old type's coefficients that fades out.
#[derive(Clone, Copy, Debug)]
pub struct ModalBody {
    re: [f64; MODES],
    im: [f64; MODES],
    k: Coefs,
    /// The bank being faded out after a change of body type (its state starts as a
    /// copy of the main bank's, so the two agree at the switch).
    old_re: [f64; MODES],
    old_im: [f64; MODES],
    old: Coefs,
    /// Samples of the crossfade still to go (0: no crossfade), and `1 / length`.
    fade_left: u32,
    fade_step: f64,
    plate: [(u32, u32, f64); MODES],
    /// Takes the slow part out of the force (see `drive`).
    drive: DriveHighpass,
    settings: BodySettings,
    fs: f64,
    active: bool,
    /// Damping by a hand on the body ([`damp`](Self::damp)): every mode's T60 is at most
    /// this, s (infinite: undamped).
    damp_t60: f64,
    /// Samples of the hand's ramp still to go, each mode's pole-radius factor for the
    /// next sample along it, and the factor that factor grows by per sample (see
    /// [`damp`](Self::damp)).
    damp_left: u32,
    damp_q: [f64; MODES],
    damp_dq: [f64; MODES],
    /// Ticks the bank on the vector path (`simd`): the process's choice, or the
    /// portable loop where a test asks for it.
    vector: bool,
    /// Samples with no input left before the modes are checked ([`QUIET_EVERY`]).
    quiet_in: u32,
}

/// A bank ticked with no input has its modes checked every this many samples.
const QUIET_EVERY: u32 = 256;
/// A mode ringing with no input below this (400 dB under full scale) is let go: it
/// would decay into subnormal numbers, which cost ~100× per operation where
/// nothing flushes them (the CLI, tests, a host that leaves them on). A voice that a
/// bouncing train's long flight keeps alive ticks its bank sample by sample: such a
/// voice took 1.3 µs a sample, 60 times its cost while ringing.
const QUIET_BANK: f64 = 1e-20;

impl ModalBody {
    pub fn new(settings: BodySettings, fs: f64) -> Self {
        modes::prepare_tables();
        strike_point::prepare();
        recorded::prepare();
        side_weights_of(BodyType::None);
        let mut b = Self {
            re: [0.0; MODES],
            im: [0.0; MODES],
            k: Coefs::ZERO,
            old_re: [0.0; MODES],
            old_im: [0.0; MODES],
            old: Coefs::ZERO,
            fade_left: 0,
            fade_step: 0.0,
            plate: plate_modes(),
            drive: DriveHighpass::default(),
            settings,
            fs,
            active: false,
            damp_t60: f64::INFINITY,
            damp_left: 0,
            damp_q: [1.0; MODES],
            damp_dq: [1.0; MODES],
            vector: vector_path(),
            quiet_in: QUIET_EVERY,
        };
        b.retune(settings, fs);
        b
    }

    pub fn settings(&self) -> BodySettings {
        self.settings
    }

    /// Recomputes the mode coefficients (control rate: a few µs). The ringing state is
    /// kept, so a change of pitch, decay, brightness or position never clicks. A change
    /// of body type while the body rings starts a crossfade of [`SWITCH_TIME`] from the
    /// old coefficients to the new; one asked for during a crossfade waits for its end
    /// (the settings then still report the old type, so the caller asks again).
    pub fn retune(&mut self, st: BodySettings, fs: f64) {
        // Already tuned to exactly these (a re-strike of the same key and patch): the
        // coefficients are `Coefs::of` these settings, capped by any damping, already.
        if self.active && self.fade_left == 0 && fs == self.fs && st == self.settings {
            return;
        }
        let mut st = st;
        let switching = st.kind != self.settings.kind;
        // (During a fade to None the main bank is all zeros but the old one rings.)
        let ringing = self.fade_left > 0 || self.re.iter().chain(&self.im).any(|&z| z != 0.0);
        if fs != self.fs || !ringing {
            // Nothing to fade (a new rate silences everything anyway).
            self.fs = fs;
            self.fade_left = 0;
        } else if switching {
            if self.fade_left > 0 {
                st.kind = self.settings.kind;
            } else {
                self.old = self.k;
                self.old_re = self.re;
                self.old_im = self.im;
                let n = (SWITCH_TIME * fs).round().max(1.0);
                self.fade_left = n as u32;
                self.fade_step = 1.0 / n;
            }
        }
        self.settings = st;
        self.k = Coefs::of(&st, fs, &self.plate);
        // Modes above the band limit are not ticked: none of them keeps a state that
        // would sound if the body were retuned down (it starts from rest instead).
        self.re[4 * self.k.live..].fill(0.0);
        self.im[4 * self.k.live..].fill(0.0);
        self.drive.tune(self.k.lowest, fs);
        cap_decay(&mut self.k, self.damp_t60, fs);
        self.damp_left = 0;
        self.active = st.kind != BodyType::None || self.fade_left > 0;
        if !self.active {
            self.reset();
        }
    }

    /// Clears the ringing state (and any crossfade) and lifts any damping.
    pub fn reset(&mut self) {
        self.re = [0.0; MODES];
        self.im = [0.0; MODES];
        self.drive.reset();
        self.fade_left = 0;
        self.active = self.settings.kind != BodyType::None;
        if self.damp_t60.is_finite() {
            self.undamp();
        }
    }

    /// Advances one sample with input `u` (added to every mode; the output weights set
    /// the mix) and returns the body's output.
    /// (The side is not computed: a third less work, for what only reads the mid, such
    /// as the level calibration's ring.)
    #[inline]
    pub fn tick(&mut self, u: f64) -> f64 {
        self.tick_with::<false>(u).0
    }

    /// As [`tick`](Self::tick), also returning the side of the two pickups (`pickup`):
    /// the left pickup hears `mid + side`, the right `mid − side`.
    #[inline]
    pub fn tick_pickups(&mut self, u: f64) -> (f64, f64) {
        self.tick_with::<true>(u)
    }

    #[inline(always)]
    fn tick_with<const SIDE: bool>(&mut self, u: f64) -> (f64, f64) {
        if !self.active {
            return (0.0, 0.0);
        }
        let u = self.drive.tick(u);
        // An input far below anything audible is none: a resting contact's last
        // crumbs would otherwise keep the bank from being let go.
        let u = if u.abs() < QUIET_BANK { 0.0 } else { u };
        let y = simd::tick::<SIDE>(self.vector, &mut self.re, &mut self.im, &self.k, u);
        if u == 0.0 && self.fade_left == 0 && self.damp_left == 0 {
            self.quiet_in -= 1;
            if self.quiet_in == 0 {
                self.let_go_if_quiet();
            }
        }
        // The hand's first sample still rings with the radii it found (the ramp moves
        // them from the next): the output leaves the undamped note's with zero slope.
        if self.damp_left > 0 {
            self.ramp_damping();
        }
        if self.fade_left == 0 {
            return y;
        }
        self.tick_crossfade(u, y)
    }

    /// `mid.len()` samples with the input held at `held` (0: none; the drive high-pass's
    /// tail still plays): what [`tick_pickups`](Self::tick_pickups)`(held)` would give
    /// sample by sample, the bank's state and coefficients held in registers over the
    /// run (a ringing voice's block, or a stolen one's, its contact's last force held
    /// through its fade). `side` is as long as `mid`.
    pub fn ring_pickups(&mut self, held: f64, mid: &mut [f64], side: &mut [f64]) {
        let n = mid.len().min(side.len());
        if !self.active {
            mid[..n].fill(0.0);
            side[..n].fill(0.0);
            return;
        }
        if self.damp_left > 0 || self.fade_left > 0 {
            for (m, s) in mid[..n].iter_mut().zip(&mut side[..n]) {
                (*m, *s) = self.tick_pickups(held);
            }
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if self.vector {
            // SAFETY: `vector` is only ever true where the CPU has AVX2 and FMA.
            return unsafe { self.ring_run_vex(held, &mut mid[..n], &mut side[..n]) };
        }
        self.ring_run(held, &mut mid[..n], &mut side[..n]);
    }

    /// [`ring_run`](Self::ring_run) compiled for AVX2 and FMA, so that the drive's sample
    /// is in line in the bank's loop (the same bits: nothing is fused).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    #[inline(never)]
    fn ring_run_vex(&mut self, held: f64, mid: &mut [f64], side: &mut [f64]) {
        self.ring_run(held, mid, side)
    }

    /// The bank's run over `mid.len()` samples, driven by the high-pass's output (or by
    /// nothing, exactly, once its tail is over).
    #[inline(always)]
    fn ring_run(&mut self, held: f64, mid: &mut [f64], side: &mut [f64]) {
        let (re, im, k) = (&mut self.re, &mut self.im, &self.k);
        if held == 0.0 && self.drive.is_quiet() {
            simd::ring(self.vector, re, im, k, &mut simd::Silent, mid, side);
        } else {
            // The drive's samples first (copied from its spans), then the bank reading
            // them: nothing in the bank's loop waits on the drive.
            let mut u = [0.0; DRIVE_RUN];
            for (mid, side) in mid.chunks_mut(DRIVE_RUN).zip(side.chunks_mut(DRIVE_RUN)) {
                let u = &mut u[..mid.len()];
                self.drive.fill(held, u);
                let mut drive = Driven(u.iter());
                simd::ring(self.vector, re, im, k, &mut drive, mid, side);
            }
        }
    }

    /// Every [`QUIET_EVERY`] samples with no input: each mode rung below [`QUIET_BANK`]
    /// is let go (exact zeros ring as zeros, at full speed).
    #[cold]
    #[inline(never)]
    fn let_go_if_quiet(&mut self) {
        self.quiet_in = QUIET_EVERY;
        // Mode by mode: a fast mode (a wood block's top, a short T60) reaches subnormal
        // numbers while the slow ones still ring.
        for i in 0..MODES {
            if self.re[i].abs() < QUIET_BANK && self.im[i].abs() < QUIET_BANK {
                self.re[i] = 0.0;
                self.im[i] = 0.0;
            }
        }
    }

    /// The crossfade part of [`tick`](Self::tick): advances the old bank and mixes it
    /// (mid and side) out linearly.
    #[inline(never)]
    fn tick_crossfade(&mut self, u: f64, (y, z): (f64, f64)) -> (f64, f64) {
        let (y_old, z_old) = simd::tick::<true>(
            self.vector,
            &mut self.old_re,
            &mut self.old_im,
            &self.old,
            u,
        );
        self.fade_left -= 1;
        let w_old = self.fade_left as f64 * self.fade_step;
        if self.fade_left == 0 && self.settings.kind == BodyType::None {
            // Faded out to no body: forget the ringing, so a later body starts silent.
            self.re = [0.0; MODES];
            self.im = [0.0; MODES];
            self.active = false;
        }
        (y + w_old * (y_old - y), z + w_old * (z_old - z))
    }

    /// An upper bound of the output amplitude from here on: `Σ |a_k + i b_k| |z_k|` (of both
    /// banks during a crossfade).
    pub fn amplitude(&self) -> f64 {
        if !self.active {
            return 0.0;
        }
        let mut a = bank_amplitude(&self.re, &self.im, &self.k);
        if self.fade_left > 0 {
            a += bank_amplitude(&self.old_re, &self.old_im, &self.old);
        }
        a
    }

    /// True when the state holds a NaN or an infinity.
    pub fn is_bad(&self) -> bool {
        !self.amplitude().is_finite()
    }

    /// True while a change of body type is being crossfaded.
    pub fn is_switching(&self) -> bool {
        self.fade_left > 0
    }

    /// The lowest sounding mode, Hz (0 when none sounds).
    pub fn lowest_mode(&self) -> f64 {
        self.k.lowest
    }

    /// Continuous-time gain per mode (0 for silenced modes), for tests.
    pub fn gains(&self) -> [f64; MODES] {
        self.k.g
    }

    /// Mode frequencies in Hz (0 for silenced modes), for plots and tests.
    pub fn frequencies(&self) -> [f64; MODES] {
        let mut f = [0.0; MODES];
        for (k, fk) in f.iter_mut().enumerate() {
            if self.k.g[k] > 0.0 {
                *fk = self.k.s[k].atan2(self.k.c[k]) * self.fs / (2.0 * PI);
            }
        }
        f
    }
}

/// Samples of the drive made at a time for a run of the bank.
const DRIVE_RUN: usize = 32;

/// The drive high-pass's output for a held force (0: its tail), made ahead of the
/// bank's run and read by it.
struct Driven<'a>(std::slice::Iter<'a, f64>);

impl simd::Drive for Driven<'_> {
    #[inline(always)]
    fn next(&mut self) -> f64 {
        self.0.next().copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod simd_tests;
