//! Which build the sample loops run: the AVX2/FMA one (the mode bank's vector loop,
//! `body::simd`, the coupled sample's, `coupled::simd`, and the contact's three-operand
//! build, `Impact::step`) or the portable one. Detected once per process: the vector
//! build where the CPU has AVX2 and FMA and `REBOUND_SIMD` is not `portable` (to run the
//! test suite on both paths). A body or contact reads [`vector_path`] when it is made,
//! never per sample. This module imports nothing of the model, so every loop can ask it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`force_portable`]: bodies and contacts made while it is set take the
/// portable loop.
static PORTABLE: AtomicBool = AtomicBool::new(false);

/// True when this process runs the vector path: the CPU has AVX2 and FMA,
/// `REBOUND_SIMD` is not `portable` and [`force_portable`] is off.
pub fn vector_path() -> bool {
    static PATH: OnceLock<bool> = OnceLock::new();
    let detected = *PATH.get_or_init(|| {
        let forced_off = std::env::var("REBOUND_SIMD").is_ok_and(|v| v == "portable");
        !forced_off && cpu_has_avx2_fma()
    });
    detected && !PORTABLE.load(Ordering::Relaxed)
}

/// Makes the bodies and contacts made from now on (voices, engines) take the portable
/// loop (`true`) or the process's path (`false`): what the benchmarks use to time the
/// scalar and the vector paths in one run. Those already made keep their path.
pub fn force_portable(on: bool) {
    PORTABLE.store(on, Ordering::Relaxed);
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_avx2_fma() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx2_fma() -> bool {
    false
}
