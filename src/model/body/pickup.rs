//! The body's two pickups: the stereo image of the body itself. A pickup at a point of
//! the body hears each mode in proportion to the mode's shape there (reciprocity: the
//! same shape the strike excites it by, [`mode_shape`]), so two pickups at different
//! points hear different modal weights, the way two microphones over a struck bar do.
//!
//! The two are read out as mid and side: the mid is the body as it sounds at the strike
//! (unchanged, so the mono sum of the pickups is the mono body), and the side is each
//! mode weighted by how much more the left pickup hears it than the right,
//!
//! `s_k = (|φ_k(A)| − |φ_k(B)|) / (|φ_k(A)| + |φ_k(B)|)`, in `[−1, 1]`,
//!
//! so left = mid + w·side, right = mid − w·side. Magnitudes only: a pickup that heard a
//! mode in opposite phase would cancel it in the mono sum. Since the modes ring at
//! different frequencies they are nearly orthogonal, and the side's level stays below
//! the mid's (`‖side‖² ≈ Σ s_k² ‖mode_k‖² ≤ ‖mid‖²`), which bounds the loss of the mono
//! sum (see `engine::voice::PICKUP_SPREAD`).

use super::MODES;
use super::modes::{BodyType, mode_shape, plate_modes};
use std::sync::OnceLock;

/// Where the left and right pickups sit on each body, as strike positions (0 = centre,
/// 1 = edge). Chosen apart, so that the two hear different mode groups: on the bar one
/// near the centre (the symmetric modes) and one near the end (every mode); on the
/// plate and membrane one in the middle and one off it; on the bell one at the
/// shoulder (hum and prime) and one near the lip (the nominal group).
pub fn pickup_positions(kind: BodyType) -> (f64, f64) {
    match kind {
        BodyType::None => (0.5, 0.5),
        BodyType::Bar => (0.15, 0.85),
        BodyType::Plate => (0.2, 0.8),
        BodyType::Membrane => (0.15, 0.7),
        BodyType::Bell => (0.2, 0.75),
        BodyType::WoodBlock => (0.25, 0.75),
    }
}

/// [`side_weights`] of `kind`, made once for every kind (they depend on the kind
/// alone): a note-on's retune reads them instead of evaluating `2 × MODES` mode shapes
/// (Bessel series on the membrane). The first body made fills the table, off the
/// audio thread; after that this is one atomic load.
pub fn side_weights_of(kind: BodyType) -> &'static [f64; MODES] {
    static TABLE: OnceLock<[[f64; MODES]; BodyType::ALL.len()]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let plate = plate_modes();
        BodyType::ALL.map(|k| side_weights(k, &plate))
    });
    let i = BodyType::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    &table[i]
}

/// The side weight `s_k ∈ [−1, 1]` of every mode of `kind` (see the module doc).
pub fn side_weights(kind: BodyType, plate: &[(u32, u32, f64); MODES]) -> [f64; MODES] {
    let (a, b) = pickup_positions(kind);
    let mut s = [0.0; MODES];
    for (k, sk) in s.iter_mut().enumerate() {
        let pa = mode_shape(kind, k, a, plate).1.abs();
        let pb = mode_shape(kind, k, b, plate).1.abs();
        let sum = pa + pb;
        if sum > 0.0 && sum.is_finite() {
            *sk = ((pa - pb) / sum).clamp(-1.0, 1.0);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::modes::plate_modes;
    use super::*;

    #[test]
    fn every_body_but_none_has_distinct_pickups_within_bounds() {
        let plate = plate_modes();
        for kind in BodyType::ALL {
            let s = side_weights(kind, &plate);
            assert!(
                s.iter().all(|v| v.is_finite() && v.abs() <= 1.0),
                "{kind:?}"
            );
            let spread = s.iter().map(|v| v.abs()).fold(0.0, f64::max);
            if kind == BodyType::None {
                assert_eq!(spread, 0.0);
            } else {
                assert!(spread > 0.1, "{kind:?}: pickups hear the same ({s:?})");
            }
        }
    }
}
