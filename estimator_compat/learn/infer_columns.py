"""`infer_real_valued_columns_from_input(x)` / `_from_input_fn(input_fn)`: one real-valued
feature column per input feature, as contrib.learn's canned estimators were given them.

TF 1.15 returned contrib.layers' `real_valued_column(name, dimension, dtype)`: here the
equivalent core `tf.feature_column.numeric_column(name, shape, dtype)`, which the canned
estimators (on core feature columns) read. A bare array or tensor is the feature `''` (what
`fit(x=...)` feeds a canned estimator); the shape is the example's shape (one row of a
[batch, n] input is `(n,)`).
"""
import numpy as np
import tensorflow as tf


def _column(name, dtype, shape):
    dtype = tf.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"infer_real_valued_columns: feature {name!r} has dtype {dtype.name}; "
                         "only numeric features give real-valued columns (make a categorical "
                         "column for strings).")
    shape = tuple(int(d) for d in shape[1:]) or (1,)
    return tf.feature_column.numeric_column(name, shape=shape, dtype=dtype)


def infer_real_valued_columns_from_input(x):
    """Columns for the numpy input `x` (an array or a dict of arrays)."""
    items = x.items() if isinstance(x, dict) else [("", x)]
    columns = []
    for name, value in items:
        value = np.asarray(getattr(value, "values", value)) \
            if type(value).__module__.startswith("pandas") else np.asarray(value)
        if value.dtype.kind not in "iuf":
            raise ValueError(f"infer_real_valued_columns_from_input: feature {name!r} has "
                             f"dtype {value.dtype}; only numeric arrays give real-valued "
                             "columns.")
        columns.append(_column(name, value.dtype, value.shape))
    return columns


def infer_real_valued_columns_from_input_fn(input_fn):
    """Columns for the features `input_fn()` returns (built in a graph of its own)."""
    with tf.Graph().as_default():
        result = input_fn()
        features = result[0] if isinstance(result, (tuple, list)) else result
        if isinstance(features, tf.data.Dataset):
            raise ValueError("infer_real_valued_columns_from_input_fn needs an input_fn "
                             "returning (features, labels) tensors, not a Dataset.")
        items = features.items() if isinstance(features, dict) else [("", features)]
        return [_column(name, t.dtype, t.shape.as_list()) for name, t in items]
