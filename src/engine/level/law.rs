//! Calibrated level: a full-velocity strike peaks at [`TARGET_PEAK`] (−10 dBFS) for any
//! patch, body and sample rate: 10 dB of headroom, so a chord has room (four notes at
//! velocity 100 on the default patch stay under 0 dBFS; nothing in the plugin clips).
//!
//! For each key of a patch, a scratch voice plays the full-velocity note offline, one
//! contact and the body's first ringing (with any bounce that comes back while it
//! rings: a rattle's impacts pile up), and the gain that brings that peak to the target
//! scales what the strike puts into the dry path and the body. The simulation runs at
//! the table's rate, so the level does not move with the rate; the gains are kept in a
//! table per patch and rate (`level::table`), made off the audio thread (`level`), so
//! a note-on costs a lookup. Lower velocities keep their physics: quieter.
//!
//! At one peak a high key sounds louder than a low one (its ring lies where the ear,
//! and BS.1770's K-weighting, is more sensitive; 7.5 LU from note 36 to 96 on the
//! default patch): a key whose ring is louder than middle C's is cut to it
//! ([`keyboard_cut`]), from the K-weighted energy of the ring each calibration reads.

pub use super::peaks::Peaks;
pub use super::weighting::{a_weight, k_weight};
use crate::engine::params::EngineParams;
use crate::model::body::BodyType;

/// Where a strike's calibrated gains come from (the engine's level tables, `level`):
/// a voice asks at each onset, and the tables play scratch voices to fill themselves,
/// so the voice names this trait rather than the tables.
pub trait GainSource {
    /// The gains of a strike on `key` of a note playing `own` (the patch `p` moved by
    /// its expression and humanize jitter) at the smoothed `mix`, and whether they are
    /// made for the patch now: not while a worker has still to make them (they are then
    /// an earlier patch's, or interpolated from the keys it has made). A source that
    /// makes them before it answers is always fresh.
    fn fresh_gains(
        &mut self,
        key: u8,
        own: &EngineParams,
        p: &EngineParams,
        mix: f64,
    ) -> (Gains, bool);

    /// The gains alone (a strike keeps what it finds).
    fn gains(&mut self, key: u8, own: &EngineParams, p: &EngineParams, mix: f64) -> Gains {
        self.fresh_gains(key, own, p, mix).0
    }
}

/// Peak of a full-velocity strike, dBFS.
pub const TARGET_PEAK_DB: f64 = -10.0;
/// Peak of a full-velocity strike: [`TARGET_PEAK_DB`] as an amplitude.
pub const TARGET_PEAK: f64 = 0.316_227_766_016_837_94;
/// The four-note chords the headroom promise is measured on (velocity 100, default
/// patch, under 0 dBFS): close and open voicings, low and high.
pub const HEADROOM_CHORDS: [[u8; 4]; 6] = [
    [60, 64, 67, 72],
    [48, 55, 60, 64],
    [36, 43, 48, 52],
    [72, 76, 79, 84],
    [60, 62, 64, 65],
    [57, 60, 64, 69],
];
/// Longest calibration run, s: a contact longer than this is calibrated on its start.
/// The run is played off the audio thread (see `level`), so it can be long enough for
/// a sub-audio body's four periods down to 4 Hz (a 20 Hz body tracked down the
/// keyboard peaks 0.3 s after its strike).
pub const MAX_PROBE: f64 = 1.0;
/// After the contact, the body rings this many periods of its lowest mode (at least
/// [`MIN_RING`] s) before the peak is taken: long enough for the beating of its first
/// modes to come round (the bell preset peaks at 38 ms: 2.2 dB over a 20 ms run).
const RING_PERIODS: f64 = 4.0;
const MIN_RING: f64 = 0.04;
/// Gains are kept within these (a strike that cannot reach the target stays quiet
/// rather than amplifying numerical noise).
const MAX_GAIN: f64 = 1e4;

/// Loudness is the A-weighted energy of the body's ring over this window, s (the
/// momentary window of EBU R 128).
pub const LOUDNESS_WINDOW: f64 = 0.4;
/// Hardness changes the timbre, not the loudness: in Playable mode a strike is brought
/// toward the loudness of the same patch struck at this Hardness (the default), ms…
pub const REFERENCE_HARDNESS_MS: f64 = 0.6;
/// …with its peak at this many dB from [`TARGET_PEAK`] (so the loudness target sits
/// inside the peak window rather than at its top: a harder or softer strike, whose
/// peak is higher for its loudness, can then be lifted further)…
pub const REFERENCE_OFFSET_DB: f64 = -0.5;
/// …moving a strike's peak at most this far above [`TARGET_PEAK`], dB (a stereo image
/// lifts one channel up to 0.6 dB over the mono peak, and every channel of every
/// factory preset stays within −6 ±2 dBFS)…
pub const MAX_LIFT_DB: f64 = 1.2;
/// …and at most this far below it: within that window a strike's loudness is as near
/// the target as it goes.
pub const MAX_CUT_DB: f64 = 1.5;

/// The key whose loudness the rest of the keyboard is brought down to (middle C).
pub const REFERENCE_KEY: u8 = 60;

/// The gain that brings a key whose ring has the K-weighted energy `e` down to the
/// reference key's `reference` (both at their calibrated gains): a key louder than
/// middle C is cut to it, a quieter one is left at its peak (lifting it would take a
/// low chord over 0 dBFS). 1 when either is not a positive energy.
pub fn keyboard_cut(e: f64, reference: f64) -> f64 {
    let g = (reference / e).sqrt();
    if g.is_finite() && g > 0.0 {
        g.min(1.0)
    } else {
        1.0
    }
}

/// The gain that makes a strike of loudness `e` as loud as the reference's `reference`
/// brought [`REFERENCE_OFFSET_DB`] down (both energies, at their calibrated peaks),
/// within [`MAX_CUT_DB`] and [`MAX_LIFT_DB`]; 1 when either is not a positive energy.
pub fn compensation(e: f64, reference: f64) -> f64 {
    let g = (reference / e).sqrt() * 10f64.powf(REFERENCE_OFFSET_DB / 20.0);
    if g.is_finite() && g > 0.0 {
        g.clamp(
            10f64.powf(-MAX_CUT_DB / 20.0),
            10f64.powf(MAX_LIFT_DB / 20.0),
        )
    } else {
        1.0
    }
}

/// The body/dry mix a voice plays with: Body None bypasses the mix (dry only).
pub fn mix_of(p: &EngineParams, mix: f64) -> f64 {
    if p.body == BodyType::None {
        0.0
    } else {
        mix.clamp(0.0, 1.0)
    }
}

/// Samples the body rings after the contact before the peak is taken, for a lowest
/// mode at `f1` Hz.
pub fn ring_samples(f1: f64, fs: f64) -> usize {
    let t = if f1 > 0.0 && f1.is_finite() {
        (RING_PERIODS / f1).max(MIN_RING)
    } else {
        MIN_RING
    };
    (t.min(MAX_PROBE) * fs) as usize
}

/// The gain that brings a full-velocity `peak` to [`TARGET_PEAK`].
pub fn gain_for(peak: f64) -> f64 {
    gain_to(TARGET_PEAK, peak)
}

/// A roll's or scrape's level is its RMS over the calibration's run, not its peak: a
/// ball hopping over a surface is a chaotic train, whose loudest landing the smallest
/// change of the ball or the surface moves by several dB, where its RMS over a second
/// holds (`docs/gestures.md`). The RMS it is brought to, dBFS (a roll's crest factor is
/// typically 13-18 dB)…
pub const SURFACE_RMS_DB: f64 = -28.0;
/// …as an amplitude…
pub const SURFACE_RMS: f64 = 0.039_810_717_055_349_73;
/// …unless the run's peak would then be over a strike's ([`TARGET_PEAK`]): a sparser
/// train is held by its peak instead, leaving a note's own landings the same room.
pub const SURFACE_MAX_PEAK: f64 = TARGET_PEAK;

/// The gain that brings a held surface gesture of RMS `rms` and peak `peak` to
/// [`SURFACE_RMS`], or its peak to [`SURFACE_MAX_PEAK`] if that is less.
pub fn surface_gain_for(rms: f64, peak: f64) -> f64 {
    gain_to(SURFACE_RMS, rms).min(gain_to(SURFACE_MAX_PEAK, peak))
}

/// `target / level` within (0, [`MAX_GAIN`]], 1 where it is not a positive number.
fn gain_to(target: f64, level: f64) -> f64 {
    let g = target / level;
    if g.is_finite() && g > 0.0 {
        g.min(MAX_GAIN)
    } else {
        1.0
    }
}

/// The calibrated gains of a strike: what it puts into the dry path and into the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub dry: f64,
    pub body: f64,
}

impl Gains {
    pub const UNIT: Gains = Gains {
        dry: 1.0,
        body: 1.0,
    };

    pub fn scaled(self, g: f64) -> Gains {
        Gains {
            dry: self.dry * g,
            body: self.body * g,
        }
    }
}

/// How far the smoothed mix may be from the patch's for a strike to take the gains made
/// for the patch's mix alone (see [`Entry::glide`]).
pub const MIX_GLIDE_TOLERANCE: f64 = 1e-3;

/// The parameters a strike's level depends on: `p` with everything that cannot change
/// a full-velocity strike's peak or loudness set to its default (the output gain and
/// width, the voice count, what a note-off does, the velocity curve, the humanize
/// amount and seed, the mod wheel's routing, the bend range and Velocity → Hardness,
/// which only moves a softer strike; the gesture's controls where they do not move
/// its level), and both speeds at the full-velocity one (the larger: a patch may have
/// them either way round). A table is rebuilt only when these change.
pub fn level_params(p: &EngineParams) -> EngineParams {
    let d = EngineParams::default();
    // A crumple's level is its first strike's: only a roll or a scrape keeps its surface.
    let on = if p.gesture.on_surface() { p } else { &d };
    let top = p.v_max.max(p.v_min);
    EngineParams {
        v_min: top,
        v_max: top,
        velocity_curve: d.velocity_curve,
        gain_db: d.gain_db,
        voices: d.voices,
        note_off: d.note_off,
        release: d.release,
        width: d.width,
        humanize: d.humanize,
        seed: d.seed,
        mod_wheel: d.mod_wheel,
        mod_depth: d.mod_depth,
        bend_range: d.bend_range,
        velocity_hardness: d.velocity_hardness,
        gesture: on.gesture,
        crumple_rate: d.crumple_rate,
        crumple_tau: d.crumple_tau,
        radius_mm: on.radius_mm,
        roughness_um: on.roughness_um,
        roughness_beta: on.roughness_beta,
        ..*p
    }
}

/// The calibrated gains of one key's strike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// At the patch's mix: the dry path and the body each at the target, then their
    /// mix, then (Playable) moved toward the reference loudness.
    pub strike: Gains,
    /// While the mix glides (a preset just loaded, Mix or Body just moved): the same
    /// without the mix's own step. A mix of two signals that each peak at the target
    /// peaks at most there, whatever the mix (the peak is convex in it), so a strike
    /// struck anywhere along a glide stays at or under the target.
    pub glide: Gains,
}

impl Entry {
    /// The gains for a strike played at the smoothed `mix` of a patch whose own is
    /// `target`.
    pub fn at_mix(&self, mix: f64, target: f64) -> Gains {
        if mix.is_finite() && (mix - target).abs() <= MIX_GLIDE_TOLERANCE {
            self.strike
        } else {
            self.glide
        }
    }
}

/// The fractional key whose nominal body a note on `key` playing `own` sounds like:
/// its bend, tuning and pitch modulation moved along the keyboard by the key tracking.
/// Without key tracking every key has the same body, so the note reads its own key.
pub fn sounding_key(p: &EngineParams, own: &EngineParams, key: u8) -> f64 {
    let k = key as f64;
    if own.body_freq == p.body_freq && own.key_track == p.key_track {
        return k;
    }
    let track = p.key_track;
    if track.is_finite() && track > 1e-3 {
        let f_nominal = p.body_freq * 2f64.powf(track * (k - 60.0) / 12.0);
        let f_own = own.body_freq * 2f64.powf(own.key_track * (k - 60.0) / 12.0);
        let semitones = 12.0 * (f_own / f_nominal).log2();
        if semitones.is_finite() {
            return k + semitones / track;
        }
    }
    k
}

thread_local! {
    /// Entries made on this thread: the tests' proof that the audio thread makes none
    /// (a worker's count is its own thread's, so an engine's total cannot show it).
    static MADE_HERE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a calibration played on this thread (`Voice::entry_of`).
pub(crate) fn count_calibration() {
    MADE_HERE.with(|n| n.set(n.get() + 1));
}

/// Level calibrations played on the calling thread so far, by any voice.
pub fn calibrations_on_this_thread() -> u64 {
    MADE_HERE.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weighting_matches_the_standards_table() {
        // IEC 61672-1, table 3: A-weighting in dB at nominal frequencies (rounded to
        // 0.1 dB there; the curve at the nominal, not the exact, frequency).
        for (f, db) in [
            (31.5, -39.4),
            (100.0, -19.1),
            (1000.0, 0.0),
            (4000.0, 1.0),
            (10_000.0, -2.5),
        ] {
            let got = 20.0 * a_weight(f).log10();
            assert!((got - db).abs() < 0.15, "{f} Hz: {got:.2} dB, table {db}");
        }
    }

    #[test]
    fn k_weighting_is_the_standards() {
        let db = |f: f64| 20.0 * k_weight(f).log10();
        // BS.1770's −0.691 dB offset is the K-weighting's gain at 1 kHz.
        assert!((db(1000.0) - 0.691).abs() < 0.01, "{}", db(1000.0));
        // The pre-filter's shelf is +4 dB at the top; the RLB high-pass is two
        // real poles near 38 Hz (−13 dB at 20 Hz).
        assert!((db(12_000.0) - 4.0).abs() < 0.2, "{}", db(12_000.0));
        assert!((db(20.0) + 13.0).abs() < 1.0, "{}", db(20.0));
        assert_eq!(k_weight(30_000.0), k_weight(24_000.0));
    }

    /// Energy and reference pairs that mean nothing (silence, a non-number, an
    /// infinite reference): every gain derived from them must be 1.
    const BAD_ENERGIES: [(f64, f64); 4] = [
        (0.0, 1.0),
        (1.0, 0.0),
        (f64::NAN, 1.0),
        (1.0, f64::INFINITY),
    ];

    #[test]
    fn the_keyboard_cut_only_cuts() {
        assert_eq!(keyboard_cut(4.0, 1.0), 0.5);
        assert_eq!(keyboard_cut(1.0, 4.0), 1.0);
        for (e, r) in BAD_ENERGIES {
            assert_eq!(keyboard_cut(e, r), 1.0, "{e} {r}");
        }
    }

    #[test]
    fn compensation_stays_inside_the_peak_window() {
        let (lift, cut) = (
            10f64.powf(MAX_LIFT_DB / 20.0),
            10f64.powf(-MAX_CUT_DB / 20.0),
        );
        let offset = 10f64.powf(REFERENCE_OFFSET_DB / 20.0);
        // The reference itself is brought down by the offset.
        assert!((compensation(1.0, 1.0) - offset).abs() < 1e-12);
        // A strike 6 dB quieter than the reference is lifted, to the window's edge;
        // one 6 dB louder is cut, to the other edge.
        assert_eq!(compensation(0.25, 1.0), lift);
        assert_eq!(compensation(4.0, 1.0), cut);
        for (e, r) in BAD_ENERGIES {
            assert_eq!(compensation(e, r), 1.0, "{e} {r}");
        }
    }
}
