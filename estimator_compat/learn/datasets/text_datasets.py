"""`tf.contrib.learn.datasets.text_datasets`: DBpedia's 14-class ontology dataset.

TF 1.x read `<data_dir>/dbpedia_csv/{train,test}.csv` (rows `class,title,abstract`, class
1-14), downloading and unpacking `dbpedia_csv.tar.gz` there first. Here the files are read
where they are (an unpacked `dbpedia_csv.tar.gz` in `data_dir` is unpacked first); nothing is
downloaded: a missing file is an error saying which file to put where. `size='small'` reads
every 1000th row (written beside the file as `train_small.csv` / `test_small.csv`, as TF 1.x
did); `test_with_fake_data` gives TF 1.x's four fake rows (three train, one test).
"""
import csv
import os
import tarfile

import numpy as np

from estimator_compat.learn.datasets import base

DBPEDIA_URL = "https://github.com/le-scientifique/torchDatasets/raw/master/dbpedia_csv.tar.gz"

_FAKE_TRAIN = [("1", "Google", "Google is a company."),
               ("2", "Larry Page", "Larry Page is the co-founder of Google."),
               ("3", "Time", "Time is a news magazine.")]
_FAKE_TEST = [("2", "Sergey Brin", "Sergey Brin is the co-founder of Google.")]

__all__ = ["DBPEDIA_URL", "maybe_download_dbpedia", "load_dbpedia"]


def maybe_download_dbpedia(data_dir):
    """Makes sure `data_dir/dbpedia_csv/` holds train.csv and test.csv (unpacking a
    `dbpedia_csv.tar.gz` found in `data_dir`); nothing is downloaded."""
    csv_dir = os.path.join(data_dir, "dbpedia_csv")
    wanted = [os.path.join(csv_dir, name) for name in ("train.csv", "test.csv")]
    if all(os.path.exists(path) for path in wanted):
        return
    archive = os.path.join(data_dir, "dbpedia_csv.tar.gz")
    if os.path.exists(archive):
        with tarfile.open(archive, "r:*") as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(data_dir, filter="data")
            else:
                tar.extractall(data_dir)
        if all(os.path.exists(path) for path in wanted):
            return
    raise FileNotFoundError(
        f"DBpedia's train.csv and test.csv are not in {os.path.abspath(csv_dir)!r}: "
        f"estimator_compat does not download datasets. Download dbpedia_csv.tar.gz "
        f"({DBPEDIA_URL}) and put it in {os.path.abspath(data_dir)!r} (it is unpacked there), "
        f"or put its train.csv and test.csv (rows: class,title,abstract) in "
        f"{os.path.abspath(csv_dir)!r}; or pass test_with_fake_data=True.")


def _dataset(rows):
    rows = list(rows)
    target = np.array([int(row[0]) for row in rows], np.int32)
    data = np.array([row[1:] for row in rows])
    return base.Dataset(data=data, target=target)


def _read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [row for row in csv.reader(f)]


def load_dbpedia(size="small", test_with_fake_data=False, data_dir="dbpedia_data"):
    """Datasets(train, None, test) of DBpedia: `data` rows of [title, abstract] (str),
    `target` the class (int32, 1-14). Read from `data_dir` (TF 1.x: ./dbpedia_data)."""
    if test_with_fake_data:
        return base.Datasets(train=_dataset(_FAKE_TRAIN), validation=None,
                             test=_dataset(_FAKE_TEST))
    maybe_download_dbpedia(data_dir)
    paths = [os.path.join(data_dir, "dbpedia_csv", name) for name in ("train.csv", "test.csv")]
    if size == "small":
        for path in paths:
            base.shrink_csv(path, 1000)
        paths = [path.replace(".csv", "_small.csv") for path in paths]
    train, test = (_dataset(_read(path)) for path in paths)
    return base.Datasets(train=train, validation=None, test=test)
