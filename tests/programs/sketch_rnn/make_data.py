"""Synthetic "quickdraw" strokes as the tutorial's TFRecords (ink: [points, 3] of dx, dy,
pen-lifted, flattened; shape: [points, 3]; class_index): three classes (circle, zigzag,
square), 10 to 30 points each, noisy. `write(directory)` returns the paths."""
import math
import os

import numpy as np
import tensorflow as tf

CLASSES = ["circle", "zigzag", "square"]


def _drawing(label, rng):
    n = int(rng.randint(10, 31))
    t = np.linspace(0, 1, n)
    if label == 0:
        xy = np.stack([np.cos(2 * math.pi * t), np.sin(2 * math.pi * t)], 1)
    elif label == 1:
        xy = np.stack([t * 2 - 1, np.where(np.arange(n) % 2 == 0, -0.5, 0.5)], 1)
    else:
        side = np.minimum((t * 4).astype(int), 3)
        frac = t * 4 - side
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]], float)
        xy = corners[side] + (corners[side + 1] - corners[side]) * frac[:, None]
    xy = xy * rng.uniform(0.5, 1.5) + rng.normal(0, 0.45, xy.shape)
    deltas = np.diff(np.concatenate([xy[:1], xy]), axis=0)
    pen = np.zeros([n, 1])
    pen[-1] = 1
    return np.concatenate([deltas, pen], 1).astype(np.float32)


def _example(ink, label):
    feature = {
        "ink": tf.train.Feature(float_list=tf.train.FloatList(value=ink.ravel())),
        "shape": tf.train.Feature(int64_list=tf.train.Int64List(value=list(ink.shape))),
        "class_index": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
    }
    return tf.train.Example(features=tf.train.Features(feature=feature))


def write(directory, train=288, evaluation=96, seed=0):
    rng = np.random.RandomState(seed)
    paths = {}
    for name, count in (("training", train), ("eval", evaluation)):
        paths[name] = os.path.join(directory, "%s.tfrecord-00000-of-00001" % name)
        with tf.io.TFRecordWriter(paths[name]) as writer:
            for i in range(count):
                label = i % len(CLASSES)
                writer.write(_example(_drawing(label, rng), label).SerializeToString())
    paths["classes"] = os.path.join(directory, "training.tfrecord.classes")
    with open(paths["classes"], "w") as f:
        f.write("\n".join(CLASSES) + "\n")
    return paths


if __name__ == "__main__":
    import sys
    print(write(sys.argv[1]))
