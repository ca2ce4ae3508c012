//! The creep of a heavily damped contact out of the wall: seed 001's eq (6) in the
//! damping phase, by the exponential integrator ETDRK4 under step control (see
//! [`super`]).

use super::solve::Scaled;

/// `μ v_in` above which a creep out of the wall may be handed to the exponential
/// integrator ([`Scaled::creep_step`]): below, DOP853's stability never limits it much.
const CREEP_DAMPING: f64 = 10.0;
const CREEP_LEAVE: f64 = 20.0;
/// The creep's step tolerance on `u` and `u'` (widened by `μ v_in/10` as [`TOL`](super::TOL)).
const CREEP_TOL: f64 = 1e-9;
/// The creep's relative tolerance on the contact time, per step. The contact time only
/// sizes the runaway guard, which ends a contact after four times it plus 64 samples
/// (`impact::GUARD_FACTOR`, `GUARD_SLACK`): an error of 1e-4 in it moves the guard by
/// under a sample for any contact shorter than 2 500 samples, and by 1e-4 of the
/// factor-4 margin beyond. The creep's contact time stays within a few 1e-5 of the
/// reference's (`tests/onset_reference.rs` asks 1e-4), and the creep takes about a
/// third fewer steps than at 1e-8, where the time, not `u` or `u'`, set its steps.
const CREEP_TIME_TOL: f64 = 1e-6;
/// Most steps of one creep, and most creeps of one contact.
const CREEP_MAX: u32 = 200;

/// What one step of a creep ([`Scaled::creep_step`]) came to.
pub(super) enum CreepStep {
    /// Still creeping (or the step was rejected).
    Going,
    /// The energy went negative: the mass sticks.
    Sticks,
    /// Near enough the wall (or out of steps) for DOP853 to go on.
    Leaves,
}

/// A creep in progress: the state `(u, q, t)` in the damping phase, the next step
/// length in `φ`, the steps taken and the most it may take, the tolerance on `u` and
/// `u'`.
#[derive(Clone, Copy, Debug)]
pub(super) struct CreepState {
    y: [f64; 3],
    h: f64,
    pub steps: u32,
    limit: u32,
    tol: f64,
}

impl CreepState {
    /// The time reached.
    pub fn t(&self) -> f64 {
        self.y[2]
    }
}

/// `1/n!`, `n ≤ 20`.
const INV_FACTORIAL: [f64; 21] = {
    let mut f = [1.0; 21];
    let mut n = 1;
    while n < 21 {
        f[n] = f[n - 1] / n as f64;
        n += 1;
    }
    f
};

/// `(φ₁, φ₂, φ₃)(z)` for `z ≤ 0`, `φ_k(z) = Σ_n zⁿ/(n+k)!`, given `e^z`. Below `|z| = 1`:
/// `φ₃`'s series to `z¹⁷` (the next term is under `1/21! < 2e-19`), then `φ_k = 1/k! +
/// z φ_{k+1}` down to `φ₁`, stable there; above, the same recurrence upwards,
/// `φ_{k+1} = (φ_k − 1/k!)/z`, from `φ₁ = (e^z − 1)/z` (`e^z − 1` has no cancellation
/// there: it is at least `1 − 1/e`).
pub(crate) fn phis(z: f64, exp_z: f64) -> (f64, f64, f64) {
    if z.abs() < 1.0 {
        let mut p3 = INV_FACTORIAL[20];
        for n in (3..20).rev() {
            p3 = p3 * z + INV_FACTORIAL[n];
        }
        let p2 = z * p3 + 0.5;
        (z * p2 + 1.0, p2, p3)
    } else {
        let p1 = (exp_z - 1.0) / z;
        let p2 = (p1 - 1.0) / z;
        (p1, p2, (p2 - 0.5) / z)
    }
}

/// What one ETDRK4 step of length `h` in the damping phase needs of `h` alone
/// ([`Scaled::etd4`]): made once per length, shared by the steps of that length.
#[derive(Clone, Copy)]
struct Etd {
    h: f64,
    /// `e^{−h/2}` and `e^{−h}`.
    e_half: f64,
    e_full: f64,
    /// `(h/2) φ₁(−h/2)`.
    half: f64,
    /// Cox & Matthews' weights of `N(a_n)`, `N(a)+N(b)` and `N(c)` on the linear
    /// component, `(φ₁ − 3φ₂ + 4φ₃, 2φ₂ − 4φ₃, 4φ₃ − φ₂)(−h)`.
    w: [f64; 3],
}

impl Etd {
    /// The steps of length `h` and `2h` of step doubling, from one exponential.
    fn pair(h: f64) -> (Self, Self) {
        // e^{−h/2}, e^{−h}, e^{−2h}.
        let e1 = (-0.5 * h).exp();
        let e2 = e1 * e1;
        let e4 = e2 * e2;
        (Self::new(h, e1, e2), Self::new(2.0 * h, e2, e4))
    }

    /// Of length `h`, with `e^{−h/2}` and `e^{−h}` at hand.
    fn new(h: f64, e_half: f64, e_full: f64) -> Self {
        let (p1, p2, p3) = phis(-h, e_full);
        Self {
            h,
            e_half,
            e_full,
            half: 0.5 * h * phis(-0.5 * h, e_half).0,
            w: [p1 - 3.0 * p2 + 4.0 * p3, 2.0 * p2 - 4.0 * p3, 4.0 * p3 - p2],
        }
    }
}

impl Scaled {
    /// How stiff the rest of a creep out of the wall is: the relaxation rate of the
    /// velocity, `μ v_in u^α` (scaled), times the time to the wall at the current
    /// speed, `u/|u'|`. 0 unless heavily damped (`μ v_in >` [`CREEP_DAMPING`]) and
    /// moving out.
    pub(super) fn creep_ahead(&self, u: f64, du: f64, u_pow: f64) -> f64 {
        let a = self.beta * self.gamma;
        if a > CREEP_DAMPING && du < 0.0 && u > 0.0 {
            a * u_pow * u / -du
        } else {
            0.0
        }
    }

    /// Seed 001's eq (6) in the damping phase `φ` (`dφ = μ v_in u^α dt`, scaled), with
    /// `q = 1 + μ v_in u'`, the state `(u, q, t)`:
    ///
    /// `du/dφ = (q − 1)/((μ v_in)² u^α)`, `dq/dφ = −q + g̃/u^α`, `dt/dφ = 1/(μ v_in u^α)`.
    ///
    /// The velocity's fast relaxation onto its slow manifold (`q → g̃/u^α`, the damping
    /// balancing the spring and the load) is the linear `−q`, with a constant rate in
    /// `φ`: [`Self::etd4`] takes it exactly, and the rest, `N` here, varies slowly.
    #[inline(always)]
    fn creep_rest(&self, y: [f64; 3]) -> [f64; 3] {
        let a = self.beta * self.gamma;
        // One division: `dt/dφ`, from which the other two follow.
        let dt = 1.0 / (a * self.power(y[0].max(f64::MIN_POSITIVE)));
        [(y[1] - 1.0) / a * dt, self.g_tilde * a * dt, dt]
    }

    /// One step of the exponential Runge–Kutta method ETDRK4 (Cox & Matthews, J.
    /// Comput. Phys. 176, 2002, eqs 26–29) of length `step.h` in `φ` from `y`, where
    /// [`Self::creep_rest`] is `n0`: exact for the linear part `diag(0, −1, 0)` of its
    /// system; on `u` and `t` it is the classical fourth-order Runge–Kutta.
    fn etd4(&self, y: [f64; 3], n0: [f64; 3], step: &Etd) -> [f64; 3] {
        let h = step.h;
        // Per component: the linear factor over half a step, and the weights.
        let lin = |y: [f64; 3], e: f64| [y[0], e * y[1], y[2]];
        let w_half = [0.5 * h, step.half, 0.5 * h];
        let mut a = lin(y, step.e_half);
        for c in 0..3 {
            a[c] += w_half[c] * n0[c];
        }
        let na = self.creep_rest(a);
        let mut b = lin(y, step.e_half);
        for c in 0..3 {
            b[c] += w_half[c] * na[c];
        }
        let nb = self.creep_rest(b);
        let mut cc = lin(a, step.e_half);
        for c in 0..3 {
            cc[c] += w_half[c] * (2.0 * nb[c] - n0[c]);
        }
        let nc = self.creep_rest(cc);
        let mut out = lin(y, step.e_full);
        for c in 0..3 {
            let w = if c == 1 {
                step.w
            } else {
                [1.0 / 6.0, 1.0 / 3.0, 1.0 / 6.0]
            };
            out[c] += h * (w[0] * n0[c] + w[1] * (na[c] + nb[c]) + w[2] * nc[c]);
        }
        out
    }

    /// A heavily damped contact's creep out of the wall from `(u, u')` at `t`, by
    /// [`Self::etd4`] in `φ` under step control ([`Self::creep_step`]), for at most
    /// `budget` steps (each three exponential steps, the work of about one DOP853
    /// step).
    pub(super) fn creep_start(&self, u: f64, du: f64, t: f64, budget: u32) -> CreepState {
        let a = self.beta * self.gamma;
        CreepState {
            y: [u, 1.0 + a * du, t],
            h: 1.0,
            steps: 0,
            limit: budget.min(CREEP_MAX),
            tol: CREEP_TOL * (0.1 * a).max(1.0),
        }
    }

    /// Where a creep that leaves has left the mass: `(u, u', t)`.
    pub(super) fn creep_left(&self, c: &CreepState) -> (f64, f64, f64) {
        let a = self.beta * self.gamma;
        (c.y[0], (c.y[1] - 1.0) / a, c.y[2])
    }

    /// One step of the creep `c` (step doubling: the difference of one step of `2h`
    /// and two of `h`, over 15, on `u` and `u'` against [`CREEP_TOL`] widened by
    /// `μ v_in/10` as [`TOL`](super::TOL) is, on `t` against [`CREEP_TIME_TOL`] of it).
    /// The creep ends where the mass sticks (its energy negative), turns back in, or is
    /// near enough the wall for the creep to stop being stiff ([`CREEP_LEAVE`]);
    /// DOP853 takes over from there.
    pub(super) fn creep_step(&self, c: &mut CreepState) -> CreepStep {
        if c.steps >= c.limit {
            return CreepStep::Leaves;
        }
        let a = self.beta * self.gamma;
        let (y, h) = (c.y, c.h);
        c.steps += 1;
        // The long step and the first short one start from the same state.
        let (short, long_step) = Etd::pair(h);
        let n0 = self.creep_rest(y);
        let long = self.etd4(y, n0, &long_step);
        let mid = self.etd4(y, n0, &short);
        let two = self.etd4(mid, self.creep_rest(mid), &short);
        let err_u = (two[0] - long[0]).abs() / 15.0;
        let err_du = (two[1] - long[1]).abs() / (15.0 * a);
        // The time, relative: it only sizes the runaway guard.
        let err_t = (two[2] - long[2]).abs() / (15.0 * CREEP_TIME_TOL * two[2].abs());
        let err = (err_u.max(err_du) / c.tol).max(err_t);
        let fine = err <= 1.0 && two[0] > 0.0 && two[2].is_finite();
        if !fine {
            c.h *= if err.is_finite() {
                (0.9 * err.powf(-0.2)).clamp(0.1, 0.9)
            } else {
                0.1
            };
            return CreepStep::Going;
        }
        c.y = two;
        let (u1, du1) = (two[0], (two[1] - 1.0) / a);
        let ua = self.power(u1);
        if self.energy(u1, du1, ua) < 0.0 {
            return CreepStep::Sticks;
        }
        if self.creep_ahead(u1, du1, ua) < CREEP_LEAVE {
            return CreepStep::Leaves;
        }
        c.h *= (0.9 * err.max(1e-10).powf(-0.2)).clamp(0.2, 4.0);
        CreepStep::Going
    }
}
