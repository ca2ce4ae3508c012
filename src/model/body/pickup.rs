//! The body's two pickups: the stereo image of the body itself. A pickup at a point of
//! the body hears each mode in proportion to the mode's shape there, sign included
//! (reciprocity: the same shape the strike excites it by), so two pickups at different
//! points hear each mode with their own weights, and a mode whose shape has opposite
//! signs at the two points reaches them in opposite phase, the way two microphones over
//! a struck bar hear it.
//!
//! The two are read out as mid and side: the mid is the body as it sounds at the strike
//! (unchanged, so the mono sum of the pickups is the mono body, and every level
//! calibration of the mid still holds), and the side carries, per mode `k`, what the
//! pickups' shapes `φ_A = φ_k(A)`, `φ_B = φ_k(B)` make differ:
//!
//! - the level difference, in phase with the mode, `LEVEL_SPREAD · s_k` with
//!   `s_k = (|φ_A| − |φ_B|) / (|φ_A| + |φ_B|)` in `[−1, 1]`;
//! - the phase difference, in quadrature with the mode (its ringing turned by 90°),
//!   `PHASE_SPREAD · t_k` with `t_k = 2 min(|φ_A|, |φ_B|) / (|φ_A| + |φ_B|)` where
//!   `φ_A φ_B < 0` (else 0), in `[0, 1]`, signed as `s_k`; `s_k² + t_k² ≤ 1`.
//!
//! So left = mid + side, right = mid − side, and a mode heard in anti-phase reaches the
//! two channels `±atan(PHASE_SPREAD)` apart in phase (±31°), not 180°: in true
//! anti-phase it would vanish from the mono sum. A mode's quadrature is orthogonal to
//! it, so the side it makes lowers the L/R correlation even when one mode dominates (a
//! side in phase with a single mode only scales it), and adds to either channel only
//! in power: `rms L² = (1 + LEVEL_SPREAD s)² + (PHASE_SPREAD t)²` times the mode's,
//! at most 1.37 of it; with the largest pan, `(1 + 0.25 + 0.05 s)² + 0.36 (1 − s²)`,
//! at most 1.93 (2.9 dB, under the 3 dB the mono sum may lose). The body weights
//! the turn by how well the mode rings (`Coefs::of`).
//!
//! Where the pickups sit: each is a strike position (0 = centre, 1 = edge) and an
//! angle from the strike round the body (the pickups turn with the strike). A mode of
//! azimuthal order `m` (nodal diameters) has the shape `R(r) cos(m θ)`; on the bar and
//! wood block the angle is 0 or π and `m` the mode's parity under the mirror through
//! the centre; on the plate the angle moves the point off the strike's diagonal
//! (π/2 and −π/2 mirror it across the plate's length and width, π through the centre).

use super::limits::MODES;
use super::modes::{BAR_BETA, BodyType, MEMBRANE_ZEROS, membrane_j, mode_shape, plate_modes};
use std::f64::consts::PI;
use std::sync::OnceLock;

/// The weight of the level difference at Width 1 (a mode heard only by one pickup is
/// 0.9 dB louder on its side): small, since a level difference in phase only scales
/// a mode, and does not decorrelate it.
pub const LEVEL_SPREAD: f64 = 0.05;
/// The weight of the anti-phase difference at Width 1: a mode heard in exact
/// anti-phase reaches left and right ±31° apart, its own L/R correlation 0.47, and
/// either channel 1.3 dB over the mono sum.
pub const PHASE_SPREAD: f64 = 0.6;

/// A pickup: where it sits as a strike position (0 = centre, 1 = edge) and its angle
/// from the strike round the body, rad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pickup {
    pub position: f64,
    pub angle: f64,
}

const fn at(position: f64, angle: f64) -> Pickup {
    Pickup { position, angle }
}

/// The left and right pickups of each body, chosen (by the L/R correlation of the
/// factory presets, docs/stereo.md) so that the modes that carry most of a strike's
/// energy reach them in anti-phase: on the bar one on one half and one at the free
/// end of the other (the fundamental, whose nodes sit at 0.66, and the antisymmetric
/// modes flip); on the plate two points mirrored across its width (the modes of even
/// `m` flip; its lowest mode moves in phase everywhere); on the membrane two points
/// facing across a diameter (the modes of odd order flip); on the bell two points at
/// one height 45° apart (the nominal group, m = 3 to 5, flips; the hum and prime,
/// m = 2, have a nodal meridian at the second); on the wood block one near the centre
/// and one on the other half.
pub fn pickups(kind: BodyType) -> (Pickup, Pickup) {
    match kind {
        BodyType::None => (at(0.5, 0.0), at(0.5, 0.0)),
        BodyType::Bar => (at(0.35, 0.0), at(1.0, PI)),
        BodyType::Plate => (at(0.5, 0.0), at(0.5, -0.5 * PI)),
        BodyType::Membrane => (at(0.5, 0.0), at(0.5, PI)),
        BodyType::Bell => (at(0.5, 0.0), at(0.5, 0.25 * PI)),
        BodyType::WoodBlock => (at(0.2, 0.0), at(0.8, PI)),
        // As the bell's: a recording says nothing of its modes' shapes, and the bell's
        // rising orders spread the upper modes across the image.
        BodyType::Recorded => (at(0.5, 0.0), at(0.5, 0.25 * PI)),
    }
}

/// The azimuthal order of mode `k`: nodal diameters on the membrane (its Bessel
/// order) and bell (hum and prime 2, tierce and quint 3, nominal 4, after Rossing's
/// mode table; the upper partials taken to rise by one every second partial), the
/// parity under the mirror through the centre on the bar (odd modes antisymmetric),
/// wood block (the same, counted from its first mode) and plate (`m + n`).
fn azimuthal_order(kind: BodyType, k: usize, plate: &[(u32, u32, f64); MODES]) -> u32 {
    match kind {
        BodyType::None => 0,
        BodyType::Bar | BodyType::WoodBlock => (k % 2) as u32,
        BodyType::Plate => (plate[k].0 + plate[k].1) % 2,
        BodyType::Membrane => MEMBRANE_ZEROS[k].0,
        BodyType::Bell | BodyType::Recorded => 2 + (k / 2) as u32,
    }
}

/// The radial part of mode `k`'s shape at `position`, sign included (the shapes
/// `mode_shape` excites by, without its floor and absolute value; the bell's, a
/// weighting without a sign, is positive).
fn radial_shape(kind: BodyType, k: usize, p: f64, plate: &[(u32, u32, f64); MODES]) -> f64 {
    let p = p.clamp(0.0, 1.0);
    match kind {
        BodyType::None => 0.0,
        BodyType::Bar => {
            let b = BAR_BETA.get(k).copied().unwrap_or((k as f64 + 1.5) * PI);
            let s = b * 0.5 * p;
            if k.is_multiple_of(2) {
                s.cos()
            } else {
                s.sin()
            }
        }
        BodyType::Plate => {
            let (m, n, _) = plate[k];
            let (x, y) = (0.5 - 0.42 * p, 0.5 - 0.3 * p);
            (m as f64 * PI * x).sin() * (n as f64 * PI * y).sin()
        }
        BodyType::Membrane => membrane_j(k, p),
        BodyType::Bell => mode_shape(kind, 0, k, p, plate).1,
        BodyType::Recorded => 1.0,
        BodyType::WoodBlock => ((k as f64 + 1.0) * PI * (0.5 + 0.5 * p)).sin(),
    }
}

/// Mode `k`'s shape at pickup `at`.
pub fn pickup_shape(kind: BodyType, k: usize, at: Pickup, plate: &[(u32, u32, f64); MODES]) -> f64 {
    if kind == BodyType::Plate {
        let (m, n, _) = plate[k];
        let p = at.position.clamp(0.0, 1.0);
        let (c, s) = (at.angle.cos(), at.angle.sin());
        let x = (0.5 - 0.42 * p * (c + s)).clamp(0.0, 1.0);
        let y = (0.5 - 0.3 * p * (c - s)).clamp(0.0, 1.0);
        return (m as f64 * PI * x).sin() * (n as f64 * PI * y).sin();
    }
    let m = azimuthal_order(kind, k, plate) as f64;
    radial_shape(kind, k, at.position, plate) * (m * at.angle).cos()
}

/// Each mode's side weights at Width 1, `LEVEL_SPREAD · s_k` in phase and
/// `PHASE_SPREAD · t_k` in quadrature (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideWeights {
    pub level: [f64; MODES],
    pub phase: [f64; MODES],
}

/// [`side_weights`] of `kind`, made once for every kind (they depend on the kind
/// alone): a note-on's retune reads them instead of evaluating `2 × MODES` mode shapes
/// (Bessel series on the membrane). The first body made fills the table, off the
/// audio thread; after that this is one atomic load.
pub fn side_weights_of(kind: BodyType) -> &'static SideWeights {
    static TABLE: OnceLock<[SideWeights; BodyType::ALL.len()]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let plate = plate_modes();
        BodyType::ALL.map(|k| side_weights(k, &plate))
    });
    let i = BodyType::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    &table[i]
}

/// The side weights of every mode of `kind` (see the module doc).
pub fn side_weights(kind: BodyType, plate: &[(u32, u32, f64); MODES]) -> SideWeights {
    let (a, b) = pickups(kind);
    let mut w = SideWeights {
        level: [0.0; MODES],
        phase: [0.0; MODES],
    };
    for k in 0..MODES {
        let pa = pickup_shape(kind, k, a, plate);
        let pb = pickup_shape(kind, k, b, plate);
        let sum = pa.abs() + pb.abs();
        if !(sum > 1e-9 && sum.is_finite()) {
            continue;
        }
        let s = ((pa.abs() - pb.abs()) / sum).clamp(-1.0, 1.0);
        w.level[k] = LEVEL_SPREAD * s;
        if pa * pb < 0.0 {
            // The louder pickup's channel leads: modes heard louder on the left and on
            // the right turn opposite ways, so the image spreads rather than leans.
            let t = (2.0 * pa.abs().min(pb.abs()) / sum).clamp(0.0, 1.0);
            w.phase[k] = PHASE_SPREAD * t * if s < 0.0 { -1.0 } else { 1.0 };
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::super::modes::plate_modes;
    use super::*;

    #[test]
    fn every_body_but_none_has_distinct_pickups_within_bounds() {
        let plate = plate_modes();
        for kind in BodyType::ALL {
            let w = side_weights(kind, &plate);
            for k in 0..MODES {
                let (s, t) = (w.level[k] / LEVEL_SPREAD, w.phase[k] / PHASE_SPREAD);
                assert!(s.is_finite() && t.is_finite(), "{kind:?} {k}");
                assert!(s * s + t * t <= 1.0 + 1e-12, "{kind:?} {k}: {s} {t}");
            }
            let spread = w.level.iter().chain(&w.phase).map(|v| v.abs());
            let spread = spread.fold(0.0, f64::max);
            if kind == BodyType::None {
                assert_eq!(spread, 0.0);
            } else {
                assert!(spread > 0.05, "{kind:?}: pickups hear the same ({w:?})");
            }
        }
    }

    /// The modes that dominate a plain strike reach the two pickups in anti-phase,
    /// which is what opens the image: the bar's fundamental, and the bell's nominal
    /// (m = 4; its hum and prime have a nodal meridian at the second pickup). (The
    /// lowest mode of the plate, membrane and wood block moves in phase everywhere;
    /// their image comes from the modes above it.)
    #[test]
    fn the_dominant_modes_reach_the_pickups_in_anti_phase() {
        let plate = plate_modes();
        for (kind, k) in [(BodyType::Bar, 0), (BodyType::Bell, 4)] {
            let w = side_weights(kind, &plate);
            assert!(w.phase[k].abs() > 0.5 * PHASE_SPREAD, "{kind:?}: {w:?}");
        }
    }
}
