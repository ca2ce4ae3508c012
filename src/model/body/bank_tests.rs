use super::*;

fn settings(kind: BodyType, brightness: f64, t60: f64) -> BodySettings {
    BodySettings {
        kind,
        f1: 220.0,
        t60,
        brightness,
        position: 0.3,
        recording: 0,
    }
}

/// Every number of the coefficients, as bits (a NaN equals itself).
fn bits(k: &Coefs) -> Vec<u64> {
    let arrays = [k.c, k.s, k.a, k.b, k.w, k.sa, k.sb, k.g];
    let mut out: Vec<u64> = arrays.iter().flatten().map(|x| x.to_bits()).collect();
    out.extend([k.sd, k.d, k.lowest].map(f64::to_bits));
    out.push(k.live as u64);
    out
}

/// The per-patch poles a thread remembers never stand in for another patch's: after
/// settings that differ in any one of kind, Brightness, T60 or rate, the coefficients
/// are bit for bit those a thread that never made any other makes.
#[test]
fn remembered_poles_give_the_coefficients_made_anew() {
    let plate = plate_modes();
    let base = settings(BodyType::Bar, 0.5, 1.0);
    let cases = [
        (base, 48_000.0),
        (settings(BodyType::Bell, 0.5, 1.0), 48_000.0),
        (settings(BodyType::Bar, 0.8, 1.0), 48_000.0),
        (settings(BodyType::Bar, 0.5, 0.02), 48_000.0),
        (base, 192_000.0),
        (settings(BodyType::Plate, f64::NAN, 3.0), 44_100.0),
    ];
    let anew: Vec<Vec<u64>> = cases
        .iter()
        .map(|&(st, fs)| std::thread::spawn(move || bits(&Coefs::of(&st, fs, &plate_modes()))))
        .map(|h| h.join().unwrap())
        .collect();
    // Each case right after each other one (which differs from it in one setting).
    for (i, &(st, fs)) in cases.iter().enumerate() {
        for (j, &(other, other_fs)) in cases.iter().enumerate() {
            Coefs::of(&other, other_fs, &plate);
            assert_eq!(bits(&Coefs::of(&st, fs, &plate)), anew[i], "{i} after {j}");
        }
    }
}
