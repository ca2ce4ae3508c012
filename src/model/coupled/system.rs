//! The coupled system: the striker, the body's modes at the strike point, the contact
//! between them, and its energy (see the module above).

use crate::model::alpha_pow::AlphaPow;
use crate::model::body::MODES;
use crate::model::contact::{Contact, pow_alpha};
use crate::model::impact::{MAX_SUBSTEPS, OMEGA_STEP, substeps_at};
use crate::model::scheme::Method;

/// The contact's accuracy: `h ω ≤ CONTACT_OMEGA_ACCURATE` for the contact's stiffest
/// oscillation and `h λ ≤ CONTACT_OMEGA_ACCURATE` for its fastest damping rate
/// (`λ = μ k x_max^α / m`, over the reduced mass), up to [`CONTACT_ACCURATE_MAX`] steps
/// a sample. The mass–wall model stops at `OMEGA_ACCURATE` and `impact::ACCURATE_MAX`
/// because its corrections put the exit right whatever the step; nothing corrects a
/// coupled contact, so its accuracy comes from the step alone. At 0.1 Heun left a
/// 15-sample contact on a bell 1.1e-3 off the exact exit velocity; at 0.05 every method
/// stays within 1e-3 (`tests/coupled_reference.rs`), also on contacts of a sample or two
/// (about 60 steps). The damping rate matters to Verlet, whose damping force at the
/// half-step velocity is first order in `h`: a creeping contact on a plate (`μ v_in`
/// = 5, `h λ` = 0.17 a sample) left it 1.9e-3 off at one step a sample, 4.8e-4 at the
/// four this asks. The cost is bounded by the contact's length: such a contact is short.
pub const CONTACT_OMEGA_ACCURATE: f64 = 0.05;
pub const CONTACT_ACCURATE_MAX: u32 = 128;

/// How the coupled system is integrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoWayMethod {
    /// One of the paper's four, eqs (23)–(26), on the whole state.
    Paper(Method),
    /// The discrete-gradient scheme (`implicit::dg_step`): an exact energy balance.
    DiscreteGradient,
}

impl TwoWayMethod {
    pub const ALL: [TwoWayMethod; 5] = [
        TwoWayMethod::Paper(Method::Verlet),
        TwoWayMethod::Paper(Method::Heun),
        TwoWayMethod::Paper(Method::Rk4),
        TwoWayMethod::Paper(Method::Am1),
        TwoWayMethod::DiscreteGradient,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TwoWayMethod::Paper(m) => m.name(),
            TwoWayMethod::DiscreteGradient => "dg",
        }
    }
}

impl std::str::FromStr for TwoWayMethod {
    type Err = crate::model::scheme::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        use crate::model::scheme::{UnknownName, by_name};
        by_name(&TwoWayMethod::ALL, TwoWayMethod::name, s).ok_or_else(|| UnknownName(s.to_string()))
    }
}

/// The mode loops run in whole groups of this many modes, with as many partial sums: a
/// sum over the modes then vectorises like the rest of the loop (the compiler keeps a
/// single running sum in order, which it cannot), and adds in the same order on every
/// vector width. The modes past `n` are zero and stay zero.
pub const LANES: usize = 4;

/// The modes, rounded up to whole [`LANES`].
#[inline(always)]
pub fn lanes(n: usize) -> usize {
    n.next_multiple_of(LANES).min(MODES)
}

/// `Σ a_k` over the first `lanes` modes, in [`LANES`] partial sums.
#[inline(always)]
pub fn lane_sum(a: &[f64; MODES], lanes: usize) -> f64 {
    let mut acc = [0.0; LANES];
    // (Bounded by the arrays, so the indices need no checks and the loop vectorises.)
    for c in 0..lanes.min(MODES) / LANES {
        for j in 0..LANES {
            acc[j] += a[c * LANES + j];
        }
    }
    total(&acc)
}

/// The partial sums' total.
#[inline(always)]
pub fn total(acc: &[f64; LANES]) -> f64 {
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

/// What every step uses of the modes, made once for a run's step `h` (not per step):
/// `ω_k²`, `2σ_k`, `1/m_k`, and the trapezoid rule's `D_k = 1 + h σ_k + h² ω_k²/4`.
/// Zero past the modes (`D_k` one), so a padded lane stays at rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModeCoefs {
    /// Modes rounded up to whole lanes ([`lanes`]).
    pub lanes: usize,
    pub omega2: [f64; MODES],
    pub damp: [f64; MODES],
    pub inv_mass: [f64; MODES],
    pub den: [f64; MODES],
}

impl ModeCoefs {
    /// Lane groups, at most the arrays' (so the loops' indices need no checks, and
    /// vectorise).
    #[inline(always)]
    pub fn groups(&self) -> usize {
        self.lanes.min(MODES) / LANES
    }

    pub fn new(b: &StrikeModes, h: f64) -> Self {
        let mut k = ModeCoefs {
            lanes: lanes(b.n),
            omega2: [0.0; MODES],
            damp: [0.0; MODES],
            inv_mass: [0.0; MODES],
            den: [1.0; MODES],
        };
        for i in 0..b.n.min(MODES) {
            let o = b.omega[i];
            k.omega2[i] = o * o;
            k.damp[i] = 2.0 * b.sigma[i];
            k.inv_mass[i] = b.inv_mass[i];
            k.den[i] = 1.0 + h * b.sigma[i] + 0.25 * h * h * o * o;
        }
        k
    }
}

/// What every step of a run reads and none changes: the modes' constants, the
/// contact's `δ^α` tables and the step `h`.
#[derive(Clone, Copy)]
pub struct Step<'a> {
    pub k: &'a ModeCoefs,
    pub pow: &'a AlphaPow,
    pub h: f64,
}

/// The body at the strike point: up to [`MODES`] modes as struct of arrays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrikeModes {
    pub n: usize,
    /// `ω_k = 2π f_k`, rad/s.
    pub omega: [f64; MODES],
    /// `σ_k = ln 1000 / t60_k`, 1/s.
    pub sigma: [f64; MODES],
    /// `1 / m_k`, 1/kg (0: an infinitely heavy mode, which never moves).
    pub inv_mass: [f64; MODES],
}

impl StrikeModes {
    /// No body: the rigid wall.
    pub const RIGID: StrikeModes = StrikeModes {
        n: 0,
        omega: [0.0; MODES],
        sigma: [0.0; MODES],
        inv_mass: [0.0; MODES],
    };

    /// From `(f_hz, t60_s, mass_kg)` per mode (at most [`MODES`]; the rest are dropped).
    /// A mode with a non-finite or non-positive entry is left out.
    pub fn from_modes(modes: impl IntoIterator<Item = (f64, f64, f64)>) -> Self {
        let mut out = Self::RIGID;
        for (f, t60, mass) in modes {
            let ok = f.is_finite() && f > 0.0 && t60 > 0.0 && mass > 0.0 && !mass.is_nan();
            if !ok || out.n == MODES {
                continue;
            }
            let i = out.n;
            out.omega[i] = 2.0 * std::f64::consts::PI * f;
            out.sigma[i] = if t60.is_finite() {
                1000f64.ln() / t60
            } else {
                0.0
            };
            out.inv_mass[i] = 1.0 / mass;
            out.n += 1;
        }
        out
    }

    /// The surface's mobility at high frequency, `Σ 1/m_k`: the body answers a sharp
    /// push like one free mass of `1/Σ(1/m_k)`.
    pub fn inv_mass_sum(&self) -> f64 {
        self.inv_mass[..self.n].iter().sum()
    }

    /// Energy stored in the modes, `Σ ½ m_k (ẇ_k² + ω_k² w_k²)`.
    pub fn energy(&self, w: &[f64; MODES], u: &[f64; MODES]) -> f64 {
        let mut e = 0.0;
        for i in 0..self.n {
            if self.inv_mass[i] > 0.0 {
                let o = self.omega[i];
                e += 0.5 * (u[i] * u[i] + o * o * w[i] * w[i]) / self.inv_mass[i];
            }
        }
        e
    }

    /// Power the modes' damping dissipates, `Σ 2 σ_k m_k ẇ_k²`.
    pub fn damping_power(&self, u: &[f64; MODES]) -> f64 {
        let mut p = 0.0;
        for i in 0..self.n {
            if self.inv_mass[i] > 0.0 {
                p += 2.0 * self.sigma[i] * u[i] * u[i] / self.inv_mass[i];
            }
        }
        p
    }
}

/// The state of striker and body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct State {
    /// Striker displacement toward the body and velocity, m and m/s.
    pub x: f64,
    pub v: f64,
    /// Modal displacements and velocities at the strike point.
    pub w: [f64; MODES],
    pub u: [f64; MODES],
}

impl State {
    /// The striker at the body's surface moving in at `v_in`, the body at rest.
    pub fn onset(v_in: f64) -> Self {
        Self {
            x: 0.0,
            v: v_in,
            w: [0.0; MODES],
            u: [0.0; MODES],
        }
    }

    /// Compression `δ = x_s − Σ w_k` and its rate (the modes summed as the steps sum
    /// them, [`lane_sum`]; the modes past `n` are at rest).
    #[inline]
    pub fn delta(&self, n: usize) -> (f64, f64) {
        let l = lanes(n);
        (self.x - lane_sum(&self.w, l), self.v - lane_sum(&self.u, l))
    }

    pub fn is_finite(&self) -> bool {
        self.x.is_finite()
            && self.v.is_finite()
            && self.w.iter().chain(self.u.iter()).all(|a| a.is_finite())
    }

    /// The modes past `n` put at rest (the padded lanes of the steps' loops).
    pub fn rest_past(&mut self, n: usize) {
        for i in n.min(MODES)..MODES {
            self.w[i] = 0.0;
            self.u[i] = 0.0;
        }
    }
}

/// The coupled system: contact, striker (in `contact.mass`) and body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coupled {
    pub contact: Contact,
    pub modes: StrikeModes,
}

impl Coupled {
    /// Contact force on the body `F = k δ^α (1 + μ δ̇)` for `δ > 0`, else 0.
    #[inline]
    pub fn force(&self, delta: f64, delta_rate: f64) -> f64 {
        -self.contact.force(delta, delta_rate)
    }

    /// [`force`](Self::force) with `δ^α` from `pow`'s tables (made for
    /// `contact.alpha`): what the steps take, several times a sample.
    #[inline(always)]
    pub fn force_with(&self, pow: &AlphaPow, delta: f64, delta_rate: f64) -> f64 {
        if delta > 0.0 {
            -self.contact.force_with_pow(pow.pow(delta), delta_rate)
        } else {
            0.0
        }
    }

    /// Total energy `H` of a state (module doc).
    pub fn hamiltonian(&self, s: &State) -> f64 {
        let (d, _) = s.delta(self.modes.n);
        let (pot, _) = potential_and_slope(&self.contact, d);
        0.5 * self.contact.mass * s.v * s.v + pot + self.modes.energy(&s.w, &s.u)
    }

    /// Power dissipated in a state: the contact's damping and the modes'.
    pub fn dissipation_power(&self, s: &State) -> f64 {
        let (d, dr) = s.delta(self.modes.n);
        let c = &self.contact;
        c.mu * c.k * c.x_pow_alpha(d) * dr * dr + self.modes.damping_power(&s.u)
    }

    /// Steps per sample at step `h` (one sample): the mass–wall rule
    /// (`impact::substeps_at`) for the striker against the body's high-frequency mass
    /// (the reduced mass `1/(1/m + Σ 1/m_k)` makes a light body's contact stiffer in
    /// time), with the deepest compression of the rigid wall; the contact's accuracy
    /// ([`CONTACT_OMEGA_ACCURATE`], on its frequency and on its damping rate); and
    /// stability for every mode that can move (`h ω_k ≤ OMEGA_STEP`). The modes need no
    /// accuracy of their own: the contact sees them through the surface `w`, and a mode
    /// faster than the contact answers it as a mass `m_k` whatever its phase error
    /// (on the reference cases, `tests/coupled_reference.rs`, dropping a rule
    /// `h ω_k ≤ 0.1` up to 8 steps raised no method's exit-velocity error by more than
    /// 9e-5 of `v_out`). `None` where more than [`MAX_SUBSTEPS`] would be needed or the
    /// parameters are degenerate.
    pub fn substeps(&self, v_in: f64, h: f64) -> Option<u32> {
        let c = self.contact;
        let x_deep = c.impact(v_in).x_max();
        let reduced = Contact {
            mass: 1.0 / (1.0 / c.mass + self.modes.inv_mass_sum()),
            ..c
        };
        let wall = substeps_at(&reduced, v_in, x_deep, h)? as f64;
        let x_pow = c.x_pow_alpha(x_deep);
        let omega2 = c.k * c.alpha * x_pow / x_deep * (1.0 + c.mu * v_in) / reduced.mass;
        let lambda = c.mu * c.k * x_pow / reduced.mass;
        let contact = (h * omega2.sqrt().max(lambda) / CONTACT_OMEGA_ACCURATE)
            .min(CONTACT_ACCURATE_MAX as f64);
        let mut omega_max: f64 = 0.0;
        for i in 0..self.modes.n {
            if self.modes.inv_mass[i] > 0.0 {
                omega_max = omega_max.max(self.modes.omega[i]);
            }
        }
        let modes = h * omega_max / OMEGA_STEP;
        let need = wall.max(contact).max(modes).ceil().max(1.0);
        if need > MAX_SUBSTEPS as f64 || !need.is_finite() {
            return None;
        }
        Some(need as u32)
    }
}

/// `(V(δ), V'(δ))`, `V = k δ^{α+1}/(α+1)`, `V' = k δ^α`, zero for `δ ≤ 0`.
#[inline]
pub fn potential_and_slope(c: &crate::model::Contact, d: f64) -> (f64, f64) {
    if d > 0.0 {
        let p = c.k * pow_alpha(d, c.alpha);
        (p * d / (c.alpha + 1.0), p)
    } else {
        (0.0, 0.0)
    }
}
