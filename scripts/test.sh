#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the Rust test suites (numerical
# core, CLI, plugin process), and the real-host checks when their script is present.
set -euo pipefail
cd "$(dirname "$0")/.."
# `rebound render --plot` draws its text with DejaVu Sans (tests/cli_plot.rs).
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  echo "installing: fonts-dejavu-core"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-dejavu-core >/dev/null
fi
if ! command -v python3 >/dev/null; then
  echo "installing: python3"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >/dev/null
fi
# `--all-features` builds rebound-standalone, which links ALSA and JACK (found by pkg-config).
if ! pkg-config --exists alsa jack 2>/dev/null; then
  echo "installing: pkg-config libasound2-dev libjack-jackd2-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    pkg-config libasound2-dev libjack-jackd2-dev >/dev/null
fi
cargo fmt --all -- --check
# No import circles between source files, no file over 400 lines, no function over 80.
python3 scripts/house.py
# The command-line tool and its crates are the `cli` feature; the standalone player's,
# `standalone`.
cargo clippy --all-targets --all-features -- -D warnings
cargo clippy -p modal-fit --all-targets -- -D warnings
cargo test --all-features --no-fail-fast
cargo test -p modal-fit --no-fail-fast
# Again on the mode bank's portable loop, which CPUs without AVX2 and FMA run (the
# vector path is chosen at run time; the two must both pass everything).
REBOUND_SIMD=portable cargo test --all-features --no-fail-fast
if [ -x scripts/host_tests.sh ]; then
  scripts/host_tests.sh
fi
