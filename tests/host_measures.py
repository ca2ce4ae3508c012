"""What the host tests measure on audio rendered through the VST3, as the CLI measures
the engine's renders: BS.1770 loudness, true peak, the spectral centroid and the
onsets of a bounce train."""

import numpy as np

FS = 48000


class HostParam:
    """One of the plugin's parameters by the name it gave it: `raw_value` reads and sets
    the normalised value through the host's own object, looked up at each use (the
    host's objects do not outlive a render or a state load)."""

    def __init__(self, plugin, name):
        self.plugin, self.name = plugin, name

    @property
    def raw_value(self):
        return self.plugin._get_parameter(self.name).raw_value

    @raw_value.setter
    def raw_value(self, x):
        self.plugin._get_parameter(self.name).raw_value = x


def host_params(plugin):
    """The plugin's parameters by the names it gave them. Not `plugin.parameters`: its
    first use sweeps 1001 values of each of the host's 2126 parameters (the VST3
    wrapper's 2080 hidden MIDI CC ones among them) to guess their ranges, about 30 s an
    instance."""
    return {q.name: HostParam(plugin, q.name) for q in plugin._parameters}


def set_preset_values(by_name, preset, missing_ok=True):
    """Sets each of a preset's host values (`rebound presets --json`'s "host" list) on
    the parameters `by_name` (from `host_params`). With `missing_ok` a value the plugin
    has no parameter for is passed over (the caller checks for those itself);
    without, it raises KeyError."""
    for h in preset["host"]:
        if missing_ok and h["name"] not in by_name:
            continue
        by_name[h["name"]].raw_value = h["normalized"]


# ITU-R BS.1770-4's K-weighting at 48 kHz: the pre-filter (a high shelf) and the RLB
# high-pass, as biquads (b, a).
K_SHELF = ([1.53512485958697, -2.69169618940638, 1.19839281085285],
           [1.0, -1.69065929318241, 0.73248077421585])
K_HIGHPASS = ([1.0, -2.0, 1.0], [1.0, -1.99004745483398, 0.99007225036621])


def momentary_max(y):
    """The largest BS.1770 momentary loudness (400 ms windows, every 100 ms), LUFS."""
    from scipy.signal import lfilter
    k = lfilter(*K_HIGHPASS, lfilter(*K_SHELF, y, axis=-1), axis=-1)
    block = FS // 10
    n = k.shape[-1] // block
    energy = (k[:, : n * block] ** 2).reshape(k.shape[0], n, block).mean(axis=-1).sum(axis=0)
    windows = [energy[i - 3 : i + 1].mean() for i in range(3, n)]
    return -0.691 + 10 * np.log10(max(max(windows), 1e-30))


def true_peak_db(y):
    """The peak of the signal oversampled four times, dBTP."""
    from scipy.signal import resample_poly
    return 20 * np.log10(max(np.max(np.abs(resample_poly(y, 4, 1, axis=-1))), 1e-30))


def centroid(x):
    """Spectral centroid, Hz: `sum f |X|^2 / sum |X|^2`, zero-padded to a power of two
    (the CLI's `analysis::centroid`)."""
    n = 1 << max(1, int(np.ceil(np.log2(max(len(x), 2)))))
    p = np.abs(np.fft.rfft(np.asarray(x, dtype=np.float64), n)) ** 2
    f = np.arange(len(p)) * FS / n
    return float(np.sum(f * p) / np.sum(p))


def onsets(x, rel=1e-5, quiet=8):
    """The impacts of a train rendered dry (Body mix 0), where the output is the force
    pulse through the drive high-pass: the samples where the slope jumps up (the
    second difference over `rel` of the peak) and the signal is then higher, at least
    `quiet` samples after the last such jump. Not a level threshold: after a long
    pulse the high-pass's undershoot is still negative when the next impact starts,
    and a level would see it late; and the slope also jumps up where a pulse ends,
    but the signal is lower after it."""
    x = np.asarray(x, dtype=np.float64)
    thr = rel * np.max(np.abs(x))
    pad = np.concatenate([[0.0, 0.0], x, [x[-1], x[-1]]])
    dd = pad[2:-2] - 2 * pad[1:-3] + pad[:-4]
    # The highest of x[i], x[i+1], x[i+2] over x[i-1].
    rise = np.maximum(np.maximum(pad[2:-2], pad[3:-1]), pad[4:]) - pad[1:-3]
    out, last = [], -quiet - 1
    for i in np.nonzero(dd > thr)[0]:
        if rise[i] > thr and i - last > quiet:
            out.append(int(i))
        last = i
    return out


def ratio_spread(on, intervals=13):
    """Standard deviation of successive interval ratios (the CLI's figure)."""
    iv = np.diff(np.asarray(on, dtype=np.float64))[:intervals]
    r = iv[1:] / iv[:-1]
    return float(np.std(r)) if len(r) >= 2 else 0.0
