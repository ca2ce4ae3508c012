"""Compares renders bit for bit: pairs of 32-bit float WAV files (one per channel), the
sample data only. Exits 0 when every pair is identical; otherwise prints where they
differ and by how much and, from the first channel, each render's first note: its
strongest partial and that partial's decay (T60, from its level 0.1 and 0.6 s after the
onset), so that a defect shows as what it does to the sound; then exits 1.

    python3 compare.py [--zero-sign-ok] A0.wav B0.wav [A1.wav B1.wav ...]

--zero-sign-ok passes pairs that differ only where one has +0.0 and the other -0.0.
"""

import array
import math
import struct
import sys


def read(path):
    """(rate, channels, interleaved float samples) of a 32-bit float WAV."""
    b = open(path, "rb").read()
    assert b[:4] == b"RIFF" and b[8:12] == b"WAVE", f"{path}: not a WAV file"
    pos, fmt, data = 12, None, None
    while pos + 8 <= len(b):
        cid, size = struct.unpack("<4sI", b[pos : pos + 8])
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", b[pos + 8 : pos + 24])
        elif cid == b"data":
            data = b[pos + 8 : pos + 8 + size]
        pos += 8 + size + (size & 1)
    assert fmt and fmt[0] in (3, 0xFFFE) and fmt[5] == 32, f"{path}: not 32-bit float: {fmt}"
    a = array.array("f")
    a.frombytes(data)
    return fmt[2], fmt[1], a


def first_note(x, rate):
    """The first note's strongest partial (Hz, 50-100 ms after its onset) and its T60 (s)."""
    onset = next(i for i, v in enumerate(x) if abs(v) > 1e-4)
    n = rate // 20

    def power(f, start):
        w = 2 * math.pi * f / rate
        re = im = 0.0
        for i in range(n):  # Hann-windowed DFT bin at f
            v = x[start + i] * (0.5 - 0.5 * math.cos(2 * math.pi * i / n))
            re += v * math.cos(w * i)
            im += v * math.sin(w * i)
        return re * re + im * im + 1e-300

    at = onset + n
    f = max(range(50, 5000, 10), key=lambda f: power(f, at))
    f = max((f + d / 4 for d in range(-40, 41)), key=lambda f: power(f, at))
    t1, t2 = 0.1, 0.6  # the next note comes 0.75 s after the first
    db = 10 * math.log10(power(f, onset + int(t1 * rate)) / power(f, onset + int(t2 * rate)))
    return f, (60 * (t2 - t1) / db if db > 0 else math.inf)


def main(args):
    zero_sign_ok = "--zero-sign-ok" in args
    files = [a for a in args if a != "--zero-sign-ok"]
    failed = shown = signed = False
    for a_path, b_path in zip(files[::2], files[1::2]):
        rate, ch, a = read(a_path)
        rate_b, ch_b, b = read(b_path)
        if (rate, ch, len(a)) != (rate_b, ch_b, len(b)):
            print(f"  {b_path}: {rate_b} Hz x{ch_b} {len(b)} samples, not {rate} Hz x{ch} {len(a)}")
            failed = True
            continue
        bits_a, bits_b = array.array("I", a.tobytes()), array.array("I", b.tobytes())
        diff = [i for i in range(len(a)) if bits_a[i] != bits_b[i]]
        if not diff:
            continue
        if all(a[i] == 0.0 and b[i] == 0.0 for i in diff):
            print(f"  {b_path}: {len(diff)} zeros of the other sign, the first at "
                  f"{diff[0] / ch / rate:.4f} s, the last at {diff[-1] / ch / rate:.4f} s")
            failed = failed or not zero_sign_ok
            signed = True
            continue
        worst = max(diff, key=lambda i: abs(a[i] - b[i]))
        print(f"  {b_path}: DIFFERS at {len(diff)} of {len(a)} samples, the first at "
              f"{diff[0] / ch / rate:.4f} s; the largest by {abs(a[worst] - b[worst]):.3g} at "
              f"{worst / ch / rate:.4f} s ({a[worst]:.4f} vs {b[worst]:.4f})")
        if not shown:  # what the first differing channel sounds like
            shown = True
            for name, x in (("before", a), ("after", b)):
                f, t60 = first_note(x, rate)
                print(f"    {name}: first note's strongest partial {f:.1f} Hz, its T60 {t60:.3f} s; "
                      f"RMS {math.sqrt(sum(v * v for v in x) / len(x)):.5f}")
        failed = True
    if not failed:
        print(f"  {'identical but for the sign of zeros' if signed else 'bit-identical'} "
              f"({len(files) // 2} channels)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
