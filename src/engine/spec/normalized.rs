//! A number's host-normalised value (0–1) and back, exactly as the plugin's ranges map it
//! (`params::range_of`): a log-scaled number is linear in its log10, a skewed one follows
//! the framework's `((v − lo)/(hi − lo))^(2^skew)`. The engine needs it for polyphonic
//! modulation, whose offsets a host gives in normalised units.

use super::types::{NumberSpec, Scale};

/// `plain` as the host's normalised value in `[0, 1]` (clamped; NaN gives 0).
pub fn normalize(n: &NumberSpec, plain: f64) -> f64 {
    let (lo, hi) = n.range();
    let x = match n.scale {
        Scale::Log => (plain.max(lo).log10() - lo.log10()) / (hi.log10() - lo.log10()),
        Scale::Linear | Scale::Percent => (plain - lo) / (hi - lo),
        Scale::Skewed(skew) => {
            let t = ((plain - lo) / (hi - lo)).clamp(0.0, 1.0);
            t.powf(2f64.powf(skew as f64))
        }
    };
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

/// The plain value of the normalised `x` (clamped to `[0, 1]`; NaN gives the low end).
pub fn unnormalize(n: &NumberSpec, x: f64) -> f64 {
    let (lo, hi) = n.range();
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    // The ends exactly (log10 and back would round them).
    if x == 0.0 {
        return lo;
    } else if x == 1.0 {
        return hi;
    }
    let v = match n.scale {
        Scale::Log => 10f64.powf(lo.log10() + x * (hi.log10() - lo.log10())),
        Scale::Linear | Scale::Percent => lo + x * (hi - lo),
        Scale::Skewed(skew) => lo + x.powf(2f64.powf(-skew as f64)) * (hi - lo),
    };
    v.max(lo).min(hi)
}

/// `plain` moved by a normalised `offset`, as a host's modulation moves it: the sum is
/// clamped to the range, so the result is always a valid plain value.
#[inline]
pub fn modulate(n: &NumberSpec, plain: f64, offset: f64) -> f64 {
    if offset == 0.0 {
        return plain;
    }
    unnormalize(n, normalize(n, plain) + offset)
}

#[cfg(test)]
mod tests {
    use super::super::numbers::NUMBERS;
    use super::*;

    /// Round trip over every number's range, and the ends land on the ends.
    #[test]
    fn normalize_inverts_unnormalize_for_every_number() {
        for n in NUMBERS.iter() {
            let (lo, hi) = n.range();
            assert_eq!(unnormalize(n, 0.0), lo, "{}", n.id);
            assert!(
                (unnormalize(n, 1.0) - hi).abs() <= 1e-9 * hi.abs(),
                "{}",
                n.id
            );
            for i in 0..=20 {
                let x = i as f64 / 20.0;
                let back = normalize(n, unnormalize(n, x));
                assert!((back - x).abs() < 1e-9, "{}: {x} -> {back}", n.id);
            }
            assert_eq!(modulate(n, hi, 5.0), unnormalize(n, 1.0));
            assert_eq!(modulate(n, lo, -5.0), unnormalize(n, 0.0));
            assert_eq!(modulate(n, 0.5 * (lo + hi), 0.0), 0.5 * (lo + hi));
            assert_eq!(normalize(n, f64::NAN), 0.0);
        }
    }
}
