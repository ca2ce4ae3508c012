//! A fixed stream of random patches for the randomised tests and benches: the library's
//! splitmix64 over a counter, so a failure names a reproducible case.
#![allow(dead_code)]

use rebound::model::irregular::splitmix64;

pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)`, from the top 53 bits.
    pub fn next(&mut self) -> f64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `lo` or `hi` one time in eight each (the ends of a range are where the hard
    /// cases are), else uniform in `f(lo)..f(hi)`, `f` the logarithm when `log`.
    pub fn range(&mut self, lo: f64, hi: f64, log: bool) -> f64 {
        let pick = self.next();
        if pick < 0.125 {
            return lo;
        }
        if pick < 0.25 {
            return hi;
        }
        let t = self.next();
        if log {
            (lo.ln() + t * (hi.ln() - lo.ln())).exp()
        } else {
            lo + t * (hi - lo)
        }
    }

    /// Log-uniform over `[lo, hi]`.
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + self.next() * (hi.ln() - lo.ln())).exp()
    }

    /// Uniform over `[lo, hi]`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + self.next() * (hi - lo)
    }
}
