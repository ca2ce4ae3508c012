//! Per-bounce irregularity: a real object does not bounce on a geometric chain. It
//! spins, lands on an edge or a face, hits a slightly different spot, and each bounce
//! leaves with its own restitution. The Sound Design Toolkit's bouncing model has an
//! irregularity control for it; here it scales each flight's take-off speed `|v_out|` by a factor drawn in
//! `[1 − amount·`[`SPREAD`]`, 1]`, seeded and counter-based (splitmix64 of the seed and
//! the bounce number), so the same seed gives the same train bit for bit.
//!
//! The factor only takes energy away (never over the contact's own `v_out`): a train
//! with irregularity still ends, sooner. The contact itself, its impulse and its
//! energy bookkeeping are untouched: the draw acts in the flight that follows it. At
//! amount 0 there is no draw at all: the train is the exact chain it was.

/// At amount 1 a take-off speed keeps between half and all of its `|v_out|`.
pub const SPREAD: f64 = 0.5;

/// A train's irregularity: how much, and which draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Irregularity {
    amount: f64,
    seed: u64,
}

impl Irregularity {
    /// No irregularity: the exact chain.
    pub const NONE: Irregularity = Irregularity {
        amount: 0.0,
        seed: 0,
    };

    /// `amount` in `[0, 1]` (anything else, or not a number, is taken as the nearest
    /// end, or 0).
    pub fn new(amount: f64, seed: u64) -> Self {
        let amount = if amount.is_nan() {
            0.0
        } else {
            amount.clamp(0.0, 1.0)
        };
        Self { amount, seed }
    }

    pub fn amount(&self) -> f64 {
        self.amount
    }

    /// The factor on the take-off speed after the train's `bounce`-th contact (1 at
    /// amount 0).
    pub fn factor(&self, bounce: u32) -> f64 {
        if self.amount == 0.0 {
            return 1.0;
        }
        let u = unit(splitmix64(self.seed ^ ((bounce as u64) << 40)));
        1.0 - self.amount * SPREAD * u
    }
}

/// splitmix64 (Steele, Lea & Flood 2014): one output of the sequence at `x`.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform number in `[0, 1)` from the top 53 bits of `x`.
pub fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_stay_in_their_window_and_cover_it() {
        assert_eq!(Irregularity::NONE.factor(3), 1.0);
        assert_eq!(Irregularity::new(0.0, 77).factor(3), 1.0);
        for amount in [0.25, 1.0] {
            let r = Irregularity::new(amount, 9);
            let f: Vec<f64> = (0..2000).map(|b| r.factor(b)).collect();
            let lo = f.iter().cloned().fold(f64::MAX, f64::min);
            let hi = f.iter().cloned().fold(f64::MIN, f64::max);
            assert!(lo >= 1.0 - amount * SPREAD && hi <= 1.0, "{lo} {hi}");
            assert!(lo < 1.0 - 0.95 * amount * SPREAD && hi > 0.99, "{lo} {hi}");
        }
        // The same seed draws the same; another seed, others.
        let (a, b) = (Irregularity::new(0.5, 1), Irregularity::new(0.5, 2));
        assert_eq!(a.factor(5), Irregularity::new(0.5, 1).factor(5));
        assert_ne!(a.factor(5), b.factor(5));
        for bad in [f64::NAN, -1.0] {
            assert_eq!(Irregularity::new(bad, 1).amount(), 0.0);
        }
        assert_eq!(Irregularity::new(7.0, 1).amount(), 1.0);
    }
}
