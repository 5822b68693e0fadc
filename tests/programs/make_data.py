"""Writes the data the test programs read, in TF 1.x style: scikit-learn's 8x8 digits as
MNIST-like 28x28 uint8 TFRecords (train/eval), the same digits as MNIST's own gzipped IDX files
(MNIST-data/, as tf.contrib.learn.datasets.load_dataset("mnist") reads them: shifted copies
make the 5,000 validation images it sets aside), and iris as CSV files (train/test)."""
import gzip
import os
import struct

import numpy as np
import tensorflow as tf
from sklearn.datasets import load_digits, load_iris

flags = tf.flags
flags.DEFINE_string("data_dir", None, "Where to write the files.")
FLAGS = flags.FLAGS


def digits_28x28():
    digits = load_digits()
    images = np.kron(digits.images / 16.0, np.ones((3, 3)))  # 24x24
    images = np.pad(images, ((0, 0), (2, 2), (2, 2)))
    return (images * 255).round().astype(np.uint8), digits.target.astype(np.int64)


def write_digits(path, images, labels):
    with tf.python_io.TFRecordWriter(path) as writer:
        for image, label in zip(images, labels):
            example = tf.train.Example(features=tf.train.Features(feature={
                "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image.tobytes()])),
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(label)])),
            }))
            writer.write(example.SerializeToString())


def write_idx(path, array):
    """MNIST's IDX format (unsigned bytes), gzipped."""
    header = struct.pack(">I", 0x0800 | array.ndim) + b"".join(
        struct.pack(">I", d) for d in array.shape)
    with gzip.open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def write_mnist(directory, images, labels, n_test):
    """Test: the first n_test digits; train: the others, shifted by one pixel four ways and
    unshifted (five copies)."""
    tf.gfile.MakeDirs(directory)
    train_images, train_labels = images[n_test:], labels[n_test:]
    shifted = [np.roll(train_images, shift, axis) for shift, axis in
               ((0, 1), (1, 1), (-1, 1), (1, 2), (-1, 2))]
    train_images = np.concatenate(shifted)
    train_labels = np.concatenate([train_labels] * len(shifted))
    order = np.random.RandomState(2).permutation(len(train_labels))
    write_idx(os.path.join(directory, "train-images-idx3-ubyte.gz"), train_images[order])
    write_idx(os.path.join(directory, "train-labels-idx1-ubyte.gz"), train_labels[order])
    write_idx(os.path.join(directory, "t10k-images-idx3-ubyte.gz"), images[:n_test])
    write_idx(os.path.join(directory, "t10k-labels-idx1-ubyte.gz"), labels[:n_test])


def write_iris(path, x, y):
    with tf.gfile.GFile(path, "w") as f:
        f.write("%d,4,setosa,versicolor,virginica\n" % len(y))
        for row, label in zip(x, y):
            f.write(",".join("%.1f" % v for v in row) + ",%d\n" % label)


def main(_):
    tf.gfile.MakeDirs(FLAGS.data_dir)
    images, labels = digits_28x28()
    order = np.random.RandomState(0).permutation(len(labels))
    n_eval = 360
    write_digits(os.path.join(FLAGS.data_dir, "digits_eval.tfrecords"),
                 images[order[:n_eval]], labels[order[:n_eval]])
    write_digits(os.path.join(FLAGS.data_dir, "digits_train.tfrecords"),
                 images[order[n_eval:]], labels[order[n_eval:]])
    write_mnist(os.path.join(FLAGS.data_dir, "MNIST-data"), images[order], labels[order],
                n_eval)
    iris = load_iris()
    order = np.random.RandomState(1).permutation(150)
    write_iris(os.path.join(FLAGS.data_dir, "iris_training.csv"),
               iris.data[order[:120]], iris.target[order[:120]])
    write_iris(os.path.join(FLAGS.data_dir, "iris_test.csv"),
               iris.data[order[120:]], iris.target[order[120:]])
    tf.logging.info("Wrote the digits, MNIST-data and iris files to %s", FLAGS.data_dir)


if __name__ == "__main__":
    flags.mark_flag_as_required("data_dir")
    tf.app.run()
