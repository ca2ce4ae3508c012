//! The Dormand–Prince 8(5,3) pair that integrates seed 001's eq (6) in
//! [`super::exit`], and the start of the location of the return to the wall inside a
//! step.

use super::solve::{Scaled, State};
use crate::model::newton::Bracket;

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
pub(super) struct Step {
    pub y: State,
    pub f: State,
    pub u_pow: f64,
    pub err: f64,
}

impl Scaled {
    /// One DOP853 step of length `h` from `y`, where `f(y) = f0`. The error is
    /// Hairer's: the fifth-order estimate damped by the third-order one,
    /// `|h| ‖e₅‖² / √(‖e₅‖² + 0.01 ‖e₃‖²)` (RMS over the two components, absolute
    /// tolerance [`Self::tolerance`]).
    #[inline(always)]
    pub(super) fn step(&self, y: State, f0: State, h: f64) -> Step {
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
    /// Where inside the accepted step `end` of length `h` from `y` (`f(y) = f0`) the
    /// contact returns to `u = 0`, as a fraction of the step: the root of the cubic
    /// Hermite interpolant of `u` through both ends (one Newton-safe solve, no
    /// evaluation), from which Newton on the step length polishes it
    /// ([`super::resume`]).
    pub(super) fn locate_start(&self, y: State, f0: State, end: &Step, h: f64) -> f64 {
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
        let mut b = Bracket { lo: 0.0, hi: 1.0 };
        let mut th = u0 / (u0 - u1);
        for _ in 0..20 {
            let (p, dp) = cubic(th);
            b.narrow(th, p > 0.0);
            let next = b.step(th, p, dp);
            if (next - th).abs() <= 1e-12 {
                th = next;
                break;
            }
            th = next;
        }
        th
    }
}
