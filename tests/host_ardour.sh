#!/usr/bin/env bash
# Rebound in a real DAW: Ardour 7, headless (ardour7-lua on the Dummy backend). For each
# case a new session gets Rebound (VST3) on a MIDI track, a MIDI region and the case's
# patch; it is bounced twice, saved and closed; a fresh process reopens it and bounces it
# twice again. Passes when the session renders the same twice in each process and the
# same after the reopen as before it, bit for bit.
#   tests/host_ardour.sh [CASE...]   # default: every case in tests/ardour/session.lua
# The bundle: $REBOUND_VST3, else $CARGO_TARGET_DIR (or target)/bundled/Rebound.vst3.
set -euo pipefail
cd "$(dirname "$0")/.."
BUNDLE="${REBOUND_VST3:-${CARGO_TARGET_DIR:-target}/bundled/Rebound.vst3}"
[[ -d "$BUNDLE" ]] || { echo "FAIL: no VST3 bundle at $BUNDLE"; exit 1; }
if (($#)); then CASES=("$@"); else CASES=(default patch modwheel-pitch modwheel-cc); fi

# Ardour 7 from Debian (ardour7-lua and the VST3 scanner come with it). No X server: the
# Lua session never opens a window.
if ! command -v ardour7-lua >/dev/null || ! command -v python3 >/dev/null; then
  echo "installing: ardour python3"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ardour python3 >/dev/null
fi
SCANNER=/usr/lib/ardour7/ardour-vst3-scanner
if ! command -v ardour7-lua >/dev/null || [[ ! -x "$SCANNER" ]]; then
  echo "FAIL: Ardour 7 (ardour7-lua, $SCANNER) is not installed"
  exit 1
fi

# A home of its own: the user's Ardour configuration, plugin cache and ~/.vst3 stay
# untouched, and Ardour sees this bundle and no other build of it.
WORK="$(mktemp -d /tmp/rebound-ardour.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" \
  XDG_CACHE_HOME="$WORK/home/.cache" XDG_DATA_HOME="$WORK/home/.local/share"
mkdir -p "$HOME/.vst3"
cp -r "$BUNDLE" "$HOME/.vst3/Rebound.vst3"
# A Lua session only reads Ardour's plugin cache (the GUI would scan for itself), and
# takes an entry only if it is newer than the plugin, to the second: so an older copy.
find "$HOME/.vst3" -exec touch -d '1 minute ago' {} +
LD_LIBRARY_PATH=/usr/lib/ardour7 "$SCANNER" -q "$HOME/.vst3/Rebound.vst3" ||
  { echo "FAIL: Ardour's VST3 scanner rejects $BUNDLE"; exit 1; }

# Runs session.lua; its log is shown when it fails, else only the lines it printed.
lua() {
  local log="$WORK/$1-$2.log"
  if ! timeout 300 ardour7-lua tests/ardour/session.lua "${@:2}" >"$log" 2>&1 ||
    ! grep -q "^session.lua: done" "$log"; then
    echo "FAIL: ardour7-lua session.lua ${*:2}"
    sed 's/^/    /' "$log"
    return 1
  fi
  grep '^  ' "$log" || true
}

# Both channels of bounce $2 of run $1 against bounce $4 of run $3.
same() {
  python3 tests/ardour/compare.py "${@:5}" "$WORK/out/$1/$2.0.wav" "$WORK/out/$3/$4.0.wav" \
    "$WORK/out/$1/$2.1.wav" "$WORK/out/$3/$4.1.wav"
}

passed=0 failed=0
check() { # what, command...
  echo "-- $1"
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}

start=$SECONDS
for case in "${CASES[@]}"; do
  echo "== $case"
  mkdir -p "$WORK/out/$case-made" "$WORK/out/$case-reopened"
  if ! lua "$case" make "$WORK/$case" "$case" "$WORK/out/$case-made" ||
    ! lua "$case" render "$WORK/$case" "$WORK/out/$case-reopened"; then
    failed=$((failed + 1))
    continue
  fi
  # A second bounce may start with -0.0 where the first had +0.0 (a tail that ended
  # negative): inaudible, and not what these two checks are about.
  check "$case: the new session renders the same twice" \
    same "$case-made" a "$case-made" b --zero-sign-ok
  check "$case: the reopened session renders the same twice" \
    same "$case-reopened" a "$case-reopened" b --zero-sign-ok
  check "$case: the reopened session renders as before it was saved" \
    same "$case-made" a "$case-reopened" a
done
echo "Ardour checks took $((SECONDS - start)) s"
echo "ardour: $passed passed, $failed failed"
((failed == 0))
