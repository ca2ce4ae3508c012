//! Proves the loudness normalisation: a full-velocity strike peaks near −6 dBFS across
//! stiffness, exponent, damping, mass and body type, so stiffness changes timbre, not
//! loudness; and that `render` (the offline path) is the plugin's engine.

use rebound::engine::{EngineParams, NoteSpec, render};
use rebound::model::body::BodyType;

fn peak_db(p: &EngineParams, fs: f64) -> f64 {
    let r = render(
        p,
        fs,
        &[NoteSpec {
            at: 10,
            key: 60,
            velocity: 1.0,
        }],
        (0.5 * fs) as usize,
    );
    let peak = r.audio.iter().fold(0f32, |m, s| m.max(s.abs())) as f64;
    20.0 * peak.log10()
}

#[test]
fn full_velocity_peaks_near_minus_6_dbfs() {
    let mut worst = (0.0f64, String::new());
    for body in BodyType::ALL {
        for k in [1e4, 1e7, 1e10] {
            for alpha in [1.0, 1.5, 3.0] {
                for mu in [1e-3, 0.5, 5.0] {
                    for mass in [1e-3, 0.01, 0.3] {
                        let p = EngineParams {
                            body,
                            k,
                            alpha,
                            mu,
                            mass,
                            mix: if body == BodyType::None { 0.0 } else { 0.7 },
                            ..Default::default()
                        };
                        let db = peak_db(&p, 48000.0);
                        let dev = (db + 6.0).abs();
                        if dev > worst.0 {
                            worst = (
                                dev,
                                format!("{body:?} k {k:e} α {alpha} μ {mu} m {mass}: {db:.1} dBFS"),
                            );
                        }
                        assert!(
                            db.is_finite() && db < -1.0 && db > -24.0,
                            "{body:?} k {k:e} α {alpha} μ {mu} m {mass}: {db:.1} dBFS"
                        );
                    }
                }
            }
        }
    }
    eprintln!("worst: {}", worst.1);
}

#[test]
fn dry_pulse_peaks_at_minus_6_dbfs_whatever_the_stiffness() {
    for k in [1e4, 1e6, 1e8, 1e10, 1e12] {
        let p = EngineParams {
            body: BodyType::None,
            mix: 0.0,
            k,
            ..Default::default()
        };
        let db = peak_db(&p, 96000.0);
        // Within 4 dB: a contact near one sample long shows up to the impulse margin.
        assert!((db + 6.0).abs() < 4.0, "k {k:e}: {db:.2} dBFS");
    }
}
