//! Gravity during contact (seed 001): `m dv/dt = −k x^α (1 + μ v) + m g`.
//!
//! With a constant load the exit speed depends on `v_in` through two numbers only. In
//! seed 001's scaling (its eqs 2–4, Hunt–Crossley being its case `β = α + 1`), with
//! `x = δ u`, `t = T τ`, `δ^{α+1} = m v_in²/k` and `T = δ/v_in`:
//!
//! `u'' + γ (u^β)' + u^α = g̃`, `u(0) = 0`, `u'(0) = 1`,
//!
//! `γ = μ v_in/(α + 1)` and `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g`. The restitution is
//! `e = −u'(T_f)` at the first return to `u = 0`, or 0 if the mass never returns: it
//! sticks and settles at `x̄ = (m g/k)^{1/α}`.
//!
//! No closed form exists. [`exit`] integrates seed 001's eq (6) (the generalised
//! velocity `w = u' + γ u^β`, in which the right-hand side is smooth) once, at onset,
//! with the embedded Dormand–Prince 8(5,3) pair (DOP853) under step control, and
//! locates the return to `u = 0` by Newton on the step length. At the tolerance the
//! exit needs it takes a third to a fifth of the steps the 5(4) pair took (33–40 on the
//! notes' three cases instead of 115–219) at under twice the work a step, and its work
//! is bounded by [`MAX_STEPS`]. The scaled energy `E = ½ u'² + u^{β}/β − g̃ u` only
//! decreases (`E' = −γ β u^α u'²`), and `E(0) = ½ u'²` at the wall: once `E < 0` the
//! mass can never leave, which ends the integration of a sticking contact early.
//!
//! A heavily damped contact (`μ v_in = (α + 1) γ` in the tens and hundreds) stops within
//! a short depth and creeps back out on a slow manifold, the damping balancing the
//! spring and the load, which its velocity relaxes onto at the rate `μ v_in u^α`: stiff
//! for any explicit method, whose steps that rate bounds (190 DOP853 steps at
//! `μ v_in = 500`). There the creep is handed to an exponential integrator in the
//! damping phase `φ` (`dφ = μ v_in u^α dt`), where that relaxation is linear with unit
//! rate and is taken exactly (`Scaled::creep`); DOP853 takes the contact back near
//! the wall, where the exit is. A creep of 200 to 500 in `μ v_in` then takes 45–80
//! steps' work instead of 120–260.

use super::alpha_pow::AlphaPow;

/// The load-aware outcome of one contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadExit {
    /// Restitution `e = −v_out/v_in ∈ [0, 1]`; 0 when the mass sticks.
    pub e: f64,
    /// True when the mass never leaves the wall.
    pub sticks: bool,
    /// Contact time, s (for a sticking contact: when its energy fell below 0).
    pub tau: f64,
    /// False when the integration ran out of steps (the result is then the last
    /// state's best guess).
    pub resolved: bool,
    /// Steps taken (accepted and rejected), for the onset cost.
    pub steps: u32,
}

impl LoadExit {
    /// What degenerate inputs give: the elastic exit, flagged unresolved.
    pub const DEGENERATE: LoadExit = LoadExit {
        e: 1.0,
        sticks: false,
        tau: 0.0,
        resolved: false,
        steps: 0,
    };
}

/// Seed 001's dimensionless damping `γ` and load `g̃` (its eqs 3–4, `β = α + 1`,
/// `γ₀ = μ/(α+1)`): `γ = μ v_in/(α+1)` (the powers of `v_in` and `k/m` reduce to 1) and
/// `g̃ = (m/k)^{1/(α+1)} v_in^{−2α/(α+1)} g`. An external force `F` would enter as
/// `g + F/m`.
pub fn scaled(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> (f64, f64) {
    let gamma = mu * v_in / (alpha + 1.0);
    let g_tilde =
        (mass / k).powf(1.0 / (alpha + 1.0)) * v_in.powf(-2.0 * alpha / (alpha + 1.0)) * g;
    (gamma, g_tilde)
}

/// The time scale `T = δ/v_in` (s) of the scaling, `δ = (m v_in²/k)^{1/(α+1)}`.
pub fn time_scale(k: f64, alpha: f64, mass: f64, v_in: f64) -> f64 {
    (mass * v_in * v_in / k).powf(1.0 / (alpha + 1.0)) / v_in
}

/// The rest position under the load, `x̄ = (m g/k)^{1/α}` (m).
pub fn x_rest(k: f64, alpha: f64, mass: f64, g: f64) -> f64 {
    (mass * g / k).powf(1.0 / alpha)
}

/// Most accepted and rejected steps of one [`exit`], a creep's steps included (each
/// about the work of one): over the full ranges a contact takes 10–80 (33 at the
/// median). Past this the exit is eq (6)'s (see [`exit`]).
pub const MAX_STEPS: u32 = 400;
/// Step control tolerance on the scaled state (of order 1): the restitution comes out
/// within about 4e-8 of the reference integration at 1e-13 over the full ranges
/// (`tests/core_seeds.rs` asks 1e-6), as the former Dormand–Prince 5(4) at 1e-10 did
/// (3e-8), and within 5e-8 of that solver (`tests/onset_reference.rs`). At 1e-10
/// DOP853's estimate let a few steps through that cost 2e-7. A heavily damped contact
/// leaves at about `1/(μ v_in)` of `v_in` (eq 6 for large `μ v_in`): its tolerance is
/// widened in proportion from `μ v_in = 10` on ([`Scaled::tolerance`]).
const TOL: f64 = 5e-11;

/// The exact load-aware exit of a contact at `v_in` under gravity `g` (m/s², ≥ 0).
/// Degenerate inputs give the elastic `e = 1`, never a panic.
pub fn exit(k: f64, mu: f64, alpha: f64, mass: f64, v_in: f64, g: f64) -> LoadExit {
    let ok = [k, alpha, mass, v_in]
        .iter()
        .all(|p| p.is_finite() && *p > 0.0)
        && mu.is_finite()
        && mu >= 0.0
        && g.is_finite()
        && g >= 0.0;
    if !ok {
        return LoadExit::DEGENERATE;
    }
    let (gamma, g_tilde) = scaled(k, mu, alpha, mass, v_in, g);
    let s = scaled_exit(alpha, gamma, g_tilde);
    let tau = s.tau * time_scale(k, alpha, mass, v_in);
    if s.resolved {
        LoadExit { tau, ..s }
    } else {
        // Out of steps: a creeping exit of a heavily damped contact (γ in the
        // hundreds) or a long orbit in a deep, nearly undamped well. Both leave as
        // without the load to within the load's small effect: eq (6)'s exact exit.
        let e = -super::vout::v_out_exact(mu, v_in) / v_in;
        LoadExit {
            e: if e.is_finite() {
                e.clamp(0.0, 1.0)
            } else {
                1.0
            },
            tau,
            ..s
        }
    }
}

/// [`exit`] in seed 001's variables: `tau` is in units of `T`.
pub fn scaled_exit(alpha: f64, gamma: f64, g_tilde: f64) -> LoadExit {
    let sys = Scaled {
        alpha,
        beta: alpha + 1.0,
        gamma,
        g_tilde,
        pow: AlphaPow::new(alpha),
    };
    sys.integrate()
}

#[derive(Clone, Copy)]
struct Scaled {
    alpha: f64,
    beta: f64,
    gamma: f64,
    g_tilde: f64,
    /// `x^α`, the one power each evaluation takes.
    pow: AlphaPow,
}

/// `(u, w)`.
type State = [f64; 2];

/// Stages of the Dormand–Prince 8(5,3) pair (DOP853: Hairer, Nørsett & Wanner, *Solving
/// Ordinary Differential Equations I*, 2nd ed., II.5 and II.10, and their code
/// `dop853`). The twelfth row `A[12]` holds the eighth-order weights; the system is
/// autonomous, so the nodes `c_i` (the row sums) are not needed.
const STAGES: usize = 12;
const A: [[f64; STAGES]; STAGES + 1] = {
    let mut a = [[0.0; STAGES]; STAGES + 1];
    a[1][0] = 0.05260015195876773;
    a[2][0] = 0.0197250569845379;
    a[2][1] = 0.0591751709536137;
    a[3][0] = 0.02958758547680685;
    a[3][2] = 0.08876275643042054;
    a[4][0] = 0.2413651341592667;
    a[4][2] = -0.8845494793282861;
    a[4][3] = 0.924834003261792;
    a[5][0] = 0.037037037037037035;
    a[5][3] = 0.17082860872947386;
    a[5][4] = 0.12546768756682242;
    a[6][0] = 0.037109375;
    a[6][3] = 0.17025221101954405;
    a[6][4] = 0.06021653898045596;
    a[6][5] = -0.017578125;
    a[7][0] = 0.03709200011850479;
    a[7][3] = 0.17038392571223998;
    a[7][4] = 0.10726203044637328;
    a[7][5] = -0.015319437748624402;
    a[7][6] = 0.008273789163814023;
    a[8][0] = 0.6241109587160757;
    a[8][3] = -3.3608926294469414;
    a[8][4] = -0.868219346841726;
    a[8][5] = 27.59209969944671;
    a[8][6] = 20.154067550477894;
    a[8][7] = -43.48988418106996;
    a[9][0] = 0.47766253643826434;
    a[9][3] = -2.4881146199716677;
    a[9][4] = -0.590290826836843;
    a[9][5] = 21.230051448181193;
    a[9][6] = 15.279233632882423;
    a[9][7] = -33.28821096898486;
    a[9][8] = -0.020331201708508627;
    a[10][0] = -0.9371424300859873;
    a[10][3] = 5.186372428844064;
    a[10][4] = 1.0914373489967295;
    a[10][5] = -8.149787010746927;
    a[10][6] = -18.52006565999696;
    a[10][7] = 22.739487099350505;
    a[10][8] = 2.4936055526796523;
    a[10][9] = -3.0467644718982196;
    a[11][0] = 2.273310147516538;
    a[11][3] = -10.53449546673725;
    a[11][4] = -2.0008720582248625;
    a[11][5] = -17.9589318631188;
    a[11][6] = 27.94888452941996;
    a[11][7] = -2.8589982771350235;
    a[11][8] = -8.87285693353063;
    a[11][9] = 12.360567175794303;
    a[11][10] = 0.6433927460157636;
    a[12][0] = 0.054293734116568765;
    a[12][5] = 4.450312892752409;
    a[12][6] = 1.8915178993145003;
    a[12][7] = -5.801203960010585;
    a[12][8] = 0.3111643669578199;
    a[12][9] = -0.1521609496625161;
    a[12][10] = 0.20136540080403034;
    a[12][11] = 0.04471061572777259;
    a
};
/// The fifth-order error estimator's weights (eighth-order solution less the
/// fifth-order one).
const E5: [f64; STAGES] = [
    0.01312004499419488,
    0.0,
    0.0,
    0.0,
    0.0,
    -1.2251564463762044,
    -0.4957589496572502,
    1.6643771824549864,
    -0.35032884874997366,
    0.3341791187130175,
    0.08192320648511571,
    -0.022355307863886294,
];
/// The third-order estimator's weights: the eighth-order ones less
/// `(0.244…, 0.7338…, 0.02205…)` at stages 0, 8 and 11.
const E3: [f64; STAGES] = {
    let mut e = A[STAGES];
    e[0] -= 0.2440944881889764;
    e[8] -= 0.7338466882816118;
    e[11] -= 0.022058823529411766;
    e
};

/// `μ v_in` above which a creep out of the wall may be handed to the exponential
/// integrator ([`Scaled::creep`]): below, DOP853's stability never limits it much.
const CREEP_DAMPING: f64 = 10.0;
/// The stiffness of the creep ahead ([`Scaled::creep_ahead`]) at which DOP853 hands it
/// over, and at which it takes it back (near the wall, where the slow manifold stops
/// attracting and the exit itself is resolved).
const CREEP_ENTER: f64 = 50.0;
const CREEP_LEAVE: f64 = 20.0;
/// The creep's step tolerance on `u` and `u'` (widened by `μ v_in/10` as [`TOL`]).
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
const CREEP_ENTRIES: u32 = 4;

/// How a creep ([`Scaled::creep`]) ended.
enum Creep {
    /// The energy went negative: the mass sticks.
    Sticks { tau: f64, steps: u32 },
    /// At `(u, u')` at `t`, for DOP853 to go on from.
    Leaves { u: f64, du: f64, t: f64, steps: u32 },
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
fn phis(z: f64, exp_z: f64) -> (f64, f64, f64) {
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

/// The stages the eighth-order weights and both estimators use.
const LAST: [usize; 8] = [0, 5, 6, 7, 8, 9, 10, 11];

/// `y + h Σ_j row[j] k[j]` over the stages `js`.
#[inline(always)]
fn combine<const D: usize, const N: usize>(
    y: [f64; D],
    h: f64,
    row: &[f64; STAGES],
    k: &[[f64; D]; STAGES],
    js: [usize; N],
) -> [f64; D] {
    let mut sum = [0.0; D];
    for j in js {
        for (s, kj) in sum.iter_mut().zip(k[j]) {
            *s += row[j] * kj;
        }
    }
    let mut out = y;
    for (o, s) in out.iter_mut().zip(sum) {
        *o += h * s;
    }
    out
}

/// One step's outcome: the eighth-order state, `f` and `u^α` there (the next step's
/// first stage, and the energy's power), and the scaled error (≤ 1 to accept).
struct Step {
    y: State,
    f: State,
    u_pow: f64,
    err: f64,
}

impl Scaled {
    /// The right-hand side of seed 001's eq (6), `(u', w') = (w − γ u^β, g̃ − u^α)`, and
    /// `u^α`, the one power each evaluation takes. Past the wall (`u < 0`, only inside
    /// the step that crosses it) the powers are extended as odd functions: nothing after
    /// the crossing is kept, and the odd extension keeps the right-hand side as smooth
    /// across `u = 0` as `u^α` allows (analytic for α = 1 and 3), where cutting the
    /// force to 0 put a kink in the crossing step that its error estimate rejected
    /// down to tiny steps.
    #[inline(always)]
    fn rhs(&self, y: State) -> (State, f64) {
        let u = y[0];
        let p = if u != 0.0 { self.power(u.abs()) } else { 0.0 };
        let ua = if u > 0.0 { p } else { -p };
        ([y[1] - self.gamma * p * u, self.g_tilde - ua], ua)
    }

    /// `x^α` for `x > 0`: exact and cheap for α = 1, 1.5, 2 and 3, from per-α tables
    /// otherwise (`alpha_pow`: `exp(α ln x)` took about 26 ns, twelve times a step, two
    /// thirds of a step's cost).
    #[inline(always)]
    fn power(&self, x: f64) -> f64 {
        self.pow.pow(x)
    }

    /// The scaled energy `E = ½ u'² + u^β/β − g̃ u` from `u'` and `u^α` at hand.
    #[inline(always)]
    fn energy(&self, u: f64, du: f64, u_pow: f64) -> f64 {
        let u = u.max(0.0);
        0.5 * du * du + u * u_pow / self.beta - self.g_tilde * u
    }

    /// The absolute tolerance of a step: [`TOL`], widened by `μ v_in / 10` (`μ v_in =
    /// (α + 1) γ`) where that exceeds 1, in proportion to the exit speed's own scale.
    #[inline(always)]
    fn tolerance(&self) -> f64 {
        TOL * (0.1 * self.beta * self.gamma).max(1.0)
    }

    /// One DOP853 step of length `h` from `y`, where `f(y) = f0`. The error is
    /// Hairer's: the fifth-order estimate damped by the third-order one,
    /// `|h| ‖e₅‖² / √(‖e₅‖² + 0.01 ‖e₃‖²)` (RMS over the two components, absolute
    /// tolerance [`Self::tolerance`]).
    #[inline(always)]
    fn step(&self, y: State, f0: State, h: f64) -> Step {
        let (y8, e5, e3) = self.stages(y, f0, h);
        let (f, u_pow) = self.rhs(y8);
        let tol = self.tolerance();
        let sq = |e: [f64; 2]| (e[0] / tol).powi(2) + (e[1] / tol).powi(2);
        let (n5, n3) = (sq(e5), sq(e3));
        let den = n5 + 0.01 * n3;
        let err = if den > 0.0 {
            h.abs() * n5 / (2.0 * den).sqrt()
        } else {
            0.0
        };
        Step {
            y: y8,
            f,
            u_pow,
            err,
        }
    }

    /// The eleven stages after the first and the step's eighth-order state and two
    /// error estimates, `u^α` taken at every stage. The stages with their nonzero
    /// coefficients spelled out: with the rows constant, each combination compiles to
    /// a few fused multiply-adds (a loop over the full rows cost as much as the powers).
    #[inline(always)]
    fn stages(&self, y: State, f0: State, h: f64) -> (State, State, State) {
        let mut k = [[0.0; 2]; STAGES];
        k[0] = f0;
        k[1] = self.rhs(combine(y, h, &A[1], &k, [0])).0;
        k[2] = self.rhs(combine(y, h, &A[2], &k, [0, 1])).0;
        k[3] = self.rhs(combine(y, h, &A[3], &k, [0, 2])).0;
        k[4] = self.rhs(combine(y, h, &A[4], &k, [0, 2, 3])).0;
        k[5] = self.rhs(combine(y, h, &A[5], &k, [0, 3, 4])).0;
        k[6] = self.rhs(combine(y, h, &A[6], &k, [0, 3, 4, 5])).0;
        k[7] = self.rhs(combine(y, h, &A[7], &k, [0, 3, 4, 5, 6])).0;
        k[8] = self.rhs(combine(y, h, &A[8], &k, [0, 3, 4, 5, 6, 7])).0;
        k[9] = self.rhs(combine(y, h, &A[9], &k, [0, 3, 4, 5, 6, 7, 8])).0;
        k[10] = self
            .rhs(combine(y, h, &A[10], &k, [0, 3, 4, 5, 6, 7, 8, 9]))
            .0;
        k[11] = self
            .rhs(combine(y, h, &A[11], &k, [0, 3, 4, 5, 6, 7, 8, 9, 10]))
            .0;
        (
            combine(y, h, &A[STAGES], &k, LAST),
            combine([0.0; 2], 1.0, &E5, &k, LAST),
            combine([0.0; 2], 1.0, &E3, &k, LAST),
        )
    }

    fn integrate(&self) -> LoadExit {
        let bad = |p: f64| !p.is_finite();
        if bad(self.alpha) || self.alpha <= 0.0 || bad(self.gamma) || bad(self.g_tilde) {
            return LoadExit::DEGENERATE;
        }
        let mut y: State = [0.0, 1.0];
        let mut f = self.rhs(y).0;
        let mut t = 0.0;
        // The first step: a fraction of the unloaded contact's time scale, or of the
        // load's (u grows like τ and the load takes over where g̃ τ ~ 1).
        let mut h = 0.01f64
            .min(0.1 / self.g_tilde.max(1e-300))
            .min(0.1 / self.gamma.max(1e-300));
        // A step right after a rejected one does not grow (Hairer's rule: the rejected
        // estimate already said how far the solution stays smooth).
        let mut rejected = false;
        let mut creeps = 0;
        let mut steps = 0;
        while steps < MAX_STEPS {
            steps += 1;
            // Moving out, a step may go at most twice the distance to the wall: beyond,
            // the load (which acts out of contact too) could carry a long step out
            // through the wall and back in unseen.
            let du = f[0];
            if du < 0.0 && y[0] > 0.0 {
                h = h.min(2.0 * y[0] / -du);
            }
            let s = self.step(y, f, h);
            if s.err.is_nan() || s.err > 1.0 || !s.y[0].is_finite() || !s.y[1].is_finite() {
                let shrink = if s.err.is_finite() {
                    (0.9 * s.err.powf(-0.125)).max(0.2)
                } else {
                    0.1
                };
                h *= shrink;
                rejected = true;
                continue;
            }
            if s.y[0] <= 0.0 && y[0] > 0.0 && s.f[0] >= 0.0 {
                // Out through the wall and back in within the step (a strong load
                // turns a slow exit round faster than the limit above allows for): the
                // exit was inside it, so a shorter step has to see it.
                h *= 0.5;
                rejected = true;
                continue;
            }
            if s.y[0] <= 0.0 && t + h > 0.0 && s.f[0] < 0.0 {
                // Returned to the wall within this step.
                return LoadExit {
                    steps,
                    ..self.locate(y, f, t, h, &s)
                };
            }
            t += h;
            y = s.y;
            f = s.f;
            if self.energy(y[0], f[0], s.u_pow) < 0.0 {
                return LoadExit {
                    e: 0.0,
                    sticks: true,
                    tau: t,
                    resolved: true,
                    steps,
                };
            }
            let grow = if s.err > 0.0 {
                0.9 * s.err.powf(-0.125)
            } else {
                6.0
            };
            h *= grow.clamp(0.2, if rejected { 1.0 } else { 6.0 });
            rejected = false;
            if creeps < CREEP_ENTRIES && self.creep_ahead(y[0], f[0], s.u_pow) > CREEP_ENTER {
                creeps += 1;
                match self.creep(y[0], f[0], t, MAX_STEPS - steps) {
                    Creep::Sticks { tau, steps: n } => {
                        return LoadExit {
                            e: 0.0,
                            sticks: true,
                            tau,
                            resolved: true,
                            steps: steps + n,
                        };
                    }
                    Creep::Leaves {
                        u,
                        du,
                        t: t1,
                        steps: n,
                    } => {
                        steps += n;
                        t = t1;
                        // Back to (u, w): w = u' + γ u^β.
                        y = [u, du + self.gamma * self.power(u) * u];
                        f = self.rhs(y).0;
                        if du < 0.0 {
                            h = h.min(0.1 * u / -du);
                        }
                    }
                }
            }
        }
        LoadExit {
            e: (-f[0]).clamp(0.0, 1.0),
            sticks: false,
            tau: t,
            resolved: false,
            steps: MAX_STEPS,
        }
    }

    /// How stiff the rest of a creep out of the wall is: the relaxation rate of the
    /// velocity, `μ v_in u^α` (scaled), times the time to the wall at the current
    /// speed, `u/|u'|`. 0 unless heavily damped (`μ v_in >` [`CREEP_DAMPING`]) and
    /// moving out.
    fn creep_ahead(&self, u: f64, du: f64, u_pow: f64) -> f64 {
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
    /// [`Self::etd4`] in `φ` under step control (step doubling: the difference of one
    /// step of `2h` and two of `h`, over 15, on `u` and `u'` against [`CREEP_TOL`]
    /// widened by `μ v_in/10` as [`TOL`] is, on `t` against [`CREEP_TIME_TOL`] of it),
    /// for at most `budget` steps (each three
    /// exponential steps, the work of about one DOP853 step). It ends where the mass
    /// sticks (its energy negative), turns back in, or is near enough the wall for
    /// the creep to stop being stiff ([`CREEP_LEAVE`]); DOP853 takes over from there.
    fn creep(&self, u: f64, du: f64, t: f64, budget: u32) -> Creep {
        let a = self.beta * self.gamma;
        let tol = CREEP_TOL * (0.1 * a).max(1.0);
        let mut y = [u, 1.0 + a * du, t];
        let mut h = 1.0;
        let mut steps = 0;
        let leaves = |y: [f64; 3], steps| Creep::Leaves {
            u: y[0],
            du: (y[1] - 1.0) / a,
            t: y[2],
            steps,
        };
        while steps < budget.min(CREEP_MAX) {
            steps += 1;
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
            let err = (err_u.max(err_du) / tol).max(err_t);
            let fine = err <= 1.0 && two[0] > 0.0 && two[2].is_finite();
            if !fine {
                h *= if err.is_finite() {
                    (0.9 * err.powf(-0.2)).clamp(0.1, 0.9)
                } else {
                    0.1
                };
                continue;
            }
            y = two;
            let (u1, du1) = (y[0], (y[1] - 1.0) / a);
            let ua = self.power(u1);
            if self.energy(u1, du1, ua) < 0.0 {
                return Creep::Sticks { tau: y[2], steps };
            }
            if self.creep_ahead(u1, du1, ua) < CREEP_LEAVE {
                return leaves(y, steps);
            }
            h *= (0.9 * err.max(1e-10).powf(-0.2)).clamp(0.2, 4.0);
        }
        leaves(y, steps)
    }

    /// The return to `u = 0` inside the accepted step `end` of length `h` from
    /// `(y, t)`, `f(y) = f0`: the root of the cubic Hermite interpolant of `u` through
    /// both ends (one Newton-safe solve, no evaluation), then Newton on `u(s) = 0`,
    /// each `u(s)` a single step of length `s` from `y` (inside the tolerance),
    /// `u'(s)` from the state: from the cubic's root it converges in two or three.
    fn locate(&self, y: State, f0: State, t: f64, h: f64, end: &Step) -> LoadExit {
        let (u0, d0, u1, d1) = (y[0], f0[0] * h, end.y[0], end.f[0] * h);
        // Hermite cubic in θ ∈ [0, 1]; u0 > 0 ≥ u1, so it has a root there. Start
        // from the secant and polish on the cubic.
        let cubic = |th: f64| {
            let (t2, t3) = (th * th, th * th * th);
            let p = (2.0 * t3 - 3.0 * t2 + 1.0) * u0
                + (t3 - 2.0 * t2 + th) * d0
                + (-2.0 * t3 + 3.0 * t2) * u1
                + (t3 - t2) * d1;
            let dp = (6.0 * t2 - 6.0 * th) * u0
                + (3.0 * t2 - 4.0 * th + 1.0) * d0
                + (-6.0 * t2 + 6.0 * th) * u1
                + (3.0 * t2 - 2.0 * th) * d1;
            (p, dp)
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        let mut th = u0 / (u0 - u1);
        for _ in 0..20 {
            let (p, dp) = cubic(th);
            if p > 0.0 {
                lo = th;
            } else {
                hi = th;
            }
            let mut next = th - p / dp;
            if !(next > lo && next < hi) {
                next = 0.5 * (lo + hi);
            }
            if (next - th).abs() <= 1e-12 {
                th = next;
                break;
            }
            th = next;
        }
        let mut s = (th * h).clamp(0.0, h);
        let mut du = end.f[0];
        for _ in 0..8 {
            let st = self.step(y, f0, s);
            du = st.f[0];
            if du >= 0.0 {
                break;
            }
            let ds = -st.y[0] / du;
            s = (s + ds).clamp(0.0, h);
            if ds.abs() <= 1e-15 * s.max(1e-300) {
                break;
            }
        }
        LoadExit {
            e: (-du).clamp(0.0, 1.0),
            sticks: false,
            tau: t + s,
            resolved: true,
            steps: 0,
        }
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;

/// Damping ratio of the settling of a trapped mass: a documented rule, not seed 001's
/// physics. Once the load-aware energy is negative the mass can never leave; left to
/// the contact's own damping it would rock in the well at `ω_eq` and decay at only
/// `μ g/2` (seconds at the defaults, days at μ = 1e-4, g = 0.1). A drag giving this
/// ratio at the rest point settles it within about `28/ω_eq` to [`REST_FORCE`].
pub const SETTLE_ZETA: f64 = 0.5;
/// The settling is over, and the mass put at rest at `x̄`, when the amplitude of the
/// force about the static load is below this fraction of `m g`: at most 120 dB under
/// the load, which itself is below any strike's peak force.
pub const REST_FORCE: f64 = 1e-6;

/// The per-contact state of gravity during contact, kept by `Impact`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Loaded {
    /// Gravity, m/s² (0: the paper's contact, all of this inert).
    pub g: f64,
    /// The load `m g`, N.
    pub force: f64,
    /// The settling drag (N·s/m): 0 until the mass is trapped.
    pub drag: f64,
    /// The exact outcome, solved at onset.
    pub exit: Option<LoadExit>,
    /// The load-aware energy went negative: the mass can no longer leave.
    pub trapped: bool,
    /// Settled: the contact ended at rest at `x̄`.
    pub rested: bool,
    pub x_rest: f64,
    /// Stiffness at rest `k α x̄^{α−1}`, N/m.
    k_eq: f64,
    /// The Hamiltonian at rest, `H(x̄, 0)`: the bottom of the well.
    h_rest: f64,
    /// `H(0) = ½ m v_in²`.
    h0: f64,
    /// Energy dissipated so far (`∫ (μ k x^α + drag) v² dt`), and its last rate.
    dissipated: f64,
    rate: f64,
    /// Energy the exact contact dissipates (the scale of the drift).
    delta_h: f64,
    /// Largest `|H + D − H(0)|` so far, relative to `delta_h`.
    pub max_dev: f64,
}

impl Loaded {
    pub fn new(c: &super::contact::Contact, v_in: f64, g: f64, exit: LoadExit) -> Self {
        let x_rest = x_rest(c.k, c.alpha, c.mass, g);
        let h0 = 0.5 * c.mass * v_in * v_in;
        let v_out = exit.e * v_in;
        let mut l = Self {
            g,
            force: c.mass * g,
            exit: Some(exit),
            x_rest,
            k_eq: c.k * c.alpha * x_rest.powf(c.alpha - 1.0),
            h0,
            // What the contact dissipates: down to ½ m v_out², or for a mass that
            // sticks, to the bottom of the well, H(x̄) = −α/(α+1) m g x̄.
            delta_h: if exit.sticks {
                h0 + c.alpha / (c.alpha + 1.0) * c.mass * g * x_rest
            } else {
                h0 - 0.5 * c.mass * v_out * v_out
            }
            .max(f64::MIN_POSITIVE),
            ..Self::default()
        };
        let rest_pow = if x_rest > 0.0 {
            x_rest.powf(c.alpha)
        } else {
            0.0
        };
        l.h_rest = l.hamiltonian(c, x_rest, rest_pow, 0.0);
        l
    }

    /// The load-aware Hamiltonian `H = ½ m v² + k x^{α+1}/(α+1) − m g x` (seed 001's
    /// energy in physical units), from `x^α` at hand.
    #[inline]
    pub fn hamiltonian(&self, c: &super::contact::Contact, x: f64, x_pow: f64, v: f64) -> f64 {
        // The load's potential holds on both sides of the wall (a step that ends past
        // it has flown the rest of its length); the spring's only in contact.
        let spring = if x > 0.0 {
            c.k * x * x_pow / (c.alpha + 1.0)
        } else {
            0.0
        };
        0.5 * c.mass * v * v + spring - self.force * x
    }

    /// After a step of length `h` to `(x, v)`: the dissipated energy (trapezoid), the
    /// drift of `H + D` and the trap test. Returns true when the mass just got trapped.
    #[inline]
    pub fn observe(
        &mut self,
        c: &super::contact::Contact,
        h: f64,
        x: f64,
        x_pow: f64,
        v: f64,
    ) -> bool {
        let rate = (c.mu * c.k * x_pow + self.drag) * v * v;
        self.dissipated += 0.5 * h * (rate + self.rate);
        self.rate = rate;
        let hx = self.hamiltonian(c, x, x_pow, v);
        let dev = (hx + self.dissipated - self.h0).abs() / self.delta_h;
        if dev > self.max_dev {
            self.max_dev = dev;
        }
        if !self.trapped && hx < 0.0 && x > 0.0 {
            self.trapped = true;
            self.drag = 2.0 * SETTLE_ZETA * (c.mass * self.k_eq).sqrt();
            return true;
        }
        false
    }

    /// Seconds the settling of a trapped mass may take, with margin.
    pub fn settle_bound(&self, c: &super::contact::Contact) -> f64 {
        let omega = (self.k_eq / c.mass).sqrt();
        4.0 * (1.0 / REST_FORCE).ln() / (SETTLE_ZETA * omega)
    }

    /// True once a trapped mass rocks with a force amplitude under [`REST_FORCE`]·`m g`.
    pub fn settled(&self, c: &super::contact::Contact, x: f64, v: f64) -> bool {
        if !self.trapped {
            return false;
        }
        let x_pow = if x > 0.0 { x.powf(c.alpha) } else { 0.0 };
        let e = self.hamiltonian(c, x, x_pow, v) - self.h_rest;
        let amp = (2.0 * e.max(0.0) * self.k_eq).sqrt();
        amp <= REST_FORCE * self.force
    }
}
