use super::*;

fn cand(freq: f64, alpha: f64, coef: Complex64) -> Candidate {
    Candidate {
        freq,
        alpha,
        coefs: vec![coef],
        centrality: 0.0,
        level: Level::Wide,
        band: 0,
        snr: 1e6,
    }
}

/// `∫₀^T |Σ c e^{(−α + iω)t}|² dt` by the midpoint rule, T long enough for the sum.
fn numeric_energy(modes: &[Candidate]) -> f64 {
    let (dt, n) = (1e-6, 200_000);
    (0..n)
        .map(|i| {
            let t = (i as f64 + 0.5) * dt;
            let z: Complex64 = modes
                .iter()
                .map(|m| {
                    let w = Complex64::new(-m.alpha, 2.0 * PI * m.freq);
                    m.coefs[0] * (w * t).exp()
                })
                .sum();
            z.norm_sqr() * dt
        })
        .sum()
}

/// A pair closer than their half-widths that decays alike is one mode, at the
/// stronger's frequency and decay, carrying the pair's summed ring energy (a near
/// cancellation leaves little); a pair resolved in frequency, one decaying 5× faster,
/// and a mode far off are left alone.
#[test]
fn overlapping_modes_that_decay_alike_become_one() {
    let pair = [
        cand(2931.0, 187.0, Complex64::from_polar(9.4, 0.2)),
        cand(2931.4, 180.0, Complex64::from_polar(9.0, 0.2 + PI)),
    ];
    let others = [
        cand(784.0, 2.0, Complex64::new(0.1, 0.0)),
        cand(786.1, 2.2, Complex64::new(0.05, 0.0)),
        cand(440.0, 30.0, Complex64::new(0.3, 0.0)),
        cand(441.0, 150.0, Complex64::new(0.3, 0.0)),
    ];
    let out = coalesce(pair.iter().chain(&others).cloned().collect());
    assert_eq!(out.len(), 5, "{out:?}");
    let one = out.iter().find(|c| (c.freq - 2931.0).abs() < 1.0).unwrap();
    assert_eq!((one.freq, one.alpha), (2931.0, 187.0));
    let want = numeric_energy(&pair);
    let got = one.coefs[0].norm_sqr() / (2.0 * one.alpha);
    assert!((got / want - 1.0).abs() < 1e-3, "{got} against {want}");
    assert!(one.amplitude() < 0.1 * pair[0].amplitude(), "{one:?}");
    for o in &others {
        assert!(out.iter().any(|c| c.freq == o.freq && c.coefs == o.coefs));
    }
}

/// A mode that does not decay reads [`MAX_T60`], and a growing one is a narrow band's
/// target (see [`swelling`]), not a mode.
#[test]
fn no_mode_outlasts_the_longest_t60_and_a_growing_one_is_a_target() {
    let opts = FitOptions::default();
    let held = cand(1000.0, 1e-9, Complex64::new(0.01, 0.0));
    let ring = cand(2500.0, 4.6, Complex64::new(0.5, 0.0));
    let out = combine(vec![held.clone(), ring.clone()], Vec::new(), &opts);
    let t60: Vec<f64> = out.iter().map(Candidate::t60).collect();
    assert!(
        (t60[0] - MAX_T60).abs() < 1e-9 && (t60[1] - 1.5).abs() < 0.01,
        "{t60:?}"
    );
    let growing = cand(370.0, -20.0, Complex64::new(0.2, 0.0));
    let quiet = Candidate {
        snr: 1.0,
        ..growing.clone()
    };
    let found = swelling(&[growing, quiet, held, ring], 48_000.0, &opts);
    assert_eq!(found, vec![370.0]);
}

/// Past `max_modes`, each third-octave band keeps its strongest mode before a band
/// with more energy keeps its second: a timpani's dozens of low partials no longer
/// take every slot from its quieter upper bands. The bands' own order is by energy,
/// so a slot short drops the quietest band.
#[test]
fn too_many_modes_are_kept_band_by_band() {
    // Six partials in the 125 Hz band, far louder than one at 2 kHz and one at 8 kHz.
    let mut modes: Vec<Candidate> = (0..6)
        .map(|i| cand(120.0 + 2.0 * f64::from(i), 3.0, Complex64::new(1.0, 0.0)))
        .collect();
    modes.push(cand(2000.0, 3.0, Complex64::new(0.01, 0.0)));
    modes.push(cand(8000.0, 3.0, Complex64::new(0.003, 0.0)));
    let opts = FitOptions {
        max_modes: 4,
        ..FitOptions::default()
    };
    let out = combine(modes.clone(), Vec::new(), &opts);
    let freqs: Vec<f64> = out.iter().map(|c| c.freq).collect();
    assert_eq!(freqs, vec![120.0, 122.0, 2000.0, 8000.0]);
    let two = combine(
        modes,
        Vec::new(),
        &FitOptions {
            max_modes: 2,
            ..opts
        },
    );
    let freqs: Vec<f64> = two.iter().map(|c| c.freq).collect();
    assert_eq!(freqs, vec![120.0, 2000.0]);
}
