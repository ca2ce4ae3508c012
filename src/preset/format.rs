//! The preset file: its format, reading and writing.

use crate::engine::EngineParams;
use crate::engine::recording;
use crate::engine::spec::{CHOICES, ChoiceSpec, NUMBERS, NumberSpec, Scale};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use std::fmt;
use std::path::Path;

/// The version of the preset format this build writes and reads.
pub const FORMAT: u64 = 1;

/// The category a preset saved without one gets.
pub const USER_CATEGORY: &str = "User";

/// One preset: what the browser and `rebound presets` list, and the parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    pub name: String,
    /// Bounce, Mallet, Drop, Tap, Texture (factory), or anything a user chose.
    pub category: String,
    pub description: String,
    pub params: EngineParams,
}

/// Why a preset could not be read or written (one plain sentence).
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError(pub String);

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PresetError {}

fn err<T>(msg: impl Into<String>) -> Result<T, PresetError> {
    Err(PresetError(msg.into()))
}

/// A parameter as a preset file names it.
enum Key {
    Number(&'static NumberSpec),
    Choice(&'static ChoiceSpec),
}

impl Key {
    fn id(&self) -> &'static str {
        match self {
            Key::Number(n) => n.id,
            Key::Choice(c) => c.id,
        }
    }
}

/// The parameter a key names: its spec id or its command-line name.
fn key_of(key: &str) -> Option<Key> {
    if let Some(n) = NUMBERS.iter().find(|n| n.id == key || n.cli == key) {
        return Some(Key::Number(n));
    }
    CHOICES
        .iter()
        .find(|c| c.id == key || c.cli == key)
        .map(Key::Choice)
}

/// Whether a number takes whole values only (voices, seed).
pub fn is_whole(n: &NumberSpec) -> bool {
    n.scale == Scale::Linear && n.digits == 0
}

/// A name a preset may carry: not empty, at most 64 characters, no control characters.
pub fn check_name(name: &str) -> Result<(), PresetError> {
    let n = name.trim();
    if n.is_empty() {
        return err("a preset's name must not be empty");
    }
    if n.chars().count() > 64 {
        return err(format!("preset name '{n}' is longer than 64 characters"));
    }
    if n.chars().any(char::is_control) {
        return err(format!("preset name {n:?} contains control characters"));
    }
    Ok(())
}

impl Preset {
    pub fn new(name: &str, category: &str, description: &str, params: EngineParams) -> Self {
        Self {
            name: name.trim().to_string(),
            category: category.to_string(),
            description: description.to_string(),
            params,
        }
    }

    /// Reads a preset from its JSON text.
    pub fn from_json(text: &str) -> Result<Self, PresetError> {
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return err(format!("not valid JSON: {e}")),
        };
        let Value::Object(top) = v else {
            return err("a preset is a JSON object");
        };
        // serde_json's map keeps the last of repeated keys: read the keys in order too,
        // so a key given twice is refused rather than silently overwritten.
        let order: Entries =
            serde_json::from_str(text).map_err(|e| PresetError(format!("not valid JSON: {e}")))?;
        if let Some(k) = order.repeated() {
            return err(format!("key \"{k}\" is given twice"));
        }
        if let Some(k) = (0..order.params.len()).find(|&i| {
            order.params[..i]
                .iter()
                .any(|(k, _)| *k == order.params[i].0)
        }) {
            return err(format!(
                "parameter \"{}\" is given twice",
                order.params[k].0
            ));
        }
        match top.get("format") {
            Some(Value::Number(n)) if n.as_u64() == Some(FORMAT) => {}
            Some(f) => {
                return err(format!(
                    "preset format {f} is not supported (this version reads format {FORMAT})"
                ));
            }
            None => return err(format!("no \"format\" key (expected \"format\": {FORMAT})")),
        }
        let text_of = |key: &str, default: Option<&str>| -> Result<String, PresetError> {
            match (top.get(key), default) {
                (Some(Value::String(s)), _) => Ok(s.clone()),
                (Some(other), _) => err(format!("\"{key}\" must be a string, not {other}")),
                (None, Some(d)) => Ok(d.to_string()),
                (None, None) => err(format!("no \"{key}\" key")),
            }
        };
        let name = text_of("name", None)?;
        check_name(&name)?;
        let category = text_of("category", Some(USER_CATEGORY))?;
        let description = text_of("description", Some(""))?;
        const KEYS: [&str; 6] = [
            "format",
            "name",
            "category",
            "description",
            "params",
            "recorded",
        ];
        if let Some(key) = top.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return err(format!(
                "unknown key \"{key}\" (a preset has format, name, category, \
                 description, params and, with a recorded body, recorded)"
            ));
        }
        let mut params = match top.get("params") {
            None => EngineParams::default(),
            Some(Value::Object(_)) => params_from(&order.params)?,
            Some(other) => return err(format!("\"params\" must be an object, not {other}")),
        };
        if let Some(v) = top.get("recorded") {
            params.recording = recording::register_json(v)
                .map_err(|e| PresetError(format!("\"recorded\": {e}")))?;
        }
        Ok(Self::new(&name, &category, &description, params))
    }

    /// The preset as JSON text: every parameter, by its command-line name, in the
    /// plugin's order (numbers first, then choices).
    pub fn to_json(&self) -> String {
        let file = File {
            format: FORMAT,
            name: &self.name,
            category: &self.category,
            description: &self.description,
            params: InOrder(&self.params),
            recorded: recording::partials_of(self.params.recording),
        };
        // Strings, finite numbers and a map with string keys: nothing can fail.
        let mut out = serde_json::to_string_pretty(&file).unwrap_or_default();
        out.push('\n');
        out
    }

    /// The parameters as a JSON object by command-line name (choices by name).
    pub fn params_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        for n in &NUMBERS {
            let v = (n.get)(&self.params);
            m.insert(n.cli.to_string(), Value::from(v));
        }
        for c in &CHOICES {
            let i = (c.get)(&self.params).min(c.choices.len() - 1);
            m.insert(c.cli.to_string(), Value::from(c.choices[i]));
        }
        m
    }

    /// Reads a preset file.
    pub fn load(path: &Path) -> Result<Self, PresetError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| PresetError(format!("cannot read {}: {e}", path.display())))?;
        Self::from_json(&text).map_err(|e| PresetError(format!("{}: {e}", path.display())))
    }
}

/// The keys of a preset object in file order, with the `params` object's entries.
#[derive(Default)]
struct Entries {
    keys: Vec<String>,
    params: Vec<(String, Value)>,
}

impl Entries {
    fn repeated(&self) -> Option<&str> {
        let k = &self.keys;
        (0..k.len())
            .find(|&i| k[..i].contains(&k[i]))
            .map(|i| k[i].as_str())
    }
}

/// The entries of a JSON object in order, repeats kept (None for any other value).
struct Ordered(Option<Vec<(String, Value)>>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    out.push((k, v));
                }
                Ok(Ordered(Some(out)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Ordered, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Ordered(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
            fn visit_unit<E>(self) -> Result<Ordered, E> {
                Ok(Ordered(None))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{MapAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Entries, A::Error> {
                let mut e = Entries::default();
                while let Some(k) = m.next_key::<String>()? {
                    if k == "params" {
                        // Not an object: `from_json` names the problem.
                        e.params = m.next_value::<Ordered>()?.0.unwrap_or_default();
                    } else {
                        m.next_value::<serde::de::IgnoredAny>()?;
                    }
                    e.keys.push(k);
                }
                Ok(e)
            }
        }
        d.deserialize_map(V)
    }
}

/// The parameters a preset's `params` entries set, over the defaults.
fn params_from(m: &[(String, Value)]) -> Result<EngineParams, PresetError> {
    let mut p = EngineParams::default();
    let mut seen: Vec<&'static str> = Vec::new();
    for (key, value) in m {
        let Some(spec) = key_of(key) else {
            return err(format!(
                "unknown parameter \"{key}\" (parameters are named as the command line's \
                 options, e.g. \"hardness-ms\", or by their plugin ids)"
            ));
        };
        if seen.contains(&spec.id()) {
            return err(format!("parameter \"{key}\" is given twice"));
        }
        seen.push(spec.id());
        match spec {
            Key::Number(n) => {
                let (lo, hi) = n.range();
                let whole = is_whole(n);
                match value.as_f64() {
                    Some(v) if (lo..=hi).contains(&v) && (!whole || v.fract() == 0.0) => {
                        (n.set)(&mut p, v)
                    }
                    _ => {
                        return err(format!(
                            "\"{key}\": {value} is not {} in {lo} to {hi}{}",
                            if whole { "a whole number" } else { "a number" },
                            n.unit
                        ));
                    }
                }
            }
            Key::Choice(c) => {
                let i = value.as_str().and_then(|s| {
                    c.choices
                        .iter()
                        .position(|name| name.eq_ignore_ascii_case(s))
                });
                match i {
                    Some(i) => (c.set)(&mut p, i),
                    None => {
                        return err(format!(
                            "\"{key}\": {value} is not one of {}",
                            c.choices.join(", ")
                        ));
                    }
                }
            }
        }
    }
    Ok(p)
}

/// A preset file as written ([`Preset::to_json`]).
#[derive(serde::Serialize)]
struct File<'a> {
    format: u64,
    name: &'a str,
    category: &'a str,
    description: &'a str,
    params: InOrder<'a>,
    /// The partials of the recorded body the preset plays, so that it keeps its body.
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded: Option<Vec<recording::SavedPartial>>,
}

/// The parameters as a JSON object in the plugin's order (a map would sort them).
struct InOrder<'a>(&'a EngineParams);

impl Serialize for InOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(NUMBERS.len() + CHOICES.len()))?;
        for n in &NUMBERS {
            // Finite by construction (a non-finite f64 would write `null`).
            m.serialize_entry(n.cli, &(n.get)(self.0))?;
        }
        for c in &CHOICES {
            let i = (c.get)(self.0).min(c.choices.len() - 1);
            m.serialize_entry(c.cli, c.choices[i])?;
        }
        m.end()
    }
}
