"""Writes tests/data/vout_reference.txt: the exact outbound velocity of eq (6) at
50-digit precision, for the test of the f64 closed form.

For a = mu*v_in, eq (6) gives s = -mu*v_out in (0, 1) as s = 1 + W0(-exp(-(1 + c)))
with c = a - ln(1 + a). Each a is an f64 (written with repr, read back exactly);
the table holds (a, s) with 25 significant digits. Run: python tools/vout_reference.py
"""
import mpmath as mp

mp.mp.dps = 100


def s_of(a_float):
    a = mp.mpf(a_float)
    c = a - mp.log1p(a)
    if c > 10:
        # Far from the branch point 1 - s = t = e^{-(1+c)} e^{t} underflows any fixed
        # precision's 1 - s: iterate on t itself.
        t = mp.exp(-(1 + c))
        for _ in range(40):
            t = mp.exp(-(1 + c) + t)
        assert abs(mp.log(t) - t + 1 + c) < mp.mpf(10) ** -60
        return 1 - t
    # 1 + W0 keeps ~50 digits at 100, even at the branch point.
    s = 1 + mp.lambertw(-mp.exp(-(1 + c)), 0)
    # Check it on the equation itself: the residual must be far below c.
    assert abs(-s - mp.log1p(-s) - c) < mp.mpf(10) ** -40 * c
    return s


def main():
    points = []
    n = 240
    for i in range(n + 1):
        # log-uniform from 1e-9 to 1e3, plus offsets so points are not round numbers
        e = -9 + 12 * i / n
        points.append(float(mp.mpf(10) ** e * (1 + 0.013 * (i % 7))))
    points += [1e-9, 1e3, 3.087082, 1.432751, 0.634828, 0.166482, 0.005, 0.5, 1.0]
    with open("tests/data/vout_reference.txt", "w") as f:
        f.write("# a = mu*v_in (f64, exact), s = -mu*v_out: 100-digit mpmath, 25 digits shown\n")
        for a in points:
            f.write(f"{a!r} {mp.nstr(s_of(a), 25)}\n")


if __name__ == "__main__":
    main()
