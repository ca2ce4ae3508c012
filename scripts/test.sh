#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the Rust test suites (numerical
# core, CLI, plugin process), and the real-host checks when their script is present.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --all-targets --all-features -- -D warnings
cargo test --all-features --no-fail-fast
if [ -x scripts/host_tests.sh ]; then
  scripts/host_tests.sh
fi
