"""Feature columns as boosted trees see them: a list of small-integer features.

Columns are taken sorted by name. A bucketized column is one feature (its bucket ids); an
indicator column is one 0/1 feature per category; a numeric (float) column is one feature per
dimension, bucketized by the quantile boundaries learned from the data; a categorical column
is one feature split by equality on its ids. Features of the same bucket count form a group,
in tf.estimator 2.8's order, so feature ids, groups and split ties match its trees.
"""
import collections

import tensorflow as tf
from tensorflow.python.feature_column import feature_column as fc_v1
from tensorflow.python.feature_column import feature_column_v2 as fc_v2

INEQUALITY, EQUALITY = "inequality", "equality"
_BUCKETIZED = (fc_v2.BucketizedColumn, fc_v1._BucketizedColumn)
_INDICATOR = (fc_v2.IndicatorColumn, fc_v1._IndicatorColumn)
_CATEGORICAL = (fc_v2.CategoricalColumn, fc_v1._CategoricalColumn)
_NUMERIC = (fc_v2.NumericColumn, fc_v1._NumericColumn)
_DENSE = (fc_v2.DenseColumn, fc_v1._DenseColumn)


def _unsupported(column):
    return ValueError(
        f"Boosted trees take bucketized, indicator, numeric and categorical feature columns; "
        f"got {column!r}. Wrap embeddings or crossed columns in an indicator_column, or "
        "give the raw numeric column.")


def _width(column):
    """Features a dense (numeric) column gives: the product of its shape."""
    shape = getattr(column, "variable_shape", None) or column._variable_shape
    shape = tf.TensorShape(shape)
    if shape.rank and shape.rank > 1:
        raise ValueError(f"For now, we only support Dense column with rank of 1, but column "
                         f"`{column.name}` got: {shape}")
    return int(shape[0]) if shape.rank else 1


def _categories(column):
    categorical = column.categorical_column
    return getattr(categorical, "num_buckets", None) or categorical._num_buckets


def is_numeric(column):
    """A column whose values are bucketized by learned quantiles."""
    if isinstance(column, _CATEGORICAL + _BUCKETIZED + _INDICATOR):
        return False
    if isinstance(column, _NUMERIC):
        return True
    if isinstance(column, _DENSE) and hasattr(column, "dtype"):
        return column.dtype.is_floating
    raise _unsupported(column)


class Layout:
    """Feature ids, groups and names of a list of feature columns."""

    def __init__(self, feature_columns, num_quantiles):
        columns = list(feature_columns or [])
        if not columns:
            raise ValueError("feature_columns must be a non-empty list of tf.feature_column "
                             "columns.")
        self.columns = sorted(columns, key=lambda c: c.name)
        self.numeric = [c for c in self.columns if is_numeric(c)]
        self.num_quantiles = num_quantiles
        self.names = []  # the column name of each feature id
        groups = collections.OrderedDict([(-1, [])])  # -1: bucketized, sized at the end
        bucketized_size = 2
        for column in self.columns:
            if isinstance(column, _INDICATOR):
                for _ in range(_categories(column)):
                    groups.setdefault(2, []).append((len(self.names), INEQUALITY))
                    self.names.append(column.categorical_column.name)
            elif isinstance(column, _BUCKETIZED):
                bucketized_size = max(bucketized_size, len(column.boundaries) + 1)
                groups[-1].append((len(self.names), INEQUALITY))
                self.names.append(column.name)
            elif isinstance(column, _DENSE):
                for _ in range(_width(column)):
                    groups.setdefault(num_quantiles, []).append((len(self.names), INEQUALITY))
                    self.names.append(column.name)
            elif isinstance(column, _CATEGORICAL):
                size = getattr(column, "num_buckets", None) or column._num_buckets
                groups.setdefault(size, []).append((len(self.names), EQUALITY))
                self.names.append(column.name)
            else:
                raise _unsupported(column)
        bucketized = groups.pop(-1)
        if bucketized:
            groups.setdefault(bucketized_size, []).extend(bucketized)
        self.bucket_sizes = list(groups)
        self.feature_ids = [[f for f, _ in group] for group in groups.values()]
        self.split_types = [[t for _, t in group] for group in groups.values()]
        self.num_features = len(self.names)
        self.num_streams = sum(_width(c) for c in self.numeric)

    def transform(self, features, boundaries=None):
        """[batch, dims] int32 tensors, one per feature id (numeric ones bucketized by
        `boundaries`, a list of 1-D tensors per numeric feature dimension); without boundaries,
        the numeric features' raw float values [batch, 1]."""
        transformed = fc_v1._transform_features(features, self.columns)
        out, stream = [], 0
        for column in self.columns:
            tensor = transformed[column]
            if isinstance(column, _BUCKETIZED):
                if tensor.shape.rank is not None and tensor.shape.rank > 2:
                    raise ValueError(f"For now, only supports features equivalent to rank 2 "
                                     f"but column `{column.source_column.name}` got: "
                                     f"{tensor.shape}")
                out.append(tf.cast(tensor, tf.int32))
            elif isinstance(column, _INDICATOR):
                tensor = tf.cast(tensor, tf.int32)
                out.extend(tf.expand_dims(t, 1) for t in tf.unstack(tensor, axis=1))
            elif isinstance(column, _DENSE):
                tensor = tf.reshape(tf.cast(tensor, tf.float32), [-1, _width(column)])
                for t in tf.unstack(tensor, axis=1):
                    if boundaries is None:
                        out.append(tf.expand_dims(t, 1))
                    else:
                        out.append(tf.expand_dims(bucketize(t, boundaries[stream]), 1))
                    stream += 1
            else:
                out.append(tf.cast(tf.sparse.to_dense(tensor), tf.int32))
        return out

    def numeric_values(self, features):
        """The numeric columns' values, one [batch] float tensor per dimension."""
        transformed = fc_v1._transform_features(features, self.numeric)
        out = []
        for column in self.numeric:
            tensor = tf.reshape(tf.cast(transformed[column], tf.float32), [-1, _width(column)])
            out.extend(tf.unstack(tensor, axis=1))
        return out


def bucketize(values, boundaries):
    """The index of the first boundary >= value (the last one beyond them; 0 without any)."""
    index = tf.searchsorted(boundaries, values, side="left", out_type=tf.int32)
    return tf.minimum(index, tf.maximum(tf.size(boundaries, out_type=tf.int32) - 1, 0))


def example_weights(features, weight_column):
    """Per-example weights for the quantile sketch: the weight column's values, else [1.]."""
    if weight_column is None:
        return tf.constant([1.0])
    if isinstance(weight_column, str):
        weight_column = tf.feature_column.numeric_column(weight_column, shape=(1,))
    tensor = fc_v1._transform_features(features, [weight_column])[weight_column]
    return tf.reshape(tf.cast(tensor, tf.float32), [-1])
