//! Two-way contact: the striker meets a body that gives.
//!
//! The striker (mass `m`, displacement `x_s` toward the body, velocity `v`) and the
//! body's modes at the strike point (each `m_k (ẅ_k + 2σ_k ẇ_k + ω_k² w_k) = F`, with
//! `σ_k = ln 1000 / t60_k`, see `body::strike_modes`) meet through the Hunt–Crossley
//! law of the mass–wall model on the compression `δ = x_s − w`, `w = Σ w_k`:
//! `F = k δ^α (1 + μ δ̇)` while `δ > 0` (eqs (1)–(2) with `x → δ`), none otherwise, and
//! `m ẍ_s = −F`. With every `m_k` infinite the body stays put and this is the paper's
//! mass–wall model exactly.
//!
//! The total energy `H = ½ m v² + V(δ) + Σ ½ m_k (ẇ_k² + ω_k² w_k²)` (eq (13)'s `V`)
//! falls only by what the contact's damping (`μ k δ^α δ̇²`) and the modes' damping
//! (`2 σ_k m_k ẇ_k²`) dissipate; a run reports how far `H + dissipated` strays from the
//! input energy (`run`).
//!
//! The four methods of the paper run the whole state (`explicit`, `implicit`), and a
//! fifth, a discrete-gradient scheme (`implicit`), keeps that balance to rounding.
//! Everything is fixed-size and allocation-free.

// The modes are a struct of arrays, indexed together up to `n`.
#![allow(clippy::needless_range_loop)]

mod explicit;
mod implicit;
mod run;
mod simd;
mod system;

pub use run::{CoupledReport, CoupledRun, simulate_coupled};
pub use system::{
    CONTACT_ACCURATE_MAX, CONTACT_OMEGA_ACCURATE, Coupled, LANES, ModeCoefs, State, StrikeModes,
    TwoWayMethod,
};

#[cfg(test)]
mod simd_tests;
