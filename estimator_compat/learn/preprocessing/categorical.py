"""`tf.contrib.learn.preprocessing.CategoricalProcessor`: rows of categorical values as ids.

One `CategoricalVocabulary` per column (one for all with `share=True`); NaN values read as
unknown (id 0) and are not learned.
"""
import math

import numpy as np

from estimator_compat.learn.preprocessing.categorical_vocabulary import CategoricalVocabulary

__all__ = ["CategoricalProcessor"]


def _is_nan(value):
    return isinstance(value, float) and math.isnan(value)


def _rows(x):
    for row in x:
        yield [row] if isinstance(row, (str, bytes)) or np.ndim(row) == 0 else row


class CategoricalProcessor:
    """Maps each column's categories to ids; `fit` learns them (then freezes)."""

    def __init__(self, min_frequency=0, share=False, vocabularies=None):
        self.min_frequency = min_frequency
        self.share = share
        self.vocabularies_ = vocabularies

    def freeze(self, freeze=True):
        for vocabulary in self.vocabularies_ or ():
            vocabulary.freeze(freeze)

    def fit(self, x, unused_y=None):
        """Counts each column's values (NaN skipped), trims to `min_frequency`, freezes."""
        x = list(x)
        if self.vocabularies_ is None and x:
            width = len(next(_rows(x[:1])))
            shared = CategoricalVocabulary() if self.share else None
            self.vocabularies_ = [shared or CategoricalVocabulary() for _ in range(width)]
        for row in _rows(x):
            for vocabulary, value in zip(self.vocabularies_, row):
                if not _is_nan(value):
                    vocabulary.add(value)
        for vocabulary in self.vocabularies_ or ():
            if self.min_frequency > 0:
                vocabulary.trim(self.min_frequency)
            vocabulary.freeze()
        return self

    def fit_transform(self, x, unused_y=None):
        x = list(x)
        self.fit(x)
        return self.transform(x)

    def transform(self, x):
        """Yields an int64 array of ids per row (0: unknown or NaN)."""
        if self.vocabularies_ is None:
            raise ValueError("CategoricalProcessor.transform before fit: call fit (or "
                             "fit_transform) first, or pass vocabularies=.")
        for row in _rows(x):
            yield np.array([0 if _is_nan(value) else vocabulary.get(value)
                            for vocabulary, value in zip(self.vocabularies_, row)], np.int64)
