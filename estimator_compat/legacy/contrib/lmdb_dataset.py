"""`tf.contrib.data.LMDBDataset`: the (key, value) records of LMDB files, on the `lmdb` package.

TensorFlow 2.21's LMDB kernel only raises "LMDB support is removed from TensorFlow", so the
files are read by the `lmdb` package (`pip install lmdb`) in a `Dataset.from_generator`: each
file in turn, its records in key order, as two scalar strings, as TF 1.15's reader gave them.
A file is opened read-only without its lock file, as TF 1.15 opened it (`MDB_NOSUBDIR`: the
path names the data file, e.g. `data.mdb`; a directory holding `data.mdb` works too).
"""
import os

import numpy as np
import tensorflow as tf


def _lmdb():
    try:
        import lmdb
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("tf.contrib.data.LMDBDataset reads LMDB files with the lmdb package, "
                          "which is not installed: pip install lmdb") from error
    return lmdb


def _records(filenames):
    lmdb = _lmdb()
    for name in np.asarray(filenames).ravel():
        path = name.decode() if isinstance(name, bytes) else str(name)
        if not os.path.exists(path):
            raise ValueError(f"{path}: No such file or directory (LMDBDataset)")
        env = lmdb.open(path, subdir=os.path.isdir(path), readonly=True, lock=False)
        try:
            with env.begin() as txn:
                for key, value in txn.cursor():
                    yield key, value
        finally:
            env.close()


def LMDBDataset(filenames):  # noqa: N802 - TF 1.x's class name
    """A dataset of (key, value) scalar strings: every record of each LMDB file in
    `filenames` (a string, a list of strings or a string tensor), file by file."""
    _lmdb()
    filenames = tf.convert_to_tensor(filenames, tf.string, name="filenames")
    return tf.compat.v1.data.Dataset.from_generator(
        _records, output_types=(tf.string, tf.string),
        output_shapes=(tf.TensorShape([]), tf.TensorShape([])), args=(filenames,))
