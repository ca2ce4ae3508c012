//! The plugin's parameters are the framework-free spec's (`engine::spec`): the same
//! ids, names, ranges and defaults, so the host, the editor and the CLI cannot disagree.

use nice_plug::prelude::*;
use rebound::engine::spec::{CHOICES, NUMBERS};
use rebound::params::ReboundParams;

#[test]
fn every_plugin_parameter_is_in_the_spec_and_back() {
    let params = ReboundParams::default();
    let map = params.param_map();
    // Every parameter of the sound; the bypass is the host's switch, not the engine's.
    let mut plugin: Vec<&str> = map
        .iter()
        .map(|(id, _, _)| id.as_str())
        .filter(|id| *id != "bypass")
        .collect();
    let mut spec: Vec<&str> = NUMBERS.iter().map(|n| n.id).collect();
    spec.extend(CHOICES.iter().map(|c| c.id));
    plugin.sort();
    spec.sort();
    assert_eq!(plugin, spec);
    for (id, ptr, _) in map.iter().filter(|(id, _, _)| id != "bypass") {
        let name = unsafe { ptr.name() };
        if let Some(n) = NUMBERS.iter().find(|n| n.id == id) {
            assert_eq!(name, n.name, "{id}");
            // The default, in the host's plain units (log10 for a log scale).
            let plain = unsafe { ptr.default_normalized_value() };
            let d = unsafe { ptr.preview_plain(plain) } as f64;
            let expected = match n.scale {
                rebound::engine::spec::Scale::Log => n.default_value().log10(),
                _ => n.default_value(),
            };
            assert!(
                (d - expected).abs() <= 1e-5 * expected.abs().max(1.0),
                "{id}: {d} vs {expected}"
            );
        } else {
            let c = CHOICES.iter().find(|c| c.id == id).unwrap();
            assert_eq!(name, c.name, "{id}");
            let steps = unsafe { ptr.step_count() }.unwrap_or(0) + 1;
            assert_eq!(steps, c.choices.len(), "{id}");
        }
    }
}

/// Hosts show the editor's groups (CLAP parameter groups, VST3 units): every parameter
/// of the sound is in one of them, in the order the editor shows them, and only the
/// host's bypass stands outside.
#[test]
fn every_parameter_is_in_one_of_the_editors_groups() {
    let params = ReboundParams::default();
    let mut groups: Vec<String> = Vec::new();
    for (id, _, group) in params.param_map() {
        if id == "bypass" {
            assert_eq!(group, "", "the bypass stands outside the groups");
            continue;
        }
        assert!(!group.is_empty(), "{id} has no group");
        if groups.last() != Some(&group) {
            assert!(!groups.contains(&group), "{group} is split at {id}");
            groups.push(group);
        }
    }
    assert_eq!(
        groups,
        [
            "Striker",
            "Velocity",
            "Bounces",
            "Key release",
            "Body",
            "Output",
            "Variation and expression",
            "Solver",
            "Gesture"
        ]
    );
}
