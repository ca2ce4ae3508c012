#!/usr/bin/env bash
# Builds the VST3 and CLAP bundles, installs them into the user's plugin folders, and
# prints the paper's tables as a check that the numerical core is sound.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${CARGO_TARGET_DIR:-target}"
cargo xtask bundle rebound --release
mkdir -p "$HOME/.vst3" "$HOME/.clap"
rm -rf "$HOME/.vst3/Rebound.vst3"
cp -r "$TARGET/bundled/Rebound.vst3" "$HOME/.vst3/"
cp "$TARGET/bundled/Rebound.clap" "$HOME/.clap/"
echo "installed: $HOME/.vst3/Rebound.vst3 and $HOME/.clap/Rebound.clap"
cargo run --release --features cli --bin rebound -- paper
