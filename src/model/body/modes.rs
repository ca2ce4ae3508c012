//! The mode sets of the body types: frequency ratios, decay laws and the excitation of
//! each mode at the strike position.
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

use super::limits::MODES;
pub(super) use super::powers::RatioPowers;
use super::recorded::recorded;
use std::f64::consts::PI;
use std::sync::OnceLock;

/// What the force strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    /// No body: the dry force pulse only.
    None,
    Bar,
    Plate,
    Membrane,
    Bell,
    WoodBlock,
    /// The partials fitted from a recording (`recorded`), named by
    /// [`BodySettings::recording`].
    Recorded,
}

impl BodyType {
    pub const ALL: [BodyType; 7] = [
        BodyType::None,
        BodyType::Bar,
        BodyType::Plate,
        BodyType::Membrane,
        BodyType::Bell,
        BodyType::WoodBlock,
        BodyType::Recorded,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BodyType::None => "none",
            BodyType::Bar => "bar",
            BodyType::Plate => "plate",
            BodyType::Membrane => "membrane",
            BodyType::Bell => "bell",
            BodyType::WoodBlock => "wood",
            BodyType::Recorded => "recorded",
        }
    }

    /// How T60 falls with frequency: `T60_k = T60 (f_1/f_k)^e`. Metal radiates and
    /// loses little internally (small `e`); wood's loss factor is roughly constant, so
    /// its decay time goes as `1/f`.
    pub(super) fn decay_exponent(self) -> f64 {
        match self {
            BodyType::None => 0.0,
            BodyType::Bar => 0.5,
            BodyType::Plate => 0.5,
            BodyType::Membrane => 0.8,
            BodyType::Bell => 0.35,
            BodyType::WoodBlock => 1.0,
            // Each partial keeps its own T60 (`recorded`).
            BodyType::Recorded => 0.0,
        }
    }
}

impl std::str::FromStr for BodyType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::model::scheme::by_name(&BodyType::ALL, BodyType::name, s)
            .ok_or_else(|| format!("unknown body '{s}'"))
    }
}

/// `β_n L` of the first four free–free beam modes; later ones are `(n + ½)π`.
pub(super) const BAR_BETA: [f64; 4] = [4.730_041, 7.853_205, 10.995_608, 14.137_165];

/// The 16 lowest zeros `j_mn` of the Bessel functions, with their order `m`.
pub(super) const MEMBRANE_ZEROS: [(u32, f64); MODES] = [
    (0, 2.404_826),
    (1, 3.831_706),
    (2, 5.135_622),
    (0, 5.520_078),
    (3, 6.380_162),
    (1, 7.015_587),
    (4, 7.588_342),
    (2, 8.417_244),
    (0, 8.653_728),
    (5, 8.771_484),
    (3, 9.761_023),
    (6, 9.936_110),
    (1, 10.173_468),
    (4, 11.064_709),
    (7, 11.086_370),
    (2, 11.619_841),
];

/// Partials of a minor-third church bell relative to the prime.
pub(super) const BELL_RATIOS: [f64; MODES] = [
    0.5, 1.0, 1.2, 1.5, 2.0, 2.5, 2.61, 3.0, 3.3, 4.0, 4.2, 5.0, 5.33, 6.0, 6.7, 8.0,
];

/// A thick wooden bar: bar ratios compressed by shear and rotary inertia.
pub(super) const WOOD_RATIOS: [f64; MODES] = [
    1.0, 2.41, 3.95, 5.6, 7.3, 9.1, 10.9, 12.8, 14.7, 16.6, 18.5, 20.4, 22.3, 24.2, 26.1, 28.0,
];

/// Plate aspect ratio `b/a`; non-square so that `(m, n)` and `(n, m)` differ.
pub(super) const PLATE_ASPECT: f64 = 1.25;

/// `J_m(x)` by its power series; used at control rate only (a few dozen flops), for
/// `x ≤ 12` where 40 terms reach double precision.
pub(super) fn bessel_j(m: u32, x: f64) -> f64 {
    let half = 0.5 * x;
    let mut term = 1.0;
    for k in 1..=m {
        term *= half / k as f64;
    }
    let mut sum = term;
    let q = -half * half;
    for k in 1..40u32 {
        term *= q / (k as f64 * (k + m) as f64);
        sum += term;
        if term.abs() < 1e-17 * sum.abs() {
            break;
        }
    }
    sum
}

/// Intervals of the strike position `[0, 1]` in [`membrane_j`]'s table.
const MEMBRANE_NODES: usize = 256;

/// One membrane mode's `(J_m, dJ_m/dp · Δp)` at each node of the strike position.
type MembraneColumn = [(f64, f64); MEMBRANE_NODES + 1];

/// `J_m(j_k · 0.95 p)` of membrane mode `k` at strike position `p ∈ [0, 1]`, by cubic
/// Hermite interpolation in a table of [`bessel_j`] made once ([`prepare_tables`]): a
/// note-on retunes all sixteen modes, and the series takes up to 40 terms a mode.
/// Within 1e-8 of the series (tested), far below what a mode's gain can show.
pub(super) fn membrane_j(k: usize, p: f64) -> f64 {
    let column = &membrane_table()[k];
    let s = p.clamp(0.0, 1.0) * MEMBRANE_NODES as f64;
    let i = (s as usize).min(MEMBRANE_NODES - 1);
    let t = s - i as f64;
    let ((y0, d0), (y1, d1)) = (column[i], column[i + 1]);
    let (t2, t3) = (t * t, t * t * t);
    (2.0 * t3 - 3.0 * t2 + 1.0) * y0
        + (t3 - 2.0 * t2 + t) * d0
        + (-2.0 * t3 + 3.0 * t2) * y1
        + (t3 - t2) * d1
}

fn membrane_table() -> &'static [MembraneColumn; MODES] {
    static TABLE: OnceLock<[MembraneColumn; MODES]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|k| {
            let (m, j) = MEMBRANE_ZEROS[k];
            // x = j · 0.95 p, so dx per node is j · 0.95 / MEMBRANE_NODES.
            let dx = 0.95 * j / MEMBRANE_NODES as f64;
            std::array::from_fn(|i| {
                let x = dx * i as f64;
                // J_m' = (J_{m−1} − J_{m+1})/2, and J_0' = −J_1.
                let slope = if m == 0 {
                    -bessel_j(1, x)
                } else {
                    0.5 * (bessel_j(m - 1, x) - bessel_j(m + 1, x))
                };
                (bessel_j(m, x), slope * dx)
            })
        })
    })
}

/// Makes the tables the mode shapes read (once per process): called where bodies are
/// made, off the audio thread, so that no retune there ever fills one.
pub(super) fn prepare_tables() {
    membrane_table();
    ratio_powers(BodyType::None, 0);
}

/// The [`RatioPowers`] of `kind`, made once per process for every model kind; a
/// recorded body's are its own (`recording` names it).
pub(super) fn ratio_powers(kind: BodyType, recording: u16) -> &'static RatioPowers {
    static TABLE: OnceLock<[RatioPowers; BodyType::ALL.len()]> = OnceLock::new();
    if kind == BodyType::Recorded
        && let Some(r) = recorded(recording)
    {
        return &r.powers;
    }
    let table = TABLE.get_or_init(|| {
        let plate = plate_modes();
        BodyType::ALL.map(|kind| {
            let ratio = |k| mode_shape(kind, 0, k, 0.0, &plate).0;
            RatioPowers {
                ln: std::array::from_fn(|k| ratio(k).ln()),
                decay: std::array::from_fn(|k| ratio(k).powf(kind.decay_exponent())),
                t60: std::array::from_fn(|k| ratio(k).powf(-kind.decay_exponent())),
            }
        })
    });
    // `ALL` lists the kinds in their declaration order.
    &table[kind as usize]
}

/// The settings a body is tuned by (all plain numbers, any may change while it rings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySettings {
    pub kind: BodyType,
    /// Fundamental in Hz (after key tracking).
    pub f1: f64,
    /// Decay time to −60 dB of the fundamental, s.
    pub t60: f64,
    /// 0 = dark (upper modes −12 dB/octave), 0.5 = flat, 1 = bright (+6 dB/octave).
    pub brightness: f64,
    /// 0 = centre of the body, 1 = its edge (bar: its end; bell: the lip).
    pub position: f64,
    /// The recorded body played where `kind` is [`BodyType::Recorded`]: its index in
    /// the process's table (`recorded::register`; 0 is the built-in one).
    pub recording: u16,
}

impl Default for BodySettings {
    fn default() -> Self {
        Self {
            kind: BodyType::Bar,
            f1: 440.0,
            t60: 1.0,
            brightness: 0.5,
            position: 0.3,
            recording: 0,
        }
    }
}

/// T60 of a mode at `ratio` times the fundamental: the user's T60 is the fundamental's,
/// and the body's decay law (`decay_exponent`) shortens the upper modes. The bodies
/// read it from [`RatioPowers`]; this is the law their tables are checked against.
/// A recorded body's mode keeps its partial's own T60 relative to the reference's.
#[cfg(test)]
pub(super) fn decay_t60(st: &BodySettings, ratio: f64) -> f64 {
    let t60 = st.t60.max(1e-4);
    if st.kind == BodyType::Recorded
        && let Some(r) = recorded(st.recording)
    {
        let own = r.partials[..r.count]
            .iter()
            .find(|p| p.freq_hz / r.f_ref == ratio)
            .map_or(1.0, |p| p.t60_s / r.t60_ref);
        return t60 * own;
    }
    t60 * ratio.powf(-st.kind.decay_exponent())
}

/// The plate's 16 lowest `(m, n)` pairs, found once by insertion into a fixed array.
pub(super) fn plate_modes() -> [(u32, u32, f64); MODES] {
    let mut best = [(0u32, 0u32, f64::INFINITY); MODES];
    for m in 1..=8u32 {
        for n in 1..=8u32 {
            let l = (m * m) as f64 + (n as f64 / PLATE_ASPECT).powi(2);
            if l < best[MODES - 1].2 {
                let mut i = MODES - 1;
                best[i] = (m, n, l);
                while i > 0 && best[i].2 < best[i - 1].2 {
                    best.swap(i, i - 1);
                    i -= 1;
                }
            }
        }
    }
    best
}

/// Frequency ratio (to the fundamental) and excitation of mode `k` for a body struck
/// at `position` (`recording` names a recorded body's partials).
pub(super) fn mode_shape(
    kind: BodyType,
    recording: u16,
    k: usize,
    position: f64,
    plate: &[(u32, u32, f64); MODES],
) -> (f64, f64) {
    let p = position.clamp(0.0, 1.0);
    match kind {
        BodyType::None => (1.0, 0.0),
        BodyType::Bar => {
            let b = if k < 4 {
                BAR_BETA[k]
            } else {
                (k as f64 + 1.5) * PI
            };
            let ratio = (b / BAR_BETA[0]).powi(2);
            // Mode shape about the centre (ξ = ½ + ½ p): even modes are symmetric,
            // odd ones antisymmetric; the free ends move in every mode.
            let s = b * 0.5 * p;
            let shape = if k.is_multiple_of(2) {
                s.cos()
            } else {
                s.sin()
            };
            (ratio, 0.15 + shape.abs())
        }
        BodyType::Plate => {
            let (m, n, l) = plate[k];
            let ratio = l / plate[0].2;
            let x = 0.5 - 0.42 * p;
            let y = 0.5 - 0.3 * p;
            let shape = (m as f64 * PI * x).sin() * (n as f64 * PI * y).sin();
            (ratio, 0.05 + shape.abs())
        }
        BodyType::Membrane => {
            let j = MEMBRANE_ZEROS[k].1;
            (j / MEMBRANE_ZEROS[0].1, 0.03 + membrane_j(k, p).abs())
        }
        BodyType::Bell => {
            // Struck near the lip the nominal group speaks; near the shoulder the hum
            // and prime do.
            let shape = 1.0 / (1.0 + (k as f64 - 1.0 - 6.0 * p).abs() * 0.35);
            (BELL_RATIOS[k], shape)
        }
        BodyType::WoodBlock => {
            let s = (k as f64 + 1.0) * PI * (0.5 + 0.5 * p);
            (WOOD_RATIOS[k], 0.2 + s.sin().abs())
        }
        BodyType::Recorded => recorded(recording).map_or((1.0, 0.0), |r| r.mode(k, p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table reads the series it was made from, between its nodes too.
    #[test]
    fn membrane_table_follows_the_series() {
        let mut worst = 0.0f64;
        for (k, &(m, j)) in MEMBRANE_ZEROS.iter().enumerate() {
            for i in 0..=10_000 {
                let p = i as f64 / 10_000.0;
                let d = (membrane_j(k, p) - bessel_j(m, j * 0.95 * p)).abs();
                worst = worst.max(d);
            }
        }
        assert!(worst < 1e-8, "{worst:e}");
    }

    /// The per-kind table gives each mode's tilt and decay factor as the powers of its
    /// ratio would, to rounding, for every kind (the table is indexed by the kind).
    #[test]
    fn ratio_powers_are_the_ratios_powers() {
        let plate = plate_modes();
        for kind in BodyType::ALL {
            let pw = ratio_powers(kind, 0);
            for k in 0..MODES {
                let ratio = mode_shape(kind, 0, k, 0.7, &plate).0;
                for tilt in [-1.5, -0.3, 0.0, 0.9, 1.5] {
                    let want = ratio.powf(tilt);
                    let got = (tilt * pw.ln[k]).exp();
                    assert!((got / want - 1.0).abs() < 1e-14, "{kind:?} {k} {tilt}");
                }
                let st = BodySettings {
                    kind,
                    ..Default::default()
                };
                let t60 = st.t60 / pw.decay[k];
                assert!(
                    (t60 / decay_t60(&st, ratio) - 1.0).abs() < 1e-14,
                    "{kind:?} {k}"
                );
                // At a T60 of 1 s, the mode's own T60 to the bit.
                let unit = BodySettings { t60: 1.0, ..st };
                assert_eq!(pw.t60[k], decay_t60(&unit, ratio), "{kind:?} {k}");
            }
        }
    }
}
