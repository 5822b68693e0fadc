"""How long dropping a finished tf.data iterator blocks the caller: plain `del` vs
estimator_compat's background release (engine/iterator_reaper.py).

    python benchmarks/iterator_teardown.py [--life 0.7] [--drops 24]

Each drop follows `--life` seconds of reading a `map -> batch -> prefetch(AUTOTUNE)` pipeline.
TensorFlow 2.21 joins the iterator's autotune thread, which wakes only at the end of its current
sleep (10 ms doubling up to a minute), so some plain drops block for the rest of that sleep.
Prints one `RESULT {json}` line: per mode, the slowest drops and how many took > 10 ms.
"""
import argparse
import json
import os
import sys
import time
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from estimator_compat.engine import iterator_reaper  # noqa: E402


def drop_times(mode, life, drops):
    times = []
    for _ in range(drops):
        ds = tf.data.Dataset.range(10 ** 9).map(lambda x: x + 1).batch(32)
        owner = types.SimpleNamespace(it=iter(ds.prefetch(tf.data.AUTOTUNE)))
        start = time.perf_counter()
        while time.perf_counter() - start < life:
            next(owner.it)
        start = time.perf_counter()
        if mode == "release":
            iterator_reaper.release(owner, "it")
        else:
            del owner.it
        times.append((time.perf_counter() - start) * 1000)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--life", type=float, default=0.7)
    parser.add_argument("--drops", type=int, default=24)
    args = parser.parse_args()
    out = {"tf": tf.__version__, "life_s": args.life}
    for mode in ("del", "release"):
        times = sorted(drop_times(mode, args.life, args.drops))
        out[mode] = {"slowest_ms": [round(t, 1) for t in times[-3:]],
                     "over_10ms": sum(t > 10 for t in times), "drops": len(times)}
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
