"""Real digit images with no download: scikit-learn's bundled 8x8 digits, upsampled to 28x28
and written as MNIST-style TFRecords (raw uint8 bytes + int64 label)."""
import os

import numpy as np
import tensorflow as tf


def load_digits_28x28():
    from sklearn.datasets import load_digits
    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0  # (1797, 8, 8) in [0, 1]
    big = tf.image.resize(images[..., None], [28, 28], method="bilinear").numpy()[..., 0]
    return (np.clip(big, 0, 1) * 255).astype(np.uint8), digits.target.astype(np.int64)


def write_tfrecords(data_dir, eval_fraction=0.2, seed=0):
    """Writes train.tfrecords / eval.tfrecords once; returns their paths."""
    train_path = os.path.join(data_dir, "train.tfrecords")
    eval_path = os.path.join(data_dir, "eval.tfrecords")
    if os.path.exists(train_path) and os.path.exists(eval_path):
        return train_path, eval_path
    os.makedirs(data_dir, exist_ok=True)
    images, labels = load_digits_28x28()
    order = np.random.RandomState(seed).permutation(len(labels))
    n_eval = int(len(labels) * eval_fraction)
    for path, idx in ((eval_path, order[:n_eval]), (train_path, order[n_eval:])):
        with tf.io.TFRecordWriter(path + ".tmp") as writer:
            for i in idx:
                example = tf.train.Example(features=tf.train.Features(feature={
                    "image_raw": tf.train.Feature(bytes_list=tf.train.BytesList(value=[images[i].tobytes()])),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[labels[i]])),
                }))
                writer.write(example.SerializeToString())
        os.replace(path + ".tmp", path)
    return train_path, eval_path
