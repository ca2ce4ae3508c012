"""The playing figures of `rebound presets --measure` through the VST3 in pedalboard:
the default patch's loudness across the keyboard, chord peaks (values over 0 dBFS pass
as they are: nothing inside clips or limits), velocity's brightening on the default
patch and the Mallet presets, and the bouncing presets' trains (the same bounces as the
CLI's, their intervals varied by Irregularity, the exact chain at 0, the same train
again after the host's reset, another for another Seed).

Called by host_pedalboard.py --presets with its instance and check function.
"""

import json
import subprocess

import mido
import numpy as np

from host_measures import (FS, centroid, host_params, momentary_max, onsets, ratio_spread,
                           set_preset_values, true_peak_db)


def play(m, keys, vel, dur):
    """`keys` struck together at sample 0 and held; the host resets the plugin first."""
    msgs = [mido.Message("note_on", note=k, velocity=vel, time=0.0) for k in keys]
    return m(msgs, duration=dur, sample_rate=FS, num_channels=2, buffer_size=512)


def db(x):
    return 20 * np.log10(max(float(x), 1e-30))


def default_patch(m, fig, check):
    """Keyboard, chords and velocity on the default patch (a new instance's state)."""
    levels = []
    for row in fig["keyboard"]:
        lufs = momentary_max(play(m, [row["key"]], 127, 2.0))
        levels.append(lufs)
        check(abs(lufs - row["momentary_max"]) <= 0.3,
              f"note {row['key']}: {lufs:.1f} LUFS through the VST3, the CLI {row['momentary_max']:.1f}")
    span = max(levels) - min(levels)
    check(span <= 6.0, f"the default patch over the keyboard: a {span:.1f} LU span (at most ±3 LU)")
    for row in fig["chords"]:
        y = play(m, row["keys"], row["velocity"], 2.0)
        peak, tp = db(np.max(np.abs(y))), true_peak_db(y)
        over = int(np.sum(np.abs(y) > 1.0))
        what = f"{len(row['keys'])} notes at velocity {row['velocity']}"
        check(abs(peak - row["sample_peak_db"]) <= 0.05,
              f"{what} {row['keys'][:4]}: peak {peak:.2f} dBFS through the VST3, the CLI {row['sample_peak_db']:.2f}")
        if len(row["keys"]) == 4:
            check(tp < 0.0, f"{what} {row['keys']}: true peak {tp:.2f} dBTP, under 0")
        else:
            # Over 0 dBFS and not held there: as many samples over full scale as the
            # engine's own render has, so nothing on the way clipped them.
            check(row["sample_peak_db"] > 0.0 and abs(over - row["over_full_scale"]) <= max(2, row["over_full_scale"] // 50),
                  f"{what}: {over} samples over 0 dBFS through the VST3 (the CLI {row['over_full_scale']}), peak {peak:.2f} dBFS, unclipped")
    velocity(m, fig["velocity"][0], check)


def velocity(m, row, check):
    def c(vel):
        y = play(m, [60], vel, 0.5)
        return centroid(0.5 * (y[0] + y[1]))
    soft = row["soft_velocity"]
    ratio = c(127) / c(soft)
    check(ratio >= 1.5 and abs(ratio / row["ratio"] - 1.0) <= 0.03,
          f"{row['name']}: centroid x{ratio:.2f} from velocity {soft} to 127 through the VST3 (the CLI x{row['ratio']:.2f})")


def set_preset(m, preset, by_name):
    set_preset_values(by_name, preset)
    m([], duration=0.1, sample_rate=FS, num_channels=2, buffer_size=512)  # the glide


def near(found, expected, tol=1):
    """Every onset found is within `tol` samples of one expected, in order."""
    return len(found) <= len(expected) and all(abs(a - b) <= tol for a, b in zip(found, expected))


def bounces(m, row, by_name, check):
    name = row["name"]
    mix = by_name["Body mix"]
    mix.raw_value = 0.0  # the dry force pulse: each impact's onset is sharp
    m([], duration=0.1, sample_rate=FS, num_channels=2, buffer_size=512)
    y = play(m, [60], 127, 4.0)
    found = onsets(y[0])[: len(row["onsets"])]
    n = len(found)
    check(n >= 6 and near(found, row["onsets"]),
          f"{name}: the VST3's first {n} bounces at the CLI's samples ({found[:6]}… against {row['onsets'][:6]}…)")
    spread, cli_spread = ratio_spread(found), ratio_spread(row["onsets"][:n])
    check(row["ratio_spread"] >= 0.02 and abs(spread - cli_spread) <= 0.005,
          f"{name}: interval ratios spread {spread:.3f} through the VST3 ({cli_spread:.3f} the CLI's, "
          f"{row['ratio_spread']:.3f} over {len(row['onsets']) - 1} intervals; at least 0.02)")
    again = play(m, [60], 127, 4.0)
    check(np.array_equal(again, y), f"{name}: after the host's reset the same Seed bounces the same way, bit for bit")
    seed = by_name["Seed"]
    s0 = seed.raw_value
    seed.raw_value = (s0 + 0.37) % 1.0
    other = onsets(play(m, [60], 127, 4.0)[0])[:n]
    seed.raw_value = s0
    check(other != found, f"{name}: another Seed, another train")
    irr = by_name["Irregularity"]
    i0 = irr.raw_value
    irr.raw_value = 0.0
    exact = onsets(play(m, [60], 127, 4.0)[0])[: len(row["onsets_at_0"])]
    irr.raw_value = i0
    check(len(exact) >= 6 and near(exact, row["onsets_at_0"]),
          f"{name}: at Irregularity 0 the exact chain, at the CLI's samples ({exact[:6]}…)")


def preset_figures(m, fig, cli, check):
    out = subprocess.run([cli, "presets", "--json", "--host"], check=True,
                         capture_output=True, text=True).stdout
    presets = {p["name"]: p for p in json.loads(out) if p["source"] == "factory"}
    by_name = host_params(m)
    for row in fig["velocity"][1:]:
        set_preset(m, presets[row["name"]], by_name)
        velocity(m, row, check)
    check(len(fig["irregularity"]) >= 4, f"{len(fig['irregularity'])} bouncing presets with Irregularity")
    for row in fig["irregularity"]:
        set_preset(m, presets[row["name"]], by_name)
        bounces(m, row, by_name, check)


def playing_tests(m, fig, which, check, cli):
    if which == "default":
        default_patch(m, fig, check)
    else:
        preset_figures(m, fig, cli, check)
