use super::*;
use crate::model::surface::{DX, Surface};

const FS: f64 = 48_000.0;

fn ball() -> Contact {
    // A 10 g ball, k 1e7, μ 0.5, α 1.5 (the default patch's expert contact).
    Contact::new(1e7, 0.5, 1.5, 0.01)
}

/// Rolls `seconds` at `speed` over a surface of RMS height `rough`: the state, the
/// surface under it at the end, and the mean force over the run.
fn roll(speed: f64, rough: f64, seconds: f64) -> (Rolling, f64, f64) {
    let (r, s, forces) = roll_with(ball(), None, speed, rough, seconds);
    let n = forces.len() as f64;
    (r, s, forces.iter().sum::<f64>() / n)
}

/// The same roll with any contact, and its plan forced if asked: the state, the
/// surface at the end and the force of every sample.
fn roll_with(
    c: Contact,
    plan: Option<(u32, Damping)>,
    speed: f64,
    rough: f64,
    seconds: f64,
) -> (Rolling, f64, Vec<f64>) {
    roll_seeded(c, plan, (speed, rough, 11), seconds)
}

/// [`roll_with`] over the surface of seed `seed`.
fn roll_seeded(
    c: Contact,
    plan: Option<(u32, Damping)>,
    (speed, rough, seed): (f64, f64, u64),
    seconds: f64,
) -> (Rolling, f64, Vec<f64>) {
    let mut surf = Surface::new(rough, 1.5, 0.01, seed, DX);
    let mut x = 0.0;
    let s0 = surf.under(x);
    let mut r = Rolling::new(c, c.mass * 9.81, s0, FS);
    if let Some((steps, damping)) = plan {
        (r.steps, r.damping, r.dt) = (steps, damping, 1.0 / (FS * steps as f64));
        // The stiff-damping guard is for the steps taken, not the plan's.
        r.stiff_pow = r.stiff_pow_for();
        if damping == Damping::Rigid {
            r.rest_rigid(s0);
        }
    }
    let mut s_prev = s0;
    let forces = (0..(seconds * FS) as usize)
        .map(|_| {
            x += speed / FS;
            let s1 = surf.under(x);
            let f = r.sample(s_prev, s1);
            s_prev = s1;
            f
        })
        .collect();
    (r, s_prev, forces)
}

/// The ball with the damping of a slow scrape (`μ` from its travel speed of a few
/// mm/s), which an explicit damping would take ten steps a sample for.
fn sticky() -> Contact {
    Contact::new(1e7, 3000.0, 1.5, 0.01)
}

/// On a flat surface the ball rests at the static compression, the force is its
/// weight, and nothing drifts.
#[test]
fn at_rest_it_holds_its_weight() {
    let (r, s, f) = roll(0.5, 0.0, 0.2);
    let load = 0.01 * 9.81;
    assert!((f / load - 1.0).abs() < 1e-9, "{f}");
    let d = s - r.y;
    assert!((d / static_compression(&ball(), load) - 1.0).abs() < 1e-6);
    assert!(r.drift(s).abs() < 1e-12, "{}", r.drift(s));
}

/// Over a rough surface the balance `E + D − W` holds to the method's error, which
/// falls as the steps shorten, and the mean force is the weight (the ball neither
/// sinks nor rises).
#[test]
fn the_energy_balance_holds_while_rolling() {
    let (r, s, f) = roll(1.0, 5e-6, 0.5);
    let rel = r.drift(s).abs() / r.energy_scale();
    assert!(rel < 1e-3, "drift {rel:e} of {:e} J", r.energy_scale());
    assert!(r.energy_scale() > 0.0 && r.work.abs() > 0.0);
    assert!((f / (0.01 * 9.81) - 1.0).abs() < 0.05, "{f}");
}

/// Slowly it stays on the surface; fast over the same surface it flies off the bumps
/// and lands again, each landing dated inside its sample.
#[test]
fn fast_over_bumps_it_flies_and_lands() {
    let (slow, _, _) = roll(0.02, 5e-6, 0.5);
    let (fast, _, _) = roll(2.0, 5e-6, 0.5);
    assert_eq!(slow.landings, 0);
    assert!(fast.landings > 10, "{}", fast.landings);
    assert!(fast.last_landing.is_finite() && fast.last_landing.fract() != 0.0);
}

/// Bad values are safe: a load of NaN or a zero mass stays finite.
#[test]
fn steps_are_bounded() {
    let stiff = Contact::new(1e12, 10.0, 1.0, 1e-4);
    assert_eq!(steps_for(&stiff, 10.0, 22_050.0), MAX_STEPS);
    assert_eq!(steps_for(&ball(), 0.01 * 9.81, 48_000.0), 1);
    let r = Rolling::new(ball(), f64::NAN, 0.0, FS);
    assert_eq!(r.load(), 0.0);
}

/// A damping far stiffer than the spring is split, at the spring's steps: one a sample
/// for the sticky ball, where the explicit bound asks ten. The default ball
/// keeps its explicit plan.
#[test]
fn a_stiff_damping_is_split_at_the_springs_steps() {
    let load = 0.01 * 9.81;
    assert_eq!(plan_for(&ball(), load, FS), (1, Damping::Explicit));
    assert_eq!(steps_for(&sticky(), load, FS), 10);
    assert_eq!(plan_for(&sticky(), load, FS), (1, Damping::Split));
}

/// Split at one step a sample, the sticky ball's force follows an explicit reference
/// at 64 steps (`h λ` ≈ 0.15) to a few percent of its swing, and its balance holds.
#[test]
fn the_split_damping_follows_a_fine_reference() {
    let (speed, rough) = (0.05, 5e-6);
    let (r, s, split) = roll_with(sticky(), None, speed, rough, 0.5);
    let fine = Some((64, Damping::Explicit));
    let (_, _, reference) = roll_with(sticky(), fine, speed, rough, 0.5);
    assert_eq!((r.steps(), r.damping()), (1, Damping::Split));
    let load = 0.01 * 9.81;
    let swing = rms(reference.iter().map(|f| f - load));
    let err = rms(split.iter().zip(&reference).map(|(a, b)| a - b));
    assert!(
        swing > 1e-3 * load,
        "the surface hardly moved the ball: {swing:e}"
    );
    assert!(err < 0.05 * swing, "error {err:e} of a swing {swing:e}");
    let rel = r.drift(s).abs() / r.energy_scale();
    assert!(rel < 1e-3, "drift {rel:e} of {:e} J", r.energy_scale());
}

/// Split over several steps a sample (a stiffer sticky ball: four for the spring,
/// where an explicit damping asks ten), each step's closing half of the damping taken
/// with the next one's opening half, the force still follows the explicit reference
/// at 64 steps, and the balance holds.
#[test]
fn split_steps_in_a_row_follow_a_fine_reference() {
    let c = Contact::new(1e11, 3000.0, 1.5, 0.01);
    let load = c.mass * 9.81;
    let (steps, damping) = plan_for(&c, load, FS);
    assert!(
        steps >= 3 && damping == Damping::Split,
        "{steps} {damping:?}"
    );
    let (speed, rough) = (0.05, 5e-6);
    let (r, s, split) = roll_with(c, None, speed, rough, 0.5);
    let fine = Some((64, Damping::Explicit));
    let (_, _, reference) = roll_with(c, fine, speed, rough, 0.5);
    let swing = rms(reference.iter().map(|f| f - load));
    let err = rms(split.iter().zip(&reference).map(|(a, b)| a - b));
    assert!(swing > 1e-3 * load, "{swing:e}");
    assert!(err < 0.05 * swing, "error {err:e} of a swing {swing:e}");
    let rel = r.drift(s).abs() / r.energy_scale();
    assert!(rel < 1e-3, "drift {rel:e} of {:e} J", r.energy_scale());
}

/// Fast over bumps with a stiff damping the split ball still flies and lands, and
/// a surface that falls away faster than the load can follow leaves it (the damping
/// never pulls it down).
#[test]
fn a_split_damping_never_pulls() {
    let (r, _, forces) = roll_with(sticky(), None, 2.0, 5e-6, 0.5);
    assert_eq!(r.damping(), Damping::Split);
    assert!(r.landings > 10, "{}", r.landings);
    assert!(forces.iter().all(|f| f.is_finite()));
}

fn rms(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x * x, n + 1));
    (sum / n as f64).sqrt()
}

/// A contact stiffer than [`MAX_STEPS`] can follow is rigid, and rolls as a ball
/// should: the mean force is its weight, it never flies off, and its balance holds to
/// rounding. Taken at `h ω` far past Verlet's limit of 2, these ran away to 10³–10⁴
/// m/s and a mean force hundreds of times the weight; and at α 1 with μ 3000, its
/// landings pressing deeper than the plan foresaw, the explicit damping ran away (3
/// m/s, 1.3× the weight) until such steps were split.
#[test]
fn an_over_stiff_contact_is_rigid_and_does_not_run_away() {
    let load = |c: &Contact| c.mass * 9.81;
    assert_ne!(plan_for(&ball(), load(&ball()), FS).1, Damping::Rigid);
    assert_ne!(plan_for(&sticky(), load(&sticky()), FS).1, Damping::Rigid);
    for (k, alpha, mass) in [(1e12, 1.0, 1e-4), (1e12, 1.5, 1e-4), (1e9, 1.0, 1e-3)] {
        for mu in [1e-4, 0.5, 10.0, 3000.0] {
            for speed in [0.01, 0.3, 3.0] {
                let c = Contact::new(k, mu, alpha, mass);
                let (r, s, forces) = roll_with(c, None, speed, 5e-6, 1.0);
                assert_eq!(r.damping(), Damping::Rigid);
                let mean = forces.iter().sum::<f64>() / forces.len() as f64;
                let case = format!("k {k:e} α {alpha} m {mass:e} μ {mu:e} at {speed} m/s");
                assert!(
                    (mean / load(&c) - 1.0).abs() < 0.05,
                    "{case}: mean {mean:e}"
                );
                assert!(r.w.abs() < 1.0, "{case}: w {:e}", r.w);
                let rel = r.drift(s).abs() / r.energy_scale();
                assert!(rel < 1e-9, "{case}: drift {rel:e}");
            }
        }
    }
}

/// The rigid limit is the stiff contact's: a ball whose spring asks several steps a
/// sample, stepped at 64, and the same ball taken rigid. Slow, both chatter over the
/// surface's turns, and fast, both fly off its bumps. The motion is chaotic (a change
/// in the last bit of a step moves the stepped ball's landings by half), so what is
/// compared is what is heard of it over four surfaces: the mean force (the weight),
/// the force's swing below a few kilohertz (a moving average over eight samples) and
/// how often it lands.
#[test]
fn the_rigid_limit_follows_a_stiff_stepped_contact() {
    let c = Contact::new(6e11, 0.5, 1.5, 0.01);
    let load = c.mass * 9.81;
    let (spring, _) = plan_for(&c, load, FS);
    assert!((6..=MAX_STEPS).contains(&spring), "{spring}");
    let rigid_plan = Some((1, Damping::Rigid));
    for speed in [0.05, 1.0] {
        // Summed over the surfaces: (landings, swing², mean force) stepped and rigid.
        let (mut stepped, mut rigid) = ([0.0; 3], [0.0; 3]);
        for seed in 1..=4 {
            let at = (speed, 5e-6, seed);
            let (a, _, reference) = roll_seeded(c, Some((64, Damping::Explicit)), at, 0.5);
            let (b, s, forces) = roll_seeded(c, rigid_plan, at, 0.5);
            for (sum, r, f) in [(&mut stepped, &a, &reference), (&mut rigid, &b, &forces)] {
                let swing = rms(smooth(f, 8).iter().map(|x| x - load));
                let mean = f.iter().sum::<f64>() / f.len() as f64;
                sum[0] += r.landings as f64;
                sum[1] += swing * swing;
                sum[2] += mean / 4.0;
            }
            let rel = b.drift(s).abs() / b.energy_scale();
            assert!(rel < 1e-9, "drift {rel:e}");
        }
        let case = format!("{speed} m/s: stepped {stepped:?}, rigid {rigid:?}");
        assert!((rigid[2] / load - 1.0).abs() < 0.02, "{case}");
        assert!(((rigid[1] / stepped[1]).sqrt() - 1.0).abs() < 0.3, "{case}");
        let landings = rigid[0] / stepped[0];
        assert!(
            stepped[0] > 40.0 && landings.ln().abs() < 2f64.ln(),
            "{case}"
        );
    }
}

/// Dropped onto a flat surface, a rigid ball bounces ever lower and comes to rest on
/// it (a rebound under a sample's flight stays down); the force is then its weight.
#[test]
fn a_rigid_ball_comes_to_rest() {
    let c = Contact::new(1e13, 5.0, 1.5, 0.01);
    let mut r = Rolling::new(c, c.mass * 9.81, 0.0, FS);
    assert_eq!(r.damping(), Damping::Rigid);
    (r.y, r.f) = (1e-3, 0.0);
    r.e0 = r.energy(0.0);
    let forces: Vec<f64> = (0..FS as usize).map(|_| r.sample(0.0, 0.0)).collect();
    assert!(r.landings > 3, "{}", r.landings);
    assert!(r.touching());
    let tail = &forces[forces.len() - 100..];
    assert!(
        tail.iter()
            .all(|f| (f / (c.mass * 9.81) - 1.0).abs() < 1e-9)
    );
    assert!(r.drift(0.0).abs() < 1e-9 * r.energy_scale());
}

/// A centred moving average over `n` samples.
fn smooth(xs: &[f64], n: usize) -> Vec<f64> {
    xs.windows(n)
        .map(|w| w.iter().sum::<f64>() / n as f64)
        .collect()
}
