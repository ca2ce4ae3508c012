//! A voice's coupled sample, four modes to a vector: Verlet and Heun (eqs (24), (25))
//! as `explicit` writes them, with the modes' state and constants held in 256-bit
//! registers over the sample's steps.
//!
//! Each vector operation is the portable loop's, lane for lane and in its order (no
//! fused multiply–add, and the sums over the modes in the same [`LANES`] partial sums),
//! so the two paths agree bit for bit: the vector path changes the cost, never the
//! result (`tests::the_vector_path_is_the_portable_one`). It is taken where the CPU has
//! AVX2 (`body::vector_path`, which `REBOUND_SIMD=portable` turns off), and only for a
//! run without its energy balance (a voice's): the balance's dissipated power is summed
//! by the portable step.

use super::explicit::Accel;
use super::system::{Coupled, LANES, State, Step};
use crate::model::scheme::Method;

/// One sample of `substeps` steps of `method` by the vector path, calling `each` with
/// the compression and the striker's velocity after every step. Returns false (and
/// does nothing) where the vector path does not take the method.
#[inline]
pub(super) fn sample(
    method: Method,
    sys: &Coupled,
    step: Step,
    s: &mut State,
    a: &mut Accel,
    substeps: u32,
    each: &mut impl FnMut(f64, f64),
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let heun = match method {
            Method::Verlet => false,
            Method::Heun => true,
            _ => return false,
        };
        let n = substeps;
        // SAFETY: the caller takes this path only where `body::vector_path` found AVX2.
        unsafe {
            match (step.k.groups(), heun) {
                (0 | 1, false) => avx::sample::<1, false>(sys, step, n, s, a, each),
                (2, false) => avx::sample::<2, false>(sys, step, n, s, a, each),
                (3, false) => avx::sample::<3, false>(sys, step, n, s, a, each),
                (_, false) => avx::sample::<4, false>(sys, step, n, s, a, each),
                (0 | 1, true) => avx::sample::<1, true>(sys, step, n, s, a, each),
                (2, true) => avx::sample::<2, true>(sys, step, n, s, a, each),
                (3, true) => avx::sample::<3, true>(sys, step, n, s, a, each),
                (_, true) => avx::sample::<4, true>(sys, step, n, s, a, each),
            }
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (method, sys, step, s, a, substeps, each);
        false
    }
}

const _: () = assert!(LANES == 4, "a vector holds one lane group");

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::super::explicit::Accel;
    use super::super::system::{Coupled, ModeCoefs, State, Step};
    use crate::model::alpha_pow::AlphaPow;
    use crate::model::avx::{hsum2, load, store};
    use std::arch::x86_64::*;

    /// The modes' constants in registers.
    struct Regs<const G: usize> {
        inv_mass: [__m256d; G],
        omega2: [__m256d; G],
        damp: [__m256d; G],
    }

    impl<const G: usize> Regs<G> {
        #[inline(always)]
        fn of(k: &ModeCoefs) -> Self {
            let [inv_mass, omega2, damp] = [&k.inv_mass, &k.omega2, &k.damp].map(load);
            Self {
                inv_mass,
                omega2,
                damp,
            }
        }

        /// `F/m_k − ω_k² w_k − 2σ_k u_k` of one group.
        #[inline(always)]
        fn accel(&self, j: usize, f: __m256d, w: __m256d, u: __m256d) -> __m256d {
            // SAFETY: only inlined into `sample`'s steps, which run with AVX2.
            unsafe {
                _mm256_sub_pd(
                    _mm256_sub_pd(
                        _mm256_mul_pd(f, self.inv_mass[j]),
                        _mm256_mul_pd(self.omega2[j], w),
                    ),
                    _mm256_mul_pd(self.damp[j], u),
                )
            }
        }
    }

    /// The step's fractions both methods use, `h`, `h²/2` and `h/2`, as numbers and
    /// in every lane, set up once a sample.
    struct Fractions {
        h: f64,
        hh: f64,
        h2: f64,
        vh: __m256d,
        vhh: __m256d,
        vh2: __m256d,
    }

    /// A sample's state in registers, as both methods hold it over the sample's steps:
    /// the modes' `[w, u, a]` and the striker's `[x, v, a]` with the contact force.
    struct Held<'a, const G: usize> {
        sys: &'a Coupled,
        pow: &'a AlphaPow,
        k: Regs<G>,
        step: Fractions,
        modes: [[__m256d; G]; 3],
        striker: [f64; 4],
    }

    /// One sample of `substeps` steps of Heun (`HEUN`) or velocity Verlet: the state
    /// into registers, the steps (calling `each` after every one), the state back.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn sample<const G: usize, const HEUN: bool>(
        sys: &Coupled,
        Step { k: coefs, pow, h }: Step,
        substeps: u32,
        s: &mut State,
        a: &mut Accel,
        each: &mut impl FnMut(f64, f64),
    ) {
        let modes = [load(&s.w), load(&s.u), load(&a.modes)];
        let striker = [s.x, s.v, a.striker, a.force];
        let k = Regs::<G>::of(coefs);
        let (hh, h2) = (0.5 * h * h, 0.5 * h);
        let (vh, vhh, vh2) = (_mm256_set1_pd(h), _mm256_set1_pd(hh), _mm256_set1_pd(h2));
        let step = Fractions {
            h,
            hh,
            h2,
            vh,
            vhh,
            vh2,
        };
        let mut held = Held {
            sys,
            pow,
            k,
            step,
            modes,
            striker,
        };
        for _ in 0..substeps {
            let (d, v) = if HEUN { held.heun() } else { held.verlet() };
            each(d, v);
        }
        [s.x, s.v, a.striker, a.force] = held.striker;
        store(&mut s.w, &held.modes[0]);
        store(&mut s.u, &held.modes[1]);
        store(&mut a.modes, &held.modes[2]);
    }

    impl<const G: usize> Held<'_, G> {
        /// A step of velocity Verlet, `Coupled::verlet_step`: the compression and the
        /// striker's velocity after it.
        #[inline(always)]
        fn verlet(&mut self) -> (f64, f64) {
            let ([w, u, am], [x, v, a_s, f]) = (&mut self.modes, &mut self.striker);
            let Fractions {
                h,
                hh,
                h2,
                vh,
                vhh,
                vh2,
            } = self.step;
            let m = self.sys.contact.mass;
            // SAFETY: only inlined into `sample`, which runs with AVX2.
            unsafe {
                *x = *x + h * *v + hh * *a_s;
                *v += h2 * *a_s;
                let (mut sw, mut su) = (_mm256_setzero_pd(), _mm256_setzero_pd());
                for j in 0..G {
                    w[j] = _mm256_add_pd(
                        _mm256_add_pd(w[j], _mm256_mul_pd(vh, u[j])),
                        _mm256_mul_pd(vhh, am[j]),
                    );
                    u[j] = _mm256_add_pd(u[j], _mm256_mul_pd(vh2, am[j]));
                    sw = _mm256_add_pd(sw, w[j]);
                    su = _mm256_add_pd(su, u[j]);
                }
                let (tw, tu) = hsum2(sw, su);
                let d = *x - tw;
                *f = self.sys.force_with(self.pow, d, *v - tu);
                *a_s = -*f / m;
                *v += h2 * *a_s;
                let vf = _mm256_set1_pd(*f);
                for j in 0..G {
                    am[j] = self.k.accel(j, vf, w[j], u[j]);
                    u[j] = _mm256_add_pd(u[j], _mm256_mul_pd(vh2, am[j]));
                }
                (d, *v)
            }
        }

        /// A step of Heun, `Coupled::heun_step`: the compression and the striker's
        /// velocity after it.
        #[inline(always)]
        fn heun(&mut self) -> (f64, f64) {
            let ([w, u, am], [x, v, a_s, f]) = (&mut self.modes, &mut self.striker);
            let Fractions { h, h2, vh, vh2, .. } = self.step;
            // SAFETY: only inlined into `sample`, which runs with AVX2.
            unsafe {
                let mut u_pred = [_mm256_setzero_pd(); G];
                let v_pred = *v + h * *a_s;
                *x += h2 * (*v + v_pred);
                let (mut sw, mut su) = (_mm256_setzero_pd(), _mm256_setzero_pd());
                for j in 0..G {
                    u_pred[j] = _mm256_add_pd(u[j], _mm256_mul_pd(vh, am[j]));
                    w[j] = _mm256_add_pd(w[j], _mm256_mul_pd(vh2, _mm256_add_pd(u[j], u_pred[j])));
                    sw = _mm256_add_pd(sw, w[j]);
                    su = _mm256_add_pd(su, u_pred[j]);
                }
                let (tw, tu) = hsum2(sw, su);
                let d = *x - tw;
                *f = self.sys.force_with(self.pow, d, v_pred - tu);
                let striker = -*f / self.sys.contact.mass;
                *v += h2 * (*a_s + striker);
                *a_s = striker;
                let vf = _mm256_set1_pd(*f);
                for j in 0..G {
                    let next = self.k.accel(j, vf, w[j], u_pred[j]);
                    u[j] = _mm256_add_pd(u[j], _mm256_mul_pd(vh2, _mm256_add_pd(am[j], next)));
                    am[j] = next;
                }
                (d, *v)
            }
        }
    }
}
