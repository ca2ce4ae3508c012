//! `rebound presets`: the factory presets and the user's, as a table or as JSON.

use crate::common::flag;
use clap::Args;
use rebound::preset::{self, Preset};
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Args)]
pub struct PresetsArgs {
    #[arg(long, help = flag("Print JSON (name, category, description, source) instead of a table"))]
    json: bool,
    #[arg(long, requires = "json",
          help = flag("With --json: every preset's parameters too, by their option names"))]
    values: bool,
    #[arg(long, requires = "json",
          help = flag("With --json: every plugin parameter's host name and normalised value \
              (0-1) for the preset, as a host test sets them"))]
    host: bool,
    #[arg(long, conflicts_with_all = ["values", "host"],
          help = flag("Render every preset (note 60, velocity 127) and print its maximum \
              momentary and integrated loudness (BS.1770), true peak and L/R correlation, \
              then the default patch across the keyboard, chord peaks, velocity's \
              brightening and the bounce trains' irregularity (with --json: as JSON)"))]
    measure: bool,
}

#[derive(Serialize)]
struct HostJson {
    id: String,
    name: String,
    normalized: f32,
}

#[derive(Serialize)]
struct PresetJson {
    name: String,
    category: String,
    description: String,
    /// "factory" or "user".
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<Vec<HostJson>>,
}

/// Every preset, factory first, and a warning line per unreadable user file (on stderr).
fn all() -> Vec<(Preset, &'static str)> {
    let mut out: Vec<(Preset, &'static str)> = preset::factory()
        .iter()
        .map(|p| (p.clone(), "factory"))
        .collect();
    for p in preset::load_user() {
        match p {
            Ok(p) => out.push((p, "user")),
            Err(e) => eprintln!("warning: user preset skipped: {e}"),
        }
    }
    out
}

pub fn cmd_presets(a: &PresetsArgs) -> Result<String, String> {
    let all = all();
    if a.measure {
        let presets: Vec<&Preset> = all.iter().map(|(p, _)| p).collect();
        return if a.json {
            crate::measure::json(&presets)
        } else {
            Ok(crate::measure::table(&presets))
        };
    }
    if a.json {
        let rows: Vec<PresetJson> = all
            .iter()
            .map(|(p, source)| PresetJson {
                name: p.name.clone(),
                category: p.category.clone(),
                description: p.description.clone(),
                source,
                params: a.values.then(|| p.params_json()),
                host: a.host.then(|| {
                    preset::plugin::host_values(&p.params)
                        .into_iter()
                        .map(|h| HostJson {
                            id: h.id,
                            name: h.name,
                            normalized: h.normalized,
                        })
                        .collect()
                }),
            })
            .collect();
        return serde_json::to_string_pretty(&rows).map_err(|e| e.to_string());
    }
    let w = all
        .iter()
        .map(|(p, _)| p.name.chars().count())
        .max()
        .unwrap_or(4);
    let mut out = format!(
        "{:<w$}  {:<8}  {:<7}  DESCRIPTION",
        "NAME", "CATEGORY", "SOURCE"
    );
    for (p, source) in &all {
        out += &format!(
            "\n{:<w$}  {:<8}  {:<7}  {}",
            p.name, p.category, source, p.description
        );
    }
    Ok(out)
}
