//! A rough surface for rolling and scraping: a seeded fractal height profile along the
//! path, and the profile a ball of radius `r` rests on.
//!
//! **The profile.** Heights on a grid of [`DX`], generated forward as the path goes
//! (no table, no allocation): the sum of [`OCTAVES`] first-order (Ornstein–Uhlenbeck)
//! processes with spatial corners an octave apart, the `i`-th weighted `c_i^{(1−β)/2}`.
//! A sum of Lorentzians so weighted has the power spectrum `1/f^β` between its lowest
//! and highest corners for `0 ≤ β ≤ 2` (van den Doel, Kry & Pai's surface profiles are
//! such fractal noise; Rath's rolling model filters one). The sum is scaled to the
//! RMS height `roughness` from its stationary variance, so the control is in metres.
//!
//! **What the ball reaches.** A ball's lowest point cannot enter a dip narrower than its
//! curvature allows: resting on the profile `s`, its lowest point is at
//! `max_u [s(x + u) − (r − √(r² − u²))]` (the upper envelope of the profile under the
//! ball's circle). It is taken over the [`REACH`] grid points each side of `x`: a ball
//! whose circle falls more than that far below its lowest point within them is
//! treated as if flat beyond (`docs/gestures.md` gives the reach in millimetres).

use super::irregular::{splitmix64, unit};

/// Grid step of the profile, m: 25 µm, so a ball rolling at 2 m/s meets spatial
/// detail up to 40 kHz.
pub const DX: f64 = 25e-6;
/// First-order processes summed.
pub const OCTAVES: usize = 10;
/// The lowest corner, cycles per metre (a wavelength of 10 cm); the others rise by
/// octaves to about 20 cycles a millimetre, half the grid's rate.
const LOWEST_CORNER: f64 = 10.0;
/// Grid points each side of the ball's lowest point that its circle is compared with.
pub const REACH: usize = 24;
/// Points held: the window the envelope reads and more, a power of two (an index is
/// masked, not divided).
const HELD: usize = 64;
const _: () = assert!(HELD >= 2 * REACH + 2 && HELD.is_power_of_two());
/// Points the envelope compares: the centre and [`REACH`] each side.
const WINDOW: usize = 2 * REACH + 1;

/// A profile generator and the envelope a ball of radius `r` rests on.
#[derive(Clone, Copy, Debug)]
pub struct Surface {
    /// Each process's state, its pole and its innovation's scale.
    state: [f64; OCTAVES],
    pole: [f64; OCTAVES],
    gain: [f64; OCTAVES],
    seed: u64,
    /// Grid points made so far.
    made: u64,
    /// The last [`HELD`] heights, by grid index modulo `HELD`, each written twice (at
    /// `i` and `i + HELD`): any window of them is one run of memory.
    ring: [f64; 2 * HELD],
    /// The last envelope read: its path point and value (a sample reads two points,
    /// and the next sample mostly the same ones).
    last: [(u64, f64); 2],
    /// `r − √(r² − u²)` at `u = (j − REACH)·DX`, `j = 0..=2 REACH`: how far the
    /// ball's circle is above its lowest point there.
    lift: [f64; WINDOW],
}

impl Surface {
    /// A surface of RMS height `roughness` (m) and spectral exponent `beta`, under a
    /// ball of `radius` (m), drawn from `seed`. Values out of range are taken at the
    /// nearest usable one.
    pub fn new(roughness: f64, beta: f64, radius: f64, seed: u64) -> Self {
        let beta = if beta.is_nan() {
            1.5
        } else {
            beta.clamp(0.0, 2.0)
        };
        let sigma = if roughness.is_finite() {
            roughness.max(0.0)
        } else {
            0.0
        };
        let r = if radius.is_finite() {
            radius.max(1e-5)
        } else {
            0.01
        };
        let mut pole = [0.0; OCTAVES];
        let mut gain = [0.0; OCTAVES];
        let mut var = 0.0;
        for i in 0..OCTAVES {
            let c = LOWEST_CORNER * 2f64.powi(i as i32);
            let a = (-2.0 * std::f64::consts::PI * c * DX).exp();
            // Uniform innovations in [−1, 1): variance 1/3.
            let w = c.powf(0.5 * (1.0 - beta)) * (1.0 - a * a).sqrt();
            pole[i] = a;
            gain[i] = w;
            var += w * w / (3.0 * (1.0 - a * a));
        }
        let scale = if var > 0.0 { sigma / var.sqrt() } else { 0.0 };
        let lift = std::array::from_fn(|j| {
            let u = (j as f64 - REACH as f64) * DX;
            if u.abs() < r {
                r - (r * r - u * u).sqrt()
            } else {
                f64::INFINITY
            }
        });
        let mut s = Self {
            state: [0.0; OCTAVES],
            pole,
            gain: gain.map(|g| g * scale),
            seed,
            made: 0,
            ring: [0.0; 2 * HELD],
            last: [(u64::MAX, 0.0); 2],
            lift,
        };
        // Each process starts in its stationary state, so the profile has no run-in.
        for i in 0..OCTAVES {
            let sd = s.gain[i] / (3.0 * (1.0 - s.pole[i] * s.pole[i])).sqrt();
            s.state[i] = sd * 3f64.sqrt() * uniform(splitmix64(seed ^ (0xA5A5 + i as u64)));
        }
        for _ in 0..HELD {
            s.advance();
        }
        s
    }

    /// Makes the next grid point.
    #[inline]
    fn advance(&mut self) {
        let mut h = 0.0;
        let mut bits = 0u64;
        for i in 0..OCTAVES {
            if i % 4 == 0 {
                bits = splitmix64(self.seed ^ (self.made << 2) ^ (i as u64));
            }
            let u = ((bits & 0xFFFF) as f64 / 32768.0) - 1.0;
            bits >>= 16;
            self.state[i] = self.pole[i] * self.state[i] + self.gain[i] * u;
            h += self.state[i];
        }
        let i = (self.made as usize) & (HELD - 1);
        self.ring[i] = h;
        self.ring[i + HELD] = h;
        self.made += 1;
    }

    /// The profile's RMS slope from one grid point to the next (each process's
    /// stationary `var(Δz) = 2 var(z)(1 − a)`): how steep the bumps a path meets are.
    pub fn slope_rms(&self) -> f64 {
        let var: f64 = (0..OCTAVES)
            .map(|i| 2.0 * self.gain[i].powi(2) / (3.0 * (1.0 + self.pole[i])))
            .sum();
        var.sqrt() / DX
    }

    /// The raw profile at grid index `j` (held: within the last [`HELD`]).
    fn height(&self, j: u64) -> f64 {
        self.ring[(j as usize) & (HELD - 1)]
    }

    /// Where the ball's lowest point rests with its lowest point over grid index `c`:
    /// the window's heights less the circle's lift, their largest (four running
    /// maxima, so the comparisons do not wait on each other).
    fn envelope(&self, c: u64) -> f64 {
        let start = ((c - REACH as u64) as usize) & (HELD - 1);
        let window = &self.ring[start..start + WINDOW];
        let mut top = [f64::NEG_INFINITY; 4];
        let (heads, tail) = window.split_at(WINDOW - WINDOW % 4);
        let (lifts, lift_tail) = self.lift.split_at(WINDOW - WINDOW % 4);
        for (h, l) in heads.chunks_exact(4).zip(lifts.chunks_exact(4)) {
            for k in 0..4 {
                let x = h[k] - l[k];
                top[k] = if x > top[k] { x } else { top[k] };
            }
        }
        for (h, l) in tail.iter().zip(lift_tail) {
            let x = h - l;
            top[0] = if x > top[0] { x } else { top[0] };
        }
        let a = if top[0] > top[1] { top[0] } else { top[1] };
        let b = if top[2] > top[3] { top[2] } else { top[3] };
        if a > b { a } else { b }
    }

    /// The held grid index of path point `j` (the path's first point has [`REACH`]
    /// made behind it), made up to the window's far end. The path only goes forward: a
    /// point already behind the window reads the oldest it holds.
    fn centre(&mut self, j: u64) -> u64 {
        let c = j + REACH as u64;
        while self.made < c + REACH as u64 + 1 {
            self.advance();
        }
        c.max(self.made - HELD as u64 + REACH as u64)
    }

    /// The envelope at path point `j`: where the ball's lowest point is.
    pub fn envelope_at(&mut self, j: u64) -> f64 {
        if let Some(&(_, e)) = self.last.iter().find(|(at, _)| *at == j) {
            return e;
        }
        let c = self.centre(j);
        let e = self.envelope(c);
        self.last = [self.last[1], (j, e)];
        e
    }

    /// The profile itself at path point `j`, for tests.
    pub fn profile_at(&mut self, j: u64) -> f64 {
        let c = self.centre(j);
        self.height(c)
    }
}

/// A uniform number in `[−1, 1)` from the top 53 bits of `x`.
fn uniform(x: u64) -> f64 {
    2.0 * unit(x) - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(s: &mut Surface, n: u64) -> Vec<f64> {
        (0..n).map(|j| s.profile_at(j)).collect()
    }

    /// The profile's RMS height is the roughness asked for, and the same seed makes
    /// the same profile.
    #[test]
    fn roughness_is_the_rms_height() {
        for beta in [0.0, 1.0, 2.0] {
            let mut s = Surface::new(10e-6, beta, 0.01, 9);
            let p = profile(&mut s, 400_000);
            let mean = p.iter().sum::<f64>() / p.len() as f64;
            let rms = (p.iter().map(|h| (h - mean).powi(2)).sum::<f64>() / p.len() as f64).sqrt();
            // The lowest octaves wander slowly over 10 m of path: within 25 %.
            assert!((rms / 10e-6 - 1.0).abs() < 0.25, "β {beta}: {rms:e}");
            let mut again = Surface::new(10e-6, beta, 0.01, 9);
            assert_eq!(p[..1000], profile(&mut again, 1000)[..]);
        }
    }

    /// The slope of the spectrum: per octave of wavenumber the power falls by
    /// `2^β`, measured as the variance of differences at two lags (for `1/f^β`,
    /// `β < 3`, the structure function grows as `lag^{β−1}`).
    #[test]
    fn larger_beta_is_smoother_at_short_range() {
        let ratio = |beta: f64| {
            let mut s = Surface::new(10e-6, beta, 0.01, 4);
            let p = profile(&mut s, 200_000);
            let sf = |lag: usize| {
                p.windows(lag + 1)
                    .map(|w| (w[lag] - w[0]).powi(2))
                    .sum::<f64>()
                    / (p.len() - lag) as f64
            };
            sf(64) / sf(8)
        };
        let (r1, r2) = (ratio(1.0), ratio(2.0));
        // 8× the lag: about 8^(β−1), 1 and 8 (the processes' corners round it).
        assert!(r1 < 2.0 && r2 > 4.0, "{r1} {r2}");
    }

    /// The ball rests on the profile's upper envelope: never under the profile, and a
    /// larger ball rides higher and smoother than a small one.
    #[test]
    fn a_ball_bridges_the_dips() {
        let n = 50_000;
        let mut small = Surface::new(10e-6, 1.0, 0.0005, 2);
        let mut big = Surface::new(10e-6, 1.0, 0.02, 2);
        let (mut under, mut s_sum, mut b_sum) = (0, 0.0, 0.0);
        for j in 0..n {
            let (es, eb) = (small.envelope_at(j), big.envelope_at(j));
            let h = small.profile_at(j);
            under += usize::from(es < h || eb < h);
            s_sum += es - h;
            b_sum += eb - h;
        }
        assert_eq!(under, 0);
        assert!(b_sum > 2.0 * s_sum && s_sum >= 0.0, "{s_sum:e} {b_sum:e}");
    }
}
