//! A force held from one sample to the next, played a span of samples at a time.
//!
//! Under a constant force the high-pass is a fixed linear system: over the next
//! [`SPAN`] samples its output is a linear function of its four states and the force,
//! `u_j = r_j · s + g_j x` (`r_j = C A^j`, `g_j = C Σ_{i<j} A^i B + D` for the sections'
//! sample `s' = A s + B x`, `u = C s + D x`), and its states after them are
//! `A^SPAN s + Σ_{i<SPAN} A^i B x`. With those made once per tune, a span costs five
//! multiply–adds a sample that wait on nothing, where the sections' own sample is a
//! chain from one sample to the next. That chain, in the same loop as the bank, made
//! ringing with a force's tail cost half as much again as ringing alone; every struck
//! voice rings with its tail for a while, and every stolen one with its held force.
//!
//! Which samples a span plays depends only on the force's samples: one starts at the
//! second sample of a held force and ends after [`SPAN`] samples or where the force
//! changes, whoever asks for the sample (a voice's tick or its block of ringing), so
//! the output does not depend on how a host cuts its blocks. A force that changes
//! inside a span, a retune or a hand settles it: its states are stepped from its start
//! through the samples it played.

use super::{DriveHighpass, QUIET};

/// Samples a span plays (a power of two: its states' map is made by squaring).
const SPAN: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Span {
    /// The tune (`g`) the maps below were made for; 0: none made yet.
    made_for: f64,
    /// `r[i][j]`: state `i`'s weight in the span's `j`-th output; `gx[j]` the force's.
    r: [[f64; SPAN]; 4],
    gx: [f64; SPAN],
    /// The states after a span: `p s + q x`.
    p: [[f64; 4]; 4],
    q: [f64; 4],
    /// The live span: its outputs, its end states, its force, and the samples it has
    /// played ([`SPAN`]: none is live).
    u: [f64; SPAN],
    end: [f64; 4],
    x: f64,
    at: usize,
}

impl Default for Span {
    fn default() -> Self {
        Span {
            made_for: 0.0,
            r: [[0.0; SPAN]; 4],
            gx: [0.0; SPAN],
            p: [[0.0; 4]; 4],
            q: [0.0; 4],
            u: [0.0; SPAN],
            end: [0.0; 4],
            x: 0.0,
            at: SPAN,
        }
    }
}

impl Span {
    #[inline(always)]
    pub(super) fn is_live(&self) -> bool {
        self.at < SPAN
    }

    pub(super) fn stop(&mut self) {
        self.at = SPAN;
    }
}

fn flat(s: [[f64; 2]; 2]) -> [f64; 4] {
    [s[0][0], s[0][1], s[1][0], s[1][1]]
}

fn mat_vec(a: &[[f64; 4]; 4], v: &[f64; 4]) -> [f64; 4] {
    std::array::from_fn(|k| (0..4).map(|i| a[k][i] * v[i]).sum())
}

impl DriveHighpass {
    /// The live span's next output while `x` is still its force (else `None`, the span
    /// still live: [`settle`](Self::settle) it).
    #[inline(always)]
    pub(super) fn span_next(&mut self, x: f64) -> Option<f64> {
        if x != self.span.x {
            return None;
        }
        let y = self.span.u[self.span.at];
        self.span.at += 1;
        if self.span.at == SPAN {
            self.end_span();
        }
        Some(y)
    }

    /// The span has played out: its end states are the states, let go when a tail
    /// with no force has died away (as `tick_general` does sample by sample).
    #[inline(never)]
    fn end_span(&mut self) {
        let e = self.span.end;
        self.s = [[e[0], e[1]], [e[2], e[3]]];
        if self.span.x == 0.0 && e.iter().all(|v| v.abs() < QUIET) {
            self.s = [[0.0; 2]; 2];
        }
    }

    /// Steps the states through the samples the live span has played, and ends it
    /// (nothing when none is live).
    pub(super) fn settle(&mut self) {
        if !self.span.is_live() {
            return;
        }
        let (x, at) = (self.span.x, self.span.at);
        self.span.stop();
        for _ in 0..at {
            self.s = self.map(self.s, x).1;
        }
    }

    /// Starts a span of the force `x` from the present states; returns its first sample.
    #[inline(never)]
    pub(super) fn start_span(&mut self, x: f64) -> f64 {
        if self.span.made_for != self.g {
            self.make_span_maps();
        }
        let s = flat(self.s);
        let sp = &mut self.span;
        for j in 0..SPAN {
            sp.u[j] = sp.r[0][j] * s[0]
                + sp.r[1][j] * s[1]
                + sp.r[2][j] * s[2]
                + sp.r[3][j] * s[3]
                + sp.gx[j] * x;
        }
        let ps = mat_vec(&sp.p, &s);
        sp.end = std::array::from_fn(|i| ps[i] + sp.q[i] * x);
        sp.x = x;
        sp.at = 1;
        sp.u[0]
    }

    /// The span's maps for the present tune, from the sections' own sample.
    #[cold]
    fn make_span_maps(&mut self) {
        let unit = |i: usize| {
            let mut s = [[0.0; 2]; 2];
            s[i / 2][i % 2] = 1.0;
            s
        };
        let (mut a, mut c) = ([[0.0; 4]; 4], [0.0; 4]);
        for i in 0..4 {
            let (y, s) = self.map(unit(i), 0.0);
            c[i] = y;
            for (k, v) in flat(s).into_iter().enumerate() {
                a[k][i] = v;
            }
        }
        let (d, b) = self.map([[0.0; 2]; 2], 1.0);
        let b = flat(b);
        let sp = &mut self.span;
        let (mut row, mut g) = (c, d);
        for j in 0..SPAN {
            for (i, r) in row.iter().enumerate() {
                sp.r[i][j] = *r;
            }
            sp.gx[j] = g;
            g += (0..4).map(|i| row[i] * b[i]).sum::<f64>();
            row = std::array::from_fn(|k| (0..4).map(|i| row[i] * a[i][k]).sum());
        }
        let mut p = a;
        let mut n = 1;
        while n < SPAN {
            p = std::array::from_fn(|k| {
                std::array::from_fn(|l| (0..4).map(|i| p[k][i] * p[i][l]).sum())
            });
            n *= 2;
        }
        let mut q = [0.0; 4];
        for _ in 0..SPAN {
            let aq = mat_vec(&a, &q);
            q = std::array::from_fn(|i| aq[i] + b[i]);
        }
        sp.p = p;
        sp.q = q;
        sp.made_for = self.g;
    }

    /// `out.len()` samples of a constant force `x`: the samples [`tick`](Self::tick)
    /// would give one by one, the live spans' stretches copied whole, so that a bank
    /// ringing with the force reads them from memory instead of making them in its
    /// loop.
    pub fn fill(&mut self, x: f64, out: &mut [f64]) {
        let mut i = 0;
        while i < out.len() {
            if self.span.is_live() && x == self.span.x {
                let sp = &mut self.span;
                let n = (SPAN - sp.at).min(out.len() - i);
                out[i..i + n].copy_from_slice(&sp.u[sp.at..sp.at + n]);
                sp.at += n;
                i += n;
                if sp.at == SPAN {
                    self.end_span();
                }
            } else {
                out[i] = self.tick(x);
                i += 1;
            }
        }
    }
}
