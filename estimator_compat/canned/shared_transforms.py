"""Categorical transforms computed once for both parts of a wide & deep model.

`input_layer` (the DNN part) and `linear_model` (the linear part) each transform their columns
through their own cache, so a vocabulary column used by both (embedded in the DNN, crossed or
weighted in the linear part) was looked up twice per step, with its dense-to-sparse conversion,
as tf.estimator built it. Both caches take a features dict whose keys may be columns: a column
found there is used as already transformed. The ids are the same either way; only the
duplicate ops go. Columns the gather path takes (`gather_lookups.py`) share their ids there.
"""
import tensorflow as tf

from estimator_compat.canned.gather_lookups import takes

try:  # private: without it each part transforms its own columns, as before
    from tensorflow.python.feature_column import feature_column as _fc_v1
    from tensorflow.python.feature_column import feature_column_v2 as _fc_v2
    _Builder = _fc_v1._LazyBuilder
    _SIMPLE = (_fc_v2.VocabularyListCategoricalColumn, _fc_v2.VocabularyFileCategoricalColumn,
               _fc_v2.IdentityCategoricalColumn, _fc_v2.HashedCategoricalColumn)
    _CROSSED = _fc_v2.CrossedColumn
except (ImportError, AttributeError):  # pragma: no cover
    _Builder = None


def with_shared_transforms(features, linear_columns, dnn_columns):
    """`features`, plus the ids of each simple categorical column both parts use."""
    if _Builder is None or not isinstance(features, dict):
        return features
    shared = {column for column in _leaves(linear_columns) & _leaves(dnn_columns)
              if not takes(features, column)}
    if not shared:
        return features
    builder = _Builder(features)
    out = dict(features)
    with tf.name_scope("shared_transforms"):
        for column in sorted(shared, key=lambda c: c.name):
            out[column] = builder.get(column)
    return out


def _leaves(columns):
    """The simple categorical columns under `columns` (embedded, indicated, crossed)."""
    found = set()
    for column in columns:
        column = getattr(column, "categorical_column", column)
        if isinstance(column, _CROSSED):
            found |= _leaves([k for k in column.keys if not isinstance(k, str)])
        elif isinstance(column, _SIMPLE):
            found.add(column)
    return found
