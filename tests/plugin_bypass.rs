//! The host's bypass through the real `process()`: the output fades to silence within
//! its fade and back, without a step, while the voices go on underneath; not bypassed,
//! the output is what it was without the parameter, bit for bit.

use rebound::Rebound;

mod support;
use support::*;

const FS: f32 = 48_000.0;
const TOTAL: usize = 24_000;
/// The bypass switches at the start of this block, and back at the start of `BACK`.
const AT: usize = 4_096;
const BACK: usize = 12_288;
const BLOCK: usize = 512;

fn played(bypass_between: Option<(usize, usize)>) -> (Vec<f32>, Vec<f32>) {
    let mut p: Rebound = activated(FS, BLOCK as u32);
    let params = p.rebound_params();
    // A long ring, so the bypass falls inside it.
    set_plain(&params, "t60", 3.0);
    let (l, r, _) = run_with(&mut p, BLOCK, TOTAL, &[note_on(100, 60, 1.0)], |_, at| {
        if let Some((on, off)) = bypass_between {
            let bypassed = at >= on && at < off;
            set_norm(&params, "bypass", if bypassed { 1.0 } else { 0.0 });
        }
    });
    (l, r)
}

#[test]
fn bypass_fades_to_silence_and_back_without_a_step() {
    let (plain_l, plain_r) = played(None);
    let (l, r) = played(Some((AT, BACK)));
    // Before the switch: untouched, bit for bit.
    assert_eq!(&l[..AT], &plain_l[..AT]);
    assert_eq!(&r[..AT], &plain_r[..AT]);
    // A 10 ms fade: silence from there until the switch back.
    let fade = (0.01 * FS) as usize + 1;
    assert!(
        l[AT + fade..BACK]
            .iter()
            .chain(&r[AT + fade..BACK])
            .all(|&s| s == 0.0)
    );
    // The ring went on underneath: after the fade back the output is the unbypassed
    // one again, bit for bit.
    assert_eq!(&l[BACK + fade..], &plain_l[BACK + fade..]);
    assert_eq!(&r[BACK + fade..], &plain_r[BACK + fade..]);
    // Both fades are ramps: no sample steps further than the plain signal's largest
    // step (the ramp only scales it down).
    let plain_step = max_step(&plain_l);
    assert!(
        plain_l[AT..BACK].iter().any(|&s| s.abs() > 1e-3),
        "nothing rang"
    );
    assert!(
        max_step(&l) <= plain_step * 1.01,
        "{} vs {plain_step}",
        max_step(&l)
    );
}
