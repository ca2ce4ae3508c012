"""A note storm through the VST3 in a real host (pedalboard): 16-note chords every 512
samples at 192 kHz, new random keys at Humanize 100 % against one repeated chord at
Humanize 0 (the same velocities), at Hardness 10 ms and at the default Hardness, the
default 16 voices (VOICES=64 for more; BLOCK=256 for chords every 256 samples, in
blocks of 256). Prints the CPU seconds for 5 s of audio (the least of two runs), their
ratio and the multiple of real time.

Timing starts once the level worker has made the patch's tables (a patch is loaded
before it is played). The song is streamed to the plugin in chunks of about a quarter
second (CHUNK=n: n blocks), each with its own events (`reset=False` keeps the plugin
playing across them), as a DAW hands a plugin its blocks. pedalboard's own cost grows
with the events a call holds (handed the whole 5 s list at once, with its square: 1 s
of this storm took 0.49 s of CPU, 5 s 5.1 s, the same plugin); at 64 voices a block a
call costs the host about 0.03 s a second of audio, a quarter second's chunk 0.16.

    bash scripts/build.sh   # or scripts/host_tests.sh, which also makes .venv
    .venv/bin/python benches/host_storm.py
"""
import bisect, os, random, sys
import mido, pedalboard
from host_idle import cpu, settle  # a patch is loaded well before it is played

BUNDLE = os.environ.get("REBOUND_VST3", "target/bundled/Rebound.vst3")
FS, DUR = 192000, 5.0
BLOCK = int(os.environ.get("BLOCK", "512"))
# Whole blocks a chunk, about 0.248 s whatever the block (93 of 512), 20 chunks; CHUNK=n
# hands the plugin n blocks a call (CHUNK=1: a block a call, as a DAW does) over the
# same 4.96 s. pedalboard's own cost grows with the events a call holds.
CHUNK_BLOCKS = int(os.environ.get("CHUNK", round(93 * 512 / BLOCK)))
CHUNKS = round(20 * 93 * 512 / BLOCK / CHUNK_BLOCKS)

def msgs(humanized):
    """The storm's events as (sample, message): note-ons at each block's first sample,
    their note-offs 0.9 of a block later."""
    rng = random.Random(7)
    out = []
    chord = sorted(rng.sample(range(36, 96), 16))
    vels = [rng.randint(60, 127) for _ in range(16)]
    for b in range(int((DUR - 0.05) * FS / BLOCK) + 1):
        keys = sorted(rng.sample(range(24, 108), 16)) if humanized else chord
        for k, v in zip(keys, vels):
            out.append((b * BLOCK, mido.Message("note_on", note=k, velocity=v)))
        for k in keys:
            out.append((b * BLOCK + round(0.9 * BLOCK), mido.Message("note_off", note=k, velocity=0)))
    return out

def timed(events, start):
    """`(sample, message)` events as messages timed in seconds from sample `start`, a
    quarter sample past their own."""
    return [x.copy(time=(n - start + 0.25) / FS) for n, x in events]

def chunks(m):
    """The song cut at chunk boundaries, each chunk's events timed from its start. The
    cut is made on whole samples and each time is a quarter sample past its sample: a
    time summed in seconds lands a sample early or in the next chunk, where pedalboard
    loses it."""
    length = CHUNK_BLOCKS * BLOCK
    starts = [n for n, _ in m]  # in order
    for i in range(CHUNKS):
        a, b = i * length, (i + 1) * length
        part = m[bisect.bisect_left(starts, a):bisect.bisect_left(starts, b)]
        yield timed(part, a), length / FS

audio = CHUNKS * CHUNK_BLOCKS * BLOCK / FS
for hardness in (10.0, None):
    res = {}
    for humanized in (True, False):
        p = pedalboard.load_plugin(BUNDLE)
        p.voices = float(os.environ.get("VOICES", "16"))
        # pedalboard reads a percent parameter in its displayed units (0-100): 1.0 would
        # be 1 %. The normalised value read back says which Humanize the storm plays.
        p.humanize = 100.0 if humanized else 0.0
        raw = p.parameters["humanize"].raw_value
        if abs(raw - (1.0 if humanized else 0.0)) > 1e-6:
            sys.exit(f"Humanize reads back normalised {raw}, not {1.0 if humanized else 0.0}")
        if hardness is not None:
            p.hardness_ms = hardness
        m = msgs(humanized)
        parts = list(chunks(m))
        p(timed(m[:32], 0), duration=0.05, sample_rate=FS, num_channels=2, buffer_size=BLOCK)
        settle()
        best = 1e9
        for _ in range(2):
            p.reset()
            c0 = cpu()
            for events, length in parts:
                p(events, duration=length, sample_rate=FS, num_channels=2,
                  buffer_size=BLOCK, reset=False)
            best = min(best, cpu() - c0)
        res[humanized] = best
    h = "10 ms" if hardness else "default"
    print(f"Hardness {h}: storm {res[True]:.2f} s CPU, cached chord {res[False]:.2f} s, ratio {res[True]/res[False]:.2f}, {audio/res[True]:.2f}x real time, {CHUNK_BLOCKS} blocks a call")
