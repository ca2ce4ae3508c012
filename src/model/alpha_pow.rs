//! `x^α` for one fixed α, many times: the load-aware exit (`load`) takes a power at
//! every stage of every step, twelve a step over 30–90 steps, and `exp(α ln x)` was two
//! thirds of its cost. Here the power is split along the binary representation of `x`:
//!
//! `x = 2^e · m`, `m ∈ [1, 2)`, `m = c_j (1 + r)` with `c_j` the centre of the `j`-th of
//! [`CELLS`] equal cells of `[1, 2)` (so `|r| ≤ 1/(2·CELLS)`), and
//!
//! `x^α = 2^{eα} · c_j^α · (1 + r)^α`,
//!
//! the first two read from tables made once per α ([`AlphaPow::new`]: 32 powers and 32
//! exponentials), the last the binomial series to `r^`[`TERMS`] (a remainder under
//! `2e-16`). The result is as close to `powf` as `exp(α ln x)` is
//! (`tests::agrees_with_powf_over_the_range`); on the build machine a power takes
//! 5.5 ns where `exp(α ln x)` took 13.5 (22 against 35 ns when each waits on the last,
//! as a Runge–Kutta stage does). Exponents 1, 3/2, 2 and 3 keep their exact, cheaper
//! forms and build no table; `x` outside `2^±`[`OCTAVES`] falls back to `exp(α ln x)`.

use super::series::{fast_pow, pow_alpha};

/// Cells of the mantissa `[1, 2)`.
const CELLS: usize = 32;
/// Terms of the binomial series of `(1 + r)^α`, `|r| ≤ 1/64`: the first left out is at
/// most `|C(α, 8)| 64⁻⁸ < 2e-16` for α in `[0, 4]`.
const TERMS: usize = 7;
/// Binary exponents covered by the tables: `e ∈ [−OCTAVES, OCTAVES)`.
const OCTAVES: i64 = 128;
/// `2^{eα}` is `LO[e mod 16] · HI[e div 16]`.
const LO: usize = 16;
const HI: usize = (2 * OCTAVES as usize) / LO;

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// α = 1, 3/2 or 2: [`pow_alpha`]'s exact forms.
    Exact,
    /// α = 3: `x·x·x`.
    Cube,
    Table,
}

/// `x ↦ x^α` for `x > 0` at one α (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct AlphaPow {
    alpha: f64,
    kind: Kind,
    /// `1/c_j`.
    inv_c: [f64; CELLS],
    /// `c_j^α`.
    mant: [f64; CELLS],
    /// `C(α, n)`, `n = 1..=TERMS`.
    binom: [f64; TERMS],
    /// `2^{iα}`, `i < LO`.
    lo: [f64; LO],
    /// `2^{LO (i − HI/2) α}`, `i < HI`.
    hi: [f64; HI],
}

impl AlphaPow {
    /// The tables for `alpha` (finite, > 0 for the tables to mean anything; any other
    /// value falls back to `exp(α ln x)` on every call).
    pub fn new(alpha: f64) -> Self {
        let mut p = Self {
            alpha,
            kind: Kind::Table,
            inv_c: [0.0; CELLS],
            mant: [0.0; CELLS],
            binom: [0.0; TERMS],
            lo: [0.0; LO],
            hi: [0.0; HI],
        };
        if alpha == 3.0 {
            p.kind = Kind::Cube;
            return p;
        }
        if matches!(alpha, 1.0 | 1.5 | 2.0) {
            p.kind = Kind::Exact;
            return p;
        }
        for j in 0..CELLS {
            // The cell's centre as the table's rounding of it: `(1/inv_c)^α` below is
            // then consistent with the `r` the call computes from `inv_c`.
            p.inv_c[j] = 1.0 / (1.0 + (j as f64 + 0.5) / CELLS as f64);
            p.mant[j] = fast_pow(1.0 / p.inv_c[j], alpha);
        }
        let mut term = 1.0;
        for (n, b) in p.binom.iter_mut().enumerate() {
            term *= (alpha - n as f64) / (n as f64 + 1.0);
            *b = term;
        }
        let ln2_alpha = std::f64::consts::LN_2 * alpha;
        for (i, l) in p.lo.iter_mut().enumerate() {
            *l = (i as f64 * ln2_alpha).exp();
        }
        for (i, h) in p.hi.iter_mut().enumerate() {
            *h = ((LO as f64) * (i as f64 - (HI / 2) as f64) * ln2_alpha).exp();
        }
        p
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// `x^α` for `x > 0`.
    #[inline(always)]
    pub fn pow(&self, x: f64) -> f64 {
        match self.kind {
            Kind::Cube => x * x * x,
            Kind::Exact => pow_alpha(x, self.alpha),
            Kind::Table => self.table(x),
        }
    }

    #[inline(always)]
    fn table(&self, x: f64) -> f64 {
        const MANTISSA: u64 = (1 << 52) - 1;
        const ONE: u64 = 0x3ff0_0000_0000_0000;
        let bits = x.to_bits();
        // The sign bit set (x ≤ −0), NaN and infinities all land outside the range.
        let e = (bits >> 52) as i64 - 1023;
        if !(-OCTAVES..OCTAVES).contains(&e) {
            return fast_pow(x, self.alpha);
        }
        let j = ((bits >> (52 - CELLS.trailing_zeros())) & (CELLS as u64 - 1)) as usize;
        let m = f64::from_bits((bits & MANTISSA) | ONE);
        let r = m * self.inv_c[j] - 1.0;
        let b = &self.binom;
        // Estrin's scheme: four multiplications deep instead of Horner's seven.
        let r2 = r * r;
        let r4 = r2 * r2;
        let p01 = r * b[1] + b[0];
        let p23 = r * b[3] + b[2];
        let p45 = r * b[5] + b[4];
        let p03 = r2 * p23 + p01;
        let p46 = r2 * b[6] + p45;
        let tail = r4 * p46 + p03;
        let series = r * tail + 1.0;
        let i = (e + OCTAVES) as usize;
        series * self.mant[j] * (self.lo[i % LO] * self.hi[i / LO])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Relative difference from `powf` (within an ulp of the exact power), over what
    /// `exp(α ln x)` itself may be off by: its argument's rounding, an ulp or two per
    /// unit of `|α ln x|`, and a few ulps. Below 1: as good as the power it replaces.
    fn rel(p: &AlphaPow, x: f64) -> f64 {
        let want = x.powf(p.alpha());
        let allowed = 4e-15 + 4.4e-16 * (p.alpha() * x.ln()).abs();
        (p.pow(x) - want).abs() / want / allowed
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Over α in the contact law's range and beyond it, and `x` over the tables'
        /// octaves and past them (the fallback): as close to `powf` as `exp(α ln x)`.
        #[test]
        fn agrees_with_powf_over_the_range(
            alpha in prop_oneof![
                1 => Just(1.0), 1 => Just(1.5), 1 => Just(2.0), 1 => Just(3.0),
                8 => 0.5..=4.0f64,
            ],
            log2_x in -200.0..200.0f64,
        ) {
            let p = AlphaPow::new(alpha);
            let x = log2_x.exp2();
            prop_assert!(rel(&p, x) < 1.0, "α {alpha}, x {x:e}: {:e}", rel(&p, x));
        }
    }

    /// Every cell of the mantissa and both its ends, and every binary exponent of the
    /// tables: a corrupted entry anywhere shows.
    #[test]
    fn every_table_entry_is_read_right() {
        for alpha in [1.2345, 2.55, 2.999] {
            let p = AlphaPow::new(alpha);
            let mut worst = 0.0f64;
            for e in -OCTAVES..OCTAVES {
                for j in 0..=2 * CELLS {
                    let m = 1.0 + j as f64 / (2 * CELLS) as f64;
                    let x = m * (e as f64).exp2();
                    for x in [x, x.next_down(), x.next_up()] {
                        worst = worst.max(rel(&p, x));
                    }
                }
            }
            assert!(worst < 1.0, "α {alpha}: {worst:e}");
        }
    }

    #[test]
    fn bad_input_falls_back_without_panic() {
        let p = AlphaPow::new(2.3);
        assert_eq!(p.pow(0.0), 0.0);
        assert!(p.pow(f64::INFINITY).is_infinite());
        assert!(p.pow(f64::NAN).is_nan());
        assert!(p.pow(f64::MIN_POSITIVE) >= 0.0);
        // Exponents outside the series' range [0, 4] still give the power, to the
        // first term left out (64⁻⁸ for α = −1).
        assert!((AlphaPow::new(-1.0).pow(2.0) - 0.5).abs() < 1e-14);
        assert_eq!(AlphaPow::new(0.0).pow(2.0), 1.0);
        assert!(AlphaPow::new(f64::NAN).pow(2.0).is_nan());
    }
}
