use crate::model::bounce::{Bouncer, Latch, Train};
use crate::model::contact::Contact;
use crate::model::scheme::{ClampTarget, Correction, Method, Scheme};

fn latch(c: Contact, method: Method) -> Latch {
    Latch::from((c, Scheme::new(method, Correction::Both, ClampTarget::Exact)))
}

/// Each sample's velocity lost, until the train is done, and the onsets' instants in
/// seconds (where each contact's first sample began, plus its start).
fn play(b: Bouncer, l: Latch, fs: f64) -> (Vec<f64>, Vec<f64>) {
    let (dv, onsets, _) = play_samples(b, l, fs);
    (dv, onsets)
}

/// [`play`], and the samples the last contact took.
fn play_samples(mut b: Bouncer, l: Latch, fs: f64) -> (Vec<f64>, Vec<f64>, u64) {
    let (mut dv, mut onsets) = (Vec::new(), Vec::new());
    let mut n = 0u64;
    while !b.is_done() && n < 10_000_000 {
        let before = b.impacts();
        let s = b.step(|| l);
        if s.onset {
            let start = b.impact().start_fraction() * b.stride.d as f64;
            let at = if b.impacts() > before || n == 0 {
                start
            } else {
                0.0
            };
            onsets.push((n as f64 + at) / fs);
        }
        dv.push(s.dv);
        n += 1;
    }
    (dv, onsets, b.contact_samples())
}

/// A long contact at 192 kHz (about 9 ms: the storm's Hardness) is stepped every
/// fourth sample, and each sample's impulse is the every-sample contact's within 0.5 %
/// of its peak; the impulses sum to the same momentum, and the pulse ends in the same
/// sample or the next, which is the contact's length in samples (as the editor shows
/// it), not in steps.
#[test]
fn a_long_contact_plays_the_same_pulse_a_quarter_of_the_steps() {
    let fs = 192_000.0;
    let c = Contact::new(1e4, 0.5, 1.5, 0.01);
    for method in Method::ALL {
        let l = latch(c, method);
        let fine = Bouncer::new(l, 2.0, fs, Train::SINGLE);
        let coarse = Bouncer::strided(l, 2.0, fs, Train::SINGLE);
        assert_eq!((fine.stride.d, coarse.stride.d), (1, 4), "{method:?}");
        let (a, _, na) = play_samples(fine, l, fs);
        let (b, _, nb) = play_samples(coarse, l, fs);
        assert!(na > 1000 && na.abs_diff(nb) <= 1, "{method:?}: {na} {nb}");
        let peak = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(worst < 5e-3 * peak, "{method:?}: {worst:e} of {peak:e}");
        let (sa, sb): (f64, f64) = (a.iter().sum(), b.iter().sum());
        assert!((sa - sb).abs() < 1e-12 * sa.abs(), "{method:?}: {sa} {sb}");
        assert!(
            a.len().abs_diff(b.len()) <= 1,
            "{method:?}: {} {}",
            a.len(),
            b.len()
        );
    }
}

/// The samples of one step sum to the step's velocity change exactly (to rounding),
/// whatever the start inside the first sample: a bouncing train's every contact starts
/// at its exact return instant. Its steps are as fine as at 48 kHz, and so is its
/// rhythm: held to the every-sample train at 384 kHz, its onsets are off by no more
/// than the 48 kHz train's (the accuracy rule's `h ω`, not the rate, sets a train's
/// drift), at 96 and 192 kHz.
#[test]
fn a_strided_train_keeps_its_onsets_and_momentum() {
    let c = Contact::new(1e4, 0.5, 1.5, 0.01);
    let train = Train {
        gravity: Some(9.81),
        in_contact: false,
    };
    let l = latch(c, Method::Verlet);
    let (_, exact) = play(Bouncer::new(l, 2.0, 384_000.0, train), l, 384_000.0);
    let off = |o: &[f64]| {
        assert_eq!(o.len(), exact.len());
        o.iter()
            .zip(&exact)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    };
    let (_, o48) = play(Bouncer::new(l, 2.0, 48_000.0, train), l, 48_000.0);
    let at_48 = off(&o48);
    assert!(exact.len() > 3, "{}", exact.len());
    for fs in [96_000.0, 192_000.0] {
        let (a, _) = play(Bouncer::new(l, 2.0, fs, train), l, fs);
        let coarse = Bouncer::strided(l, 2.0, fs, train);
        assert!(coarse.stride.d > 1, "{fs}");
        let (b, ob) = play(coarse, l, fs);
        let strided = off(&ob);
        assert!(
            strided <= 1.1 * at_48,
            "{fs}: {strided:e} against {at_48:e} at 48 kHz"
        );
        let (sa, sb): (f64, f64) = (a.iter().sum(), b.iter().sum());
        assert!((sa - sb).abs() < 1e-9 * sa.abs(), "{fs}: {sa} {sb}");
    }
}

/// At 48 kHz, and for a contact that needs its every sample, a strided bouncer is the
/// every-sample one bit for bit.
#[test]
fn where_a_step_a_sample_is_needed_nothing_changes() {
    let long = Contact::new(1e4, 0.5, 1.5, 0.01);
    let stiff = Contact::new(1e10, 0.5, 1.5, 0.01);
    for (c, fs) in [(long, 48_000.0), (long, 44_100.0), (stiff, 192_000.0)] {
        let l = latch(c, Method::Verlet);
        let coarse = Bouncer::strided(l, 2.0, fs, Train::SINGLE);
        assert_eq!(coarse.stride.d, 1, "{fs}");
        let (a, _) = play(Bouncer::new(l, 2.0, fs, Train::SINGLE), l, fs);
        let (b, _) = play(coarse, l, fs);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b), "{fs}");
    }
}
