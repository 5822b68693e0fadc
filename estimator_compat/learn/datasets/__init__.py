"""`tf.contrib.learn.datasets`: `load_dataset(name)` of TF 1.x's four datasets, read locally.

TF 1.15 name                                   here
`load_dataset`, `DATASETS`                      below
`base` (`Dataset`, `Datasets`, `load_csv_*`,    `base.py` (iris and boston from `data/`)
`load_iris`, `load_boston`, `shrink_csv`)
`mnist` (`read_data_sets`, `DataSet`)           `mnist.py`
`text_datasets` (`load_dbpedia`)                `text_datasets.py`
"""

from estimator_compat.learn.datasets import base, mnist, text_datasets  # noqa: F401
from estimator_compat.learn.datasets.base import (  # noqa: F401
    Dataset, Datasets, load_boston, load_csv_with_header, load_csv_without_header, load_iris)
from estimator_compat.learn.datasets.mnist import (  # noqa: F401
    FILES, SOURCE_URL, DataSet, load_mnist, read_data_sets)
from estimator_compat.learn.datasets.text_datasets import load_dbpedia

DATASETS = {"iris": load_iris, "boston": load_boston, "mnist": load_mnist,
            "dbpedia": load_dbpedia}


def load_dataset(name, size="small", test_with_fake_data=False):
    """The dataset `name` ('iris', 'boston', 'mnist' or 'dbpedia'); `size` and
    `test_with_fake_data` apply to dbpedia."""
    if name not in DATASETS:
        raise ValueError(f"Name of dataset is not found: {name} (one of "
                         f"{', '.join(sorted(DATASETS))})")
    if name == "dbpedia":
        return DATASETS[name](size, test_with_fake_data)
    return DATASETS[name]()


