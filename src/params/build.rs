//! How a host parameter is built from its spec (`engine::spec`): name, unit, range,
//! default and display, and which are polyphonically modulatable.

use crate::engine::expression::PolyTarget;
use crate::engine::spec::{self, NumberSpec, Scale};
use nice_plug::prelude::*;
use std::sync::Arc;

/// The host's range of a numeric parameter of [`spec::NUMBERS`]: its log10 for a
/// logarithmic one, so that the normalised value moves on a true log scale.
pub fn range_of(n: &NumberSpec) -> FloatRange {
    let (lo, hi) = n.range();
    match n.scale {
        Scale::Log => FloatRange::Linear {
            min: lo.log10() as f32,
            max: hi.log10() as f32,
        },
        Scale::Linear | Scale::Percent => FloatRange::Linear {
            min: lo as f32,
            max: hi as f32,
        },
        Scale::Skewed(skew) => FloatRange::Skewed {
            min: lo as f32,
            max: hi as f32,
            factor: FloatRange::skew_factor(skew),
        },
    }
}

/// The numeric parameter `id` of [`spec::NUMBERS`] (a test checks every id is there).
pub(super) fn spec_of(id: &str) -> &'static NumberSpec {
    match spec::number(id) {
        Some(n) => n,
        None => panic!("parameter '{id}' is missing from engine::spec"),
    }
}

/// The plugin parameter built from its spec: name, unit, range, default, display.
pub(super) fn number_param(id: &str) -> FloatParam {
    let n = spec_of(id);
    let d = n.default_value();
    let range = range_of(n);
    match n.scale {
        Scale::Log => log_param(n.name, d, range, n.unit),
        Scale::Percent => percent_param(n.name, d as f32),
        Scale::Linear | Scale::Skewed(_) => {
            let p = FloatParam::new(n.name, d as f32, range)
                .with_value_to_string(formatters::v2s_f32_rounded(n.digits));
            if n.unit.is_empty() {
                p
            } else {
                p.with_unit(n.unit)
            }
        }
    }
}

/// Displays a log10-stored value as its physical value, 3 significant digits.
pub(super) fn v2s_log10() -> Arc<dyn Fn(f32) -> String + Send + Sync> {
    Arc::new(|e| {
        let v = 10f64.powf(e as f64);
        if (0.01..10000.0).contains(&v) {
            let digits = (2 - v.log10().floor() as i32).clamp(0, 4) as usize;
            format!("{v:.digits$}")
        } else {
            format!("{v:.2e}")
        }
    })
}

/// The framework's string-to-value callback.
pub(super) type StringToValue = Arc<dyn Fn(&str) -> Option<f32> + Send + Sync>;

/// Parses a physical value (unit optional) into its log10.
pub(super) fn s2v_log10() -> StringToValue {
    Arc::new(|s| {
        let num: String = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
            .collect();
        let v: f64 = num.parse().ok()?;
        (v > 0.0).then(|| v.log10() as f32)
    })
}

pub(super) fn log_param(
    name: &str,
    default: f64,
    range: FloatRange,
    unit: &'static str,
) -> FloatParam {
    FloatParam::new(name, default.log10() as f32, range)
        .with_unit(unit)
        .with_value_to_string(v2s_log10())
        .with_string_to_value(s2v_log10())
}

pub(super) fn percent_param(name: &str, default: f32) -> FloatParam {
    FloatParam::new(name, default, FloatRange::Linear { min: 0.0, max: 1.0 })
        .with_unit(" %")
        .with_value_to_string(formatters::v2s_f32_percentage(0))
        .with_string_to_value(formatters::s2v_f32_percentage())
}

/// The plugin parameter `id`, polyphonically modulatable (CLAP) with the id of
/// `target`.
pub(super) fn poly_param(target: PolyTarget) -> FloatParam {
    number_param(target.param_id()).with_poly_modulation_id(target.id())
}
