//! How many steps a sample a surface contact takes, and how it takes the damping:
//! the stiffness's `h ω` and the damping's `h λ` at the deepest compression a landing
//! is expected to reach.

use crate::model::contact::Contact;

/// Most steps a sample. A contact whose spring asks more, `ω > 3 fs` at four times its
/// static compression, is taken in its rigid limit ([`Damping::Rigid`]).
pub const MAX_STEPS: u32 = 10;
/// `h ω` a step aims at (velocity Verlet, eq 24, is stable below 2).
const OMEGA_STEP: f64 = 0.3;
/// `h λ` the damping may take inside a Verlet step (it is taken from a predicted
/// velocity there, so it must stay small).
const LAMBDA_STEP: f64 = 0.5;

/// How a contact step takes eq (1)'s damping `k δ^α μ δ̇`, chosen once for a contact by
/// [`plan_for`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damping {
    /// Inside the Verlet step, from the predicted velocity: for a damping that needs no
    /// more steps than the spring (`h λ ≤` [`LAMBDA_STEP`] at the spring's steps).
    Explicit,
    /// Exactly, in half steps either side of a Verlet step of the spring alone (Strang
    /// splitting): for a damping stiffer than the spring, whose explicit bound would
    /// set the steps. A scrape slowly dragged takes `μ` in the thousands from its
    /// travel speed, and up to 30 explicit steps a sample; split, it takes the
    /// spring's few. The velocity relative to the surface decays as `e^{−λ t}` in each
    /// half (never the sign flips of a trapezoid at large `h λ`), and the balance's
    /// integrals over it are exact.
    Split,
    /// No steps: the contact is rigid (`rigid.rs`). Its resonance is above the audio
    /// band, where a step's cost would buy nothing the output can hold: past
    /// [`MAX_STEPS`] steps a sample, `ω` at four times the static compression is over
    /// `3 fs` (23 kHz at 48 kHz), and a landing's depth is several times that.
    Rigid,
}

/// The compression at which the contact holds the load: `k δ^α = L`.
pub fn static_compression(c: &Contact, load: f64) -> f64 {
    if load > 0.0 && c.k > 0.0 {
        (load / c.k).powf(1.0 / c.alpha)
    } else {
        0.0
    }
}

/// Steps a sample so that `h ω ≤` [`OMEGA_STEP`] (and `h λ ≤` [`LAMBDA_STEP`]) at four
/// times the static compression (a landing presses deeper), at most [`MAX_STEPS`]:
/// the steps of an explicit damping.
pub fn steps_for(c: &Contact, load: f64, fs: f64) -> u32 {
    let (spring, damping) = needs(c, load, fs);
    whole_steps(spring.max(damping))
}

/// The steps a sample and the [`Damping`]: explicit (at [`steps_for`]'s steps) where
/// the damping's bound asks no more steps than the spring's, else split at the
/// spring's steps alone, so the damping never sets the cost; rigid where the spring
/// asks more than [`MAX_STEPS`].
pub fn plan_for(c: &Contact, load: f64, fs: f64) -> (u32, Damping) {
    let (spring, damping) = needs(c, load, fs);
    if spring.is_nan() || spring > MAX_STEPS as f64 {
        (1, Damping::Rigid)
    } else if whole_steps(damping) <= whole_steps(spring) {
        (whole_steps(spring.max(damping)), Damping::Explicit)
    } else {
        (whole_steps(spring), Damping::Split)
    }
}

/// The steps a sample the spring and an explicit damping each ask, not yet whole.
fn needs(c: &Contact, load: f64, fs: f64) -> (f64, f64) {
    let (omega, lambda) = rates(c, load);
    (omega / (fs * OMEGA_STEP), lambda / (fs * LAMBDA_STEP))
}

/// The contact's `ω` and damping rate `λ` at four times the static compression.
fn rates(c: &Contact, load: f64) -> (f64, f64) {
    let deep = 4.0 * static_compression(c, load).max(1e-9);
    let omega = (c.k * c.alpha * deep.powf(c.alpha - 1.0) / c.mass).sqrt();
    let lambda = c.k * deep.powf(c.alpha) * c.mu / c.mass;
    (omega, lambda)
}

/// Whole steps for a need, 1 to [`MAX_STEPS`] (the most for a need not finite).
fn whole_steps(need: f64) -> u32 {
    if need.is_finite() {
        need.ceil().clamp(1.0, MAX_STEPS as f64) as u32
    } else {
        MAX_STEPS
    }
}
