//! The mode bank's sample loop, four modes to a vector.
//!
//! The bank is laid out as a structure of arrays ([`MODES`] = 16 modes: four 4-wide
//! vectors per array), so one sample of every mode is a handful of 256-bit fused
//! multiply–adds: the phasor rotation `z ← p z + u` (eq. of `Coefs`), then the mid and
//! side readouts as one small matrix product, each lane summing the same modes
//! (`k`, `k + 4`, `k + 8`, `k + 12`) as the portable loop's four partial sums.
//!
//! The vector path is chosen at run time (AVX2 and FMA, detected once by
//! `model::dispatch`), with the portable loop as fallback. The two agree to rounding:
//! FMA rounds `a b + c` once where the portable loop rounds twice, so outputs differ by
//! a few ulps of the bank's amplitude (tested to 1e-12 relative), never by more, since every mode decays.

use super::bank::{Coefs, tick_bank};
use super::limits::MODES;
use super::{ModalBody, vector_path};

impl ModalBody {
    /// Runs the bank on the portable loop (`false`) or on the process's vector path
    /// (`true`, where the CPU has one): for tests that compare the two.
    pub fn set_vector(&mut self, on: bool) {
        self.vector = on && vector_path();
    }

    /// True where the bank runs the vector path: what its voice's sample loops are
    /// compiled for (`Voice::run`).
    #[inline]
    pub fn vector(&self) -> bool {
        self.vector
    }
}

/// One sample of the bank with input `u`, by the vector path when `vector` (which the
/// caller only sets where [`crate::model::dispatch::vector_path`] said so): `(mid, side)`
/// as [`super::tick_bank`].
#[inline(always)]
pub(super) fn tick<const SIDE: bool>(
    vector: bool,
    re: &mut [f64; MODES],
    im: &mut [f64; MODES],
    k: &Coefs,
    u: f64,
) -> (f64, f64) {
    #[cfg(target_arch = "x86_64")]
    if vector {
        // SAFETY: `vector` is only ever true where the CPU has AVX2 and FMA. Each arm is
        // small enough to be inlined into a caller compiled for AVX2 (a voice's sample,
        // `Voice::run`), and called from any other.
        return unsafe {
            match k.live {
                0 => avx2::tick_groups::<SIDE, 0>(re, im, k, u),
                1 => avx2::tick_groups::<SIDE, 1>(re, im, k, u),
                2 => avx2::tick_groups::<SIDE, 2>(re, im, k, u),
                3 => avx2::tick_groups::<SIDE, 3>(re, im, k, u),
                _ => avx2::tick_groups::<SIDE, 4>(re, im, k, u),
            }
        };
    }
    let _ = vector;
    tick_bank::<SIDE>(re, im, k, u)
}

/// What drives a run of the bank, sample by sample.
pub(super) trait Drive {
    fn next(&mut self) -> f64;
}

/// No drive: the bank rings on its own.
pub(super) struct Silent;

impl Drive for Silent {
    #[inline(always)]
    fn next(&mut self) -> f64 {
        0.0
    }
}

/// `mid.len()` samples of the bank driven by `drive`, writing its mid and side outputs
/// (`side` as long as `mid`). The drive is made in the same loop: the high-pass's tail,
/// a chain of dependent operations from sample to sample, then runs beside the bank's
/// independent ones instead of before them.
#[inline]
pub(super) fn ring(
    vector: bool,
    re: &mut [f64; MODES],
    im: &mut [f64; MODES],
    k: &Coefs,
    drive: &mut impl Drive,
    mid: &mut [f64],
    side: &mut [f64],
) {
    #[cfg(target_arch = "x86_64")]
    if vector {
        // SAFETY: as in `tick`.
        unsafe { avx2::run::<true>(re, im, k, drive, mid, side) };
        return;
    }
    let _ = vector;
    for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
        (*m, *s) = tick_bank::<true>(re, im, k, drive.next());
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::bank::Coefs;
    use super::super::limits::MODES;
    use crate::model::avx::{hsum2, load, store};
    use std::arch::x86_64::*;

    const V: usize = MODES / 4;

    use super::Drive;

    /// The bank's coefficients in registers for a run of samples.
    struct Regs {
        c: [__m256d; V],
        s: [__m256d; V],
        a: [__m256d; V],
        b: [__m256d; V],
        sa: [__m256d; V],
        sb: [__m256d; V],
    }

    impl Regs {
        #[inline(always)]
        fn of(k: &Coefs) -> Self {
            Self {
                c: load(&k.c),
                s: load(&k.s),
                a: load(&k.a),
                b: load(&k.b),
                sa: load(&k.sa),
                sb: load(&k.sb),
            }
        }
    }

    /// One sample on the state in registers, its first `G` groups of four modes (the
    /// live ones, `Coefs::live`): rotates the phasors, adds `u` to their real parts,
    /// returns the mid and side readout sums (before the direct paths).
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn step<const SIDE: bool, const G: usize>(
        re: &mut [__m256d; V],
        im: &mut [__m256d; V],
        r: &Regs,
        u: f64,
    ) -> (f64, f64) {
        let u = _mm256_set1_pd(u);
        let mut mid = [_mm256_setzero_pd(); V];
        let mut side = [_mm256_setzero_pd(); V];
        for j in 0..G {
            // re' = re c − im s + u, im' = re s + im c.
            let x = _mm256_fmadd_pd(re[j], r.c[j], _mm256_fnmadd_pd(im[j], r.s[j], u));
            let y = _mm256_fmadd_pd(re[j], r.s[j], _mm256_mul_pd(im[j], r.c[j]));
            re[j] = x;
            im[j] = y;
            mid[j] = _mm256_fmadd_pd(r.a[j], y, _mm256_mul_pd(r.b[j], x));
            if SIDE {
                side[j] = _mm256_fmadd_pd(r.sa[j], y, _mm256_mul_pd(r.sb[j], x));
            }
        }
        // Lane sums over the groups in the portable loop's order (group by group).
        let (mut m, mut s) = (mid[0], side[0]);
        for j in 1..G {
            m = _mm256_add_pd(m, mid[j]);
            s = _mm256_add_pd(s, side[j]);
        }
        if !SIDE {
            return (hsum2(m, m).0, 0.0);
        }
        hsum2(m, s)
    }

    /// One sample, `(mid, side)` as a run of one would write them: returned in
    /// registers, not through the run's output slices.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn tick_groups<const SIDE: bool, const G: usize>(
        re: &mut [f64; MODES],
        im: &mut [f64; MODES],
        k: &Coefs,
        u: f64,
    ) -> (f64, f64) {
        let r = Regs::of(k);
        let (mut vr, mut vi) = (load(re), load(im));
        let (a, b) = step::<SIDE, G>(&mut vr, &mut vi, &r, u);
        store(re, &vr);
        store(im, &vi);
        (a + k.d * u, if SIDE { b + k.sd * u } else { 0.0 })
    }

    /// A run of samples with the state and coefficients held in registers (each one's
    /// mid and side outputs; the side 0 without `SIDE`), dispatched on the live groups.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn run<const SIDE: bool>(
        re: &mut [f64; MODES],
        im: &mut [f64; MODES],
        k: &Coefs,
        drive: &mut impl Drive,
        mid: &mut [f64],
        side: &mut [f64],
    ) {
        match k.live {
            0 => run_groups::<SIDE, 0>(re, im, k, drive, mid, side),
            1 => run_groups::<SIDE, 1>(re, im, k, drive, mid, side),
            2 => run_groups::<SIDE, 2>(re, im, k, drive, mid, side),
            3 => run_groups::<SIDE, 3>(re, im, k, drive, mid, side),
            _ => run_groups::<SIDE, 4>(re, im, k, drive, mid, side),
        }
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn run_groups<const SIDE: bool, const G: usize>(
        re: &mut [f64; MODES],
        im: &mut [f64; MODES],
        k: &Coefs,
        drive: &mut impl Drive,
        mid: &mut [f64],
        side: &mut [f64],
    ) {
        let r = Regs::of(k);
        let (mut vr, mut vi) = (load(re), load(im));
        for (m, s) in mid.iter_mut().zip(side.iter_mut()) {
            let u = drive.next();
            let (a, b) = step::<SIDE, G>(&mut vr, &mut vi, &r, u);
            *m = a + k.d * u;
            *s = if SIDE { b + k.sd * u } else { 0.0 };
        }
        store(re, &vr);
        store(im, &vi);
    }
}
