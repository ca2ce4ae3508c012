#!/usr/bin/env python3
"""Synthesises the recording the factory's recorded body is fitted from: a wine glass
tapped with a fingernail, as a microphone in a quiet room would take it. Standard
library only, seeded, so the file it writes is the same on every machine.

    python3 tools/wine_glass.py assets/recordings/wine-glass.wav
    rebound fit assets/recordings/wine-glass.wav --out wine-glass.json

The partials follow a wine glass's bell modes (m, 0), m = 2 … 7, whose frequencies rise
roughly as m² for a thin shell (measured glasses: 1 : 2.3 : 4.1 : 6.3 : 9 …), each a
slightly split pair (the glass is not perfectly round, so the pair beats), with T60s
falling with frequency and the levels a tap at the rim gives. Under them: the stem's
low thud, a short noise of the nail's contact, room noise at about −66 dBFS, and
0.15 s of that noise before the tap."""

import math
import random
import struct
import sys
import wave

FS = 48_000
SECONDS = 3.0
PRE_ROLL = 0.15

# (frequency Hz, T60 s, level dB, phase rad): the (m, 0) pairs, the stem's thud.
PARTIALS = [
    (784.0, 3.4, 0.0, 0.0),
    (786.1, 3.1, -7.0, 1.1),
    (1836.0, 2.2, -5.0, 0.4),
    (1841.5, 2.0, -13.0, 2.0),
    (3262.0, 1.5, -11.0, 0.9),
    (4978.0, 0.95, -17.0, 2.6),
    (7051.0, 0.6, -23.0, 1.7),
    (9402.0, 0.42, -28.0, 0.3),
    (212.0, 0.06, -16.0, 0.0),
]
PEAK = 0.5  # the mix's peak, full scale 1
NOISE_DB = -66.0
NAIL_DB = -24.0  # the contact noise's level against the partials' sum at the tap
NAIL_S = 0.0015


def main(path):
    rng = random.Random(20261203)
    n = int(SECONDS * FS)
    onset = int(PRE_ROLL * FS)
    attack = int(0.0004 * FS)  # a fingernail's contact is a fraction of a millisecond
    x = [0.0] * n
    for f, t60, level_db, phase in PARTIALS:
        a = 10 ** (level_db / 20)
        decay = math.exp(-math.log(1000) / (t60 * FS))
        w = 2 * math.pi * f / FS
        env = a
        for i in range(n - onset):
            ramp = 0.5 - 0.5 * math.cos(math.pi * i / attack) if i < attack else 1.0
            x[onset + i] += ramp * env * math.sin(w * i + phase)
            env *= decay
    top = max(abs(v) for v in x)
    nail = 10 ** (NAIL_DB / 20) * top
    low = 0.0
    for i in range(int(NAIL_S * FS)):
        # Noise through a one-pole low-pass, in a raised-cosine window.
        low += 0.35 * (rng.gauss(0.0, 1.0) - low)
        win = 0.5 - 0.5 * math.cos(2 * math.pi * i / (NAIL_S * FS))
        x[onset + i] += nail * win * low
    scale = PEAK / max(abs(v) for v in x)
    noise = 10 ** (NOISE_DB / 20)
    frames = bytearray()
    for v in x:
        s = v * scale + noise * rng.gauss(0.0, 1.0)
        frames += struct.pack("<i", max(-(2**23), min(2**23 - 1, round(s * 2**23))))[:3]
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(3)
        out.setframerate(FS)
        out.writeframes(bytes(frames))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: wine_glass.py OUT.wav")
    main(sys.argv[1])
