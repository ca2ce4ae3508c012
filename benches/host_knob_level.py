"""The level of the first note after a knob move, through the VST3 in a real host
(pedalboard), with blocks paced in real time as a DAW plays them: a key (84, or KEY)
is played once (as a sound designer auditions a patch) and the plugin left until its
level worker is idle; then a knob moves, one block plays, and the key is struck at
full velocity in the next block. Its peak over 0.3 s is compared with the same note struck
once the worker has settled on the new patch (1.5 s later). Prints each move's error
in dB, for blocks of 128 and 512 samples at 48 kHz (or FS).

START sets the patch the moves start from, as parameter=value pairs in plain units
(a choice by its name), e.g. a patch whose level entries are dear to make:

    bash scripts/build.sh   # or scripts/host_tests.sh, which also makes .venv
    .venv/bin/python benches/host_knob_level.py
    START="body=Bell,hardness=10,bouncing=On" FS=192000 .venv/bin/python benches/host_knob_level.py
"""
import os, sys
import mido, numpy as np, pedalboard
from host_idle import Pacer, settle

BUNDLE = os.environ.get("REBOUND_VST3", "target/bundled/Rebound.vst3")
FS = int(os.environ.get("FS", "48000"))
# Away from middle C, where a worker that made the keys outward from middle C after a
# patch change came to it 47 entries late.
KEY = int(os.environ.get("KEY", "84"))
# (parameter, the value it moves to: plain units, as pedalboard sets them).
MOVES = [
    ("brightness", 95.0),
    ("body_pitch", 1500.0),
    ("strike_position", 90.0),
    ("body", "Bell"),
    ("decay", 0.2),
    ("mass", 0.2),
    ("hardness", 5.0),
]


def paced(p, events, seconds, block):
    """Plays `seconds` in blocks of `block` at a DAW's pace; `events` go in the first
    block."""
    pace = Pacer(FS, block)
    n = int(round(seconds * FS / block))
    return np.concatenate([pace.play(p, events if i == 0 else []) for i in range(n)], axis=1)


def strike_peak(p, block):
    y = paced(p, [mido.Message("note_on", note=KEY, velocity=127, time=0.0)], 0.3, block)
    return float(np.abs(y).max())


def param_name(p, want):
    names = list(p.parameters.keys())
    for n in names:
        if n == want or n.startswith(want):
            return n
    sys.exit(f"no parameter like {want!r} among {names[:60]}")


def start_patch(p):
    """Sets START's parameters (see the module doc) on a freshly loaded plugin."""
    for pair in filter(None, os.environ.get("START", "").split(",")):
        name, _, value = pair.partition("=")
        try:
            value = float(value)
        except ValueError:
            pass
        setattr(p, param_name(p, name.strip()), value)


def main():
    sys.stdout.reconfigure(line_buffering=True)
    print(f"start patch: {os.environ.get('START') or 'the default'}, {FS} Hz")
    worst = 0.0
    for block in (512, 128):
        for name, value in MOVES:
            p = pedalboard.load_plugin(BUNDLE)
            start_patch(p)
            attr = param_name(p, name)
            strike_peak(p, block)
            settle(0.3, 0.005)
            p.reset()
            setattr(p, attr, value)
            paced(p, [], block / FS, block)
            first = strike_peak(p, block)
            settle(0.3, 0.005)
            p.reset()
            settled = strike_peak(p, block)
            err = 20 * np.log10(first / settled)
            worst = max(worst, abs(err))
            print(f"key {KEY}, block {block:4}: {attr} -> {value}: first note {20*np.log10(first):7.2f} dBFS, "
                  f"settled {20*np.log10(settled):7.2f} dBFS, error {err:+.2f} dB")
    print(f"worst error {worst:.2f} dB")


if __name__ == "__main__":
    main()
