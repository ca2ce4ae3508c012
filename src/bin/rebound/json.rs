//! Just enough JSON output for the CLI: flat objects and arrays of them.

use std::fmt::Write;

/// Builds one JSON object, keys in insertion order.
#[derive(Default)]
pub struct Object {
    body: String,
}

impl Object {
    pub fn num(mut self, key: &str, v: f64) -> Self {
        self.key(key);
        if v.is_finite() {
            let _ = write!(self.body, "{v:?}");
        } else {
            self.body.push_str("null");
        }
        self
    }

    pub fn int(mut self, key: &str, v: u64) -> Self {
        self.key(key);
        let _ = write!(self.body, "{v}");
        self
    }

    pub fn boolean(mut self, key: &str, v: bool) -> Self {
        self.key(key);
        self.body.push_str(if v { "true" } else { "false" });
        self
    }

    pub fn str(mut self, key: &str, v: &str) -> Self {
        self.key(key);
        string(&mut self.body, v);
        self
    }

    /// A value that is already JSON text.
    pub fn raw(mut self, key: &str, json: &str) -> Self {
        self.key(key);
        self.body.push_str(json);
        self
    }

    fn key(&mut self, key: &str) {
        if !self.body.is_empty() {
            self.body.push(',');
        }
        string(&mut self.body, key);
        self.body.push(':');
    }

    pub fn build(self) -> String {
        format!("{{{}}}", self.body)
    }
}

pub fn array(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(","))
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
