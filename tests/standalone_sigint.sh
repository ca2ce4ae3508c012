#!/usr/bin/env bash
# The standalone player headless: `rebound-standalone --backend dummy` (no sound card)
# on an Xvfb of its own must still be running after 4 s, with its editor open, and
# SIGINT must close it cleanly: exit status 0 within 3 s, not killed by the signal.
# (The player closes its editor window on SIGINT and exits 130 if it finds none, so a
# pass also says the editor was open.)
#   tests/standalone_sigint.sh [BINARY]
# BINARY: default $CARGO_TARGET_DIR (or target)/debug/rebound-standalone, built by
# `cargo build --all-features --bin rebound-standalone` (or `cargo test --all-features`).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-${CARGO_TARGET_DIR:-target}/debug/rebound-standalone}"
[[ -x "$BIN" ]] || { echo "FAIL standalone: no binary at $BIN"; exit 1; }
command -v Xvfb >/dev/null || { echo "FAIL standalone: Xvfb is not installed"; exit 1; }

WORK="$(mktemp -d /tmp/rebound-standalone.XXXXXX)"
XVFB="" PID=""
cleanup() {
  if [[ -n "$PID" ]]; then kill -KILL "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true; fi
  if [[ -n "$XVFB" ]]; then kill "$XVFB" 2>/dev/null; wait "$XVFB" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "FAIL standalone: $*"
  echo "--- rebound-standalone's output:"
  cat "$WORK/out"
  exit 1
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Xvfb picks a free display itself and writes its number to fd 3.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$WORK/display" 2>"$WORK/xvfb" &
XVFB=$!
for _ in $(seq 100); do [[ -s "$WORK/display" ]] && break; sleep 0.05; done
[[ -s "$WORK/display" ]] || { cat "$WORK/xvfb"; echo "FAIL standalone: Xvfb did not start"; exit 1; }

: >"$WORK/out"
DISPLAY=":$(cat "$WORK/display")" "$BIN" --backend dummy >"$WORK/out" 2>&1 &
PID=$!
started=$(now_ms)
sleep 4
if ! kill -0 "$PID" 2>/dev/null; then
  status=0
  wait "$PID" || status=$?
  PID=""
  fail "exited before 4 s were up (status $status), expected it still running"
fi
up=$(($(now_ms) - started))

kill -INT "$PID"
sent=$(now_ms)
while kill -0 "$PID" 2>/dev/null && (($(now_ms) - sent < 3000)); do sleep 0.05; done
if kill -0 "$PID" 2>/dev/null; then
  kill -KILL "$PID"
  wait "$PID" 2>/dev/null || true
  PID=""
  fail "still running 3 s after SIGINT (killed now)"
fi
status=0
wait "$PID" || status=$?
PID=""
took=$(($(now_ms) - sent))
if ((status > 128)); then
  fail "status $status after SIGINT: killed by signal $((status - 128)), or gave up closing its editor"
fi
((status == 0)) || fail "status $status after SIGINT, expected 0"
echo "ok: rebound-standalone --backend dummy ran ${up} ms; SIGINT -> status $status in ${took} ms"
