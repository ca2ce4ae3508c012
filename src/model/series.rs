//! Powers and series the contact law and its closed forms are evaluated with: `x^α`
//! (exact paths for the common exponents, a binomial series near a known point for the
//! others) and `ψ(r) = (r − ln(1+r))/r²`, which carries the logarithm of eqs (3) and
//! (20) without cancellation. Plain `f64`, allocation-free.

/// `x^y` for `x > 0` as `exp(y ln x)`: two fast libm calls instead of `pow`'s
/// correctly-rounded path, at a relative error of a few ulps times `|y ln x|`, far
/// below anything the integrators resolve. The per-sample force depends on it.
#[inline(always)]
pub fn fast_pow(x: f64, y: f64) -> f64 {
    (y * x.ln()).exp()
}

/// Below this `|r|` the series of `ψ` is used; above, the direct form loses at most
/// `2ε/|r|` ≈ 4e-15 relative.
pub const PSI_SERIES_BELOW: f64 = 0.05;

/// `x^α` for the contact law, `x > 0`. The Hertz exponent α = 3/2 (the instrument's
/// default and the paper's Tables I, II(b) and III(b)) and the integer exponents take
/// exact, cheap paths (`x√x` is a quarter of the latency of `exp(α ln x)`); any other
/// α goes through [`fast_pow`].
#[inline(always)]
pub fn pow_alpha(x: f64, alpha: f64) -> f64 {
    if alpha == 1.5 {
        x * x.sqrt()
    } else if alpha == 1.0 {
        x
    } else if alpha == 2.0 {
        x * x
    } else {
        fast_pow(x, alpha)
    }
}

/// True where [`pow_alpha`] is exact and cheap, needing no series around a known point.
#[inline]
pub fn has_exact_pow(alpha: f64) -> bool {
    matches!(alpha, 1.0 | 1.5 | 2.0)
}

/// `r − ln(1 + r) = r² ψ(r)`, keeping its digits for small `r` (the series of `ψ`).
#[inline]
pub fn ln1p_remainder(r: f64) -> f64 {
    if r.abs() < PSI_SERIES_BELOW {
        r * r * psi(r)
    } else {
        r - r.ln_1p()
    }
}

/// C(b, j) for j = 1..=N: the series of `(1 + ε)^b`.
pub fn binomial_coefficients<const N: usize>(b: f64) -> [f64; N] {
    let mut c = [0.0; N];
    let mut term = 1.0;
    for (j, cj) in c.iter_mut().enumerate() {
        term *= (b - j as f64) / (j as f64 + 1.0);
        *cj = term;
    }
    c
}

/// `c₁ + c₂ε + … + c₅ε⁴` (the first five of `c`), so that `(1 + ε)^b ≈ 1 + ε · tail`,
/// in Estrin's scheme (three multiplications deep instead of Horner's five): the hybrid
/// waits on it.
#[inline(always)]
pub(crate) fn binomial_tail<const N: usize>(c: &[f64; N], eps: f64) -> f64 {
    let e2 = eps * eps;
    (c[0] + c[1] * eps) + e2 * ((c[2] + c[3] * eps) + e2 * c[4])
}

/// The same to `c₉ε⁸`, for `|ε| < 1/32` where five terms are not enough.
#[inline(always)]
fn binomial_tail9(c: &[f64; 9], eps: f64) -> f64 {
    let e2 = eps * eps;
    let e4 = e2 * e2;
    let lo = (c[0] + c[1] * eps) + e2 * (c[2] + c[3] * eps);
    let hi = (c[4] + c[5] * eps) + e2 * (c[6] + c[7] * eps);
    lo + e4 * (hi + e4 * c[8])
}

/// `x^α` near a point `x_r` where it is known: `x_r^α (1 + σ)^α` with `σ = x/x_r − 1`,
/// as a binomial series (coefficients from [`binomial_coefficients`]`(α)`): five
/// terms for `|σ| <` [`NEAR_SERIES_BELOW`], nine up to [`POW_NEAR_BELOW`] (the tenth,
/// `|C(α, 10)| σ¹⁰ < 2e-3 · 32⁻¹⁰`, is under 2e-18 for α in [1, 3]); farther away,
/// [`pow_alpha`]. For a general α this replaces an `exp` and a `ln` by a few
/// multiplications where the points are close, as RK4's stages are.
#[derive(Clone, Copy, Debug)]
pub struct PowNear {
    x: f64,
    pow: f64,
    inv: f64,
}

/// `|σ|` up to which [`PowNear`] sums a series.
pub const POW_NEAR_BELOW: f64 = 1.0 / 32.0;

impl PowNear {
    /// No known point: every evaluation is direct.
    pub const NONE: Self = Self {
        x: f64::NAN,
        pow: f64::NAN,
        inv: f64::NAN,
    };

    #[inline(always)]
    pub fn new(x: f64, pow: f64) -> Self {
        Self {
            x,
            pow,
            inv: 1.0 / x,
        }
    }

    /// `x^α` in contact, 0 out of it, like `Contact::x_pow_alpha`.
    #[inline(always)]
    pub fn x_pow_alpha(&self, alpha: f64, coeffs: &[f64; 9], x: f64) -> f64 {
        if x <= 0.0 {
            return 0.0;
        }
        let sigma = (x - self.x) * self.inv;
        let tail = if sigma.abs() < NEAR_SERIES_BELOW {
            binomial_tail(coeffs, sigma)
        } else if sigma.abs() < POW_NEAR_BELOW {
            binomial_tail9(coeffs, sigma)
        } else {
            return pow_alpha(x, alpha);
        };
        self.pow + (self.pow * sigma) * tail
    }
}

/// `|ε|` below which `Analytic::near_series` (in `contact`) applies.
pub const NEAR_SERIES_BELOW: f64 = 1e-3;

/// `|ε|` below which its series stops at `ε²`.
pub const NEAR_SHORT_BELOW: f64 = 4e-6;

/// `1/n` for n = 2..=18: the coefficients of the series of `ψ`.
const PSI_SERIES: [f64; 17] = {
    let mut c = [0.0; 17];
    let mut i = 0;
    while i < 17 {
        c[i] = 1.0 / (i as f64 + 2.0);
        i += 1;
    }
    c
};

/// `ψ(r) = (r − ln(1+r)) / r²`, evaluated without cancellation for small `r`.
/// It carries the logarithm of eqs (3) and (20) once the linear terms, which cancel
/// analytically, have been taken out.
#[inline]
pub fn psi(r: f64) -> f64 {
    if r.abs() < PSI_SERIES_BELOW {
        // Σ c_n rⁿ, c_n = (−1)ⁿ/(n+2), n ≤ 16 (1e-21 at |r| = 0.05), in Estrin's
        // scheme: the per-sample hybrid correction waits on this, and a 17-deep Horner
        // chain is latency-bound.
        let c = &PSI_SERIES;
        let pair = |i: usize| c[i] - c[i + 1] * r;
        let r2 = r * r;
        let r4 = r2 * r2;
        let r8 = r4 * r4;
        let q0 = pair(0) + pair(2) * r2;
        let q1 = pair(4) + pair(6) * r2;
        let q2 = pair(8) + pair(10) * r2;
        let q3 = pair(12) + pair(14) * r2;
        (q0 + q1 * r4) + (q2 + q3 * r4) * r8 + c[16] * r8 * r8
    } else {
        (r - r.ln_1p()) / (r * r)
    }
}
