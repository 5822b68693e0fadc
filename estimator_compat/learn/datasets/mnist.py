"""`tf.contrib.learn.datasets.mnist` and `tensorflow.examples.tutorials.mnist.input_data`: MNIST.

The TF 1.x tutorials (`cnn_mnist.py`, "MNIST for ML beginners") read MNIST with
`tf.contrib.learn.datasets.load_dataset("mnist")` or `input_data.read_data_sets(dir)`:
the four IDX files (gzipped) in a directory, downloaded there when missing. Here the files are
read from that directory; when one is missing it is downloaded from the address TF 1.x used,
and where that fails the error names the files to put there. The result is TF 1.x's:
`Datasets(train, validation, test)` of `DataSet`s with `images` (float32 in [0, 1], rows of
784 by default), `labels` (uint8, or one-hot float rows), `num_examples` and `next_batch`.
"""
import gzip
import logging
import os
import urllib.request

import numpy as np

from estimator_compat.learn.datasets.base import Datasets

logger = logging.getLogger("tensorflow")

SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
FILES = {"train_images": "train-images-idx3-ubyte.gz",
         "train_labels": "train-labels-idx1-ubyte.gz",
         "test_images": "t10k-images-idx3-ubyte.gz",
         "test_labels": "t10k-labels-idx1-ubyte.gz"}


__all__ = ["DataSet", "read_data_sets", "load_mnist", "SOURCE_URL"]


class DataSet:
    """Images and labels of one split, with TF 1.x's shuffling `next_batch`."""

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=np.float32,
                 reshape=True, seed=None):
        self._fake, self.one_hot = fake_data, one_hot
        self._epochs_completed = self._index_in_epoch = 0
        if fake_data:  # the tutorials' --fake_data: 10,000 examples that next_batch makes up
            self._images, self._labels, self._num_examples = images, labels, 10000
            return
        if images.shape[0] != labels.shape[0]:
            raise ValueError(f"images.shape: {images.shape} labels.shape: {labels.shape}")
        dtype = np.dtype(getattr(dtype, "as_numpy_dtype", dtype))
        if dtype not in (np.uint8, np.float32):
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        if reshape and images.ndim == 4:
            images = images.reshape(images.shape[0], -1)
        if dtype == np.float32:
            images = images.astype(np.float32) * (1.0 / 255.0)
        self._images, self._labels = images, labels
        self._num_examples = images.shape[0]
        self._rng = np.random.RandomState(seed)

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """The next `batch_size` examples; a new epoch is shuffled (the first one too).
        `fake_data=True`: lists of all-ones images and class 0 labels (one-hot if the set
        is), as the tutorials' `--fake_data` runs took them."""
        if fake_data:
            image = [1] * 784
            label = [1] + [0] * 9 if self.one_hot else 0
            return [image] * batch_size, [label] * batch_size
        if self._fake:
            raise ValueError("This DataSet was made with fake_data=True and holds no examples: "
                             "call next_batch(batch_size, fake_data=True).")
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            end = self._index_in_epoch
            return self._images[start:end], self._labels[start:end]
        rest_images, rest_labels = self._images[start:], self._labels[start:]
        self._epochs_completed += 1
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - len(rest_images)
        end = self._index_in_epoch
        return (np.concatenate([rest_images, self._images[:end]]),
                np.concatenate([rest_labels, self._labels[:end]]))

    def _shuffle(self):
        order = self._rng.permutation(self._num_examples)
        self._images, self._labels = self._images[order], self._labels[order]


def _read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[:4], "big")
    dims = magic & 0xFF
    if magic >> 8 != 0x08:  # unsigned bytes
        raise ValueError(f"Invalid magic number {magic} in MNIST file {path}")
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    values = np.frombuffer(data, np.uint8, offset=4 + 4 * dims)
    return values.reshape(shape)


def _local_file(train_dir, name, source_url):
    path = os.path.join(train_dir, name)
    if os.path.exists(path):
        return path
    os.makedirs(train_dir, exist_ok=True)
    try:
        logger.info("Downloading %s to %s", source_url + name, path)
        urllib.request.urlretrieve(source_url + name, path + ".tmp")
        os.replace(path + ".tmp", path)
    except OSError as e:
        raise FileNotFoundError(
            f"MNIST file {name} is not in {os.path.abspath(train_dir)!r} and could not be "
            f"downloaded from {source_url} ({e}). Put the four files "
            f"({', '.join(FILES.values())}) in that directory.") from None
    return path


def _one_hot(labels, num_classes=10):
    out = np.zeros((labels.shape[0], num_classes), np.float32)
    out[np.arange(labels.shape[0]), labels] = 1.0
    return out


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=np.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=SOURCE_URL):
    """MNIST's train (less the first `validation_size`), validation and test splits."""
    if fake_data:  # no files read: three DataSets whose next_batch(n, True) makes examples up
        return Datasets(*(DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype,
                                  seed=seed) for _ in range(3)))
    read = {k: _read_idx(_local_file(train_dir, name, source_url)) for k, name in FILES.items()}
    images = {k: read[k + "_images"][..., None] for k in ("train", "test")}  # [n, 28, 28, 1]
    labels = {k: read[k + "_labels"] for k in ("train", "test")}
    if one_hot:
        labels = {k: _one_hot(v) for k, v in labels.items()}
    if not 0 <= validation_size <= len(images["train"]):
        raise ValueError(f"Validation size should be between 0 and {len(images['train'])}. "
                         f"Received: {validation_size}.")
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    return Datasets(
        train=DataSet(images["train"][validation_size:], labels["train"][validation_size:],
                      **options),
        validation=DataSet(images["train"][:validation_size],
                           labels["train"][:validation_size], **options),
        test=DataSet(images["test"], labels["test"], **options))


def load_mnist(train_dir="MNIST-data"):
    return read_data_sets(train_dir)
