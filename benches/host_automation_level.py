"""The level of notes struck while a knob is automated, through the VST3 in a real host
(pedalboard), with blocks paced in real time as a DAW plays them: each parameter that
moves the level sweeps its whole range (its host-normalised value from 0.02 to 0.98)
over a few seconds, moved at every block, and a key (84, or KEY) is struck at full
velocity every STRIKE seconds while it moves. Each note's peak over 0.2 s (the sweep
going on under it) is compared with the same note struck once the level worker has
settled with the parameter held where the host had it at the strike. Prints each
note's error in dB, and the worst.

Before each strike the host resets the plugin, so a note is heard alone (it would
otherwise ring into the next): that also sets the body's glide to where the knob is,
so what is measured is the level the worker's tables give a patch that changes every
block, not the glide.

    bash scripts/build.sh   # or scripts/host_tests.sh, which also makes .venv
    .venv/bin/python benches/host_automation_level.py
    START="body=Bell,hardness=10" FS=192000 BLOCK=128 .venv/bin/python benches/host_automation_level.py

PARAMS (comma-separated) and NOTES choose what sweeps and how many notes it strikes.
"""
import os, sys
import mido, numpy as np, pedalboard
from host_idle import Pacer, settle
from host_knob_level import paced, param_name, start_patch

BUNDLE = os.environ.get("REBOUND_VST3", "target/bundled/Rebound.vst3")
FS = int(os.environ.get("FS", "48000"))
BLOCK = int(os.environ.get("BLOCK", "256"))
KEY = int(os.environ.get("KEY", "84"))
STRIKE = float(os.environ.get("STRIKE", "0.4"))
NOTES = int(os.environ.get("NOTES", "8"))
NOTE_S = 0.2
PARAMS = os.environ.get(
    "PARAMS", "brightness,body_pitch,strike_position,body,decay,mass,hardness").split(",")


def strike():
    return [mido.Message("note_on", note=KEY, velocity=127, time=0.0)]


def set_raw(param, x):
    param.raw_value = x
    if abs(param.raw_value - x) > 0.02:
        sys.exit(f"{param.name} reads back {param.raw_value}, not {x}")


def sweep(p, param):
    """The automated run: returns each note's (normalised value at its strike, peak)."""
    pace = Pacer(FS, BLOCK)
    blocks_between = int(STRIKE * FS / BLOCK)
    blocks_note = int(NOTE_S * FS / BLOCK)
    total = NOTES * blocks_between
    notes, peak, value = [], 0.0, None
    for i in range(total):
        x = 0.02 + 0.96 * i / (total - 1)
        set_raw(param, x)
        events = []
        if i % blocks_between == blocks_between - blocks_note - 1:
            p.reset()
            events, value, peak = strike(), param.raw_value, 0.0
        y = pace.play(p, events)
        if value is not None:
            peak = max(peak, float(np.abs(y).max()))
            if i % blocks_between == blocks_between - 1:
                notes.append((value, peak))
                value = None
    return notes


def settled_peak(p, param, x):
    set_raw(param, x)
    paced(p, [], BLOCK / FS, BLOCK)
    settle(0.3, 0.005)
    p.reset()
    return float(np.abs(paced(p, strike(), NOTE_S, BLOCK)).max())


def main():
    sys.stdout.reconfigure(line_buffering=True)
    print(f"start patch: {os.environ.get('START') or 'the default'}, {FS} Hz, blocks of {BLOCK}, key {KEY}")
    p = pedalboard.load_plugin(BUNDLE)
    start_patch(p)
    worst = 0.0
    for name in PARAMS:
        param = p.parameters[param_name(p, name)]
        start = param.raw_value
        set_raw(param, 0.02)
        paced(p, strike(), BLOCK / FS, BLOCK)
        settle(0.3, 0.005)
        for x, under in sweep(p, param):
            settled = settled_peak(p, param, x)
            err = 20 * np.log10(under / settled)
            worst = max(worst, abs(err))
            print(f"{name} at {x:.3f} ({param.string_value}): under automation "
                  f"{20*np.log10(under):7.2f} dBFS, settled {20*np.log10(settled):7.2f} dBFS, "
                  f"error {err:+.2f} dB")
        set_raw(param, start)
    print(f"worst error {worst:.2f} dB")


if __name__ == "__main__":
    main()
