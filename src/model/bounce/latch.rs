//! What a contact latches at its onset, and its impact.

use crate::model::contact::Contact;
use crate::model::impact::Impact;
use crate::model::load;
use crate::model::prop1;
use crate::model::restitution;
use crate::model::scheme::{ClampTarget, Scheme};

/// What a new contact latches at its onset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Latch {
    pub contact: Contact,
    pub scheme: Scheme,
    /// Damping from a coefficient of restitution (seed 000): each contact gets the `μ`
    /// that makes it leave at `−e v_in` (without load); `contact.mu` is then unused.
    pub restitution: Option<f64>,
}

impl From<(Contact, Scheme)> for Latch {
    fn from((contact, scheme): (Contact, Scheme)) -> Self {
        Self {
            contact,
            scheme,
            restitution: None,
        }
    }
}

impl Latch {
    /// The contact at `v_in`: `μ` from the restitution where one is set.
    pub fn contact_at(&self, v_in: f64) -> Contact {
        match self.restitution {
            Some(e) => Contact {
                mu: restitution::mu_for(e, v_in),
                ..self.contact
            },
            None => self.contact,
        }
    }

    /// The impact starting at `v_in`, `start` into its first sample, under gravity
    /// `g_contact` during contact (`None`: the paper's contact), its load-aware exit
    /// solved at once.
    pub fn impact(&self, v_in: f64, fs: f64, g_contact: Option<f64>, start: f64) -> Impact {
        let g = g_contact.filter(|g| *g > 0.0 && g.is_finite());
        let (mut imp, solve) = self.impact_pending(v_in, fs, g, start);
        if let (Some(g), Some(solve)) = (g, solve) {
            let exit = solve.finish();
            imp.resolve_load(exit, self.e_target(&imp, g, exit));
        }
        imp
    }

    /// [`Self::impact`] with its load on but its exit still to solve: the solve,
    /// which the caller advances and hands to [`Impact::resolve_load`] with
    /// [`Self::e_target`].
    pub fn impact_pending(
        &self,
        v_in: f64,
        fs: f64,
        g_contact: Option<f64>,
        start: f64,
    ) -> (Impact, Option<load::ExitSolve>) {
        let c = self.contact_at(v_in);
        let mut imp = Impact::new(c, self.scheme, v_in, fs).start_at(start);
        if let Some(e) = self.restitution {
            imp = imp.with_restitution_target(e);
        }
        match g_contact.filter(|g| *g > 0.0 && g.is_finite()) {
            Some(g) => {
                let solve = load::ExitSolve::new(c.k, c.mu, c.alpha, c.mass, v_in, g);
                (imp.with_load(g), Some(solve))
            }
            None => (imp, None),
        }
    }

    /// The clamp's restitution for the loaded contact `imp` under `g` leaving per
    /// `exit`: the exact one, or Proposition 1's.
    pub fn e_target(&self, imp: &Impact, g: f64, exit: load::LoadExit) -> f64 {
        match self.scheme.clamp_target {
            ClampTarget::Exact => exit.e,
            ClampTarget::Approx => {
                let (c, v_in) = (imp.analytic().contact, imp.analytic().v_in);
                let (gamma, g_tilde) = load::scaled(c.k, c.mu, c.alpha, c.mass, v_in, g);
                prop1::restitution_prop1(c.alpha, gamma, g_tilde)
            }
        }
    }
}
