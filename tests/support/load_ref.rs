//! Reference coefficient of restitution with a constant load, by direct integration of
//! the scaled Hunt–Crossley contact, system (6) of seed paper 001 with `β = α + 1`:
//!
//! ```text
//! du/dτ = w − γ u^{α+1},   dw/dτ = −u^α + g̃,   u(0) = 0, w(0) = 1,
//! ```
//!
//! until `u` returns to 0 with `u' < 0` (then `e = −u'(T_f)`, eq 5), or until the scaled
//! energy `H = ½u'² + u^{α+1}/(α+1) − g̃u` drops below 0: `dH/dτ = −γ(α+1)u^α u'² ≤ 0`
//! and `H = ½u'² ≥ 0` at `u = 0`, so once `H < 0` the mass never leaves (it sticks).
//!
//! Integrator: Dormand–Prince 5(4) (local extrapolation, the 5th-order solution is
//! kept), error per step ≤ `tol` in the mixed absolute/relative norm. The exit is
//! located by Newton on the length of the last step: the step from the last accepted
//! state is redone with length `θ` until `u(θ) = 0`, with `du/dθ ≈ u'` at the end.
//! Powers of negative `u` (only in the stages of a step that overshoots the wall) use
//! the odd extension `sign(u)|u|^p`, smooth enough for the few stages concerned.
#![allow(dead_code)]

/// Default local tolerance: `reference_restitution` is `_tol(…, TOL)`.
pub const TOL: f64 = 1e-13;

/// Reference `e` (`None` = sticks) at `(α, γ, g̃)` for Hunt–Crossley (`β = α + 1`).
pub fn reference_restitution(alpha: f64, gamma: f64, g_tilde: f64) -> Option<f64> {
    reference_restitution_tol(alpha, gamma, g_tilde, TOL)
}

/// `(u, w)`.
type State = [f64; 2];

fn spow(x: f64, p: f64) -> f64 {
    if x >= 0.0 { x.powf(p) } else { -(-x).powf(p) }
}

struct Sys {
    alpha: f64,
    gamma: f64,
    g: f64,
}

impl Sys {
    fn f(&self, y: State) -> State {
        [
            y[1] - self.gamma * spow(y[0], self.alpha + 1.0),
            -spow(y[0], self.alpha) + self.g,
        ]
    }

    /// `u'` from the state.
    fn du(&self, y: State) -> f64 {
        self.f(y)[0]
    }

    /// Scaled energy `H`.
    fn energy(&self, y: State) -> f64 {
        let up = self.du(y);
        let u = y[0];
        0.5 * up * up + spow(u, self.alpha + 1.0) / (self.alpha + 1.0) - self.g * u
    }

    /// One Dormand–Prince 5(4) step: (5th-order state, 4th−5th difference).
    fn step(&self, y: State, h: f64) -> (State, State) {
        let add = |y: State, terms: &[(f64, State)]| {
            let mut out = y;
            for (c, k) in terms {
                out[0] += h * c * k[0];
                out[1] += h * c * k[1];
            }
            out
        };
        let k1 = self.f(y);
        let k2 = self.f(add(y, &[(1.0 / 5.0, k1)]));
        let k3 = self.f(add(y, &[(3.0 / 40.0, k1), (9.0 / 40.0, k2)]));
        let k4 = self.f(add(
            y,
            &[(44.0 / 45.0, k1), (-56.0 / 15.0, k2), (32.0 / 9.0, k3)],
        ));
        let k5 = self.f(add(
            y,
            &[
                (19372.0 / 6561.0, k1),
                (-25360.0 / 2187.0, k2),
                (64448.0 / 6561.0, k3),
                (-212.0 / 729.0, k4),
            ],
        ));
        let k6 = self.f(add(
            y,
            &[
                (9017.0 / 3168.0, k1),
                (-355.0 / 33.0, k2),
                (46732.0 / 5247.0, k3),
                (49.0 / 176.0, k4),
                (-5103.0 / 18656.0, k5),
            ],
        ));
        let y5 = add(
            y,
            &[
                (35.0 / 384.0, k1),
                (500.0 / 1113.0, k3),
                (125.0 / 192.0, k4),
                (-2187.0 / 6784.0, k5),
                (11.0 / 84.0, k6),
            ],
        );
        let k7 = self.f(y5);
        // b − b*: 5th-order minus 4th-order weights.
        let e = [
            35.0 / 384.0 - 5179.0 / 57600.0,
            0.0,
            500.0 / 1113.0 - 7571.0 / 16695.0,
            125.0 / 192.0 - 393.0 / 640.0,
            -2187.0 / 6784.0 + 92097.0 / 339200.0,
            11.0 / 84.0 - 187.0 / 2100.0,
            -1.0 / 40.0,
        ];
        let ks = [k1, k2, k3, k4, k5, k6, k7];
        let mut err = [0.0; 2];
        for (c, k) in e.iter().zip(ks.iter()) {
            err[0] += h * c * k[0];
            err[1] += h * c * k[1];
        }
        (y5, err)
    }
}

/// As [`reference_restitution`] with local tolerance `tol`.
pub fn reference_restitution_tol(alpha: f64, gamma: f64, g_tilde: f64, tol: f64) -> Option<f64> {
    let sys = Sys {
        alpha,
        gamma,
        g: g_tilde,
    };
    // Time scale of the contact: the undamped oscillation about ū = g̃^{1/α} is
    // ~1/√(α ū^{α−1}) for large g̃, ~1 otherwise.
    let ubar = g_tilde.max(0.0).powf(1.0 / alpha);
    let scale = 1.0 / (alpha * ubar.powf(alpha - 1.0)).sqrt().max(1.0);
    let h_max = 0.05 * scale;
    let mut h = 1e-3 * scale;
    let mut y: State = [0.0, 1.0];
    for _ in 0..5_000_000 {
        // Moving out, no step longer than twice the time to the wall: a longer one can
        // cross the wall and come back within the step (the load and the odd extension
        // push it back in), and the exit would be missed.
        let du = sys.du(y);
        if du < 0.0 && y[0] > 0.0 {
            h = h.min(2.0 * y[0] / -du);
        }
        let (y1, err) = sys.step(y, h);
        let norm = |i: usize| err[i].abs() / (tol * (1.0 + y[i].abs().max(y1[i].abs())));
        let ratio = norm(0).max(norm(1));
        if !ratio.is_finite() {
            h *= 0.1;
            continue;
        }
        if ratio > 1.0 {
            h *= (0.9 * ratio.powf(-0.2)).max(0.1);
            continue;
        }
        if y1[0] < 0.0 && y[0] > 0.0 {
            return Some(exit_speed(&sys, y, h));
        }
        y = y1;
        if sys.energy(y) < 0.0 {
            return None;
        }
        h = (h * (0.9 * ratio.max(1e-10).powf(-0.2)).min(5.0)).min(h_max);
    }
    panic!("reference did not finish: α={alpha} γ={gamma} g̃={g_tilde}");
}

/// `−u'` where the step from `y` (with `u > 0`) crosses `u = 0`; `u(y, h) < 0`.
fn exit_speed(sys: &Sys, y: State, h: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, h);
    let (mut u_lo, mut u_hi) = (y[0], sys.step(y, h).0[0]);
    let mut theta = h * u_lo / (u_lo - u_hi);
    let mut end = sys.step(y, theta).0;
    for _ in 0..60 {
        let u = end[0];
        if u == 0.0 {
            break;
        }
        if u > 0.0 {
            (lo, u_lo) = (theta, u);
        } else {
            (hi, u_hi) = (theta, u);
        }
        // Newton with du/dθ ≈ u'(end); fall back to the secant of the bracket.
        let mut next = theta - u / sys.du(end);
        if !(next > lo && next < hi) {
            next = lo + (hi - lo) * u_lo / (u_lo - u_hi);
        }
        if (next - theta).abs() <= 1e-16 * h {
            theta = next;
            end = sys.step(y, theta).0;
            break;
        }
        theta = next;
        end = sys.step(y, theta).0;
    }
    -sys.du(end)
}
