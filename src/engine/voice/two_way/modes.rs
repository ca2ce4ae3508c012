//! The body's modes at the strike point as a voice keeps them between strikes, and
//! their free decay while the striker flies.

// The modes are a struct of arrays, indexed together up to `n`.
#![allow(clippy::needless_range_loop)]

use crate::model::alpha_pow::AlphaPow;
use crate::model::body::{BodySettings, StrikeShapes};
use crate::model::coupled::{State, StrikeModes};

/// The body's modes at the strike point for the body and mass a voice last struck, and
/// the shapes they were made from ([`StrikeShapes`]: per body kind and strike position,
/// whatever the key). A new key then costs a few products a mode; a new body or strike
/// position, the shapes' trigonometry once more (a voice struck again strikes the same
/// body).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModesCache {
    of: Option<(BodySettings, f64)>,
    shapes: Option<StrikeShapes>,
    modes: StrikeModes,
    /// The contact's `δ^α` tables for the `α` last struck: made again only when the
    /// exponent moves, not at every strike.
    pow: Option<AlphaPow>,
}

impl ModesCache {
    pub(crate) const EMPTY: ModesCache = ModesCache {
        of: None,
        shapes: None,
        modes: StrikeModes::RIGID,
        pow: None,
    };

    pub(super) fn get(&mut self, st: &BodySettings, body_mass: f64) -> StrikeModes {
        if self.of != Some((*st, body_mass)) {
            let shapes = match self.shapes {
                Some(s) if s.is_for(st.kind, st.recording, st.position) => s,
                _ => StrikeShapes::new(st.kind, st.recording, st.position),
            };
            let (modes, n) = shapes.modes(st, body_mass);
            self.modes =
                StrikeModes::from_modes(modes[..n].iter().map(|m| (m.f_hz, m.t60_s, m.mass_kg)));
            self.shapes = Some(shapes);
            self.of = Some((*st, body_mass));
        }
        self.modes
    }

    /// `δ^α`'s tables for `alpha`.
    pub(super) fn pow(&mut self, alpha: f64) -> &AlphaPow {
        // (Compared by bits, so a NaN exponent is not made again at every strike.)
        if self
            .pow
            .is_some_and(|p| p.alpha().to_bits() != alpha.to_bits())
        {
            self.pow = None;
        }
        self.pow.get_or_insert_with(|| AlphaPow::new(alpha))
    }
}

/// Each mode's free decay over `t` s in closed form: with `ω_d² = ω² − σ²`,
/// `w(t) = e^{−σt} (w₀ c + (u₀ + σ w₀) s)` and `u(t) = e^{−σt} (u₀ c − (ω² w₀ + σ u₀) s)`,
/// `c = cos ω_d t`, `s = sin(ω_d t)/ω_d` (cosh and sinh for an overdamped mode, `1` and
/// `t` at critical damping).
pub(super) fn free_modes(m: &StrikeModes, s: &mut State, t: f64) {
    for i in 0..m.n {
        let (o, sg) = (m.omega[i], m.sigma[i]);
        let d2 = o * o - sg * sg;
        let (c, sn) = if d2 > 0.0 {
            let wd = d2.sqrt();
            ((wd * t).cos(), (wd * t).sin() / wd)
        } else if d2 < 0.0 {
            let wd = (-d2).sqrt();
            ((wd * t).cosh(), (wd * t).sinh() / wd)
        } else {
            (1.0, t)
        };
        let e = (-sg * t).exp();
        let (w0, u0) = (s.w[i], s.u[i]);
        let (w, u) = (
            e * (w0 * c + (u0 + sg * w0) * sn),
            e * (u0 * c - (o * o * w0 + sg * u0) * sn),
        );
        // An overdamped mode over a long flight: cosh·e^{−σt} is below 1, but each
        // factor alone may not be finite; such a mode has died away.
        (s.w[i], s.u[i]) = if w.is_finite() && u.is_finite() {
            (w, u)
        } else {
            (0.0, 0.0)
        };
    }
}
