#!/usr/bin/env bash
# Builds the VST3 and CLAP bundles, installs them into the user's plugin folders, builds
# the standalone player (target/release/rebound-standalone), and prints the paper's
# tables as a check that the numerical core is sound.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET="${CARGO_TARGET_DIR:-target}"
cargo xtask bundle rebound --release
mkdir -p "$HOME/.vst3" "$HOME/.clap"
rm -rf "$HOME/.vst3/Rebound.vst3"
cp -r "$TARGET/bundled/Rebound.vst3" "$HOME/.vst3/"
cp "$TARGET/bundled/Rebound.clap" "$HOME/.clap/"
echo "installed: $HOME/.vst3/Rebound.vst3 and $HOME/.clap/Rebound.clap"
# The standalone player links ALSA and JACK (found by pkg-config): Debian's -dev packages.
if ! pkg-config --exists alsa jack 2>/dev/null; then
  echo "installing: pkg-config libasound2-dev libjack-jackd2-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    pkg-config libasound2-dev libjack-jackd2-dev >/dev/null
fi
cargo build --release --features standalone --bin rebound-standalone
echo "standalone player: $TARGET/release/rebound-standalone (--help lists its options)"
cargo run --release --features cli --bin rebound -- paper
