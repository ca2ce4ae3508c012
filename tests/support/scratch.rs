//! Scratch folders for tests: removed when dropped, whether the test passed or failed
//! (a folder left behind on every failed run filled a CI machine's disk before).
#![allow(dead_code)]

/// A new empty folder named `rebound-<name>-<random>` in the system's temp folder.
pub fn dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("rebound-{name}-"))
        .tempdir()
        .unwrap()
}
