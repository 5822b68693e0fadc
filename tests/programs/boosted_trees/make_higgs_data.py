"""Writes HIGGS.csv.gz.npz in the layout of the UCI HIGGS file as tensorflow/models' boosted
trees sample read it: one float array `data`, the label then 28 features per row. The label
depends on a few features non-linearly, with noise, so trees have something to find."""
import os
import sys

import numpy as np


def make(path, rows=6000, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(rows, 28).astype(np.float32)
    x[:, 20:] = np.abs(x[:, 20:]) * 2.0  # HIGGS' derived masses are positive
    score = (1.2 * x[:, 0] - 0.8 * x[:, 3] * (x[:, 5] > 0) + 0.6 * np.sin(2 * x[:, 7])
             + 0.5 * (x[:, 21] - 1.6) + 0.4 * x[:, 11] * x[:, 12] + 0.5 * rng.randn(rows))
    label = (score > 0).astype(np.float32)
    data = np.concatenate([label[:, None], x], axis=1)
    os.makedirs(path, exist_ok=True)
    np.savez_compressed(os.path.join(path, "HIGGS.csv.gz.npz"), data=data)


if __name__ == "__main__":
    make(sys.argv[1])
