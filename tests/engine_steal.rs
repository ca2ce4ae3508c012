//! A stolen voice in contact: its contact is lifted at the steal (only the new note
//! pushes on from there), and the lift does not click under the steal's fade.

use rebound::engine::{Coupling, Engine, EngineParams};

mod support;
use support::max_step;

const FS: f64 = 48_000.0;
const STEAL_AT: usize = 100;
const AFTER: usize = 2000;

/// `(left, force)`: key 60 struck at sample 0 if `first`, key 67 at [`STEAL_AT`] if
/// `second`; one voice, a 10 ms contact, on the rigid wall or two-way.
fn play(coupling: Coupling, mix: f64, first: bool, second: bool) -> (Vec<f32>, Vec<f32>) {
    let p = EngineParams {
        voices: 1,
        hardness_ms: 10.0,
        mix,
        coupling,
        ..Default::default()
    };
    let mut e = Engine::new(FS);
    e.set_params(&p);
    let mut l = vec![0f32; STEAL_AT + AFTER];
    let mut r = l.clone();
    let mut f = l.clone();
    if first {
        e.note_on(60, 1.0, 0, None);
    }
    let (head_l, tail_l) = l.split_at_mut(STEAL_AT);
    let (head_r, tail_r) = r.split_at_mut(STEAL_AT);
    let (head_f, tail_f) = f.split_at_mut(STEAL_AT);
    e.render_with_force(head_l, head_r, Some(head_f));
    if second {
        e.note_on(67, 1.0, 0, None);
    }
    e.render_with_force(tail_l, tail_r, Some(tail_f));
    (l, f)
}

#[test]
fn a_stolen_contact_is_lifted_without_a_click() {
    for (coupling, mix) in [Coupling::Rigid, Coupling::TwoWay]
        .into_iter()
        .flat_map(|c| [0.0, 0.5, 1.0].map(|m| (c, m)))
    {
        let mix_name = format!("{coupling:?}, mix {mix}");
        let (both, force_both) = play(coupling, mix, true, true);
        let (new, force_new) = play(coupling, mix, false, true);
        let (old, force_old) = play(coupling, mix, true, false);
        // Key 60 is still pressing when it is stolen.
        assert!(
            force_old[STEAL_AT - 1] > 0.0,
            "{mix_name}: no contact to steal"
        );
        let differ = (STEAL_AT..force_new.len()).find(|&i| force_both[i] != force_new[i]);
        assert!(
            differ.is_none(),
            "{mix_name}: the stolen voice still pushes at {differ:?}"
        );
        // The new note's own onset is in both; the lift adds no step of its own.
        let w = STEAL_AT - 8..STEAL_AT + 400;
        let step = max_step(&both[w.clone()]);
        let reference = max_step(&new[w.clone()]) + max_step(&old[w]);
        assert!(
            step <= 1.1 * reference,
            "{mix_name}: step {step} against {reference}"
        );
    }
}
