//! The mode bank's coefficients for a body's settings and rate, and the portable
//! per-sample loop over them (the vector path is `simd`).

use super::limits::{BAND_FADE, BAND_LIMIT, MODES};
use super::modes;
use super::modes::*;
use super::pickup::{SideWeights, side_weights_of};
use crate::model::memo::{Last, remembered};
use std::f64::consts::PI;

/// One bank of [`MODES`] resonators' coefficients. Struct of arrays so the per-sample
/// loop vectorises.
#[derive(Clone, Copy, Debug)]
pub(super) struct Coefs {
    /// `r cos ω`, `r sin ω` per mode.
    pub(super) c: [f64; MODES],
    pub(super) s: [f64; MODES],
    /// Readout of mode k: `a_k Im z_k + b_k Re z_k` (see [`Coefs::of`]).
    pub(super) a: [f64; MODES],
    pub(super) b: [f64; MODES],
    /// `|a_k + i b_k|`: each mode's weight in the amplitude bound.
    pub(super) w: [f64; MODES],
    /// The side readout of the two pickups (`pickup`): each mode's readout weighted by
    /// its level difference plus its quadrature readout by its phase difference.
    pub(super) sa: [f64; MODES],
    pub(super) sb: [f64; MODES],
    /// The side's direct path: each mode's whole readout is weighted, its feed-through
    /// too (the feed-throughs cancel much of the modes' sum where the modes are driven
    /// far below their frequency; the side must cancel alike), and each quadrature
    /// readout has its own, which makes its response at DC zero.
    pub(super) sd: f64,
    /// Direct path: the sum over the modes of their feed-through of the input.
    pub(super) d: f64,
    /// Continuous-time gain per mode: summing to 1 over the modes below
    /// [`BAND_LIMIT`], the same at every rate from 44.1 kHz up.
    pub(super) g: [f64; MODES],
    /// The lowest sounding mode, Hz (0: none), which tunes the drive high-pass.
    pub(super) lowest: f64,
    /// Groups of four modes that are ticked: up to the last mode below the rate's band
    /// limit. Modes above it are silent at every position and brightness, so they are
    /// not ticked at all, and their state is held at zero (`ModalBody::retune`).
    pub(super) live: usize,
}

/// A complex number as `(re, im)`; control rate only.
type Cx = (f64, f64);
/// One number per mode.
type Mx = [f64; MODES];

pub(super) fn cmul(x: Cx, y: Cx) -> Cx {
    (x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0)
}

pub(super) fn cinv(x: Cx) -> Cx {
    let n = x.0 * x.0 + x.1 * x.1;
    (x.0 / n, -x.1 / n)
}

/// The response of `g e^{−αt} sin(ωt)` (t in samples) to the force, at `θ` rad/sample,
/// divided by the one-sample box average through which the body hears the force
/// (`sinc(θ/2)`): what the discrete mode should do at `θ`.
pub(super) fn mode_target(g: f64, alpha: f64, w: f64, theta: f64) -> Cx {
    // g ω / ((iθ + α)² + ω²)
    let den = (alpha * alpha - theta * theta + w * w, 2.0 * alpha * theta);
    let h = cinv(den);
    let x = 0.5 * theta;
    let sinc = if x > 1e-9 { x.sin() / x } else { 1.0 };
    (g * w * h.0 / sinc, g * w * h.1 / sinc)
}

/// `(A, B)` at `θ`, given `e = e^{−iθ}`: the responses of `Im z` and `Re z` of the
/// phasor `z ← p z + u`.
pub(super) fn phasor_response(p: Cx, e: Cx) -> (Cx, Cx) {
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
    pub(super) const ZERO: Coefs = Coefs {
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
    pub(super) fn of(st: &BodySettings, fs: f64, plate: &[(u32, u32, f64); MODES]) -> Coefs {
        let mut out = Coefs::ZERO;
        if st.kind == BodyType::None {
            return out;
        }
        // The gains are normalised over the fixed band; below 44.1 kHz the rate's own,
        // lower band limit silences more modes on top.
        let rate_fade = (0.40 * fs).min(BAND_FADE);
        let rate_limit = (0.45 * fs).min(BAND_LIMIT);
        let mut sum = 0.0;
        let mut rate_gain = [1.0; MODES];
        let mut omega = [0.0; MODES];
        // e^{−iω} of each mode, for its response at θ = ω.
        let mut turn = [(1.0, 0.0); MODES];
        let poles = Poles::cached(st, fs);
        let alpha = poles.alpha;
        for k in 0..MODES {
            let (ratio, shape) = mode_shape(st.kind, st.recording, k, st.position, plate);
            let f = st.f1 * ratio;
            if !f.is_finite() || f <= 0.0 {
                continue;
            }
            if f < rate_limit {
                out.live = k / 4 + 1;
            }
            let band = band_gain(f, BAND_FADE, BAND_LIMIT);
            let g = shape * poles.tilt[k] * band;
            if band > 0.0 {
                rate_gain[k] = band_gain(f, rate_fade, rate_limit) / band;
            }
            let r = poles.r[k];
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
                if out.g[k] != 0.0 {
                    feed[k] = out.solve_readout(k, alpha[k], omega[k], turn[k]);
                }
            }
            out.read_pickups(side_weights_of(st.kind), &alpha, &omega, &feed);
        }
        out
    }

    /// Mode `k`'s readout `(a, b)` and its share of the feed-through `d`, solved so that
    /// its response equals the continuous mode's at DC and at its resonance (`al`, `w`
    /// its decay and frequency per sample, `turn` = `e^{−iω}`). Returns `(d, dq)`: its
    /// feed-through and its quadrature readout's, for the pickups' side.
    fn solve_readout(&mut self, k: usize, al: f64, w: f64, turn: Cx) -> (f64, f64) {
        let g = self.g[k];
        let p = (self.c[k], self.s[k]);
        // Solve a A + b B + d = T at θ = 0 (all real) and θ = ω (complex).
        let (a0, b0) = phasor_response(p, (1.0, 0.0));
        let t0 = mode_target(g, al, w, 0.0).0;
        let (aw, bw) = phasor_response(p, turn);
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
            self.a[k] = a;
            self.b[k] = b;
            self.d += d;
            // The quadrature readout (−b, a) turns the ringing by 90°; its feed-through
            // cancels its response at DC.
            (d, b * a0.0 - a * b0.0)
        } else {
            self.a[k] = g;
            (0.0, 0.0)
        }
    }

    /// The pickups' side readout (`pickup`) from the mid's: each mode's readout
    /// `(a, b)` and feed-through `d` weighted by its level difference, plus its
    /// quadrature readout `(−b, a)` and feed-through `dq` (`feed[k] = (d, dq)`) by its
    /// phase difference; also each mode's weight in the amplitude bound.
    pub(super) fn read_pickups(
        &mut self,
        side: &SideWeights,
        alpha: &Mx,
        omega: &Mx,
        feed: &[Cx; MODES],
    ) {
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

/// What a retune needs per mode that depends on the body kind, Brightness, T60 and the
/// rate alone, not on the key or the strike position: the tilt's gain `ratio^tilt`, the
/// decay per sample `α = ln 1000 / (T60_k fs)` (`T60_k = T60 ratio^{−decay_exponent}`,
/// `decay_t60`) and the pole radius `r = e^{−α}`. Made once per patch and rate (kept
/// for the last ones asked for on this thread, see [`Poles::cached`]), so a new key or
/// a humanized position pays no `exp` for them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Poles {
    tilt: Mx,
    alpha: Mx,
    r: Mx,
}

thread_local! {
    static MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Times this thread made a body's poles (each 48 exponentials) rather than found
/// them remembered, for tests and diagnostics.
pub fn poles_made() -> u64 {
    MADE.with(|m| m.get())
}

impl Poles {
    fn new(st: &BodySettings, fs: f64) -> Self {
        MADE.with(|m| m.set(m.get() + 1));
        let (brightness, t60) = (st.brightness, st.t60);
        let tilt = (brightness.clamp(0.0, 1.0) - 0.5) * 3.0;
        let powers = modes::ratio_powers(st.kind, st.recording);
        let rate = 1000f64.ln() / (t60.max(1e-4) * fs);
        let alpha: Mx = std::array::from_fn(|k| rate * powers.decay[k]);
        Self {
            tilt: std::array::from_fn(|k| (tilt * powers.ln[k]).exp()),
            alpha,
            r: alpha.map(|a| (-a).exp()),
        }
    }

    /// The poles of `st` at `fs`, remembered for the last kind, Brightness, T60 and
    /// rate this thread asked for (`model::memo`). Every key and humanized hit of a
    /// patch shares them; [`prime_retune`] makes them before a patch's first note.
    pub(super) fn cached(st: &BodySettings, fs: f64) -> Self {
        thread_local! {
            static LAST: Last<(BodyType, u16, [u64; 3]), Poles> = const { Last::new(None) };
        }
        let of = (
            st.kind,
            st.recording,
            [st.brightness, st.t60, fs].map(f64::to_bits),
        );
        remembered(&LAST, of, || Self::new(st, fs))
    }
}

/// Makes now what a retune to `st` at `fs` shares with every key and strike position
/// of its patch ([`Poles`]), so that the patch's first note does not: for a patch
/// change, before its notes. The same numbers as without it.
pub fn prime_retune(st: &BodySettings, fs: f64) {
    Poles::cached(st, fs);
}

/// Equal bit for bit (a NaN setting is its own and never equal under `==`).
/// Shrinks the poles of `k` so that no mode rings longer than `t60` s at `fs`: each
/// pole `r e^{iω}` with `r` above `e^{−ln 1000 / (t60 fs)}` is scaled down to it,
/// keeping its frequency. The readout weights are left alone (a damped mode's output
/// continues from its state without a step). Nothing happens for an infinite `t60`.
pub(super) fn cap_decay(k: &mut Coefs, t60: f64, fs: f64) {
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
pub(super) fn band_gain(f: f64, lo: f64, hi: f64) -> f64 {
    ((hi - f) / (hi - lo)).clamp(0.0, 1.0)
}

/// Advances one bank of modes by one sample with input `u` and returns its output
/// (the modes' readouts plus their summed direct path `d u`) and the pickups' side.
/// The update has no loop-carried dependence and vectorises; the output sums are kept
/// apart, in four partial sums, so they do not serialise the loop.
#[inline(always)]
pub(super) fn tick_bank<const SIDE: bool>(
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
pub(super) fn bank_amplitude(re: &[f64; MODES], im: &[f64; MODES], k: &Coefs) -> f64 {
    let mut a = 0.0;
    for i in 0..4 * k.live {
        a += k.w[i] * (re[i] * re[i] + im[i] * im[i]).sqrt();
    }
    a
}

#[cfg(test)]
#[path = "bank_tests.rs"]
mod tests;
