//! Numbers in the JSON output as the tool has always printed them: Rust's shortest
//! round-trip form (`{:?}`: `1e-5`, `0.25`, `1.0`), and `null` for NaN or ±inf.
//! (serde_json's own float format writes `0.00001` for `1e-5`; scripts that compare
//! outputs byte for byte would see a change.)

use serde::ser::{Error, Serialize, Serializer};
use serde_json::value::RawValue;

/// An `f64` serialised in the tool's JSON number format.
#[derive(Clone, Copy, Debug)]
pub struct F(pub f64);

impl Serialize for F {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            RawValue::from_string(format!("{:?}", self.0))
                .map_err(S::Error::custom)?
                .serialize(s)
        } else {
            s.serialize_none()
        }
    }
}

/// Compact JSON text of `v` (the tool's only JSON form).
pub fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("the CLI's reports serialise")
}
