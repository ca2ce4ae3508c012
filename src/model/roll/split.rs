//! The split step ([`Damping::Split`](super::Damping::Split)): eq (1)'s damping taken
//! exactly in half steps either side of a Verlet step of the spring (Strang
//! splitting). The position holds during a damping half, so a step's closing half and
//! the next step's opening half are one damping of a whole step, taken at once: `n`
//! steps a sample take `n + 1` exponentials, not `2n`.

use super::Rolling;

impl Rolling {
    /// Half the damping, velocity Verlet (eq 24) on the spring and the load alone, the
    /// other half of the damping ([`Damping::Split`](super::Damping::Split)): the
    /// opening half with any closing half owed, the closing half owed.
    #[inline]
    pub(super) fn split_step(&mut self, s: f64, sdot: f64, dt: f64) {
        // `1/m` kept: a split step's chain is its latency, and a division is its
        // longest link.
        let (inv_m, k, load) = (self.inv_m, self.contact.k, self.load);
        self.damp(sdot, self.pending + 0.5 * dt);
        let spring0 = k * self.d_pow;
        let a0 = (spring0 - load) * inv_m;
        self.y += dt * self.w + 0.5 * dt * dt * a0;
        let d1 = s + sdot * dt - self.y;
        self.d_pow = if d1 > 0.0 { self.pow.pow(d1) } else { 0.0 };
        let spring1 = k * self.d_pow;
        self.w += 0.5 * dt * (a0 + (spring1 - load) * inv_m);
        // The spring's power from the moving surface (the damping's is in `damp`).
        self.work += 0.5 * dt * (spring0 + spring1) * sdot;
        // Pressed or not is all the next step asks of the force; `settle` makes it.
        (self.pending, self.f) = (0.5 * dt, spring1);
    }

    /// Takes the damping owed, and the force and acceleration after it (eq 1, never
    /// pulling): before a step that is not split, a flight, and at a sample's end.
    #[inline]
    pub(super) fn settle(&mut self, sdot: f64) {
        if self.pending > 0.0 {
            self.damp(sdot, self.pending);
            self.pending = 0.0;
            let spring = self.contact.k * self.d_pow;
            self.f = (spring * (1.0 + self.contact.mu * (sdot - self.w))).max(0.0);
            self.acc = (self.f - self.load) * self.inv_m;
        }
    }

    /// The damping alone for `tau` with the spring held: `m u̇ = −k δ^α min(1, μ u)`
    /// for the velocity `u = ẏ − ṡ` relative to the surface (eq 1's damping, bounded
    /// where the force would pull), solved exactly. Over the bound the force is 0 and
    /// `u` falls at `k δ^α / m`; under it `u` decays as `e^{−λ t}`, `λ = k δ^α μ / m`.
    /// The position stays, so the energy moved is kinetic: the damping takes
    /// `½ m (u₀² − u²)` and the surface puts in `m ṡ (u − u₀)`.
    #[inline]
    pub(super) fn damp(&mut self, sdot: f64, tau: f64) {
        let (m, mu) = (self.contact.mass, self.contact.mu);
        let rate = self.contact.k * self.d_pow * self.inv_m;
        if !(rate > 0.0 && mu > 0.0) {
            return;
        }
        let u0 = self.w - sdot;
        let (mut u, mut t) = (u0, tau);
        if mu * u > 1.0 {
            // At the bound after `t_free`: the force is 0 until then.
            let t_free = (u - 1.0 / mu) / rate;
            if t_free >= t {
                u -= rate * t;
                t = 0.0;
            } else {
                u = 1.0 / mu;
                t -= t_free;
            }
        }
        if t > 0.0 {
            u *= (-rate * mu * t).exp();
        }
        self.w = sdot + u;
        self.dissipated += 0.5 * m * (u0 * u0 - u * u);
        self.work += m * sdot * (u - u0);
    }
}
