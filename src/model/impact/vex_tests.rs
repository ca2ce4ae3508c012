//! The contact's AVX2 build against its baseline build: the same arithmetic, so the
//! same bits, sample by sample, for every method and correction.

use super::*;
use crate::model::scheme::Correction;

/// Steps two copies of one contact, one on each build, and compares every state bit.
fn same_bits(contact: Contact, scheme: Scheme, v_in: f64, fs: f64) {
    let mut vex = Impact::new(contact, scheme, v_in, fs).start_at(0.37);
    let mut scalar = vex;
    vex.vex = true;
    scalar.vex = false;
    for n in 0..200_000 {
        let (a, b) = (vex.step(), scalar.step());
        let bits = |i: &Impact| [i.x, i.v, i.f, i.exit_frac].map(f64::to_bits);
        assert_eq!((a, bits(&vex)), (b, bits(&scalar)), "{scheme:?} sample {n}");
        if !a {
            return;
        }
    }
    panic!("{scheme:?}: the contact did not end");
}

#[test]
fn the_avx2_step_gives_the_baseline_bits() {
    if !crate::model::dispatch::vector_path() {
        eprintln!("no AVX2 here (or REBOUND_SIMD=portable): nothing to compare");
        return;
    }
    for method in Method::ALL {
        for correction in Correction::ALL {
            let scheme = Scheme::new(method, correction, ClampTarget::Exact);
            // The bench's bar contact (one step a sample), a general α, and a stiff
            // contact taking sub-steps.
            same_bits(Contact::new(1e4, 0.5, 1.5, 0.01), scheme, 2.0, 48_000.0);
            same_bits(Contact::new(1e5, 0.3, 1.3, 0.01), scheme, 1.0, 44_100.0);
            same_bits(Contact::new(1e9, 2.0, 2.5, 0.001), scheme, 5.0, 48_000.0);
        }
    }
}
