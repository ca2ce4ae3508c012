//! The Hunt–Crossley contact law and its closed-form results (paper Section II-A).
//!
//! Sign convention (paper-notes): compression `x > 0` means contact, `v = dx/dt > 0`
//! means moving into the wall. Everything here is plain `f64`, allocation-free.

use super::series::binomial_tail;
pub use super::series::{
    NEAR_SERIES_BELOW, NEAR_SHORT_BELOW, POW_NEAR_BELOW, PSI_SERIES_BELOW, PowNear,
    binomial_coefficients, fast_pow, has_exact_pow, ln1p_remainder, pow_alpha, psi,
};

/// The physical parameters of one contact: stiffness `k` (N/m^α), damping ratio
/// `mu = λ/k` (s/m), contact exponent `alpha` and the striking `mass` (kg).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub k: f64,
    pub mu: f64,
    pub alpha: f64,
    pub mass: f64,
}

impl Contact {
    pub fn new(k: f64, mu: f64, alpha: f64, mass: f64) -> Self {
        Self { k, mu, alpha, mass }
    }

    /// Force on the mass, eqs (1)–(2): `F = −k x^α (1 + μ v)` in contact, else 0.
    #[inline(always)]
    pub fn force(&self, x: f64, v: f64) -> f64 {
        self.force_with_pow(self.x_pow_alpha(x), v)
    }

    /// The same force when `x^α` (0 out of contact) is already at hand.
    #[inline(always)]
    pub fn force_with_pow(&self, x_pow: f64, v: f64) -> f64 {
        -self.k * x_pow * (1.0 + self.mu * v)
    }

    /// `x^α` in contact, 0 out of it: the compression factor of eq (1), which the
    /// integrators also hand to the hybrid correction.
    #[inline(always)]
    pub fn x_pow_alpha(&self, x: f64) -> f64 {
        if x > 0.0 {
            pow_alpha(x, self.alpha)
        } else {
            0.0
        }
    }

    /// Potential energy `V = k x^{α+1}/(α+1)`, eq (13); zero out of contact.
    #[inline]
    pub fn potential(&self, x: f64) -> f64 {
        if x > 0.0 {
            self.k * x.powf(self.alpha + 1.0) / (self.alpha + 1.0)
        } else {
            0.0
        }
    }

    /// The Hamiltonian `H = T + V` of a simulated state, eqs (11) and (13).
    #[inline]
    pub fn hamiltonian(&self, x: f64, v: f64) -> f64 {
        self.hamiltonian_from(self.potential(x), v)
    }

    /// [`hamiltonian`](Self::hamiltonian) from the potential [`potential`](Self::potential)
    /// at hand.
    #[inline]
    pub fn hamiltonian_from(&self, potential: f64, v: f64) -> f64 {
        0.5 * self.mass * v * v + potential
    }

    /// The analytic quantities of one impact at inbound speed `v_in`.
    pub fn impact(&self, v_in: f64) -> Analytic {
        Analytic::new(*self, v_in)
    }
}

/// Per-impact closed forms of Section II-A, with the constants precomputed once at
/// contact onset so that the per-sample hybrid correction costs one `ln_1p` and one
/// `powf`.
#[derive(Clone, Copy, Debug)]
pub struct Analytic {
    pub contact: Contact,
    pub v_in: f64,
    /// `1 + μ v_in`.
    w: f64,
    /// `(α + 1) m / k`: turns the scaled bracket `P(v)` into `x^{α+1}`.
    x_scale: f64,
    inv_alpha1: f64,
    /// `1/w` and `1/μ²`: the per-sample bracket multiplies instead of dividing.
    inv_w: f64,
    inv_mu2: f64,
    /// Binomial coefficients C(1/(α+1), j), j = 1..=5, for `near_series`.
    binom: [f64; 5],
    /// The same for the exponent α/(α+1), which gives `x^α` from the same ε.
    binom_alpha: [f64; 5],
    /// `pow_alpha` is exact (α = 1, 3/2, 2): the guess's power may be computed here.
    exact_pow: bool,
    /// `μ v_in ≥ 1e-3`, so `|ΔH_τ| ≳ 1e-3 H₀`, against which `%dev(H)` is taken: a
    /// relative error in `x` of a few ulps per sample, or of 64 roundings carried (see
    /// `hybrid`), then stays orders under the 1e-6 % the corrections promise. Below
    /// that the hybrid correction takes its direct, exactly-rounded paths.
    tolerant: bool,
    /// `v_in − v` below which the hybrid stands aside: [`START_ULPS`] ulps of `v_in`.
    d_min: f64,
    /// `1 + μv` below which the logarithm of eq (3) cannot, times `x_scale/x^{α+1}`.
    u_min_scale: f64,
}

/// Relative error of `x(v)` that the rounding of `v` may cause before the hybrid
/// correction stands aside (see [`Analytic::resolvable`]).
pub const HYBRID_RESOLUTION: f64 = 1e-4;

/// At the start of a contact the hybrid correction waits until `v` has moved this many
/// ulps (of `v_in`) off `v_in`: `x(v)` is then resolved to a few percent of a
/// compression that is still tiny, instead of jumping between the few values that a
/// handful of ulps allow.
pub const START_ULPS: f64 = 64.0;

impl Analytic {
    pub fn new(contact: Contact, v_in: f64) -> Self {
        Self {
            contact,
            v_in,
            w: 1.0 + contact.mu * v_in,
            x_scale: (contact.alpha + 1.0) * contact.mass / contact.k,
            inv_alpha1: 1.0 / (contact.alpha + 1.0),
            inv_w: 1.0 / (1.0 + contact.mu * v_in),
            inv_mu2: 1.0 / (contact.mu * contact.mu),
            binom: binomial_coefficients(1.0 / (contact.alpha + 1.0)),
            binom_alpha: binomial_coefficients(contact.alpha / (contact.alpha + 1.0)),
            exact_pow: has_exact_pow(contact.alpha),
            tolerant: contact.mu * v_in >= 1e-3,
            d_min: START_ULPS * f64::EPSILON * v_in,
            u_min_scale: 4.0 * f64::EPSILON * (1.0 + contact.mu * v_in)
                / (contact.mu * contact.mu * (contact.alpha + 1.0) * HYBRID_RESOLUTION),
        }
    }

    /// Whether `x(v)` of eq (3) is resolved to [`HYBRID_RESOLUTION`] at a velocity with
    /// `d = v_in − v` and `u = 1 + μv`, where the integrator puts the compression at
    /// `x_guess` and `scale_g = x_scale / x_guess^{α+1}` (NaN where unknown). `x^{α+1}`
    /// is proportional to `P(v)`:
    /// - at the start of a long, soft contact `v` may not have moved by one ulp yet
    ///   (`d = 0`): the bracket is 0 and says nothing of `x`. Until `d` is
    ///   [`START_ULPS`] ulps, `x(v)` only takes a few coarse values, and the
    ///   integrator's `x` (tiny then) is kept. A step that leaves `v` unchanged
    ///   (the caller checks it) is likewise left to the integrator: tying `x` to a `v`
    ///   that does not move would freeze the contact.
    /// - near `v_lim = −1/μ` an ulp of `v` moves `P` by `≈ 4ε w/(u μ²)`, through the
    ///   logarithm, without bound as `u → 0`: the creeping exit of a heavily damped
    ///   contact (`μ v_in` in the tens), where `x(v)` would freeze or jump.
    ///
    /// The second only matters where `u` is a small part of `w`; elsewhere the
    /// rounding near the end of the contact (`P → 0`) is the usual, harmless one.
    #[inline(always)]
    pub fn resolvable(&self, d: f64, u: f64, scale_g: f64, x_guess: f64) -> bool {
        if !(d >= self.d_min && u > 0.0) {
            return false;
        }
        if u >= 0.0625 * self.w {
            return true;
        }
        let scale = if scale_g.is_nan() {
            self.x_scale / pow_alpha(x_guess, self.contact.alpha + 1.0)
        } else {
            scale_g
        };
        u >= self.u_min_scale * scale
    }

    /// `1/(1 + μ v_in)`.
    #[inline(always)]
    pub fn inv_w(&self) -> f64 {
        self.inv_w
    }

    /// `(α + 1) m / k`: `x^{α+1} = x_scale · P(v)` on the curve of eq (3).
    #[inline(always)]
    pub fn x_scale(&self) -> f64 {
        self.x_scale
    }

    /// See the field: whether the hybrid may trade exact rounding for speed.
    #[inline(always)]
    pub fn tolerant(&self) -> bool {
        self.tolerant
    }

    /// `P(v) = [−μ(v − v_in) + ln|(1+μv)/(1+μv_in)|] / μ²`, the bracket of eqs (3) and
    /// (20) divided by `μ²`. Written as `d·v_in/w − (d/w)² ψ(−μd/w)` with `d = v_in − v`
    /// so that it keeps its digits as `μ → 0` (it tends to `(v_in² − v²)/2`).
    /// `m P(v)` is the potential energy on the analytic curve.
    #[inline]
    pub fn bracket(&self, v: f64) -> f64 {
        let d = self.v_in - v;
        let dw = d * self.inv_w;
        let r = -self.contact.mu * dw;
        if r <= -1.0 {
            // Beyond v_lim = −1/μ the logarithm's argument changes sign: use the
            // literal form with |·| as eq (3) writes it.
            let mu = self.contact.mu;
            return (-mu * (v - self.v_in) + ((1.0 + mu * v) / self.w).abs().ln()) / (mu * mu);
        }
        dw * self.v_in - self.log_part(dw)
    }

    /// `Q = (d/w)² ψ(r) = (r − ln(1+r))/μ²` with `r = −μ d/w > −1`: the part of the
    /// bracket that holds the logarithm, `P = d v_in/w − Q`. The series of `ψ` keeps its
    /// digits as `μ → 0`.
    #[inline]
    pub fn log_part(&self, dw: f64) -> f64 {
        let r = -self.contact.mu * dw;
        if r.abs() < PSI_SERIES_BELOW {
            dw * dw * psi(r)
        } else {
            (r - r.ln_1p()) * self.inv_mu2
        }
    }

    /// `x^{α+1}` on the analytic curve, from eq (3); negative where the bracket is.
    #[inline]
    pub fn x_pow_alpha1(&self, v: f64) -> f64 {
        self.x_scale * self.bracket(v)
    }

    /// `x` from `x^{α+1}` (positive), when the bracket is already at hand. `powf`, not
    /// `fast_pow`: `exp(ln p/(α+1))` errs by `|ln p|` ulps, which for a tiny `p` is
    /// enough to lift `%dev(H)` of the hybrid above 1e-6 % when `μ v_in` ~ 1e-7.
    #[inline]
    pub fn x_from_pow_alpha1(&self, p: f64) -> f64 {
        p.powf(self.inv_alpha1)
    }

    /// `(x, x^α)` for `x = p^{1/(α+1)}`, given a nearby `x_guess > 0` (the integrator's
    /// uncorrected compression) and, when the caller has it, `guess_pow = x_guess^α`
    /// (NaN otherwise). Through [`Self::near_series`] where the guess is close enough,
    /// else `powf`.
    #[inline]
    pub fn x_from_pow_alpha1_near(&self, p: f64, x_guess: f64, guess_pow: f64) -> (f64, f64) {
        let g_pow = self.guess_pow(x_guess, guess_pow);
        let eps = p / (g_pow * x_guess) - 1.0;
        if eps.abs() < NEAR_SERIES_BELOW {
            return self.near_series(eps, x_guess, g_pow);
        }
        let x = self.x_from_pow_alpha1(p);
        (x, p / x)
    }

    /// `x_guess^α` where it is exact and cheap ([`pow_alpha`]) or handed over from
    /// `fast_pow` on a `tolerant` impact; NaN where the series must not be used.
    #[inline(always)]
    pub fn guess_pow(&self, x_guess: f64, guess_pow: f64) -> f64 {
        let usable = x_guess > 0.0;
        if usable && self.tolerant && !guess_pow.is_nan() {
            guess_pow
        } else if usable && self.exact_pow {
            pow_alpha(x_guess, self.contact.alpha)
        } else {
            f64::NAN
        }
    }

    /// `(x, x^α)` on `x^{α+1} = (1 + ε) x_g^{α+1}`: `x = x_g (1 + ε)^{1/(α+1)}` and
    /// `x^α = x_g^α (1 + ε)^{α/(α+1)}` as binomial series, for `|ε| <`
    /// [`NEAR_SERIES_BELOW`] (five terms leave < 1e-18). A `powf` and a division
    /// become a few multiplications.
    ///
    /// A step of an integrator usually lands within `|ε| <` [`NEAR_SHORT_BELOW`] of the
    /// curve, where two terms do (`|C(b, 3)| ε³ < 1e-17` for the exponents of α in
    /// [1, 3]), and the shorter chain is what the next sample waits on.
    #[inline(always)]
    pub fn near_series(&self, eps: f64, x_guess: f64, g_pow: f64) -> (f64, f64) {
        let (b, ba) = (&self.binom, &self.binom_alpha);
        let (tail, tail_alpha) = if eps.abs() < NEAR_SHORT_BELOW {
            (b[0] + b[1] * eps, ba[0] + ba[1] * eps)
        } else {
            (binomial_tail(b, eps), binomial_tail(ba, eps))
        };
        (
            x_guess + (x_guess * eps) * tail,
            g_pow + (g_pow * eps) * tail_alpha,
        )
    }

    /// Compression on the analytic curve, eq (3); 0 where the bracket is not positive
    /// (the velocity has left the interval `[v_out, v_in]`).
    #[inline]
    pub fn x_of_v(&self, v: f64) -> f64 {
        let p = self.x_pow_alpha1(v);
        if p > 0.0 {
            p.powf(self.inv_alpha1)
        } else {
            0.0
        }
    }

    /// Maximum compression, eq (4): `x(0)`.
    pub fn x_max(&self) -> f64 {
        self.x_of_v(0.0)
    }

    /// Initial Hamiltonian, eq (14).
    pub fn h_0(&self) -> f64 {
        0.5 * self.contact.mass * self.v_in * self.v_in
    }

    /// Analytic Hamiltonian along the contact, eq (20): `m v²/2 + m P(v)`.
    #[inline]
    pub fn hamiltonian_of_v(&self, v: f64) -> f64 {
        self.contact.mass * (0.5 * v * v + self.bracket(v))
    }

    /// `H_sim(x, v) − H(v)` computed as a difference of potentials (the kinetic
    /// terms are identical and cancel exactly), which keeps the digits of eq (27)
    /// when `ΔH_τ` is many orders smaller than `H_0`.
    #[inline]
    pub fn hamiltonian_deviation(&self, x: f64, v: f64) -> f64 {
        self.deviation_from(self.contact.potential(x), v)
    }

    /// [`hamiltonian_deviation`](Self::hamiltonian_deviation) from the potential
    /// `k x^{α+1}/(α+1)` at hand.
    #[inline]
    pub fn deviation_from(&self, potential: f64, v: f64) -> f64 {
        potential - self.contact.mass * self.bracket(v)
    }

    /// Energy lost in the contact, eq (18): `ΔH_τ = m (v_out² − v_in²)/2`.
    pub fn delta_h_tau(&self, v_out: f64) -> f64 {
        0.5 * self.contact.mass * (v_out.abs() - self.v_in) * (v_out.abs() + self.v_in)
    }

    /// Exact outbound velocity, the root of eq (6).
    pub fn v_out(&self) -> f64 {
        super::vout::v_out_exact(self.contact.mu, self.v_in)
    }

    /// Approximate outbound velocity `ṽ_out`, eq (7).
    pub fn v_out_approx(&self) -> f64 {
        super::vout::v_out_approx(self.contact.mu, self.v_in)
    }

    /// Contact force on the wall along the analytic curve: `k x(v)^α (1 + μ v)`.
    #[inline]
    pub fn wall_force_of_v(&self, v: f64) -> f64 {
        let p = self.x_pow_alpha1(v);
        if p <= 0.0 {
            return 0.0;
        }
        let c = self.contact;
        // x^α = x^{α+1} / x: one powf instead of two.
        let x = p.powf(self.inv_alpha1);
        c.k * (p / x) * (1.0 + c.mu * v)
    }

    /// Peak contact force of the analytic impact, found by golden-section search of
    /// `k x(v)^α (1+μv)` over `[v_out, v_in]` (the force is unimodal along the curve).
    /// Used once per onset to normalise loudness, never per sample.
    pub fn peak_force(&self) -> f64 {
        let (mut a, mut b) = (self.v_out(), self.v_in);
        const G: f64 = 0.618_033_988_749_894_9;
        let mut c = b - G * (b - a);
        let mut d = a + G * (b - a);
        let (mut fc, mut fd) = (self.wall_force_of_v(c), self.wall_force_of_v(d));
        for _ in 0..80 {
            if fc > fd {
                b = d;
                d = c;
                fd = fc;
                c = b - G * (b - a);
                fc = self.wall_force_of_v(c);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + G * (b - a);
                fd = self.wall_force_of_v(d);
            }
        }
        fc.max(fd)
    }
}
