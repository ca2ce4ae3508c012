//! The contact's normalisation: how a wall force becomes the dry output and the body's
//! drive, latched with each contact.

use crate::model::Contact;

/// The normalised excitation is limited to this many times the analytic peak of a
/// full-velocity strike: anything above is integrator error on a contact shorter than a
/// sample, not physics.
pub const EXCITATION_LIMIT: f64 = 2.0;
/// An impact delivers at most this multiple of its exact momentum transfer
/// `m (v_in − v_out)` (eq 6) to the output. An integrator far off on a contact shorter
/// than a sample can overshoot wildly within one step (the hybrid correction can even
/// keep a state below `v_lim = −1/μ` in contact for a sample); the excess is numerical,
/// not physical, and would otherwise kick the body far too hard. Smaller errors stay
/// audible.
pub const IMPULSE_MARGIN: f64 = 1.5;

/// Per-contact normalisation, latched with the contact at each onset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Norm {
    pub(super) contact: Contact,
    pub(super) v_max: f64,
    pub(super) fs: f64,
    /// `1 / min(F_peak(v_max), m Δv fs)`: maps wall force to the dry level.
    pub(super) inv_peak: f64,
    /// Per-sample body input per unit normalised force: `F_peak / (m Δv fs)`, so that a
    /// full-velocity impulse `∫F dt = m (v_in − v_out)` puts a unit kick into the body.
    pub(super) body_drive: f64,
    /// The analytic impact's peak force and `Δv = v_max − v_out`.
    pub(super) f_peak: f64,
    pub(super) dv: f64,
    /// The peak force the same contact would have at `k = 1`, from which every
    /// stiffness's is scaled (see `relatch`).
    pub(super) f_unit: f64,
}

impl Norm {
    /// Solved at `k = 1` and scaled to `contact.k` (see `relatch`): the same numbers
    /// whichever stiffness a voice's strikes went through before, so two renders of
    /// one session agree bit for bit however their strikes were humanized before.
    pub(super) fn new(contact: Contact, v_max: f64, fs: f64) -> Self {
        let an = Contact { k: 1.0, ..contact }.impact(v_max);
        let f_unit = an.peak_force();
        let f_peak = f_unit * contact.k.powf(1.0 / (contact.alpha + 1.0));
        Self::of(contact, v_max, fs, f_peak, v_max - an.v_out()).with_unit(f_unit)
    }

    /// The normalisation for `contact` at `v_max`, from this one where only the
    /// stiffness differs (a humanized hit, a Hardness poly-mod): eq (1) made
    /// dimensionless with `x = L X`, `L = (m v²/k)^{1/(α+1)}`, leaves
    /// `X'' = −X^α (1 + μv X')`, so `v_out` does not move and the peak force goes as
    /// `m v²/L ∝ k^{1/(α+1)}`: scaled from the contact's force at `k = 1`, never from
    /// the last strike's (which would carry its rounding from strike to strike).
    /// Otherwise (or when this one is not a number) solved anew.
    pub(super) fn relatch(&self, contact: Contact, v_max: f64, fs: f64) -> Self {
        let c = &self.contact;
        let same_but_k = self.fs == fs
            && self.v_max == v_max
            && c.alpha == contact.alpha
            && c.mu == contact.mu
            && c.mass == contact.mass;
        let f_peak = self.f_unit * contact.k.powf(1.0 / (contact.alpha + 1.0));
        if same_but_k && f_peak.is_finite() && f_peak > 0.0 {
            Self::of(contact, v_max, fs, f_peak, self.dv).with_unit(self.f_unit)
        } else {
            Self::new(contact, v_max, fs)
        }
    }

    /// This normalisation made for `contact` at `v_max` and `fs`, unless it is already
    /// theirs (see [`relatch`](Self::relatch)).
    pub(super) fn latch(&mut self, contact: Contact, v_max: f64, fs: f64) {
        if self.contact != contact || self.v_max != v_max || self.fs != fs {
            *self = self.relatch(contact, v_max, fs);
        }
    }

    fn with_unit(self, f_unit: f64) -> Self {
        Self { f_unit, ..self }
    }

    fn of(contact: Contact, v_max: f64, fs: f64, f_peak: f64, dv: f64) -> Self {
        // A contact shorter than a sample cannot show its peak in the output: the most
        // a sample can hold is the whole impulse, m Δv fs. Normalising by the smaller
        // keeps the full-velocity level at −6 dBFS for every stiffness.
        let peak = f_peak.min(contact.mass * dv * fs);
        let ok = peak.is_finite() && peak > 0.0 && dv.is_finite() && dv > 0.0;
        let (inv_peak, body_drive) = if ok {
            (1.0 / peak, peak / (contact.mass * dv * fs))
        } else {
            (0.0, 0.0)
        };
        Self {
            contact,
            v_max,
            fs,
            inv_peak,
            body_drive,
            f_peak,
            dv,
            f_unit: f64::NAN,
        }
    }
}

/// The normalised excitation of a sample whose wall force averages `f_avg`, within the
/// excitation limit and what is left of the impact's `budget` (which it spends).
#[inline]
pub(super) fn excitation(f_avg: f64, norm: &Norm, budget: &mut f64) -> f64 {
    let u = (f_avg * norm.inv_peak).clamp(0.0, EXCITATION_LIMIT.min(*budget));
    *budget -= u;
    u
}
