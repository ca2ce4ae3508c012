//! Velocity changes the timbre, as real strikes do (Velocity → Hardness): at its
//! default the default patch, and the Mallet presets at theirs, note 60, have a
//! spectral centroid at velocity 127 at least 1.5× that at velocity 40; at 0 a softer
//! note's contact is the physics' alone (the render is the one without the control).
//!
//! The two soft mallets (Felt on a membrane, Soft mallet on a metal bar) were at ×1.16
//! and ×1.06: a full-velocity contact of 4 and 2.5 ms let only the body's lowest modes
//! ring, whatever a softer note did. They now strike at 2 and 1 ms with felt's contact
//! exponent (α = 3 and 2.5), away from the modes' common antinode, and Velocity →
//! Hardness at 100 %.

use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::preset;

#[path = "support/spectrum.rs"]
mod spectrum;

const FS: f64 = 48_000.0;

fn mono(p: &EngineParams, vel: u8) -> Vec<f32> {
    let n = NoteSpec {
        at: 0,
        key: 60,
        velocity: vel as f32 / 127.0,
        off: None,
    };
    render(p, FS, &[n], (0.5 * FS) as usize).mono()
}

fn centroid_ratio(p: &EngineParams) -> f64 {
    spectrum::centroid(&mono(p, 127), FS) / spectrum::centroid(&mono(p, 40), FS)
}

fn mallets() -> Vec<(String, EngineParams)> {
    let mut cases = vec![("default".to_string(), EngineParams::default())];
    cases.extend(
        preset::factory()
            .iter()
            .filter(|p| p.category == "Mallet")
            .map(|p| (p.name.clone(), p.params)),
    );
    cases
}

#[test]
fn a_harder_note_is_brighter() {
    let cases = mallets();
    assert!(cases.len() >= 6, "{}", cases.len());
    assert_brighter(&cases);
}

fn assert_brighter(cases: &[(String, EngineParams)]) {
    let mut bad = Vec::new();
    for (name, p) in cases {
        let r = centroid_ratio(p);
        let off = centroid_ratio(&EngineParams {
            velocity_hardness: 0.0,
            ..*p
        });
        eprintln!("{name}: centroid ×{r:.2} from velocity 40 to 127 (×{off:.2} without)");
        if r < 1.5 {
            bad.push(format!("{name}: ×{r:.2}"));
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn zero_leaves_a_softer_note_to_the_physics() {
    let p = EngineParams {
        velocity_hardness: 0.0,
        humanize: 0.0,
        ..Default::default()
    };
    // Full velocity is never moved; at 0 no velocity is.
    let full = mono(&EngineParams::default(), 127);
    assert_eq!(full, mono(&p, 127));
    let soft = mono(&p, 40);
    assert_ne!(soft, mono(&EngineParams::default(), 40));
}
