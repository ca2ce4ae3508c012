//! The 256-bit moves and sums both vector loops use (the mode bank's, `body::simd`, and
//! the coupled sample's, `coupled::simd`): an array of f64 in and out of registers four
//! lanes at a time, and the portable loops' order of summing four partial sums.

use std::arch::x86_64::*;

/// The first `G` groups of four of `a` in registers.
#[inline(always)]
pub(crate) fn load<const N: usize, const G: usize>(a: &[f64; N]) -> [__m256d; G] {
    const { assert!(4 * G <= N, "G groups of four lie inside the array") };
    // SAFETY: each load reads 4 of the `N` f64 of `a` (`4 G ≤ N`).
    std::array::from_fn(|j| unsafe { _mm256_loadu_pd(a.as_ptr().add(4 * j)) })
}

/// [`load`]'s inverse: `v` back into the first `G` groups of four of `a`.
#[inline(always)]
pub(crate) fn store<const N: usize, const G: usize>(a: &mut [f64; N], v: &[__m256d; G]) {
    const { assert!(4 * G <= N, "G groups of four lie inside the array") };
    for (j, x) in v.iter().enumerate() {
        // SAFETY: each store writes 4 of the `N` f64 of `a` (`4 G ≤ N`).
        unsafe { _mm256_storeu_pd(a.as_mut_ptr().add(4 * j), *x) };
    }
}

/// The four lanes of `m` and of `s` each summed as the portable loops sum their four
/// partial sums, `(l0 + l1) + (l2 + l3)`, in registers.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn hsum2(m: __m256d, s: __m256d) -> (f64, f64) {
    // [m0 + m1, s0 + s1, m2 + m3, s2 + s3]
    let h = _mm256_hadd_pd(m, s);
    let sum = _mm_add_pd(_mm256_castpd256_pd128(h), _mm256_extractf128_pd::<1>(h));
    (_mm_cvtsd_f64(sum), _mm_cvtsd_f64(_mm_unpackhi_pd(sum, sum)))
}
