//! The ear's weightings a calibration reads a strike's ring with: A (the loudness it
//! matches Hardness on) and K (BS.1770's, the keyboard's cut).

/// A-weighting gain (linear amplitude) at `f` Hz, IEC 61672-1 `R_A(f)` with its
/// +2.00 dB, so 1 at 1 kHz.
pub fn a_weight(f: f64) -> f64 {
    let f2 = f * f;
    let (c1, c2, c3, c4) = (20.598_997f64, 107.652_65f64, 737.862_23f64, 12_194.217f64);
    let r = c4 * c4 * f2 * f2
        / ((f2 + c1 * c1) * ((f2 + c2 * c2) * (f2 + c3 * c3)).sqrt() * (f2 + c4 * c4));
    r * 10f64.powf(2.0 / 20.0)
}

/// K-weighting (ITU-R BS.1770-4, §2.1: its pre-filter and RLB high-pass) as a linear
/// gain at `f` Hz: the standard's two biquads at 48 kHz evaluated on the unit circle
/// (above 24 kHz, their value there). The loudness of a strike's ring is read with it.
pub fn k_weight(f: f64) -> f64 {
    const SHELF: ([f64; 3], [f64; 2]) = (
        [
            1.535_124_859_586_97,
            -2.691_696_189_406_38,
            1.198_392_810_852_85,
        ],
        [-1.690_659_293_182_41, 0.732_480_774_215_85],
    );
    const RLB: ([f64; 3], [f64; 2]) = (
        [1.0, -2.0, 1.0],
        [-1.990_047_454_833_98, 0.990_072_250_366_21],
    );
    let w = 2.0 * std::f64::consts::PI * f.clamp(0.0, 24_000.0) / 48_000.0;
    let mag = |(b, a): ([f64; 3], [f64; 2])| {
        let (c1, s1, c2, s2) = (w.cos(), w.sin(), (2.0 * w).cos(), (2.0 * w).sin());
        let num = (b[0] + b[1] * c1 + b[2] * c2).hypot(b[1] * s1 + b[2] * s2);
        let den = (1.0 + a[0] * c1 + a[1] * c2).hypot(a[0] * s1 + a[1] * s2);
        num / den
    };
    mag(SHELF) * mag(RLB)
}
