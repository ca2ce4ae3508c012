#!/usr/bin/env bash
# Renders the README's audio examples and their plots from the factory presets, with
# the release CLI: assets/examples/NAME.png (the plot) and NAME.wav (24-bit stereo).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --features cli --bin rebound
rebound=target/release/rebound
mkdir -p assets/examples
while IFS='|' read -r preset duration; do
  slug=$(echo "$preset" | tr 'A-Z ' 'a-z-')
  "$rebound" render --preset "$preset" --note 60 --velocity 127 --duration "$duration" \
    --bits 24 --out "assets/examples/$slug.wav" --plot "assets/examples/$slug.png"
done <<'LIST'
Ping-pong ball on a table|4
Steel ball on a plate|3
Bell strike|3
Rattle in a wooden box|0.25
LIST
# What two-way coupling changes: the hammer preset on its thin bar, and on a rigid wall.
"$rebound" render --preset "Hammer on a thin bar" --note 60 --velocity 127 --duration 1 \
  --bits 24 --out assets/examples/hammer-on-a-thin-bar.wav --plot assets/examples/hammer-on-a-thin-bar.png
"$rebound" render --preset "Hammer on a thin bar" --note 60 --velocity 127 --duration 1 \
  --coupling rigid --bits 24 --out assets/examples/hammer-on-a-thin-bar-rigid.wav \
  --plot assets/examples/hammer-on-a-thin-bar-rigid.png
