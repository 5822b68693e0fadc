"""Parse specs for canned estimators' tf.Example input (features plus the label)."""
import tensorflow as tf


def _spec(feature_columns, label_key, label_spec, weight_column):
    spec = dict(tf.compat.v1.feature_column.make_parse_example_spec(feature_columns))
    if label_key in spec:
        raise ValueError(f"label should not be used as feature: label_key {label_key!r} is "
                         "also a feature column's key.")
    spec[label_key] = label_spec
    if weight_column is not None:
        key = weight_column if isinstance(weight_column, str) else weight_column.key
        spec[key] = tf.io.FixedLenFeature([1], tf.float32)
    return spec


def classifier_parse_example_spec(feature_columns, label_key, label_dtype=tf.int64,
                                  label_default=None, weight_column=None):
    return _spec(feature_columns, label_key,
                 tf.io.FixedLenFeature([1], label_dtype, default_value=label_default),
                 weight_column)


def regressor_parse_example_spec(feature_columns, label_key, label_dtype=tf.float32,
                                 label_default=None, label_dimension=1, weight_column=None):
    return _spec(feature_columns, label_key,
                 tf.io.FixedLenFeature([label_dimension], label_dtype,
                                       default_value=label_default), weight_column)
