//! Humanize: a seeded, reproducible jitter of each hit, so repeated notes are not
//! bit-identical (the machine-gun effect) while a render stays reproducible.
//!
//! One draw per note-on, from a counter-based generator: the jitter of the n-th note
//! since the last reset is a pure function of (Seed, n), splitmix64 (Steele, Lea &
//! Flood 2014) of the two. Nothing depends on timing or block sizes, so the same seed
//! and the same notes give the same render bit for bit, and a reset (a host's
//! transport restart, an offline bounce) starts the sequence over.
//!
//! What a hit's jitter moves, at Humanize amount 1 (scaled linearly below it):
//! - strike speed `v_in`: ×(1 ± 0.20);
//! - strike position: ± 0.15;
//! - contact time: ×e^{±0.26} (about ±30 %): Hardness directly, and in expert mode
//!   `k` by the inverse of eq (9)'s `τ ∝ k^{−1/(α+1)}`, i.e. `k ×e^{∓0.26(α+1)}`.
//!
//! Amount 0 gives the exact identity (every factor exactly 1, every offset 0).

use crate::engine::params::{Controls, EngineParams, LIMITS};

/// Strike-speed jitter at amount 1: ±20 %.
pub const SPEED_SPREAD: f64 = 0.20;
/// Strike-position jitter at amount 1: ±0.15.
pub const POSITION_SPREAD: f64 = 0.15;
/// Contact-time jitter at amount 1: ×e^{±0.26}.
pub const CONTACT_SPREAD: f64 = 0.26;
/// Velocity → Hardness at amount 1: a note at a fraction `r` of the full-velocity
/// speed has its contact time ×r^−2 (at 30 % of the speed, 11× longer).
pub const VELOCITY_CONTACT_EXPONENT: f64 = 2.0;

/// One hit's jitter (see the module doc). [`Jitter::NONE`] changes nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Jitter {
    /// Factor on the strike speed `v_in`.
    pub speed: f64,
    /// Offset of the strike position.
    pub position: f64,
    /// Factor on the contact time (Hardness, ms).
    pub contact: f64,
    /// Factor on `k` giving the same change of contact time in expert mode (eq 9),
    /// for the `α` of the note-on.
    pub k: f64,
}

impl Jitter {
    pub const NONE: Jitter = Jitter {
        speed: 1.0,
        position: 0.0,
        contact: 1.0,
        k: 1.0,
    };

    /// The jitter of three uniform draws `u` in `[−1, 1]` at `amount` for a contact of
    /// exponent `alpha`.
    pub fn of(u: [f64; 3], amount: f64, alpha: f64) -> Self {
        let a = if amount.is_finite() {
            amount.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if a == 0.0 {
            return Self::NONE;
        }
        let log_tau = CONTACT_SPREAD * a * u[2];
        Self {
            speed: 1.0 + SPEED_SPREAD * a * u[0],
            position: POSITION_SPREAD * a * u[1],
            contact: log_tau.exp(),
            // τ ∝ k^{−1/(α+1)} (eq 9): τ × c needs k × c^{−(α+1)}.
            k: (-log_tau * (alpha + 1.0)).exp(),
        }
    }

    /// This jitter with the contact time of a note struck at `speed_ratio` of the
    /// full-velocity speed lengthened by Velocity → Hardness `amount`:
    /// ×ratio^−(amount·[`VELOCITY_CONTACT_EXPONENT`]) (in expert mode `k` by the inverse of eq (9), as for the jitter). A softer note
    /// then strikes softer, as a felt hammer or a mallet's wrap does: its contact
    /// stiffens with the force. Amount 0, or full velocity, changes nothing.
    pub fn with_velocity_hardness(self, speed_ratio: f64, amount: f64, alpha: f64) -> Self {
        if !(amount > 0.0 && speed_ratio > 0.0 && speed_ratio < 1.0) {
            return self;
        }
        let log_tau = -amount.min(1.0) * VELOCITY_CONTACT_EXPONENT * speed_ratio.ln();
        Self {
            contact: self.contact * log_tau.exp(),
            k: self.k * (-log_tau * (alpha + 1.0)).exp(),
            ..self
        }
    }

    /// `p` moved by this jitter: the strike position, and the contact time (Hardness;
    /// `k` too in expert mode), kept inside the parameters' limits. The strike speed
    /// is not a parameter: the voice multiplies its `v_in` by [`speed`](Self::speed).
    #[inline]
    pub fn apply(&self, p: &EngineParams) -> EngineParams {
        if *self == Self::NONE {
            return *p;
        }
        let (lo, hi) = (&LIMITS[0], &LIMITS[1]);
        let mut q = *p;
        q.position = (q.position + self.position).clamp(lo.position, hi.position);
        q.hardness_ms = (q.hardness_ms * self.contact).clamp(lo.hardness_ms, hi.hardness_ms);
        if q.controls == Controls::Expert {
            q.k = (q.k * self.k).clamp(lo.k, hi.k);
        }
        q
    }
}

/// splitmix64's output function on `x` advanced by the golden-ratio increment.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform number in `[−1, 1)` from the top 53 bits of `x`.
fn signed_unit(x: u64) -> f64 {
    (x >> 11) as f64 * (2.0 / (1u64 << 53) as f64) - 1.0
}

/// The per-engine sequence of hits: one draw per note-on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Humanizer {
    /// Note-ons since the last reset.
    count: u64,
}

impl Humanizer {
    /// Starts the sequence over (the next note draws as the first did).
    pub fn reset(&mut self) {
        self.count = 0;
    }

    /// The next note's jitter for the Humanize amount and Seed of `p` (the counter
    /// advances whatever the amount, so changing it does not shift later hits).
    pub fn draw(&mut self, p: &EngineParams) -> Jitter {
        let n = self.count;
        self.count = self.count.wrapping_add(1);
        let seed = if p.seed.is_finite() && p.seed > 0.0 {
            p.seed as u64
        } else {
            0
        };
        // Distinct streams per seed: the seed in the high word, the note in the low.
        let base = splitmix64((seed << 32) ^ n);
        let mut u = [0.0; 3];
        for (i, ui) in u.iter_mut().enumerate() {
            *ui = signed_unit(splitmix64(base.wrapping_add(i as u64)));
        }
        Jitter::of(u, p.humanize, p.alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_their_spreads_and_cover_them() {
        let p = EngineParams {
            humanize: 1.0,
            ..EngineParams::default()
        };
        let mut h = Humanizer::default();
        let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
        for _ in 0..2000 {
            let j = h.draw(&p);
            let v = [j.speed - 1.0, j.position, j.contact.ln()];
            for i in 0..3 {
                lo[i] = lo[i].min(v[i]);
                hi[i] = hi[i].max(v[i]);
            }
        }
        let spread = [SPEED_SPREAD, POSITION_SPREAD, CONTACT_SPREAD];
        for i in 0..3 {
            assert!(
                lo[i] >= -spread[i] && hi[i] <= spread[i],
                "{i}: {lo:?} {hi:?}"
            );
            assert!(
                lo[i] < -0.9 * spread[i] && hi[i] > 0.9 * spread[i],
                "{i}: {lo:?} {hi:?}"
            );
        }
    }

    #[test]
    fn expert_k_keeps_the_contact_time_change_of_eq_9() {
        let alpha = 1.5;
        let j = Jitter::of([0.3, -0.2, 0.8], 1.0, alpha);
        // τ ∝ k^{−1/(α+1)}: the k factor gives the contact factor.
        let tau = j.k.powf(-1.0 / (alpha + 1.0));
        assert!(
            (tau / j.contact - 1.0).abs() < 1e-12,
            "{tau} vs {}",
            j.contact
        );
    }

    #[test]
    fn amount_0_is_the_identity() {
        let p = EngineParams::default();
        let mut h = Humanizer::default();
        for _ in 0..10 {
            let j = h.draw(&p);
            assert_eq!(j, Jitter::NONE);
            assert_eq!(j.apply(&p), p);
        }
    }
}
