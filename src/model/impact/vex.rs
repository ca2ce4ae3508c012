//! Whether the contact's sample loop runs compiled for AVX2 (`Impact::step`): where the
//! CPU has AVX2 and FMA and `REBOUND_SIMD` is not `portable`, as for the mode bank.
//! The arithmetic is the same either way (no operation is fused), so this only decides
//! the instruction encoding: three-operand forms, fewer register copies.

use std::sync::OnceLock;

/// True where the contact may run its AVX2 build. Detected once.
pub fn contact_vex() -> bool {
    static VEX: OnceLock<bool> = OnceLock::new();
    *VEX.get_or_init(|| {
        let forced_off = std::env::var("REBOUND_SIMD").is_ok_and(|v| v == "portable");
        !forced_off && cpu_has_avx2_fma()
    })
}

#[cfg(target_arch = "x86_64")]
fn cpu_has_avx2_fma() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx2_fma() -> bool {
    false
}
