"""The get-started iris data, read from local CSV files (the originals downloaded them)."""
import collections
import csv

import numpy as np
import tensorflow as tf

CSV_COLUMN_NAMES = ['SepalLength', 'SepalWidth', 'PetalLength', 'PetalWidth', 'Species']
SPECIES = ['Setosa', 'Versicolor', 'Virginica']

TRAIN_PATH = None
TEST_PATH = None


def _read(path):
    with tf.gfile.GFile(path) as f:
        rows = list(csv.reader(f))[1:]
    x = collections.OrderedDict(
        (name, np.array([float(r[i]) for r in rows], np.float32))
        for i, name in enumerate(CSV_COLUMN_NAMES[:-1]))
    return x, np.array([int(r[-1]) for r in rows], np.int64)


def load_data(y_name='Species'):
    """Returns the iris dataset as (train_x, train_y), (test_x, test_y)."""
    return _read(TRAIN_PATH), _read(TEST_PATH)


def train_input_fn(features, labels, batch_size):
    """An input function for training"""
    dataset = tf.data.Dataset.from_tensor_slices((dict(features), labels))
    dataset = dataset.shuffle(1000, seed=42).repeat().batch(batch_size)
    return dataset


def eval_input_fn(features, labels, batch_size):
    """An input function for evaluation or prediction"""
    features = dict(features)
    if labels is None:
        inputs = features
    else:
        inputs = (features, labels)
    dataset = tf.data.Dataset.from_tensor_slices(inputs)
    assert batch_size is not None, "batch_size must not be None"
    dataset = dataset.batch(batch_size)
    return dataset


CSV_TYPES = [[0.0], [0.0], [0.0], [0.0], [0]]


def _parse_line(line):
    fields = tf.decode_csv(line, record_defaults=CSV_TYPES)
    features = dict(zip(CSV_COLUMN_NAMES, fields))
    label = features.pop('Species')
    return features, label


def csv_input_fn(csv_path, batch_size):
    """Reads the CSV file line by line with tf.decode_csv."""
    dataset = tf.data.TextLineDataset(csv_path).skip(1)
    dataset = dataset.map(_parse_line)
    dataset = dataset.shuffle(1000, seed=42).repeat().batch(batch_size)
    return dataset
