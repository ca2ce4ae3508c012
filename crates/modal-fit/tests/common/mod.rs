//! Synthetic strikes for the tests: seeded sums of decaying sinusoids in white noise,
//! and the acceptance check of a fit against the truth.
#![allow(dead_code)]

use modal_fit::{Fit, Recording};
use std::f64::consts::{LN_10, PI};

/// A tiny seeded generator (xorshift64*), so the tests need no random-number crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        (-2.0 * u.ln()).sqrt() * (2.0 * PI * self.uniform()).cos()
    }

    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.uniform()).exp()
    }
}

/// One true partial.
#[derive(Debug, Clone, Copy)]
pub struct Partial {
    pub freq: f64,
    pub t60: f64,
    /// Initial amplitude, linear.
    pub amp: f64,
    pub phase: f64,
}

impl Partial {
    pub fn sample(&self, t: f64) -> f64 {
        self.amp
            * (-t * 3.0 * LN_10 / self.t60).exp()
            * (2.0 * PI * self.freq * t + self.phase).cos()
    }
}

/// The acceptance scenario's partials: 8 of them, log-uniform 100 Hz–12 kHz at least
/// 3 % apart, T60 log-uniform 0.05–3 s, levels uniform 0 to −30 dB below the
/// strongest, whose amplitude is `top`.
pub fn random_partials(rng: &mut Rng, top: f64) -> Vec<Partial> {
    let mut freqs: Vec<f64> = Vec::new();
    while freqs.len() < 8 {
        let f = rng.log_uniform(100.0, 12_000.0);
        if freqs.iter().all(|&g| (f / g).ln().abs() > 0.03f64.ln_1p()) {
            freqs.push(f);
        }
    }
    let levels: Vec<f64> = (0..8).map(|_| -30.0 * rng.uniform()).collect();
    let loudest = levels.iter().copied().fold(f64::MIN, f64::max);
    freqs
        .iter()
        .zip(&levels)
        .map(|(&freq, &l)| Partial {
            freq,
            t60: rng.log_uniform(0.05, 3.0),
            amp: top * 10f64.powf((l - loudest) / 20.0),
            phase: 2.0 * PI * rng.uniform(),
        })
        .collect()
}

/// `pre` seconds of noise, then the partials, `len` seconds in all, with white
/// Gaussian noise of standard deviation `noise` throughout.
pub fn render(
    partials: &[Partial],
    fs: f64,
    pre: f64,
    len: f64,
    noise: f64,
    rng: &mut Rng,
) -> Vec<f64> {
    let n = (len * fs) as usize;
    let start = (pre * fs).round() as usize;
    (0..n)
        .map(|i| {
            let tone = if i >= start {
                let t = (i - start) as f64 / fs;
                partials.iter().map(|p| p.sample(t)).sum()
            } else {
                0.0
            };
            tone + noise * rng.normal()
        })
        .collect()
}

pub fn mono(fs: f64, x: Vec<f64>) -> Recording {
    Recording {
        fs,
        channels: vec![x],
    }
}

/// The worst errors of one fit against the truth.
#[derive(Debug, Default, Clone, Copy)]
pub struct Errors {
    /// Relative frequency error, %.
    pub freq_pct: f64,
    /// Relative T60 error, %.
    pub t60_pct: f64,
    /// Level error, dB.
    pub level_db: f64,
    /// Loudest mode not matching a partial, dB (−inf when none).
    pub spurious_db: f64,
    /// Partials at −24 dB or louder with no mode within 0.2 %.
    pub missed: usize,
}

impl Errors {
    pub fn worst(self, o: Self) -> Self {
        Self {
            freq_pct: self.freq_pct.max(o.freq_pct),
            t60_pct: self.t60_pct.max(o.t60_pct),
            level_db: self.level_db.max(o.level_db),
            spurious_db: self.spurious_db.max(o.spurious_db),
            missed: self.missed + o.missed,
        }
    }

    /// The acceptance bar: within 0.2 %, 15 %, 3 dB and nothing spurious above −20 dB.
    pub fn pass(&self) -> bool {
        self.missed == 0
            && self.freq_pct <= 0.2
            && self.t60_pct <= 15.0
            && self.level_db <= 3.0
            && self.spurious_db <= -20.0
    }
}

/// Compares a fit with the partials: every partial at −24 dB or louder (relative to
/// the loudest) must have a mode, and a mode that is no partial is spurious.
pub fn compare(fit: &Fit, partials: &[Partial]) -> Errors {
    let top = partials.iter().map(|p| p.amp).fold(0.0, f64::max);
    let mut e = Errors {
        spurious_db: f64::NEG_INFINITY,
        ..Errors::default()
    };
    for p in partials {
        let level = 20.0 * (p.amp / top).log10();
        let nearest = fit.modes.iter().min_by(|a, b| {
            (a.freq_hz - p.freq)
                .abs()
                .total_cmp(&(b.freq_hz - p.freq).abs())
        });
        let Some(m) = nearest.filter(|m| (m.freq_hz / p.freq - 1.0).abs() < 0.002) else {
            if level >= -24.0 {
                e.missed += 1;
            }
            continue;
        };
        if level < -24.0 {
            continue;
        }
        e.freq_pct = e.freq_pct.max(100.0 * (m.freq_hz / p.freq - 1.0).abs());
        e.t60_pct = e.t60_pct.max(100.0 * (m.t60_s / p.t60 - 1.0).abs());
        e.level_db = e.level_db.max((m.level_db - level).abs());
    }
    for m in &fit.modes {
        let near = partials
            .iter()
            .any(|p| (m.freq_hz / p.freq - 1.0).abs() < 0.002);
        if !near {
            e.spurious_db = e.spurious_db.max(m.level_db);
        }
    }
    e
}
