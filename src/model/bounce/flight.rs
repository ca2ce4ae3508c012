//! Ballistic flight between contacts, in closed form: under constant gravity `g` toward
//! the wall (`x > 0` is inside it) the mass that left at `(x0, v0)` is at
//! `x0 + v0 t + g t²/2` with velocity `v0 + g t`. The rigid wall's bouncer and the
//! two-way strike fly the same way; only what they fly back to differs (the wall, or
//! the body surface's reach).

/// `(x, v)` of a flight from `(x0, v0)` under `g`, `t` s after it left.
#[inline]
pub fn flight_at(x0: f64, v0: f64, g: f64, t: f64) -> (f64, f64) {
    (x0 + v0 * t + 0.5 * g * t * t, v0 + g * t)
}

/// When a flight from `(x0, v0)` (`v0 < 0`: leaving) under `g > 0` is back at `x = to`
/// (`to ≥ x0`): the positive root of `x0 − to + v0 t + g t²/2 = 0`.
#[inline]
pub fn flight_return(x0: f64, v0: f64, g: f64, to: f64) -> f64 {
    let c = x0 - to;
    (-v0 + (v0 * v0 - 2.0 * g * c).max(0.0).sqrt()) / g
}

/// The speed a flight from `(x0, v0)` under `g` lands with at `x = 0` (flight conserves
/// energy: `v² = v0² − 2 g x0`).
#[inline]
pub fn landing_speed(x0: f64, v0: f64, g: f64) -> f64 {
    (v0 * v0 - 2.0 * g * x0).max(0.0).sqrt()
}
