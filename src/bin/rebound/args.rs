//! A small argument parser whose every failure names the argument at fault.

use crate::limits::limit;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A command-line error: printed as one line, exit status 2.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Options of one subcommand: `--name value` pairs and bare `--flag`s.
pub struct Options {
    values: BTreeMap<String, String>,
    flags: Vec<String>,
}

impl Options {
    /// Parses `args`; `valued` lists the options that take a value, `flags` the
    /// ones that do not. Anything else is an error naming it.
    pub fn parse(args: &[String], valued: &[&str], flags: &[&str]) -> Result<Self, ArgError> {
        let mut values = BTreeMap::new();
        let mut seen_flags = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let bare = name.trim_start_matches("--");
            if !name.starts_with("--") {
                return Err(ArgError(format!("unexpected argument '{arg}'")));
            }
            if flags.contains(&bare) {
                if inline.is_some() {
                    return Err(ArgError(format!("--{bare}: takes no value")));
                }
                seen_flags.push(bare.to_string());
            } else if valued.contains(&bare) {
                let value = match inline {
                    Some(v) => v,
                    None => match it.next() {
                        Some(v) if !v.starts_with("--") => v.clone(),
                        _ => return Err(ArgError(format!("--{bare}: missing value"))),
                    },
                };
                if values.insert(bare.to_string(), value).is_some() {
                    return Err(ArgError(format!("--{bare}: given more than once")));
                }
            } else {
                return Err(ArgError(format!("unknown option '{name}'")));
            }
        }
        Ok(Self {
            values,
            flags: seen_flags,
        })
    }

    /// True when `--name` was given a value.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    /// The value of `--name` parsed as `T`, or `default` when absent.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T, ArgError>
    where
        T::Err: fmt::Display,
    {
        match self.values.get(name) {
            None => Ok(default),
            Some(s) => s
                .parse()
                .map_err(|e| ArgError(format!("--{name}: cannot read '{s}': {e}"))),
        }
    }

    /// A finite number satisfying `ok`, described by `rule` in the error.
    pub fn number(
        &self,
        name: &str,
        default: f64,
        rule: &str,
        ok: impl Fn(f64) -> bool,
    ) -> Result<f64, ArgError> {
        let v: f64 = self.get(name, default)?;
        if v.is_finite() && ok(v) {
            Ok(v)
        } else {
            Err(ArgError(format!("--{name}: must be {rule} (got {v})")))
        }
    }

    /// The value of `--name` checked against its validity range (`limits::LIMITS`), or
    /// the range's default when absent. NaN, ±inf, an empty or unreadable value and
    /// anything outside the range give one line naming the option, the value as typed
    /// and the range.
    pub fn within(&self, name: &str) -> Result<f64, ArgError> {
        let lim = limit(name);
        let Some(s) = self.values.get(name) else {
            return Ok(lim.default);
        };
        match s.parse::<f64>() {
            Ok(v) if lim.contains(v) => Ok(v),
            _ => Err(ArgError(format!(
                "--{name}: must be {} in {} (got '{}')",
                lim.kind(),
                lim.range_text(),
                s.escape_debug()
            ))),
        }
    }
}
