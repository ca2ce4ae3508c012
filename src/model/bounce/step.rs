//! A bouncer's sample: the contact in progress stepped in line, and the event loop
//! (a contact ending, a flight, a landing) for the samples that hold more.

use super::*;

impl Bouncer {
    /// Advances one sample. `next` gives what a new impact starting in this sample
    /// latches.
    #[inline]
    pub fn step<L: Into<Latch>>(&mut self, next: impl FnOnce() -> L) -> BounceSample {
        match self.step_contact::<false>() {
            Ok(out) => out,
            Err(rest) => self.step_rest(rest, next),
        }
    }

    /// [`step`](Self::step) in two parts, for a caller whose `next` costs something to
    /// make: the sample of a contact in progress with no exit being solved (nearly
    /// every sample: the event loop's first pass, in line, with nothing to spend), or
    /// what is left of the sample for [`step_rest`](Self::step_rest). `HERE`: the
    /// contact's step in line ([`Impact::step_here`], for a caller on its path), else
    /// called on the contact's own ([`Impact::step`]).
    #[inline(always)]
    pub fn step_contact<const HERE: bool>(&mut self) -> Result<BounceSample, Rest> {
        let mut out = BounceSample::default();
        self.elapsed += 1;
        if self.pending.is_none() && matches!(self.phase, Phase::Contact) {
            let Some(pos) = self.contact_pass::<HERE>(&mut out) else {
                return Ok(out);
            };
            return Err(Rest {
                out,
                pos,
                done: 1,
                budget: self.slice,
            });
        }
        // The exit's solve takes at most this much of the sample, whatever starts in it:
        // more while a flight waits for it (its landing cannot happen before).
        let waiting = self.pending.is_some() && matches!(self.phase, Phase::Flight { .. });
        let mut budget = if waiting { self.wait } else { self.slice };
        self.spend(&mut budget);
        Err(Rest {
            out,
            pos: 0.0,
            done: 0,
            budget,
        })
    }

    /// The rest of [`step`](Self::step)'s sample after
    /// [`step_contact`](Self::step_contact).
    /// `rest` says how much of the sample is accounted for (`pos`), how many of its
    /// [`MAX_EVENTS`] passes are taken, and the exit's solve steps left for an impact
    /// landing in it.
    #[inline(never)]
    pub fn step_rest<L: Into<Latch>>(
        &mut self,
        rest: Rest,
        next: impl FnOnce() -> L,
    ) -> BounceSample {
        let Rest {
            mut out,
            mut pos,
            done,
            mut budget,
        } = rest;
        let mut next = Some(next);
        for _ in done..MAX_EVENTS {
            match self.phase {
                Phase::Done => return out,
                Phase::Contact => match self.contact_pass::<false>(&mut out) {
                    Some(exit) => pos = exit,
                    None => return out,
                },
                Phase::Flight {
                    x0,
                    v0,
                    t,
                    t_return,
                } => {
                    let rest_of_sample = (1.0 - pos) / self.fs;
                    // A flight whose exit is still being solved does not land: its
                    // return time is not known yet (see `exit_known`).
                    if t + rest_of_sample < t_return || self.pending.is_some() {
                        self.phase = Phase::Flight {
                            x0,
                            v0,
                            t: t + rest_of_sample,
                            t_return,
                        };
                        return out;
                    }
                    // Back at the wall inside this sample: the next impact starts there
                    // with the exact return speed (flight conserves energy).
                    let g = self.train.gravity.unwrap_or(0.0);
                    let v_in = landing_speed(x0, v0, g);
                    pos = (pos + (t_return - t) * self.fs).clamp(0.0, 1.0);
                    let latch: Latch = match next.take() {
                        Some(f) => f().into(),
                        None => self.latch,
                    };
                    let late = self.elapsed as f64 > MAX_TRAIN_TIME * self.fs;
                    let no_speed = v_in.is_nan() || v_in <= 0.0;
                    if self.impacts >= MAX_IMPACTS || late || no_speed || pos >= 1.0 {
                        self.finish(false);
                        return out;
                    }
                    (self.impact, self.last, self.pending, self.stride) =
                        Self::open(self.train, self.fs, &latch, v_in, pos, self.strided);
                    self.latch = latch;
                    self.spend(&mut budget);
                    self.impacts += 1;
                    self.phase = Phase::Contact;
                    self.pending_onset = true;
                }
            }
        }
        // More contacts than MAX_EVENTS in one sample: the train has ended.
        self.finish(self.train.in_contact);
        out
    }

    /// One step of the contact in progress, into `out`: `None` while the mass stays in
    /// contact, else where in the sample it left (the flight then starts there).
    #[inline(always)]
    fn contact_pass<const HERE: bool>(&mut self, out: &mut BounceSample) -> Option<f64> {
        out.onset |= std::mem::take(&mut self.pending_onset);
        if self.stride.d > 1 {
            return self.strided_pass::<HERE>(out);
        }
        let before = self.impact.v();
        let still = if HERE {
            self.impact.step_here()
        } else {
            self.impact.step()
        };
        out.dv += before - self.impact.v_heard();
        if still {
            return None;
        }
        out.detached = true;
        let pos = self.impact.exit_fraction();
        self.after_contact();
        Some(pos)
    }
}

impl Bouncer {
    /// One sample of a strided contact, into `out`: its step taken on the first sample
    /// of each span of `d`, then the curve's velocity lost in this sample. `None`
    /// while the mass stays in contact, else where in the sample it left.
    #[inline(always)]
    pub(super) fn strided_pass<const HERE: bool>(&mut self, out: &mut BounceSample) -> Option<f64> {
        let d = self.stride.d as f64;
        if self.stride.k == 0 {
            let imp = &self.impact;
            let s0 = if imp.samples() == 0 {
                imp.start_fraction()
            } else {
                0.0
            };
            let (v0, g0) = (imp.v(), imp.acceleration() / imp.sample_rate());
            let still = if HERE {
                self.impact.step_here()
            } else {
                self.impact.step()
            };
            let imp = &self.impact;
            let (s1, g1) = if still {
                (1.0, imp.acceleration() / imp.sample_rate())
            } else {
                // At the wall the force has gone (rigid, no load).
                (imp.exit_fraction().max(s0), 0.0)
            };
            let v1 = imp.v_heard();
            self.stride = Stride {
                s0,
                s1,
                // A step that ends where it starts has no inside to draw.
                inv_len: if s1 > s0 { 1.0 / (s1 - s0) } else { 0.0 },
                v0,
                g0,
                v1,
                g1,
                v_at: v0,
                exits: !still,
                ..self.stride
            };
        }
        let st = &mut self.stride;
        st.played += 1;
        let k = st.k;
        let end = (k + 1) as f64 / d;
        if st.exits && st.s1 <= end || k + 1 == st.d {
            // The step's last sample: its end velocity exactly, so the samples' sum is
            // the step's.
            out.dv += st.v_at - st.v1;
            st.k = 0;
            if !st.exits {
                return None;
            }
            let pos = st.s1 * d - k as f64;
            out.detached = true;
            self.after_contact();
            return Some(pos);
        }
        let v = st.v(end);
        out.dv += st.v_at - v;
        st.v_at = v;
        st.k += 1;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scheme::{ClampTarget, Correction, Method};

    /// Every sample reports exactly the velocity its contacts took (on the in-line
    /// contact sample and on the event loop's alike), and each impact's onset and exit
    /// once: a single strike, and trains with flights, landings and exits solved a slice
    /// at a time.
    #[test]
    fn each_sample_reports_what_its_contacts_did() {
        let c = Contact::new(1e4, 0.5, 1.5, 0.01);
        for method in Method::ALL {
            let scheme = Scheme::new(method, Correction::Both, ClampTarget::Exact);
            let (flight, contact) = (Some(9.81), Some(9.81));
            for (gravity, in_contact) in [(None, false), (flight, false), (contact, true)] {
                let train = Train {
                    gravity,
                    in_contact,
                };
                let latch = Latch::from((c, scheme));
                let mut b = Bouncer::new(latch, 2.0, 48_000.0, train);
                let (mut onsets, mut exits) = (0, 0);
                for _ in 0..2_000_000 {
                    if b.is_done() {
                        break;
                    }
                    let plain = b.pending.is_none() && matches!(b.phase, Phase::Contact);
                    let v0 = b.impact().v();
                    let s = b.step(|| latch);
                    if plain && !s.detached {
                        let lost = 0.0 + (v0 - b.impact().v());
                        assert_eq!(s.dv.to_bits(), lost.to_bits(), "{method:?}");
                    }
                    onsets += u32::from(s.onset);
                    exits += u32::from(s.detached);
                }
                let bounced = b.impacts() > 3 || gravity.is_none();
                assert!(b.is_done() && bounced, "{method:?} {in_contact}");
                assert_eq!((onsets, exits), (b.impacts(), b.impacts()), "{method:?}");
            }
        }
    }
}
