"""What the host benches share: the process's CPU time, and a wait until the plugin's
level worker is idle (getrusage counts every thread, so an idle process is one whose
worker has made its tables)."""
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
