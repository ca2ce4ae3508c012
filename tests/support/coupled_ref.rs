//! An independent reference for the two-way contact: the model's equations written
//! again from their statement (not through `rebound::model::coupled`), integrated by
//! Dormand–Prince 5(4) with error control at a tight tolerance, every contact onset
//! and end located by bisection on the step, and every sample instant hit exactly.
#![allow(dead_code, clippy::needless_range_loop)]

#[path = "dopri5.rs"]
mod dopri5;
use dopri5::{A, B4};

/// The model: striker `m ẍ = −F`, modes `m_k (ẅ_k + 2σ_k ẇ_k + ω_k² w_k) = F`,
/// `F = k δ^α (1 + μ δ̇)` for `δ = x − Σ w_k > 0`.
#[derive(Clone, Debug)]
pub struct Model {
    pub k: f64,
    pub mu: f64,
    pub alpha: f64,
    pub m: f64,
    /// `(ω_k, σ_k, 1/m_k)`.
    pub modes: Vec<(f64, f64, f64)>,
}

/// What the reference saw.
#[derive(Clone, Debug, Default)]
pub struct Reference {
    /// Contact intervals `(start, end)`, s (end = window end if still going).
    pub intervals: Vec<(f64, f64)>,
    /// Striker velocity at the end of the last finished contact.
    pub v_out: f64,
    /// Sample instants `n ≥ 1` with `δ > 0`.
    pub contact_samples: u64,
    /// `|δ|` at every sample instant where it is within this much of 0 (how close the
    /// sample count is to flipping).
    pub near_zero_samples: u64,
}

impl Model {
    fn delta(&self, y: &[f64]) -> (f64, f64) {
        let n = self.modes.len();
        let (mut w, mut u) = (0.0, 0.0);
        for i in 0..n {
            w += y[2 + 2 * i];
            u += y[3 + 2 * i];
        }
        (y[0] - w, y[1] - u)
    }

    fn rhs(&self, y: &[f64], dy: &mut [f64]) {
        let (d, dr) = self.delta(y);
        let f = if d > 0.0 {
            self.k * d.powf(self.alpha) * (1.0 + self.mu * dr)
        } else {
            0.0
        };
        dy[0] = y[1];
        dy[1] = -f / self.m;
        for (i, &(o, s, im)) in self.modes.iter().enumerate() {
            let (w, u) = (y[2 + 2 * i], y[3 + 2 * i]);
            dy[2 + 2 * i] = u;
            dy[3 + 2 * i] = f * im - o * o * w - 2.0 * s * u;
        }
    }

    /// One Dormand–Prince step: the 5th-order solution and the error estimate's norm
    /// (each component against `atol_i + rtol |y_i|`).
    fn dopri(&self, y: &[f64], h: f64, scale: &[f64]) -> (Vec<f64>, f64) {
        // The error weights: fifth order less fourth.
        let e = |q: usize| if q < 6 { A[6][q] } else { 0.0 } - B4[q];
        let n = y.len();
        let mut k = vec![vec![0.0; n]; 7];
        self.rhs(y, &mut k[0]);
        let mut t = vec![0.0; n];
        for s in 0..6 {
            for j in 0..n {
                t[j] = y[j] + h * (0..=s).map(|q| A[s + 1][q] * k[q][j]).sum::<f64>();
            }
            let (head, tail) = k.split_at_mut(s + 1);
            let _ = head;
            self.rhs(&t, &mut tail[0]);
        }
        // Stage 6 was evaluated at the 5th-order solution (FSAL).
        let mut err: f64 = 0.0;
        for j in 0..n {
            let e = h * (0..7).map(|q| e(q) * k[q][j]).sum::<f64>();
            err = err.max((e / scale[j]).abs());
        }
        (t, err)
    }

    /// Integrates from the onset (`x = 0`, `v = v_in`, body at rest) for `samples`
    /// samples at `fs`, relative tolerance `rtol`.
    pub fn run(&self, v_in: f64, fs: f64, samples: u64, rtol: f64) -> Reference {
        let n = 2 + 2 * self.modes.len();
        let mut y = vec![0.0; n];
        y[1] = v_in;
        // Absolute scales: positions by the rigid wall's depth, velocities by v_in.
        let x_max = ((self.alpha + 1.0) * self.m * v_in * v_in / (2.0 * self.k))
            .powf(1.0 / (self.alpha + 1.0));
        let scale_of = |y: &[f64]| -> Vec<f64> {
            (0..n)
                .map(|j| {
                    let a = if j % 2 == 0 { x_max } else { v_in };
                    rtol * (a + y[j].abs())
                })
                .collect()
        };
        let mut out = Reference::default();
        let (mut t, mut h) = (0.0, 1e-3 / fs);
        let mut in_contact = true;
        let mut start = 0.0;
        for s in 1..=samples {
            let t_next = s as f64 / fs;
            while t < t_next {
                let h_try = h.min(t_next - t);
                let (y1, err) = self.dopri(&y, h_try, &scale_of(&y));
                if err > 1.0 {
                    h = h_try * (0.9 * err.powf(-0.2)).max(0.1);
                    continue;
                }
                let (d1, _) = self.delta(&y1);
                if (d1 > 0.0) != in_contact {
                    // Find the crossing: the shortest step that changes the sign.
                    let (mut lo, mut hi) = (0.0, h_try);
                    let mut at = y1.clone();
                    for _ in 0..60 {
                        let mid = 0.5 * (lo + hi);
                        let (ym, _) = self.dopri(&y, mid, &scale_of(&y));
                        if (self.delta(&ym).0 > 0.0) != in_contact {
                            hi = mid;
                            at = ym;
                        } else {
                            lo = mid;
                        }
                    }
                    y = at;
                    t += hi;
                    in_contact = !in_contact;
                    if in_contact {
                        start = t;
                    } else {
                        out.intervals.push((start, t));
                        out.v_out = y[1];
                    }
                    continue;
                }
                y = y1;
                t += h_try;
                if t_next - t < 1e-9 / fs {
                    t = t_next;
                }
                h = h_try * (0.9 * err.max(1e-10).powf(-0.2)).min(5.0);
            }
            let (d, _) = self.delta(&y);
            if d > 0.0 {
                out.contact_samples += 1;
            }
            if d.abs() < 1e-6 * x_max {
                out.near_zero_samples += 1;
            }
        }
        if in_contact {
            out.intervals.push((start, t));
            out.v_out = y[1];
        }
        out
    }
}
