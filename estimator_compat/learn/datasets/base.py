"""`tf.contrib.learn.datasets.base`: `Dataset` / `Datasets` tuples, CSV readers, iris, boston.

`load_csv_with_header` reads TF 1.x's small-dataset format: a first row `n_samples,
n_features, ...` (names after those are ignored), then one row per example; the target is the
`target_column` of each row, the features the rest. iris and boston are the CSV files TF 1.15
shipped in its package (public-domain data: Fisher's iris, Harrison & Rubinfeld's Boston house
prices), shipped here in `data/` with the same rows, so the same arrays come back.
"""
import collections
import csv
import os

import numpy as np

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header", "load_iris",
           "load_boston", "shrink_csv", "maybe_download"]


def _open(filename):
    if not os.path.exists(filename):
        raise FileNotFoundError(f"CSV file {filename!r} does not exist: pass the path of an "
                                "existing file.")
    return open(filename, newline="")


def _split(rows, target_column, target_dtype, features_dtype):
    target = np.array([row.pop(target_column) for row in rows], dtype=target_dtype)
    data = np.array(rows, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
    """A Dataset from a CSV whose first row says `n_samples,n_features,...`."""
    with _open(filename) as f:
        reader = csv.reader(f)
        header = next(reader)
        try:
            n_samples, n_features = int(header[0]), int(header[1])
        except (IndexError, ValueError):
            raise ValueError(f"{filename}: the first row must start with the number of "
                             f"examples and of features ('150,4,...'), found {header!r}; "
                             "use load_csv_without_header for a file without it.") from None
        rows = [row for row in reader]
    if len(rows) != n_samples:
        raise ValueError(f"{filename}: the header says {n_samples} examples, the file has "
                         f"{len(rows)} rows.")
    dataset = _split(rows, target_column, target_dtype, features_dtype)
    del n_features  # as TF 1.15: the rows' width decides
    return dataset


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
    """A Dataset from a CSV of example rows only."""
    with _open(filename) as f:
        rows = [row for row in csv.reader(f)]
    return _split(rows, target_column, target_dtype, features_dtype)


def _shipped(name):
    path = os.path.join(DATA_DIR, name)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{name} is missing from estimator_compat's package data "
                                f"({DATA_DIR}): reinstall estimator_compat with its data "
                                "files, or pass data_path= to a copy of the CSV.")
    return path


def load_iris(data_path=None):
    """Fisher's iris: 150 rows of 4 float64 features, int targets 0-2."""
    return load_csv_with_header(data_path or _shipped("iris.csv"),
                                target_dtype=np.int64, features_dtype=np.float64)


def load_boston(data_path=None):
    """Boston house prices: 506 rows of 13 float64 features, float64 prices."""
    return load_csv_with_header(data_path or _shipped("boston_house_prices.csv"),
                                target_dtype=np.float64, features_dtype=np.float64)


def shrink_csv(filename, ratio):
    """Writes `<name>_small.csv` beside `filename`: every `ratio`-th row, from the first."""
    root, ext = os.path.splitext(filename)
    with _open(filename) as f, open(root + "_small" + ext, "w", newline="") as out:
        writer = csv.writer(out)
        for i, row in enumerate(csv.reader(f)):
            if i % ratio == 0:
                writer.writerow(row)


def maybe_download(filename, work_directory, source_url):
    """The path of `filename` in `work_directory`; not downloaded here: an error says where
    to put it."""
    path = os.path.join(work_directory, filename)
    if not os.path.exists(path):
        raise FileNotFoundError(
            f"{filename} is not in {os.path.abspath(work_directory)!r}: estimator_compat does "
            f"not download datasets. Download it from {source_url} and put it there.")
    return path
