//! How many steps of the method a sample takes: enough for the explicit methods to be
//! stable, and accurate enough for what the contact's steps decide (its pulse's shape,
//! and for a bouncing train its exit's instant).

use crate::model::contact::{Analytic, Contact};

/// Sub-stepping: a step `h` is split so that `h ω_max ≤ OMEGA_STEP` (the stiffest
/// oscillation of the contact, `ω² = k α x_max^{α−1} (1 + μ v_in)/m`, bounds the
/// stability of the explicit methods and resolves the pulse) and `h λ_max ≤
/// DAMPING_STEP` (the fastest damping rate, `λ = k x_max^α μ/m`, which is what the
/// explicit methods cannot follow when `μ v_in` is in the tens). At 0.5 Verlet's
/// phase error keeps a contact within a few percent of eq (9). The paper's tables
/// are computed with one step per sample (`Stepping::PerSample`): there
/// `h ω_max` = 0.003, 0.20 and 0.85.
pub const OMEGA_STEP: f64 = 0.5;
pub const DAMPING_STEP: f64 = 0.5;
/// On top of stability, accuracy: up to [`ACCURATE_MAX`] steps a sample so that
/// `h ω_max ≤ OMEGA_ACCURATE`. At one step a sample the pulse's shape (not its energy,
/// which the corrections fix) depends on `h ω`, and so on the rate: the default
/// contact's dry pulse is 0.2 dB stronger at 2–6 kHz at 48 kHz than at 192 kHz. This
/// keeps the same patch's spectrum within 1 % across rates (`tests/body_rates.rs`), and
/// a bouncing train's onsets on the exact chain: on Table II(b)'s contact Verlet's 20
/// onsets stay within 11 µs of it at every rate, where at 0.2 they drift 25 µs.
pub const OMEGA_ACCURATE: f64 = 0.1;
/// A single strike (no bounce follows, see `Impact::single_strike`) only needs the
/// spectrum: at `h ω_max ≤ 0.2` the notes' centroids stay within 0.76 % from 44.1 to
/// 192 kHz and their levels within 0.07 dB (0.27 % and 0.02 dB at 0.1), and the default
/// contact (`h ω` = 0.14–0.18 at 48 kHz, 0.15–0.20 at 44.1 kHz) takes one step a sample.
pub const OMEGA_PULSE: f64 = 0.2;
pub const ACCURATE_MAX: u32 = 8;
/// Most sub-steps per sample. A contact that would need more is shorter than two
/// samples: in the damped regime steps per sample × samples per contact is about
/// `(α + 1) μ v_in / DAMPING_STEP` ≤ 4000, and an undamped one needing this many lasts
/// a small fraction of a sample. Such a contact is taken in closed form, exiting at the
/// exact `v_out` within its first sample (see `Impact::closed_form`): eq (9) allows
/// at most 4 samples where it is under 3. Work per sample is bounded by this many
/// steps; work per contact by about `(α + 1) μ v_in / DAMPING_STEP + π / OMEGA_STEP +
/// MAX_SUBSTEPS` ≤ ~6000 steps.
pub const MAX_SUBSTEPS: u32 = 2048;

/// Sub-steps per sample for a contact at step `h`, or `None` where it needs more than
/// [`MAX_SUBSTEPS`] (or the parameters are degenerate).
pub fn substeps_for(an: &Analytic, h: f64) -> Option<u32> {
    substeps_at(&an.contact, an.v_in, an.x_max(), h)
}

/// [`substeps_for`] with the deepest compression `x_deep` given (under a load the mass
/// goes deeper than eq (8)'s `x_max`).
pub fn substeps_at(c: &Contact, v_in: f64, x_deep: f64, h: f64) -> Option<u32> {
    substeps_within(c, v_in, x_deep, h, OMEGA_ACCURATE)
}

/// [`substeps_at`] with the accuracy `h ω_max ≤ omega_accurate`.
pub fn substeps_within(
    c: &Contact,
    v_in: f64,
    x_deep: f64,
    h: f64,
    omega_accurate: f64,
) -> Option<u32> {
    let need = need_within(c, v_in, x_deep, h, omega_accurate);
    if need <= 1.0 {
        Some(1)
    } else if need <= MAX_SUBSTEPS as f64 {
        Some(need.ceil() as u32)
    } else {
        None
    }
}

/// The steps a sample [`substeps_within`] rounds up: what stability and accuracy ask,
/// as a real number (at most 1 is one step a sample). Linear in `h` below
/// [`ACCURATE_MAX`], so `1 / need` is how many samples one step could span.
pub fn need_within(c: &Contact, v_in: f64, x_deep: f64, h: f64, omega_accurate: f64) -> f64 {
    let x_pow = c.x_pow_alpha(x_deep);
    let omega2 = c.k * c.alpha * (x_pow / x_deep) * (1.0 + c.mu * v_in) / c.mass;
    let lambda = c.k * x_pow * c.mu / c.mass;
    let h_omega = h * omega2.sqrt();
    let stable = (h_omega / OMEGA_STEP).max(h * lambda / DAMPING_STEP);
    stable.max((h_omega / omega_accurate).min(ACCURATE_MAX as f64))
}

/// Above this many steps a sample asked by the damping alone (`h λ / DAMPING_STEP`), a
/// contact is taken by the damping-exact step (`impact::damped`) at the steps its spring
/// needs. Over 1000 random patches the contacts past it (a low restitution at a low
/// speed, or a heavy load pressing a soft contact) were the dearest by far: up to 400
/// steps a sample of RK4 over a contact of half a second.
pub const DAMPED_OVER: f64 = 8.0;

/// How a contact at step `h` is stepped: `Some((n, false))` the method at `n` steps a
/// sample ([`substeps_within`]), `Some((n, true))` the damping-exact step at `n` (the
/// steps of the spring stiffened by the damping at `v_in`) where the damping alone would
/// ask the method for more than that and more than [`DAMPED_OVER`], `None` in closed
/// form (more than [`MAX_SUBSTEPS`] either way, or degenerate parameters).
pub fn plan_within(
    c: &Contact,
    v_in: f64,
    x_deep: f64,
    h: f64,
    omega_accurate: f64,
) -> Option<(u32, bool)> {
    let x_pow = c.x_pow_alpha(x_deep);
    let lambda = c.k * x_pow * c.mu / c.mass;
    // The spring stiffened by the damping at v_in, as in `substeps_within`: what the
    // damping-exact step still takes explicitly (its `x^α` over the step).
    let h_omega = h * (c.k * c.alpha * (x_pow / x_deep) * (1.0 + c.mu * v_in) / c.mass).sqrt();
    let damping_need = h * lambda / DAMPING_STEP;
    let need = (h_omega / OMEGA_STEP).max((h_omega / omega_accurate).min(ACCURATE_MAX as f64));
    // Only where the damping, not the spring, sets the method's steps.
    if damping_need > DAMPED_OVER && damping_need > need && need <= MAX_SUBSTEPS as f64 {
        return Some((need.ceil().max(1.0) as u32, true));
    }
    substeps_within(c, v_in, x_deep, h, omega_accurate).map(|n| (n, false))
}

/// The lowest rate a strided contact is stepped at ([`Impact::strided`]): one step
/// spans at most `fs / STRIDE_RATE` samples, so a contact costs at 96 or 192 kHz what
/// it costs at 44.1–48 kHz, where every sample is a step.
pub const STRIDE_RATE: f64 = 44_100.0;
/// Most samples one step spans, whatever the rate.
pub const MAX_STRIDE: u32 = 8;

/// How many samples one step of a contact at sample step `h` may span, at most
/// `most`: the steps stay within what [`need_within`] asks at `omega_accurate`.
pub fn stride_within(
    c: &Contact,
    v_in: f64,
    x_deep: f64,
    h: f64,
    omega_accurate: f64,
    most: u32,
) -> u32 {
    let need = need_within(c, v_in, x_deep, h, omega_accurate);
    if need > 0.0 && need <= 1.0 {
        // `need` ≤ 1 is the linear part: `d` samples a step ask `d · need`.
        (1.0 / need).min(most as f64).max(1.0) as u32
    } else {
        1
    }
}
