"""contrib.learn's `fit(x=, y=)` / `evaluate(x=, y=)` / `predict(x=)` on numpy arrays, and
`SKCompat`, the scikit-learn-style wrapper TF 1.15 moved them to.

TF 1.15 still ran an Estimator's `fit(x, y)` (warning that it belonged to SKCompat): the
arrays were fed in batches (`batch_size`, at most all of x; without one, all of x in one
batch, as its data feeder did) as the
model_fn's `features` (the array itself, or a dict of arrays) and `labels`; training
reshuffled each epoch and repeated until `steps`, evaluation read the arrays once in order
(`steps` batches at most), prediction in order. The same here, through a tf.data
input_fn. The canned estimators read a bare array as the feature `''`, the key
`infer_real_valued_columns_from_input(x)` gives its column.
"""
import logging

import numpy as np
import tensorflow as tf

logger = logging.getLogger("tensorflow")

_WARNED = []


def _warn_once():
    if not _WARNED:
        _WARNED.append(True)
        logger.warning("Estimator's fit/evaluate/predict with x, y and batch_size belong to "
                       "SKCompat in TF 1.15 (est = SKCompat(Estimator(...))); run here as "
                       "TF 1.15 ran them.")


def _array(value, what):
    if isinstance(value, dict):
        return {k: _array(v, f"{what}[{k!r}]") for k, v in value.items()}
    if type(value).__module__.startswith("pandas"):
        value = value.values
    array = np.asarray(value)
    if array.dtype == object:
        raise ValueError(f"{what} must be a numeric (or string) numpy array, a dict of them or a "
                         f"pandas object, given an array of Python objects.")
    return array


def _length(arrays):
    first = next(iter(arrays.values())) if isinstance(arrays, dict) else arrays
    return len(first)


def numpy_input_fn(x, y=None, batch_size=None, shuffle=False, num_epochs=1, dict_key=None):
    """An input_fn feeding `x` (and `y`) in batches. `dict_key`: a bare array is given to the
    model as `{dict_key: x}` (the canned estimators' `''`)."""
    _warn_once()
    x = _array(x, "x")
    if dict_key is not None and not isinstance(x, dict):
        x = {dict_key: x}
    y = None if y is None else _array(y, "y")
    n = _length(x)
    if y is not None and _length(y) != n:
        raise ValueError(f"x has {n} examples and y {_length(y)}: give as many labels as "
                         "examples.")
    batch_size = min(batch_size or n, n)  # TF 1.15's data feeder: all of x unless told

    def input_fn():
        data = tf.data.Dataset.from_tensor_slices(x if y is None else (x, y))
        if shuffle:
            data = data.shuffle(n, reshuffle_each_iteration=True)
        return data.repeat(num_epochs).batch(batch_size)
    return input_fn


class SKCompat:
    """`SKCompat(estimator)`: scikit-learn-style `fit(x, y)`, `score(x, y)` and `predict(x)`
    (arrays) over a contrib.learn estimator."""

    def __init__(self, estimator):
        self._estimator = estimator

    def fit(self, x, y, batch_size=128, steps=None, max_steps=None, monitors=None):
        self._estimator.fit(x=x, y=y, batch_size=batch_size, steps=steps,
                            max_steps=max_steps, monitors=monitors)
        return self

    def score(self, x, y, batch_size=128, steps=None, metrics=None, name=None):
        """The evaluation of the latest checkpoint on (x, y): {metric: value}."""
        return self._estimator.evaluate(x=x, y=y, batch_size=batch_size, steps=steps,
                                        metrics=metrics, name=name)

    def predict(self, x, batch_size=128, outputs=None):
        """All predictions as arrays (a dict of arrays for dict predictions)."""
        return self._estimator.predict(x=x, batch_size=batch_size, outputs=outputs,
                                       as_iterable=False)
