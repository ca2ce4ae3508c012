"""What the host benches share: the process's CPU time, a wait until the plugin's level
worker is idle (getrusage counts every thread, so an idle process is one whose worker
has made its tables), and blocks handed over at a DAW's pace."""
import resource, sys, time


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def settle(interval=0.5, busy=0.01):
    """Returns once the process used under `busy` s of CPU over `interval` s."""
    for _ in range(600):
        c = cpu()
        time.sleep(interval)
        if cpu() - c < busy:
            return
    sys.exit("the plugin never went idle")


class Pacer:
    """Hands a plugin blocks of `block` samples at `fs` no sooner than a DAW would: the
    wall clock keeps pace with the audio from the first block on."""

    def __init__(self, fs, block):
        self.fs, self.block = fs, block
        self.t0, self.n = time.monotonic(), 0

    def play(self, p, events):
        wait = self.t0 + self.n * self.block / self.fs - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.n += 1
        return p(events, duration=self.block / self.fs, sample_rate=self.fs,
                 num_channels=2, buffer_size=self.block, reset=False)
