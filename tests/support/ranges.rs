//! Proptest strategies over the parameter ranges, with the ends weighted in (a range's
//! ends are where the hard cases live, and uniform draws almost never land on them).
//! Shared by the property tests.
#![allow(dead_code)]

use proptest::prelude::*;

/// Log-uniform over `[lo, hi]`, with each end drawn one time in eight.
pub fn log_range(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(lo),
        1 => Just(hi),
        6 => (lo.ln()..=hi.ln()).prop_map(f64::exp),
    ]
}

/// Uniform over `[lo, hi]`, with each end drawn one time in eight.
pub fn lin_range(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(lo), 1 => Just(hi), 6 => lo..=hi]
}

/// Any one of `all`.
pub fn one_of<T: Copy + std::fmt::Debug + 'static>(all: &'static [T]) -> impl Strategy<Value = T> {
    (0..all.len()).prop_map(move |i| all[i])
}
