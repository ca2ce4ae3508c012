//! A rough surface for rolling and scraping: a seeded fractal height profile along the
//! path, and the profile a ball of radius `r` rests on.
//!
//! **The profile.** Heights on a grid of step `dx` (at least [`DX`]), generated forward
//! as the path goes (no table, no allocation): the sum of up to [`OCTAVES`] first-order
//! (Ornstein–Uhlenbeck) processes with spatial corners an octave apart, the `i`-th
//! weighted `c_i^{(1−β)/2}`. Each process is sampled exactly at the grid's step, so a
//! coarser grid samples the same surface more sparsely; the processes whose corner lies
//! above the grid's Nyquist rate are left out (a fast voice takes a coarser grid, so
//! its grid points a sample stay bounded: [`grid_for`]).
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

/// Finest grid step of the profile, m: 25 µm, so a ball rolling at 1.2 m/s meets a
/// grid point a sample at 48 kHz.
pub const DX: f64 = 25e-6;
/// First-order processes summed, at most.
pub const OCTAVES: usize = 10;
/// The coarsest grid is `DX · 2^MAX_COARSE` (3.2 mm): a strike speed of 50 m/s at
/// 22.05 kHz still meets under a grid point a sample.
pub const MAX_COARSE: u32 = 7;
/// Grid points a sample a voice's path crosses at most, at its note's speed.
pub const MAX_PER_SAMPLE: f64 = 2.0;
/// The lowest corner, cycles per metre (a wavelength of 10 cm); the others rise by
/// octaves to 5 cycles a millimetre, as far as half the grid's rate allows.
const LOWEST_CORNER: f64 = 10.0;
/// Grid points each side of the ball's lowest point that its circle is compared with.
pub const REACH: usize = 24;
/// Envelopes made at once, for the path points from the first one asked for on. The
/// path only goes forward, a grid point or two a sample, so a batch lasts a dozen
/// samples or more; made together, the batch's maxima are independent chains a
/// vector instruction takes four at a time (a maximum is exact: the same values as
/// one at a time).
const BATCH: usize = 32;
/// Grid points made together.
const MADE: usize = 8;
/// Envelopes of a batch made together.
const RUN: usize = 16;
/// Points held: a batch's windows and more, a power of two (an index is masked, not
/// divided).
const HELD: usize = 128;
const _: () = assert!(HELD >= BATCH + 2 * REACH + MADE + 2 && HELD.is_power_of_two());
/// The batch's first point before there is one: far from any path point, so that
/// `j − from` is out of the batch for every `j` below 2^62.
const NO_BATCH: u64 = 1 << 63;
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
    /// The grid step, m (a process whose corner the grid does not resolve has gain 0).
    dx: f64,
    /// Grid points made so far.
    made: u64,
    /// The last [`HELD`] heights, by grid index modulo `HELD`, each written twice (at
    /// `i` and `i + HELD`): any window of them is one run of memory.
    ring: [f64; 2 * HELD],
    /// The envelopes of path points `from..from + BATCH` (none yet: [`NO_BATCH`]).
    env: [f64; BATCH],
    from: u64,
    /// `r − √(r² − u²)` at `u = (j − REACH)·dx`, `j = 0..=2 REACH`: how far the
    /// ball's circle is above its lowest point there.
    lift: [f64; WINDOW],
}

impl Surface {
    /// A surface of RMS height `roughness` (m) and spectral exponent `beta`, under a
    /// ball of `radius` (m), drawn from `seed`, on a grid of `dx` (m, from
    /// [`grid_for`]). Values out of range are taken at the nearest usable one.
    pub fn new(roughness: f64, beta: f64, radius: f64, seed: u64, dx: f64) -> Self {
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
        let dx = if dx.is_finite() {
            dx.clamp(DX, DX * f64::from(1u32 << MAX_COARSE))
        } else {
            DX
        };
        // The corners the grid resolves: at most half its rate.
        let octaves = (0..OCTAVES)
            .take_while(|&i| LOWEST_CORNER * 2f64.powi(i as i32) <= 0.5 / dx)
            .count();
        let mut pole = [0.0; OCTAVES];
        let mut gain = [0.0; OCTAVES];
        let mut var = 0.0;
        for i in 0..octaves {
            let c = LOWEST_CORNER * 2f64.powi(i as i32);
            let a = (-2.0 * std::f64::consts::PI * c * dx).exp();
            // Uniform innovations in [−1, 1): variance 1/3.
            let w = c.powf(0.5 * (1.0 - beta)) * (1.0 - a * a).sqrt();
            pole[i] = a;
            gain[i] = w;
            var += w * w / (3.0 * (1.0 - a * a));
        }
        let scale = if var > 0.0 { sigma / var.sqrt() } else { 0.0 };
        let lift = std::array::from_fn(|j| {
            let u = (j as f64 - REACH as f64) * dx;
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
            dx,
            made: 0,
            ring: [0.0; 2 * HELD],
            env: [0.0; BATCH],
            from: NO_BATCH,
            lift,
        };
        // Each process starts in its stationary state, so the profile has no run-in.
        for i in 0..octaves {
            let sd = s.gain[i] / (3.0 * (1.0 - s.pole[i] * s.pole[i])).sqrt();
            s.state[i] = sd * 3f64.sqrt() * uniform(splitmix64(seed ^ (0xA5A5 + i as u64)));
        }
        s
    }

    /// Makes the next [`MADE`] grid points. Each process steps point by point (the
    /// processes side by side), and each point's height is its processes' sum in their
    /// order, made for the points side by side: the same sums as point by point, with
    /// no lane-by-lane additions across a vector.
    #[inline(always)]
    fn advance(&mut self) {
        let mut z = [[0.0; MADE]; OCTAVES];
        for t in 0..MADE {
            let u = innovations(self.seed, self.made + t as u64);
            let steps = self.state.iter_mut().zip(self.pole).zip(self.gain).zip(u);
            for ((((s, a), g), u), zi) in steps.zip(&mut z) {
                *s = a * *s + g * u;
                zi[t] = *s;
            }
        }
        let mut h = [0.0; MADE];
        for zi in &z {
            for (h, z) in h.iter_mut().zip(zi) {
                *h += z;
            }
        }
        for (t, h) in h.into_iter().enumerate() {
            let i = (self.made as usize + t) & (HELD - 1);
            self.ring[i] = h;
            self.ring[i + HELD] = h;
        }
        self.made += MADE as u64;
    }

    /// Makes grid points until those below `end` are made.
    #[inline(always)]
    fn make_to(&mut self, end: u64) {
        while self.made < end {
            self.advance();
        }
    }

    /// The profile's RMS slope from one grid point to the next (each process's
    /// stationary `var(Δz) = 2 var(z)(1 − a)`): how steep the bumps a path meets are.
    pub fn slope_rms(&self) -> f64 {
        let var: f64 = (0..OCTAVES)
            .map(|i| 2.0 * self.gain[i].powi(2) / (3.0 * (1.0 + self.pole[i])))
            .sum();
        var.sqrt() / self.dx
    }

    /// The raw profile at grid index `j` (held: within the last [`HELD`]).
    fn height(&self, j: u64) -> f64 {
        self.ring[(j as usize) & (HELD - 1)]
    }

    /// The envelopes of the [`BATCH`] path points from `j` on: where the ball's lowest
    /// point rests with it over each, the window's heights less the circle's lift,
    /// their largest. The heights are made up to the last window's far end; a point
    /// already behind what is held reads from the oldest held (the path only goes
    /// forward, so only a test asks).
    #[inline(always)]
    fn fill(&mut self, j: u64) {
        self.make_to(j + (BATCH + 2 * REACH) as u64);
        let first = j.max(self.made.saturating_sub(HELD as u64));
        let start = (first as usize) & (HELD - 1);
        let heights = &self.ring[start..start + BATCH + WINDOW - 1];
        // Sixteen envelopes at a time: as many running maxima as SSE2's registers
        // hold (AVX2 takes them four to an instruction).
        for (run, env) in self.env.chunks_exact_mut(RUN).enumerate() {
            let mut top = [f64::NEG_INFINITY; RUN];
            for (k, &lift) in self.lift.iter().enumerate() {
                let at = run * RUN + k;
                for (t, h) in top.iter_mut().zip(&heights[at..at + RUN]) {
                    let x = h - lift;
                    *t = if x > *t { x } else { *t };
                }
            }
            env.copy_from_slice(&top);
        }
        self.from = j;
    }

    /// The held grid index under path point `j` (the path's first point has [`REACH`]
    /// made behind it), made up to the window's far end.
    fn centre(&mut self, j: u64) -> u64 {
        let c = j + REACH as u64;
        self.make_to(c + REACH as u64 + 1);
        c.max((self.made + REACH as u64).saturating_sub(HELD as u64))
    }

    /// The envelope at path point `j`: where the ball's lowest point is.
    #[inline(always)]
    pub fn envelope_at(&mut self, j: u64) -> f64 {
        let k = j.wrapping_sub(self.from);
        if k < BATCH as u64 {
            return self.env[k as usize];
        }
        self.fill(j);
        self.env[0]
    }

    /// The envelope at path position `x` (m, never below 0), linear between the grid
    /// points either side: the surface under the striker's lowest point there.
    #[inline(always)]
    pub fn under(&mut self, x: f64) -> f64 {
        let at = x / self.dx;
        // The path only goes forward from 0: a cast floors it (through i64: one
        // instruction, the same value below 2^63).
        let j = at as i64;
        let t = at - j as f64;
        let j = j as u64;
        let (a, b) = (self.envelope_at(j), self.envelope_at(j + 1));
        a + t * (b - a)
    }

    /// The profile itself at path point `j`, for tests.
    pub fn profile_at(&mut self, j: u64) -> f64 {
        let c = self.centre(j);
        self.height(c)
    }
}

/// The grid step for a path travelled at up to `speed` m/s sampled at `fs`: the finest
/// ([`DX`]) that the path crosses at most [`MAX_PER_SAMPLE`] times a sample, so a voice
/// makes at most two grid points and envelopes a sample however fast it goes (up to
/// [`MAX_COARSE`] octaves coarser; the detail left out would sound above the Nyquist
/// rate). Up to 2.4 m/s at 48 kHz the grid is the finest.
pub fn grid_for(speed: f64, fs: f64) -> f64 {
    let per_sample = speed / (fs * DX * MAX_PER_SAMPLE);
    let k = if per_sample > 1.0 {
        per_sample.log2().ceil().min(f64::from(MAX_COARSE))
    } else {
        0.0
    };
    DX * 2f64.powf(k)
}

/// The processes' innovations at grid point `at`: uniform in `[−1, 1)`, sixteen bits
/// each, four to a draw (a process left out has gain 0).
#[inline(always)]
fn innovations(seed: u64, at: u64) -> [f64; OCTAVES] {
    let mut u = [0.0; OCTAVES];
    for (q, chunk) in u.chunks_mut(4).enumerate() {
        let bits = splitmix64(seed ^ (at << 2) ^ (4 * q as u64));
        let parts = [bits, bits >> 16, bits >> 32, bits >> 48];
        for (x, b) in chunk.iter_mut().zip(parts) {
            // `b / 2^15 − 1` for the 16 bits `b`, made in the vector unit: the bits under
            // 2^52's exponent are `2^52 + b` exactly, and every step after is exact, so
            // this is the division's value.
            let v = f64::from_bits(0x4330_0000_0000_0000 | (b & 0xFFFF));
            *x = (v - (4_503_599_627_370_496.0 + 32_768.0)) * (1.0 / 32_768.0);
        }
    }
    u
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
            let mut s = Surface::new(10e-6, beta, 0.01, 9, DX);
            let p = profile(&mut s, 400_000);
            let mean = p.iter().sum::<f64>() / p.len() as f64;
            let rms = (p.iter().map(|h| (h - mean).powi(2)).sum::<f64>() / p.len() as f64).sqrt();
            // The lowest octaves wander slowly over 10 m of path: within 25 %.
            assert!((rms / 10e-6 - 1.0).abs() < 0.25, "β {beta}: {rms:e}");
            let mut again = Surface::new(10e-6, beta, 0.01, 9, DX);
            assert_eq!(p[..1000], profile(&mut again, 1000)[..]);
        }
    }

    /// However fast the path, a voice crosses at most two grid points a sample, and a
    /// coarser grid keeps the surface's RMS height.
    #[test]
    fn the_grid_bounds_the_points_a_sample() {
        for fs in [22_050.0, 44_100.0, 48_000.0, 96_000.0, 192_000.0] {
            for i in 0..=40 {
                let v = 1e-3 * 5e4f64.powf(f64::from(i) / 40.0);
                let dx = grid_for(v, fs);
                assert!(v / (fs * dx) <= MAX_PER_SAMPLE, "{v} m/s at {fs}: {dx}");
                assert!(dx == DX || v / (fs * dx) > 0.5 * MAX_PER_SAMPLE);
            }
        }
        let coarse = grid_for(50.0, 48_000.0);
        let mut s = Surface::new(10e-6, 1.5, 0.01, 9, coarse);
        // The finest processes are left out: their corners are above the grid's Nyquist.
        assert!(s.gain[OCTAVES - 1] == 0.0 && s.gain[0] > 0.0 && coarse > 10.0 * DX);
        let p = profile(&mut s, 100_000);
        let mean = p.iter().sum::<f64>() / p.len() as f64;
        let rms = (p.iter().map(|h| (h - mean).powi(2)).sum::<f64>() / p.len() as f64).sqrt();
        assert!((rms / 10e-6 - 1.0).abs() < 0.25, "{rms:e}");
    }

    /// The slope of the spectrum: per octave of wavenumber the power falls by
    /// `2^β`, measured as the variance of differences at two lags (for `1/f^β`,
    /// `β < 3`, the structure function grows as `lag^{β−1}`).
    #[test]
    fn larger_beta_is_smoother_at_short_range() {
        let ratio = |beta: f64| {
            let mut s = Surface::new(10e-6, beta, 0.01, 4, DX);
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
        let mut small = Surface::new(10e-6, 1.0, 0.0005, 2, DX);
        let mut big = Surface::new(10e-6, 1.0, 0.02, 2, DX);
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
