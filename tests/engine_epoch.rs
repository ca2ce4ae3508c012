//! A voice remembers its own parameters (the patch moved by its expression and its
//! humanize jitter) between the changes the engine counts, so a change that arrives
//! after the note started must still reach it: here a poly-mod of Hardness in the
//! flight between two bounces of a humanized note must shape the second contact.

use rebound::engine::expression::PolyTarget;
use rebound::engine::{Engine, EngineParams};

const FS: f64 = 48_000.0;
/// The poly-mod's sample: after the first contact, before the first bounce lands.
const AT: usize = 2_400;
const TOTAL: usize = 48_000;

fn bouncing(modulated: bool) -> Vec<f32> {
    let p = EngineParams {
        bouncing: true,
        // Humanized: the voice's own parameters differ from the patch from its start.
        humanize: 1.0,
        ..Default::default()
    };
    let mut e = Engine::new(FS);
    e.set_params(&p);
    e.set_sample_rate(FS);
    e.prepare_levels([60]);
    e.note_on(60, 1.0, 0, Some(7));
    let (mut l, mut r) = (vec![0.0f32; TOTAL], vec![0.0f32; TOTAL]);
    e.render(&mut l[..AT], &mut r[..AT]);
    if modulated {
        e.poly_modulation(7, PolyTarget::Hardness.id(), 0.4);
    }
    e.render(&mut l[AT..], &mut r[AT..]);
    l
}

#[test]
fn a_poly_mod_during_a_flight_shapes_the_next_contact() {
    let (plain, moved) = (bouncing(false), bouncing(true));
    // Nothing sounds differently before the poly-mod…
    assert_eq!(&plain[..AT], &moved[..AT]);
    // …and the next bounce's contact latches the modulated Hardness.
    let first = (AT..TOTAL).find(|&i| plain[i] != moved[i]);
    assert!(first.is_some(), "the poly-mod never reached the voice");
}
