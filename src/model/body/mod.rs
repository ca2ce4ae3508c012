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
//! Mode frequency ratios come from the physics of each body type:
//! - bar: free–free Euler–Bernoulli beam, `f_n ∝ (β_n L)²` with `β_n L` = 4.730, 7.853,
//!   10.996, 14.137, then `(n + ½)π` (Fletcher & Rossing §2.15);
//! - plate: simply supported rectangular plate of aspect ratio 1 : 1.25,
//!   `f_mn ∝ m² + (n/1.25)²`, excited in proportion to `sin(mπx) sin(nπy)`;
//! - membrane: ideal circular membrane, `f_mn ∝ j_mn` (zeros of the Bessel functions),
//!   excited in proportion to `J_m(j_mn r)`;
//! - bell: the partials of a minor-third church bell (hum, prime, tierce, quint,
//!   nominal, …; Rossing, *Science of Percussion Instruments*), the prime on the note;
//! - wood block: a thick (Timoshenko) bar whose upper modes are lowered by shear and
//!   rotary inertia, with the frequency-proportional loss of wood.
//!
//! Everything is fixed-size; `tick` touches only the arrays of this struct.

use std::f64::consts::PI;

mod drive;
mod modes;
mod pickup;
mod ring;
mod simd;
mod strike;

use drive::DriveHighpass;

use modes::*;
pub use modes::{BodySettings, BodyType};
pub use pickup::{Pickup, SideWeights, pickup_shape, pickups, side_weights, side_weights_of};
pub use simd::vector_path;
pub use strike::{StrikeMode, strike_modes};

/// Number of modes of every body. Modes above [`BAND_LIMIT`] are silenced.
pub const MODES: usize = 16;
/// Modes fade out from [`BAND_FADE`] to here, Hz, at every sample rate: 0.45 of
/// 44.1 kHz, the lowest rate the body is meant for, so that every rate from there up
/// rings the same modes with the same gains. (Below 44.1 kHz modes also fade out
/// between 0.40 and 0.45 `fs` so nothing aliases; the gains stay normalised as at
/// 44.1 kHz, so such a rate is only duller, not quieter.)
pub const BAND_LIMIT: f64 = 0.45 * 44_100.0;
/// Start of the fade-out to [`BAND_LIMIT`], Hz (0.40 of 44.1 kHz).
pub const BAND_FADE: f64 = 0.40 * 44_100.0;
/// Length of the crossfade when the body type changes, s.
pub const SWITCH_TIME: f64 = 0.010;

/// One bank of [`MODES`] resonators' coefficients. Struct of arrays so the per-sample
/// loop vectorises.
#[derive(Clone, Copy, Debug)]
struct Coefs {
    /// `r cos ω`, `r sin ω` per mode.
    c: [f64; MODES],
    s: [f64; MODES],
    /// Readout of mode k: `a_k Im z_k + b_k Re z_k` (see [`Coefs::of`]).
    a: [f64; MODES],
    b: [f64; MODES],
    /// `|a_k + i b_k|`: each mode's weight in the amplitude bound.
    w: [f64; MODES],
    /// The side readout of the two pickups (`pickup`): each mode's readout weighted by
    /// its level difference plus its quadrature readout by its phase difference.
    sa: [f64; MODES],
    sb: [f64; MODES],
    /// The side's direct path: each mode's whole readout is weighted, its feed-through
    /// too (the feed-throughs cancel much of the modes' sum where the modes are driven
    /// far below their frequency; the side must cancel alike), and each quadrature
    /// readout has its own, which makes its response at DC zero.
    sd: f64,
    /// Direct path: the sum over the modes of their feed-through of the input.
    d: f64,
    /// Continuous-time gain per mode: summing to 1 over the modes below
    /// [`BAND_LIMIT`], the same at every rate from 44.1 kHz up.
    g: [f64; MODES],
    /// The lowest sounding mode, Hz (0: none), which tunes the drive high-pass.
    lowest: f64,
    /// Groups of four modes that are ticked: up to the last mode below the rate's band
    /// limit. Modes above it are silent at every position and brightness, so they are
    /// not ticked at all, and their state is held at zero (`ModalBody::retune`).
    live: usize,
}

/// A complex number as `(re, im)`; control rate only.
type Cx = (f64, f64);
/// One number per mode.
type Mx = [f64; MODES];

fn cmul(x: Cx, y: Cx) -> Cx {
    (x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0)
}

fn cinv(x: Cx) -> Cx {
    let n = x.0 * x.0 + x.1 * x.1;
    (x.0 / n, -x.1 / n)
}

/// The response of `g e^{−αt} sin(ωt)` (t in samples) to the force, at `θ` rad/sample,
/// divided by the one-sample box average through which the body hears the force
/// (`sinc(θ/2)`): what the discrete mode should do at `θ`.
fn mode_target(g: f64, alpha: f64, w: f64, theta: f64) -> Cx {
    // g ω / ((iθ + α)² + ω²)
    let den = (alpha * alpha - theta * theta + w * w, 2.0 * alpha * theta);
    let h = cinv(den);
    let x = 0.5 * theta;
    let sinc = if x > 1e-9 { x.sin() / x } else { 1.0 };
    (g * w * h.0 / sinc, g * w * h.1 / sinc)
}

/// `(A, B)` at `θ`, given `e = e^{−iθ}`: the responses of `Im z` and `Re z` of the
/// phasor `z ← p z + u`.
fn phasor_response(p: Cx, e: Cx) -> (Cx, Cx) {
    let pe = cmul(p, e);
    let pce = cmul((p.0, -p.1), e);
    let pp = cinv((1.0 - pe.0, -pe.1));
    let qq = cinv((1.0 - pce.0, -pce.1));
    // Im z = (P − Q) / 2i, Re z = (P + Q) / 2.
    let a = (0.5 * (pp.1 - qq.1), -0.5 * (pp.0 - qq.0));
    let b = (0.5 * (pp.0 + qq.0), 0.5 * (pp.1 + qq.1));
    (a, b)
}

impl Coefs {
    const ZERO: Coefs = Coefs {
        c: [0.0; MODES],
        s: [0.0; MODES],
        a: [0.0; MODES],
        b: [0.0; MODES],
        w: [0.0; MODES],
        sa: [0.0; MODES],
        sb: [0.0; MODES],
        sd: 0.0,
        d: 0.0,
        g: [0.0; MODES],
        lowest: 0.0,
        live: 0,
    };

    /// The coefficients of `st` at `fs`. Only the discretisation depends on the rate:
    /// the poles `r e^{±iω}` (`ω = 2π f / fs`, `r = e^{−1/(τ fs)}`) sample the
    /// continuous modes, and each mode's readout `a Im z + b Re z + d u` is chosen so
    /// that its response to the force equals the continuous mode's at DC and at its
    /// resonance (in amplitude and phase), through the one-sample average of the force.
    ///
    /// The resonance fixes the ringing; DC fixes the mode's response far below its
    /// frequency, which is most of what sounds when a contact much longer than the
    /// mode's period strikes it (high notes). Plain impulse invariance (`a = g`,
    /// `b = d = 0`) gets that part wrong by `(ω/2)/tan(ω/2)` (−4 dB for a mode at
    /// 17 kHz at 44.1 kHz), which is what made high notes differ between rates.
    fn of(st: &BodySettings, fs: f64, plate: &[(u32, u32, f64); MODES]) -> Coefs {
        let mut out = Coefs::ZERO;
        if st.kind == BodyType::None {
            return out;
        }
        let tilt = (st.brightness.clamp(0.0, 1.0) - 0.5) * 3.0;
        // The gains are normalised over the fixed band; below 44.1 kHz the rate's own,
        // lower band limit silences more modes on top.
        let rate_fade = (0.40 * fs).min(BAND_FADE);
        let rate_limit = (0.45 * fs).min(BAND_LIMIT);
        let mut sum = 0.0;
        let mut rate_gain = [1.0; MODES];
        let mut alpha = [0.0; MODES];
        let mut omega = [0.0; MODES];
        // e^{−iω} of each mode, for its response at θ = ω.
        let mut turn = [(1.0, 0.0); MODES];
        let powers = modes::ratio_powers(st.kind);
        let rate = 1000f64.ln() / (st.t60.max(1e-4) * fs);
        for k in 0..MODES {
            let (ratio, shape) = mode_shape(st.kind, k, st.position, plate);
            let f = st.f1 * ratio;
            if !f.is_finite() || f <= 0.0 {
                continue;
            }
            if f < rate_limit {
                out.live = k / 4 + 1;
            }
            let band = band_gain(f, BAND_FADE, BAND_LIMIT);
            let g = shape * (tilt * powers.ln[k]).exp() * band;
            if band > 0.0 {
                rate_gain[k] = band_gain(f, rate_fade, rate_limit) / band;
            }
            // ln 1000 / (T60_k fs), T60_k = T60 ratio^{−decay_exponent} (`decay_t60`).
            alpha[k] = rate * powers.decay[k];
            let r = (-alpha[k]).exp();
            let w = 2.0 * PI * f.min(rate_limit) / fs;
            omega[k] = w;
            let (sin_w, cos_w) = w.sin_cos();
            turn[k] = (cos_w, -sin_w);
            out.c[k] = r * cos_w;
            out.s[k] = r * sin_w;
            out.g[k] = g;
            if g > 0.0 && (out.lowest == 0.0 || f < out.lowest) {
                out.lowest = f;
            }
            sum += g;
        }
        if sum > 0.0 {
            // Each mode's feed-through and its quadrature readout's.
            let mut feed = [(0.0, 0.0); MODES];
            for k in 0..MODES {
                out.g[k] *= rate_gain[k] / sum;
                let g = out.g[k];
                if g == 0.0 {
                    continue;
                }
                let (al, w) = (alpha[k], omega[k]);
                let p = (out.c[k], out.s[k]);
                // Solve a A + b B + d = T at θ = 0 (all real) and θ = ω (complex).
                let (a0, b0) = phasor_response(p, (1.0, 0.0));
                let t0 = mode_target(g, al, w, 0.0).0;
                let (aw, bw) = phasor_response(p, turn[k]);
                let tw = mode_target(g, al, w, w);
                let (m11, m12, r1) = (aw.0 - a0.0, bw.0 - b0.0, tw.0 - t0);
                let (m21, m22, r2) = (aw.1, bw.1, tw.1);
                let det = m11 * m22 - m12 * m21;
                let (a, b) = if det.is_finite() && det != 0.0 {
                    ((r1 * m22 - m12 * r2) / det, (m11 * r2 - m21 * r1) / det)
                } else {
                    (g, 0.0)
                };
                let d = t0 - a * a0.0 - b * b0.0;
                if a.is_finite() && b.is_finite() && d.is_finite() {
                    out.a[k] = a;
                    out.b[k] = b;
                    out.d += d;
                    // The quadrature readout (−b, a) turns the ringing by 90°; its
                    // feed-through cancels its response at DC.
                    feed[k] = (d, b * a0.0 - a * b0.0);
                } else {
                    out.a[k] = g;
                }
            }
            out.read_pickups(side_weights_of(st.kind), &alpha, &omega, &feed);
        }
        out
    }

    /// The pickups' side readout (`pickup`) from the mid's: each mode's readout
    /// `(a, b)` and feed-through `d` weighted by its level difference, plus its
    /// quadrature readout `(−b, a)` and feed-through `dq` (`feed[k] = (d, dq)`) by its
    /// phase difference; also each mode's weight in the amplitude bound.
    fn read_pickups(&mut self, side: &SideWeights, alpha: &Mx, omega: &Mx, feed: &[Cx; MODES]) {
        for k in 0..MODES {
            // The quadrature readout turns a ringing mode by 90°. A mode damped within
            // a cycle or two does not ring: its `Re z` outlasts its readout, and the
            // feed-throughs that cancel the modes' sum in the mid do not cancel it. The
            // turn fades in with the mode's quality `Q = ω / 2α`, from none at 0.5
            // (critically damped) to all at 2.5.
            let quad = ((0.5 * omega[k] / alpha[k] - 0.5) / 2.0).clamp(0.0, 1.0);
            let (s, t) = (side.level[k], side.phase[k] * quad);
            let (a, b) = (self.a[k], self.b[k]);
            self.sa[k] = s * a - t * b;
            self.sb[k] = s * b + t * a;
            self.sd += s * feed[k].0 + t * feed[k].1;
            self.w[k] = (a * a + b * b).sqrt();
        }
    }
}

/// Shrinks the poles of `k` so that no mode rings longer than `t60` s at `fs`: each
/// pole `r e^{iω}` with `r` above `e^{−ln 1000 / (t60 fs)}` is scaled down to it,
/// keeping its frequency. The readout weights are left alone (a damped mode's output
/// continues from its state without a step). Nothing happens for an infinite `t60`.
fn cap_decay(k: &mut Coefs, t60: f64, fs: f64) {
    if !(t60.is_finite() && t60 > 0.0 && fs > 0.0) {
        return;
    }
    let r_max = (-(1000f64.ln()) / (t60 * fs)).exp();
    for i in 0..MODES {
        let r = k.c[i].hypot(k.s[i]);
        if r > r_max {
            let q = r_max / r;
            k.c[i] *= q;
            k.s[i] *= q;
        }
    }
}

/// 1 below `lo`, 0 from `hi` up, linear between.
fn band_gain(f: f64, lo: f64, hi: f64) -> f64 {
    ((hi - f) / (hi - lo)).clamp(0.0, 1.0)
}

/// Advances one bank of modes by one sample with input `u` and returns its output
/// (the modes' readouts plus their summed direct path `d u`) and the pickups' side.
/// The update has no loop-carried dependence and vectorises; the output sums are kept
/// apart, in four partial sums, so they do not serialise the loop.
#[inline(always)]
fn tick_bank<const SIDE: bool>(
    re: &mut [f64; MODES],
    im: &mut [f64; MODES],
    k: &Coefs,
    u: f64,
) -> (f64, f64) {
    let live = 4 * k.live;
    for i in 0..live {
        let r = re[i] * k.c[i] - im[i] * k.s[i] + u;
        let m = re[i] * k.s[i] + im[i] * k.c[i];
        re[i] = r;
        im[i] = m;
    }
    // Mid and side in loops of their own: in one loop the vectoriser packed a lane of
    // each into one register and spent shuffles on every mode (a ringing voice took
    // ~20 % longer).
    let mut acc = [0.0; 4];
    for i in (0..live).step_by(4) {
        for j in 0..4 {
            acc[j] += k.a[i + j] * im[i + j] + k.b[i + j] * re[i + j];
        }
    }
    let mut side = [0.0; 4];
    if SIDE {
        for i in (0..live).step_by(4) {
            for j in 0..4 {
                side[j] += k.sa[i + j] * im[i + j] + k.sb[i + j] * re[i + j];
            }
        }
    }
    let mid = (acc[0] + acc[1]) + (acc[2] + acc[3]) + k.d * u;
    if !SIDE {
        return (mid, 0.0);
    }
    (mid, (side[0] + side[1]) + (side[2] + side[3]) + k.sd * u)
}

/// `Σ |a_k + i b_k| |z_k|` of one bank.
fn bank_amplitude(re: &[f64; MODES], im: &[f64; MODES], k: &Coefs) -> f64 {
    let mut a = 0.0;
    for i in 0..4 * k.live {
        a += k.w[i] * (re[i] * re[i] + im[i] * im[i]).sqrt();
    }
    a
}

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
}

/// Samples [`ModalBody::ring_pickups`] runs with its state in registers at a time.
const RING_RUN: usize = 32;

/// The hand goes on over this long (at most a quarter of its T60), s: a decay rate
/// that steps makes a kink in every mode's envelope, a ramp a bend.
const DAMP_RAMP: f64 = 0.002;
/// The hand's decay reaches 60 dB at this fraction of its T60 (after the ramp's loss is
/// made up): room for a body whose beating partials swell over the exponential.
const DAMP_MARGIN: f64 = 0.95;

impl ModalBody {
    pub fn new(settings: BodySettings, fs: f64) -> Self {
        modes::prepare_tables();
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
            vector: simd::vector_path(),
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

    /// A hand on the body: every mode comes to decay with T60 at most `t60` seconds
    /// (modes already shorter keep their own), over a ramp of [`DAMP_RAMP`] (at most a
    /// quarter of `t60`) along which each pole's log-radius falls with the square of
    /// the time, so the decay rate rises from zero with zero slope: the envelope bends
    /// rather than kinks, and the first samples move by a few parts in 10^7 (a linear
    /// rise moved the first by 1 part in 10^4, at the contact's end where a membrane's
    /// output curves most: 1.2 % more second difference than its attack). The decay
    /// after the ramp is fast enough to make up for it (60 dB down at `t60` still). The
    /// state and the readout weights carry on, so the output has no step. The force's
    /// tail in the drive high-pass dies twice as fast (see `drive`). It holds through
    /// retunes until [`undamp`](Self::undamp) or [`reset`](Self::reset). NaN or a
    /// non-positive `t60` is taken as 0.1 ms.
    pub fn damp(&mut self, t60: f64) {
        let t60 = if t60 > 1e-4 { t60 } else { 1e-4 };
        let fs = self.fs;
        let n = (DAMP_RAMP.min(0.4 * t60) * fs).round().max(1.0);
        // The ramp loses two thirds of its length of decay; the rest makes it up, with
        // room.
        let t60 = DAMP_MARGIN * t60 - n / fs;
        self.damp_t60 = self.damp_t60.min(t60);
        self.drive.damp(0.5 * self.damp_t60, fs, 2 * n as u32);
        let mut target = self.k;
        cap_decay(&mut target, self.damp_t60, fs);
        for i in 0..MODES {
            let (r0, r1) = (
                self.k.c[i].hypot(self.k.s[i]),
                target.c[i].hypot(target.s[i]),
            );
            // ln r(j) = ln r0 + a j² after j samples: the factor at step j is
            // e^{a(2j+1)}, which grows by e^{2a} per step.
            let a = if r0 > 0.0 {
                (r1 / r0).ln() / (n * n)
            } else {
                0.0
            };
            self.damp_q[i] = a.exp();
            self.damp_dq[i] = (2.0 * a).exp();
        }
        self.damp_left = n as u32;
        cap_decay(&mut self.old, self.damp_t60, fs);
    }

    /// One sample of the hand's ramp.
    #[inline(never)]
    fn ramp_damping(&mut self) {
        for i in 0..MODES {
            self.k.c[i] *= self.damp_q[i];
            self.k.s[i] *= self.damp_q[i];
            self.damp_q[i] *= self.damp_dq[i];
        }
        self.damp_left -= 1;
    }

    /// Lifts the damping: the modes decay with their own T60 again (the state carries
    /// on; a crossfade's outgoing bank stays damped for its last few milliseconds).
    /// Control rate.
    pub fn undamp(&mut self) {
        self.damp_t60 = f64::INFINITY;
        self.damp_left = 0;
        self.drive.damp(f64::INFINITY, self.fs, 1);
        self.k = Coefs::of(&self.settings, self.fs, &self.plate);
    }

    /// True while damped ([`damp`](Self::damp)).
    pub fn is_damped(&self) -> bool {
        self.damp_t60.is_finite()
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
        let y = simd::tick::<SIDE>(self.vector, &mut self.re, &mut self.im, &self.k, u);
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

    /// `mid.len()` samples with no new input (the drive high-pass's tail still plays):
    /// what [`tick_pickups`](Self::tick_pickups)`(0.0)` would give sample by sample,
    /// the bank's state and coefficients held in registers over the run (a ringing
    /// voice's block). `side` is as long as `mid`.
    pub fn ring_pickups(&mut self, mid: &mut [f64], side: &mut [f64]) {
        let n = mid.len().min(side.len());
        if !self.active {
            mid[..n].fill(0.0);
            side[..n].fill(0.0);
            return;
        }
        if self.damp_left > 0 || self.fade_left > 0 {
            for (m, s) in mid[..n].iter_mut().zip(&mut side[..n]) {
                (*m, *s) = self.tick_pickups(0.0);
            }
            return;
        }
        const QUIET: [f64; RING_RUN] = [0.0; RING_RUN];
        let mut drive = [0.0; RING_RUN];
        let mut at = 0;
        while at < n {
            let len = (n - at).min(RING_RUN);
            let u = if self.drive.is_quiet() {
                &QUIET[..len]
            } else {
                for d in &mut drive[..len] {
                    *d = self.drive.tick(0.0);
                }
                &drive[..len]
            };
            let (m, s) = (&mut mid[at..at + len], &mut side[at..at + len]);
            simd::ring(self.vector, &mut self.re, &mut self.im, &self.k, u, m, s);
            at += len;
        }
    }

    /// Runs the bank on the portable loop (`false`) or on the process's vector path
    /// (`true`, where the CPU has one): for tests that compare the two.
    pub fn set_vector(&mut self, on: bool) {
        self.vector = on && simd::vector_path();
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod simd_tests;
