use super::*;
use crate::model::body::{BodySettings, BodyType, ModalBody};

fn partial(freq_hz: f64, t60_s: f64, amplitude: f64) -> Partial {
    Partial {
        freq_hz,
        t60_s,
        amplitude,
    }
}

/// The reference pulse's spectrum is 1 at DC and under its envelope, which falls
/// monotonically and is well down at two cycles over the contact.
#[test]
fn the_reference_spectrum_falls_from_one() {
    let (m0, e0) = reference_spectrum(0.0);
    assert!((m0 - 1.0).abs() < 1e-12 && (e0 - 1.0).abs() < 1e-12);
    let mut last = 1.0;
    for i in 1..5000 {
        let (m, e) = reference_spectrum(i as f64 * 0.01);
        assert!(e <= last + 1e-15 && m <= e && e > 0.0, "{i}");
        last = e;
    }
    assert!(
        reference_spectrum(2.0).1 < 0.1,
        "{:?}",
        reference_spectrum(2.0)
    );
    assert!(reference_spectrum(80.0).1 < reference_spectrum(40.0).1);
}

/// The strongest partial is the reference; modes sort by frequency; the mallet's
/// roll-off is taken out (an upper partial as loud as a lower one in the recording
/// gets the larger excitation); T60s are kept relative to the reference's.
#[test]
fn a_body_keeps_its_partials_relative_to_the_strongest() {
    let r = Recorded::new(&[
        partial(2000.0, 0.5, 0.5),
        partial(500.0, 2.0, 1.0),
        partial(3000.0, 0.2, 1.0 / 64.0),
        partial(f64::NAN, 1.0, 1.0),
        partial(800.0, 0.0, 1.0),
    ])
    .unwrap();
    assert_eq!(r.count, 3);
    assert_eq!((r.f_ref, r.t60_ref), (500.0, 2.0));
    assert_eq!(&r.ratio[..3], &[1.0, 4.0, 6.0]);
    assert_eq!(&r.powers.t60[..3], &[1.0, 0.25, 0.1]);
    let lift = |f: f64| mallet_lift(f * REFERENCE_CONTACT_S);
    let want = 0.5 * lift(2000.0) / lift(500.0);
    assert!((r.shape[1] / r.shape[0] - want).abs() < 1e-12 * want);
    assert_eq!(r.shape[3..], [0.0; MODES - 3]);
    // At the neutral position the shapes are the fitted ones; toward the edge the
    // upper modes gain.
    assert_eq!(r.mode(1, NEUTRAL_POSITION), (4.0, r.shape[1]));
    assert!(r.mode(1, 1.0).1 / r.mode(0, 1.0).1 > r.shape[1] / r.shape[0]);
    assert!(Recorded::new(&[partial(100.0, -1.0, 1.0)]).is_err());
}

/// More partials than the bank holds are kept by third-octave band: every band the
/// bank has room for keeps its strongest partial and its whole energy, the strongest
/// partial stays the reference, and a body made from its own partials is the same body.
#[test]
fn a_body_keeps_each_bands_energy() {
    // Two partials a band from 100 Hz up, louder upward: 20 bands.
    let freq = |i: usize| 100.0 * 2f64.powf(i as f64 / 6.0);
    let many: Vec<Partial> = (0..40)
        .map(|i| partial(freq(i), 1.0, 1.0 + i as f64))
        .collect();
    let r = Recorded::new(&many).unwrap();
    assert_eq!(r.count, MODES);
    // The strongest partial as fitted is kept; the reference is the most energy as kept.
    assert!(r.partials.iter().any(|p| p.freq_hz == freq(39)));
    let e = |p: &Partial| p.amplitude * p.amplitude * p.t60_s;
    assert!(
        r.partials[1..r.count]
            .iter()
            .all(|p| e(p) <= e(&r.partials[0]))
    );
    // (Its 9 kHz is read at Body pitch's top.)
    assert_eq!(r.f_ref, r.partials[0].freq_hz.min(PITCH_RANGE.1));
    let band = |f: f64| (3.0 * (f / 1000.0).log2()).round() as i64;
    let band_energy = |ps: &[Partial], b: i64| -> f64 {
        ps.iter()
            .filter(|p| band(p.freq_hz) == b)
            .map(|p| p.amplitude * p.amplitude * p.t60_s)
            .sum()
    };
    // More bands than modes: the loudest MODES bands keep their energy (one partial
    // each), the quietest are left out.
    let kept = &r.partials[..r.count];
    let mut bands: Vec<i64> = many.iter().map(|p| band(p.freq_hz)).collect();
    bands.dedup();
    assert!(bands.len() > MODES + 2, "{bands:?}");
    bands.sort_by(|&x, &y| band_energy(&many, y).total_cmp(&band_energy(&many, x)));
    for (n, &b) in bands.iter().enumerate() {
        let (was, is) = (band_energy(&many, b), band_energy(kept, b));
        if n < MODES {
            assert!((is / was - 1.0).abs() < 1e-12, "band {b}: {is} of {was}");
        } else {
            assert_eq!(is, 0.0, "band {b}");
        }
    }
    assert_eq!(Recorded::new(kept), Ok(r));
    // A set the bank holds is kept as it is.
    let few = &many[..MODES];
    assert_eq!(
        Recorded::new(few).unwrap().partials[..MODES]
            .iter()
            .filter(|p| few.contains(p))
            .count(),
        MODES
    );
    // A long, quieter partial outranks a short, louder one.
    let r = Recorded::new(&[partial(100.0, 0.01, 1.0), partial(200.0, 3.0, 0.5)]).unwrap();
    assert_eq!(r.partials[0].freq_hz, 200.0);
    assert_eq!(r.f_ref, 200.0);
    // A click gone in the strike's first 20 ms (more energy in all, 1.2 against 0.75)
    // is not the reference: what is heard after it is the ring.
    let r = Recorded::new(&[partial(3000.0, 0.012, 10.0), partial(500.0, 3.0, 0.5)]).unwrap();
    assert_eq!(r.f_ref, 500.0);
}

/// A band of many weak partials keeps its energy in the partials it is left (the
/// slots the other bands do not need), and the body made again is the same.
#[test]
fn a_dense_band_keeps_its_energy() {
    let mut ps = vec![partial(500.0, 1.0, 1.0)];
    ps.extend((0..30).map(|i| partial(5000.0 + 10.0 * i as f64, 1.0, 0.3)));
    let r = Recorded::new(&ps).unwrap();
    assert_eq!(r.count, MODES);
    let kept = &r.partials[..r.count];
    let e = |p: &Partial| p.amplitude * p.amplitude * p.t60_s;
    let dense: f64 = kept.iter().filter(|p| p.freq_hz >= 5000.0).map(e).sum();
    assert!((dense / (30.0 * 0.09) - 1.0).abs() < 1e-12, "{dense}");
    assert!(
        kept.iter()
            .any(|p| p.freq_hz == 500.0 && p.amplitude == 1.0)
    );
    assert_eq!(
        kept.iter().filter(|p| p.freq_hz >= 5000.0).count(),
        MODES - 1
    );
    assert_eq!(r.f_ref, 500.0);
    assert_eq!(Recorded::new(kept), Ok(r));
}

/// Registering is idempotent and an index plays its own partials: a body of the
/// Recorded kind rings at the recorded frequencies.
#[test]
fn a_registered_body_rings_its_partials() {
    let r = Recorded::new(&[partial(300.0, 1.0, 1.0), partial(1234.5, 0.5, 0.5)]).unwrap();
    let i = register(&r).unwrap();
    assert!(i > 0);
    assert_eq!(register(&r).unwrap(), i);
    assert_eq!(recorded(i), Some(&r));
    assert_eq!(recorded(u16::MAX), None);
    let st = BodySettings {
        kind: BodyType::Recorded,
        f1: 300.0,
        t60: 1.0,
        recording: i,
        ..Default::default()
    };
    let body = ModalBody::new(st, 48_000.0);
    let f = body.frequencies();
    assert!(
        (f[0] - 300.0).abs() < 1e-9 && (f[1] - 1234.5).abs() < 1e-9,
        "{f:?}"
    );
    let g = body.gains();
    assert!(
        g[0] > 0.0 && g[1] > 0.0 && g[2..].iter().all(|&x| x == 0.0),
        "{g:?}"
    );
    // An index never registered plays no mode (silent, not a fault); 0 is the
    // built-in glass, whose partials register as 0.
    let none = ModalBody::new(
        BodySettings {
            recording: 300,
            ..st
        },
        48_000.0,
    );
    assert!(none.gains().iter().all(|&x| x == 0.0));
    let glass = recorded(0).unwrap();
    assert_eq!(glass.count, WINE_GLASS.len());
    assert_eq!(register(glass), Ok(0));
}

/// A reference partial outside the Body pitch or Decay range (a glockenspiel's 7 kHz
/// partial, a 20 s ring) is referred to the range's end, and the modes still ring at
/// their recorded frequencies and T60s when the controls sit on the reference.
#[test]
fn a_reference_out_of_range_is_read_at_its_end() {
    let r = Recorded::new(&[
        partial(7228.0, 20.0, 1.0),
        partial(11016.0, 0.6, 0.5),
        partial(1050.0, 0.005, 0.9),
    ])
    .unwrap();
    assert_eq!((r.f_ref, r.t60_ref), (PITCH_RANGE.1, DECAY_RANGE.1));
    let i = register(&r).unwrap();
    let st = BodySettings {
        kind: BodyType::Recorded,
        f1: r.f_ref,
        t60: r.t60_ref,
        recording: i,
        ..Default::default()
    };
    let body = ModalBody::new(st, 48_000.0);
    let f = body.frequencies();
    for (k, want) in [1050.0, 7228.0, 11016.0].into_iter().enumerate() {
        assert!((f[k] - want).abs() < 1e-6 * want, "{f:?}");
    }
    let by_freq = [0.005, 20.0, 0.6];
    for (k, want) in by_freq.into_iter().enumerate() {
        let t60 = st.t60 / r.powers.decay[k];
        assert!(
            (t60 - want).abs() < 1e-9 * want,
            "{k}: {t60} against {want}"
        );
    }
}

/// The reference spectrum's transform, rotated from sample to sample between exact
/// phases, is the transform with every phase exact, to rounding of the table's values
/// (the magnitude over the pulse's sum).
#[test]
fn the_rotated_transform_is_the_exact_one() {
    let force: Vec<f64> = (0..3001)
        .map(|j| {
            let t = j as f64 / 3000.0;
            (t * (1.0 - t)).max(0.0).powf(1.5) * (1.0 + 0.3 * t)
        })
        .collect();
    let dc: f64 = force.iter().sum();
    let exact = |w: f64| {
        let (mut re, mut im) = (0.0, 0.0);
        for (j, f) in force.iter().enumerate() {
            let (s, c) = (w * j as f64).sin_cos();
            re += f * c;
            im -= f * s;
        }
        (re * re + im * im).sqrt() / dc
    };
    for w in [[0.0, 1e-4, 0.013, 0.08], [0.25, 1.0, 0.5, 3.0]] {
        let fast = spectrum_at(&force, w).map(|p| p.sqrt() / dc);
        for (w, fast) in w.into_iter().zip(fast) {
            let exact = exact(w);
            assert!(
                (fast - exact).abs() <= 1e-14,
                "w {w}: {fast:e} against {exact:e}"
            );
        }
    }
}
