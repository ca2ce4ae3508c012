//! Every parameter of the instrument listed once, free of any framework: stable id,
//! plain name, unit, range (from [`LIMITS`](crate::engine::params::LIMITS)), scale, default
//! (from [`EngineParams::default`](crate::engine::params::EngineParams)) and display precision.
//! The plugin's parameters (the `params` module of the plugin layer) and the
//! command-line renderer's options, range checks and help are built from this list, so
//! they cannot disagree.

mod choices;
pub mod normalized;
mod numbers;
mod types;

pub use choices::CHOICES;
pub use numbers::NUMBERS;
pub use types::{ChoiceSpec, NumberSpec, Scale};

/// The numeric parameter with host id `id`.
pub fn number(id: &str) -> Option<&'static NumberSpec> {
    NUMBERS.iter().find(|n| n.id == id)
}

/// The choice parameter with host id `id`.
pub fn choice(id: &str) -> Option<&'static ChoiceSpec> {
    CHOICES.iter().find(|c| c.id == id)
}

/// `"lo–hi unit"` for a help text.
pub fn range_text(n: &NumberSpec) -> String {
    let (lo, hi) = n.range();
    let unit = if n.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", n.unit)
    };
    match n.scale {
        Scale::Percent => format!("{}–{} %", lo * 100.0, hi * 100.0),
        _ => format!("{lo}–{hi}{unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_defaults_inside_their_ranges() {
        let mut ids: Vec<&str> = NUMBERS.iter().map(|n| n.id).collect();
        ids.extend(CHOICES.iter().map(|c| c.id));
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate ids");
        for s in &NUMBERS {
            let (lo, hi) = s.range();
            let d = s.default_value();
            assert!(
                lo < hi && (lo..=hi).contains(&d),
                "{}: {d} not in {lo}..{hi}",
                s.id
            );
        }
    }
}
