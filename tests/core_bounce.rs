//! Proves the bouncing chain (gravity in free flight only): each flight lasts
//! `2|v_out|/g` to within one sample, the next impact starts with the exact return
//! speed, and the sequence ends once a flight would be shorter than one sample.

use rebound::model::{Bouncer, ClampTarget, Contact, Correction, Method, Phase, Scheme};

#[test]
fn flights_last_two_v_out_over_g_and_return_with_the_same_speed() {
    // Restitution tends to 1 as v_in → 0 (1 − e ≈ 2μv/3), so speeds fall only
    // harmonically at the end: a strong damping and gravity keep the chain short.
    let c = Contact::new(1e7, 10.0, 1.5, 0.01);
    for (method, fs, g) in [
        (Method::Verlet, 48_000.0, 100.0),
        (Method::Am1, 96_000.0, 50.0),
    ] {
        let s = Scheme::new(method, Correction::Both, ClampTarget::Exact);
        let mut b = Bouncer::strike(c, s, 1.0, fs, Some(g));
        let (mut n, mut detached_at, mut v_out) = (0u64, None, 0.0);
        let mut flights = 0;
        while !b.is_done() && n < 600 * fs as u64 {
            let o = b.step(|| (c, s));
            if o.onset
                && let Some(d) = detached_at.take()
            {
                let flight = (n - d) as f64;
                let expected = 2.0 * f64::abs(v_out) / g * fs;
                assert!((flight - expected).abs() <= 1.0, "{flight} vs {expected}");
                // Clamped exit at x = 0: the return speed is exactly |v_out|.
                assert_eq!(b.impact().analytic().v_in, f64::abs(v_out));
                flights += 1;
            }
            if o.detached {
                detached_at = Some(n);
                v_out = b.impact().v();
                if let Phase::Flight { .. } = b.phase() {
                    let (x, v) = b.flight_state().unwrap();
                    assert_eq!((x, v), (0.0, v_out));
                }
            }
            n += 1;
        }
        assert!(b.is_done(), "the sequence must end");
        assert!(flights > 20, "{flights} bounces");
        // It ended because the last flight would be shorter than one sample.
        assert!(2.0 * f64::abs(v_out) / g * fs < 1.0, "last v_out {v_out}");
    }
}
