//! Crumpling as a train of impacts: paper, foil or a plastic cup crushed in the hand
//! snaps in many small events and a few large ones, at irregular instants (Houle &
//! Sethna 1996 measured the energies of crumpling paper's clicks on a power law).
//! Fontana & Bresin's crumpling model, which the Sound Design Toolkit builds on its
//! impact, drives an impact with such a train. Here each event is a whole
//! Hunt–Crossley strike of the voice's contact on its body (the engine's re-strike),
//! so Hardness, Bounciness, Mass and the body act on every click.
//!
//! The law, drawn counter-based from a seed (splitmix64 of the seed and the event's
//! number), so the same seed gives the same train bit for bit:
//!
//! - **energies** `E/E_max` on a power law `p(E) ∝ E^−τ` over `[ENERGY_FLOOR, 1]`
//!   (inverse CDF of the truncated law); the strike speed of an event is
//!   `v_top √(E/E_max)`, so no event is harder than the note's own strike;
//! - **intervals** exponential with mean `1/rate` (a Poisson process: the events do
//!   not know of each other), their coefficient of variation 1, at least one sample;
//! - **power**: a faster crush splits the same work into more, smaller events. Where
//!   `rate · ⟨E⟩/E_max` would pass [`STRIKES_PER_SECOND`], every event's energy is
//!   scaled down to it, so a train at 500 events a second is as loud as one at 80,
//!   not 8 dB louder, and the body's sum stays under full scale.

use super::irregular::{splitmix64, unit};

/// The weakest event's energy against the strongest: 20 dB, so the weakest strike
/// speed is a tenth of the note's (about −20 dB at the wall, still heard as a click
/// under a loud one).
pub const ENERGY_FLOOR: f64 = 1e-2;

/// Most full-energy strikes a second a train's events add up to (see the module's
/// power rule). The default train (40 a second at `τ` 1.4, where `⟨E⟩` ≈ 0.12
/// `E_max`: 4.7 strikes' worth) is under it; 500 a second at `τ` 1 (107 strikes'
/// worth) plays its events at 0.075 of their drawn energy.
pub const STRIKES_PER_SECOND: f64 = 8.0;

/// A crumpling train's law: how often, how hard, and which draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrumpleLaw {
    /// Mean events per second.
    pub rate: f64,
    /// The power law's exponent `τ` (≥ 1 in practice; near 1 the energies spread
    /// evenly over the decades, larger makes most events faint).
    pub tau: f64,
    pub seed: u64,
}

/// One event of a train: when it comes after the one before, and how hard.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrumpleEvent {
    /// Seconds after the event before (> 0).
    pub interval: f64,
    /// Its strike speed over the note's, `√(E/E_max)` in `[√ENERGY_FLOOR, 1]`.
    pub speed: f64,
}

impl CrumpleLaw {
    /// The `n`-th event of the train (`n` from 0).
    pub fn event(&self, n: u32) -> CrumpleEvent {
        let base = self.seed ^ (u64::from(n) << 33);
        let (u_t, u_e) = (unit(splitmix64(base)), unit(splitmix64(base ^ 0x5bd1)));
        CrumpleEvent {
            // −ln(1 − u) with u in [0, 1): finite and ≥ 0; its mean is 1.
            interval: -(-u_t).ln_1p() / self.usable_rate(),
            speed: (energy_fraction(self.tau, u_e) * self.energy_scale()).sqrt(),
        }
    }

    /// The factor on every event's energy of the power rule: 1 where the train's mean
    /// power is under [`STRIKES_PER_SECOND`] full strikes.
    pub fn energy_scale(&self) -> f64 {
        (STRIKES_PER_SECOND / (self.usable_rate() * mean_energy(self.tau))).min(1.0)
    }

    /// The rate where it is a rate (finite, > 0); else one event a second.
    fn usable_rate(&self) -> f64 {
        if self.rate.is_finite() && self.rate > 0.0 {
            self.rate
        } else {
            1.0
        }
    }
}

/// `⟨E⟩/E_max` of the law `p(E) ∝ E^−τ` on `[ENERGY_FLOOR, 1]`.
pub fn mean_energy(tau: f64) -> f64 {
    let r = ENERGY_FLOOR;
    let tau = usable_tau(tau);
    // ∫ E^{1−τ} / ∫ E^{−τ}, each `(1 − r^a)/a` (or `−ln r` at a = 0).
    let part = |a: f64| {
        if a.abs() < 1e-9 {
            -r.ln()
        } else {
            (1.0 - r.powf(a)) / a
        }
    };
    part(2.0 - tau) / part(1.0 - tau)
}

/// The inverse CDF of `p(E) ∝ E^−τ` on `[ENERGY_FLOOR, 1]` at `u` in `[0, 1]`.
pub fn energy_fraction(tau: f64, u: f64) -> f64 {
    let r = ENERGY_FLOOR;
    let tau = usable_tau(tau);
    let e = if (tau - 1.0).abs() < 1e-9 {
        // τ = 1: uniform in log E.
        r.powf(1.0 - u)
    } else {
        let a = 1.0 - tau;
        // F(E) = (E^a − r^a)/(1 − r^a), solved for E.
        let ra = r.powf(a);
        (ra + u * (1.0 - ra)).powf(1.0 / a)
    };
    e.clamp(r, 1.0)
}

/// `τ` where the law is defined and its powers finite: NaN is 1, and the rest is kept
/// in `[0, 5]` (the plugin's range is 1–3).
fn usable_tau(tau: f64) -> f64 {
    if tau.is_nan() {
        1.0
    } else {
        tau.clamp(0.0, 5.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The energies follow the law they are drawn from: over the decades of the
    /// range, the share of events in each matches the law's integral.
    #[test]
    fn energies_follow_the_power_law() {
        for tau in [1.0, 1.4, 2.0, 3.0] {
            let law = CrumpleLaw {
                rate: 50.0,
                tau,
                seed: 7,
            };
            let n = 200_000;
            let mut counts = [0u32; 2];
            for i in 0..n {
                let e = law.event(i).speed.powi(2) / law.energy_scale();
                let decade = (-e.log10()).floor().clamp(0.0, 1.0) as usize;
                counts[decade] += 1;
            }
            // ∫ E^−τ over [10^−(d+1), 10^−d], normalised over the range.
            let prim = |e: f64| {
                if (tau - 1.0).abs() < 1e-9 {
                    e.ln()
                } else {
                    e.powf(1.0 - tau) / (1.0 - tau)
                }
            };
            let total = prim(1.0) - prim(ENERGY_FLOOR);
            let mean: f64 = (0..n).map(|i| law.event(i).speed.powi(2)).sum::<f64>() / n as f64;
            let want = mean_energy(tau) * law.energy_scale();
            assert!(
                (mean / want - 1.0).abs() < 0.01,
                "τ {tau}: ⟨E⟩ {mean} vs {want}"
            );
            for (d, &c) in counts.iter().enumerate() {
                let lo = 10f64.powi(-(d as i32) - 1);
                let want = (prim(lo * 10.0) - prim(lo)) / total;
                let got = c as f64 / n as f64;
                assert!(
                    (got - want).abs() < 0.01,
                    "τ {tau} decade {d}: {got} vs {want}"
                );
            }
        }
    }

    /// The power rule: the events' mean power is the cap's wherever the rate would pass
    /// it, and untouched below.
    #[test]
    fn a_faster_crush_splits_the_same_power() {
        for tau in [1.0, 1.4, 3.0] {
            for rate in [1.0, 10.0, 40.0, 500.0] {
                let law = CrumpleLaw { rate, tau, seed: 5 };
                let power = rate * mean_energy(tau) * law.energy_scale();
                let raw = rate * mean_energy(tau);
                assert!(
                    (power - raw.min(STRIKES_PER_SECOND)).abs() < 1e-12 * raw,
                    "{tau} {rate}"
                );
            }
        }
    }

    /// Intervals are exponential: mean 1/rate, coefficient of variation 1, all
    /// positive; the same seed draws the same train, another seed another.
    #[test]
    fn intervals_are_a_poisson_process() {
        let law = CrumpleLaw {
            rate: 40.0,
            tau: 1.4,
            seed: 3,
        };
        let n = 100_000;
        let t: Vec<f64> = (0..n).map(|i| law.event(i).interval).collect();
        let mean = t.iter().sum::<f64>() / n as f64;
        let var = t.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!((mean * 40.0 - 1.0).abs() < 0.02, "{mean}");
        assert!((var.sqrt() / mean - 1.0).abs() < 0.03);
        assert!(t.iter().all(|&x| x >= 0.0 && x.is_finite()));
        assert_eq!(law.event(17), CrumpleLaw { seed: 3, ..law }.event(17));
        assert_ne!(law.event(17), CrumpleLaw { seed: 4, ..law }.event(17));
    }

    /// Bad values give a usable train, never a NaN.
    #[test]
    fn bad_values_are_safe() {
        for (rate, tau) in [(f64::NAN, f64::NAN), (0.0, -5.0), (f64::INFINITY, 1e9)] {
            let law = CrumpleLaw { rate, tau, seed: 1 };
            let e = law.event(0);
            assert!(e.interval.is_finite() && e.interval >= 0.0);
            assert!(e.speed > 0.0 && e.speed <= 1.0, "{e:?}");
        }
    }
}
