//! The Recorded body: the decaying partials fitted from a recording of a struck object
//! (`rebound fit`), played by the same bank as the model bodies.
//!
//! A recording's partials are its body's modes as its own mallet excited them. The
//! body keeps each mode's frequency and T60 as recorded, and its excitation with that
//! mallet taken out: each partial's amplitude is divided by the spectrum of the force
//! of a reference strike, the default patch's at full velocity (a contact of
//! [`REFERENCE_CONTACT_S`]), so that strike plays the recording's balance back, and a
//! harder or softer one brightens or darkens it as it does every body.
//!
//! The strongest partial (the most energy) is the body's pitch and decay reference,
//! read inside the Body pitch and Decay controls' ranges (a glockenspiel's 7 kHz
//! partial is referred to 5 kHz, its modes then at ratios above 1): at Body pitch and
//! Decay on the reference (what loading a body file sets) every mode sounds at its
//! recorded frequency and decay; both knobs then move all modes in proportion, and Key
//! tracking moves them together. Brightness tilts them as it does
//! the other bodies; Strike position moves the balance toward the upper modes as a
//! strike away from a bar's centre does, and at its default (30 %) leaves it as fitted.
//!
//! A body is registered once, off the audio thread, into a process-wide table of
//! [`SLOTS`] entries that never change once set; a voice names it by its index, so
//! settings stay `Copy` and a note-on reads a recorded body with one atomic load.
//! Index 0 is a built-in body (a tapped wine glass, [`WINE_GLASS`]), so Recorded
//! sounds before any recording is loaded.

pub use super::bands::Partial;
use super::bands::{energy, keep_by_band};
use super::limits::{DECAY_RANGE, MODES, PITCH_RANGE};
use super::powers::RatioPowers;
use std::sync::{Mutex, OnceLock};

/// Distinct recorded bodies one process can hold (a plugin instance's body, its
/// presets', the CLI's file). Registering the same modes again finds their entry.
pub const SLOTS: usize = 256;

/// The contact time whose strike a recording is taken to have been made with: the
/// reference Hardness of the level law (0.6 ms), the default patch's.
pub const REFERENCE_CONTACT_S: f64 = 0.6e-3;

/// The strike position at which the modes sound with the recording's balance.
pub const NEUTRAL_POSITION: f64 = 0.3;

/// How far Strike position tilts the modes: at the edge, a mode at `r` times the
/// reference frequency is `r^(0.7 · TILT)` louder than at the neutral position.
const POSITION_TILT: f64 = 1.0;

/// The most a mode is lifted for the reference mallet's roll-off (60 dB): a partial
/// the fit found far above what such a mallet excites is kept at that.
const MAX_LIFT: f64 = 1000.0;

/// A recorded body ready to play: up to [`MODES`] partials, lowest first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    /// Frequency and T60 of the partial with the most energy, each within its
    /// control's range: the body's pitch and decay reference.
    pub f_ref: f64,
    pub t60_ref: f64,
    /// Partials kept (at most [`MODES`]).
    pub count: usize,
    /// Each mode's frequency over `f_ref`, and its excitation with the recording's
    /// mallet taken out (largest 1); modes past `count` are silent.
    pub(super) ratio: [f64; MODES],
    pub(super) shape: [f64; MODES],
    pub(super) powers: RatioPowers,
    /// The partials kept, most energy first, for what shows or saves them.
    pub partials: [Partial; MODES],
}

impl Recorded {
    /// The body of `partials` (any order, any count) with a finite positive frequency,
    /// T60 and amplitude: all of them, or where there are more than [`MODES`], that
    /// many kept by third-octave band with each band's energy (`bands`). An error if
    /// none is left. A body made from its own `partials` is the same body.
    pub fn new(partials: &[Partial]) -> Result<Self, String> {
        let ok = |p: &&Partial| {
            [p.freq_hz, p.t60_s, p.amplitude]
                .iter()
                .all(|x| x.is_finite() && *x > 0.0)
        };
        let mut kept: Vec<Partial> = partials.iter().filter(ok).copied().collect();
        if kept.is_empty() {
            return Err("the body has no partial with a positive frequency, T60 and level".into());
        }
        // Ranked by the ring heard after the attack, as the fit ranks them: what a strike's
        // ring carries most of. More than the bank holds are kept by band.
        kept.sort_by(|a, b| energy(b).total_cmp(&energy(a)));
        let kept = keep_by_band(kept, MODES);
        let strongest = kept[0];
        let mut by_freq = kept.clone();
        by_freq.sort_by(|a, b| a.freq_hz.total_cmp(&b.freq_hz));
        let unit = RatioPowers {
            ln: [0.0; MODES],
            decay: [1.0; MODES],
            t60: [1.0; MODES],
        };
        let mut out = Self {
            f_ref: strongest.freq_hz.clamp(PITCH_RANGE.0, PITCH_RANGE.1),
            t60_ref: strongest.t60_s.clamp(DECAY_RANGE.0, DECAY_RANGE.1),
            count: kept.len(),
            ratio: [1.0; MODES],
            shape: [0.0; MODES],
            powers: unit,
            partials: [Partial {
                freq_hz: 0.0,
                t60_s: 0.0,
                amplitude: 0.0,
            }; MODES],
        };
        out.partials[..kept.len()].copy_from_slice(&kept);
        for (k, p) in by_freq.iter().enumerate() {
            let ratio = p.freq_hz / out.f_ref;
            out.ratio[k] = ratio;
            out.shape[k] = p.amplitude * mallet_lift(p.freq_hz * REFERENCE_CONTACT_S);
            out.powers.ln[k] = ratio.ln();
            out.powers.t60[k] = p.t60_s / out.t60_ref;
            out.powers.decay[k] = out.t60_ref / p.t60_s;
        }
        let top = out.shape.iter().fold(0.0f64, |m, &s| m.max(s));
        for s in &mut out.shape {
            *s /= top;
        }
        Ok(out)
    }

    /// The frequency ratio and excitation of mode `k` struck at `position`.
    pub(super) fn mode(&self, k: usize, position: f64) -> (f64, f64) {
        let tilt = POSITION_TILT * (position.clamp(0.0, 1.0) - NEUTRAL_POSITION);
        let ratio = self.ratio[k];
        (ratio, self.shape[k] * (tilt * self.powers.ln[k]).exp())
    }
}

/// The reference mallet's roll-off undone at `nu` = frequency × contact time: the
/// inverse of its pulse's spectrum (1 at DC), at most [`MAX_LIFT`]. Where the spectrum
/// dips into a null, it is read no lower than [`NULL_FLOOR`] of its upper envelope:
/// a partial there is lifted as its neighbours are, not by the depth of the null,
/// which moves with the Hardness.
fn mallet_lift(nu: f64) -> f64 {
    let (mag, env) = reference_spectrum(nu);
    (1.0 / mag.max(NULL_FLOOR * env)).min(MAX_LIFT)
}

/// How far below its upper envelope the reference spectrum is read at most (−10 dB).
const NULL_FLOOR: f64 = 0.316;

/// The reference strike's contact law: the default patch's Hertz exponent and its
/// Bounciness (restitution 0.7), whose damping `μ v_in` shapes the pulse (eq 1).
const REFERENCE_ALPHA: f64 = 1.5;
const REFERENCE_RESTITUTION: f64 = 0.7;

/// Steps of the spectrum's table in `ν`, and its extent.
const NU_STEP: f64 = 0.01;
const NU_MAX: f64 = 40.0;

/// `(|F(ν)|, its upper envelope)`, each over `F(0)`, for the force pulse of the
/// reference strike lasting one unit of time (the envelope is the running maximum
/// from above). Beyond the table both fall as `ν^−(α+1)`, as a pulse rising as
/// `t^α` does.
pub fn reference_spectrum(nu: f64) -> (f64, f64) {
    static TABLE: OnceLock<Vec<(f64, f64)>> = OnceLock::new();
    let t = TABLE.get_or_init(pulse_table);
    let nu = nu.abs();
    let last = t.len() - 1;
    let s = nu / NU_STEP;
    if s >= last as f64 {
        let fall = (NU_MAX / nu).powf(REFERENCE_ALPHA + 1.0);
        return (t[last].1 * fall, t[last].1 * fall);
    }
    let i = s as usize;
    let f = s - i as f64;
    let lerp = |a: f64, b: f64| a + f * (b - a);
    (lerp(t[i].0, t[i + 1].0), lerp(t[i].1, t[i + 1].1))
}

/// The reference pulse in the dimensionless variables of eq (1) (`x` over its scale,
/// time over its scale): `x'' = −x^α (1 + z x')` from `x = 0`, `x' = 1`, with
/// `z = μ v_in` from the reference restitution (seed 000), by RK4 in fine steps until
/// the mass leaves; its force `x^α (1 + z x')` transformed at each `ν` of the table
/// with time rescaled to a unit contact.
fn pulse_table() -> Vec<(f64, f64)> {
    let z = crate::model::restitution::mu_v_in_for(REFERENCE_RESTITUTION);
    let alpha = REFERENCE_ALPHA;
    let h = 1e-3;
    let acc = |x: f64, v: f64| -(x.max(0.0)).powf(alpha) * (1.0 + z * v);
    let (mut x, mut v) = (0.0f64, 1.0f64);
    let mut force = vec![0.0];
    while force.len() < 1_000_000 {
        let (k1x, k1v) = (v, acc(x, v));
        let (k2x, k2v) = (v + 0.5 * h * k1v, acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
        let (k3x, k3v) = (v + 0.5 * h * k2v, acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
        let (k4x, k4v) = (v + h * k3v, acc(x + h * k3x, v + h * k3v));
        x += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if x <= 0.0 {
            break;
        }
        force.push((x.powf(alpha) * (1.0 + z * v)).max(0.0));
    }
    force.push(0.0);
    let n = force.len() as f64 - 1.0;
    let dc: f64 = force.iter().sum();
    let count = (NU_MAX / NU_STEP) as usize + 1;
    // The pulse lasts `n` steps: ν cycles over it is ν/n a step.
    let w_of = |i: usize| 2.0 * std::f64::consts::PI * i as f64 * NU_STEP / n;
    let mut mag = Vec::with_capacity(count + LANES);
    for i in (0..count).step_by(LANES) {
        let power = spectrum_at(&force, std::array::from_fn(|l| w_of(i + l)));
        mag.extend(power.map(|p| p.sqrt() / dc));
    }
    mag.truncate(count);
    let mut env = mag.clone();
    for i in (0..count - 1).rev() {
        env[i] = env[i].max(env[i + 1]);
    }
    mag.into_iter().zip(env).collect()
}

/// Steps between exact phases in [`spectrum_at`], and the frequencies it takes at once.
const ANCHOR: usize = 64;
const LANES: usize = 4;

/// `|Σ_j f_j e^{−i w j}|²` at each of [`LANES`] `w`. The phase turns by a fixed
/// rotation from one sample to the next, taken exactly (`sin_cos`) every [`ANCHOR`]
/// samples, and the frequencies' rotations are independent chains side by side: the
/// 4001 × 3000 terms of the table cost a `sin_cos` each when every phase was taken
/// exactly, 0.18 s at every start of the plugin or the CLI, where this takes under a
/// tenth of it (equal to 1e-14 of the table's values).
fn spectrum_at(force: &[f64], w: [f64; LANES]) -> [f64; LANES] {
    let step = w.map(f64::sin_cos);
    let (mut re, mut im) = ([0.0; LANES], [0.0; LANES]);
    for (b, block) in force.chunks(ANCHOR).enumerate() {
        let at = w.map(|w| (w * (b * ANCHOR) as f64).sin_cos());
        let (mut s, mut c) = (at.map(|a| a.0), at.map(|a| a.1));
        for f in block {
            for l in 0..LANES {
                re[l] += f * c[l];
                im[l] -= f * s[l];
                let (ss, sc) = step[l];
                (c[l], s[l]) = (c[l] * sc - s[l] * ss, s[l] * sc + c[l] * ss);
            }
        }
    }
    std::array::from_fn(|l| re[l] * re[l] + im[l] * im[l])
}

/// The body Recorded plays when none is loaded: a tapped wine glass, the partials
/// `rebound fit` finds in the repository's own recording of one
/// (`assets/recordings/wine-glass.wav`, synthesised by `tools/wine_glass.py`; a test
/// fits it again). Frequency Hz, T60 s, amplitude.
pub const WINE_GLASS: [(f64, f64, f64); 9] = [
    (212.0741381668073, 0.059509738993705964, 0.03655351354498015),
    (783.9999747438051, 3.399966400799114, 0.22929660114036096),
    (786.0999895430281, 3.0995855275485655, 0.10240870903246518),
    (1835.9999614632898, 2.200660517212501, 0.12891325444148927),
    (1841.5003776823905, 2.001777992107019, 0.05130758331743627),
    (3261.999995990943, 1.4995581187037248, 0.06462548357494463),
    (4977.999265062399, 0.9508638540878548, 0.03237073981918635),
    (7050.997791115217, 0.598626753865643, 0.016257390974186686),
    (9402.003259862817, 0.41745422209701954, 0.009160400244210564),
];

/// The built-in body ([`WINE_GLASS`]).
fn wine_glass() -> Recorded {
    let partials = WINE_GLASS.map(|(freq_hz, t60_s, amplitude)| Partial {
        freq_hz,
        t60_s,
        amplitude,
    });
    Recorded::new(&partials).expect("the built-in partials are valid")
}

/// The process's recorded bodies, set once each: index 0 is the built-in
/// [`WINE_GLASS`], the others registered ones.
static TABLE: [OnceLock<Recorded>; SLOTS] = [const { OnceLock::new() }; SLOTS];
static REGISTER: Mutex<()> = Mutex::new(());

/// The index of `body` in the process's table, made if it is new (takes a lock: never
/// on the audio thread). An error once [`SLOTS`] − 1 distinct bodies are held.
pub fn register(body: &Recorded) -> Result<u16, String> {
    let _one_at_a_time = REGISTER.lock().unwrap_or_else(|e| e.into_inner());
    if recorded(0) == Some(body) {
        return Ok(0);
    }
    for (i, slot) in TABLE.iter().enumerate().skip(1) {
        match slot.get() {
            Some(held) if held == body => return Ok(i as u16),
            Some(_) => {}
            None => {
                let _ = slot.set(*body);
                return Ok(i as u16);
            }
        }
    }
    Err(format!(
        "this process already holds {} recorded bodies",
        SLOTS - 1
    ))
}

/// The recorded body at `index` (0: the built-in one; none for an index never
/// registered): one atomic load once [`prepare`] has run, for the audio thread.
pub fn recorded(index: u16) -> Option<&'static Recorded> {
    if index == 0 {
        return Some(TABLE[0].get_or_init(wine_glass));
    }
    TABLE.get(index as usize)?.get()
}

/// Makes the built-in body and the reference spectrum (where bodies are made, off the
/// audio thread), so that no note-on makes them.
pub(super) fn prepare() {
    recorded(0);
}

#[cfg(test)]
#[path = "recorded_tests.rs"]
mod tests;
