//! A voice that only rings plays a block at a time (`Voice::ring_into`): the block must
//! be exactly the samples `tick` gives one by one, through a steal's fade to the end.

use rebound::engine::EngineParams;
use rebound::model::body::BodyType;
use rebound::voice::Voice;

/// A voice struck on `key` and played until its contact is over.
fn ringing(p: &EngineParams, key: u8) -> Voice {
    let mut v = Voice::new(48_000.0);
    v.strike(p, key, 0.8, 0);
    for _ in 0..48_000 {
        if v.only_rings() {
            return v;
        }
        v.tick(p, 0.7);
    }
    panic!("the voice never came to only ring");
}

#[test]
fn a_ringing_block_is_the_samples_it_stands_for() {
    for body in BodyType::ALL {
        for key in [24, 60, 96] {
            let p = EngineParams {
                body,
                t60: 3.0,
                ..Default::default()
            };
            let mut a = ringing(&p, key);
            let mut b = a;
            let mix: Vec<f64> = (0..3000)
                .map(|n| 0.5 + 0.4 * (n as f64 * 1e-3).sin())
                .collect();
            let (mut mid, mut side) = (vec![0.0; mix.len()], vec![0.0; mix.len()]);
            // A steal's fade starts a third of the way in and ends inside the block.
            let cut = 1000;
            assert_eq!(
                b.ring_into(&mix[..cut], &mut mid[..cut], &mut side[..cut]),
                None
            );
            b.release_fast();
            let end = b.ring_into(&mix[cut..], &mut mid[cut..], &mut side[cut..]);
            let mut ended = None;
            for (n, &m) in mix.iter().enumerate() {
                if n == cut {
                    a.release_fast();
                }
                let s = a.tick(&p, m).expect("no guard");
                assert_eq!(
                    (mid[n], side[n]),
                    (s.out, s.side),
                    "{body:?} key {key} sample {n}"
                );
                if !a.is_active() {
                    ended = Some(n - cut);
                    break;
                }
            }
            assert!(ended.is_some(), "{body:?} key {key}: the fade did not end");
            assert_eq!(end, ended.map(|n| (n, false)), "{body:?} key {key}");
        }
    }
}

/// A voice stolen in contact holds the contact's last force on its body through its
/// fade, and rings a block at a time from the steal on: the same samples, bit for bit,
/// as `tick` gives with the force held, to the fade's end.
#[test]
fn a_voice_stolen_in_contact_rings_its_held_force_a_block_at_a_time() {
    for body in BodyType::ALL {
        for key in [24, 60, 96] {
            let p = EngineParams {
                body,
                hardness_ms: 10.0,
                ..Default::default()
            };
            let mut a = Voice::new(48_000.0);
            a.strike(&p, key, 0.8, 0);
            for _ in 0..100 {
                a.tick(&p, 0.7);
            }
            assert!(a.in_contact(), "{body:?} key {key}: still in contact");
            a.release_fast();
            assert!(a.only_rings(), "{body:?} key {key}: the stolen voice rings");
            let mut b = a;
            let mix = [0.7; 400];
            let (mut mid, mut side) = ([0.0; 400], [0.0; 400]);
            let end = b.ring_into(&mix, &mut mid, &mut side);
            let mut ended = None;
            let mut heard = 0.0f64;
            for (n, &m) in mix.iter().enumerate() {
                let s = a.tick(&p, m).expect("no guard");
                assert_eq!(
                    (mid[n], side[n]),
                    (s.out, s.side),
                    "{body:?} key {key} sample {n}"
                );
                heard = heard.max(s.out.abs());
                if !a.is_active() {
                    ended = Some(n);
                    break;
                }
            }
            assert!(heard > 0.0, "{body:?} key {key}: the fade is heard");
            assert_eq!(end, ended.map(|n| (n, false)), "{body:?} key {key}");
        }
    }
}
