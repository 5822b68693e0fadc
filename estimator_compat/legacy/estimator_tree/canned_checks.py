"""Argument checks and small helpers private to tensorflow_estimator 2.15's canned modules,
which libraries copying the canned models imported, with 2.15's results and errors:

- `canned.baseline._get_weight_column_key` / `_get_weight_column_key_v2` (a weight column's
  feature key), `_get_batch_size_and_size_checks`;
- `canned.dnn._validate_features`, `_get_previous_name_scope`;
- `canned.dnn_linear_combined._validate_feature_columns`;
- `canned.linear._get_default_optimizer_v2` (a Keras Ftrl),
  `_validate_linear_sdca_optimizer_for_linear_classifier` / `..._regressor`;
- `canned.kmeans._parse_features_if_necessary` (KMeans' input points: canned/kmeans.py),
  `_InitializeClustersHook` (the chief choosing the centers as a TF1 session starts).
"""
import math

import keras
import tensorflow as tf

from estimator_compat.canned.kmeans import _points as _parse_features_if_necessary  # noqa: F401

LINEAR_LEARNING_RATE = 0.2  # canned.linear's cap for its default Ftrl's rate
_FeatureColumn = tf.__internal__.feature_column.FeatureColumn


def _weight_column_key(weight_column, v2):
    if weight_column is None:
        return None
    if isinstance(weight_column, str):
        return weight_column
    from tensorflow.python.feature_column import feature_column as fc_old
    from tensorflow.python.feature_column import feature_column_v2 as fc_v2
    numeric = fc_v2.NumericColumn if v2 else fc_old._NumericColumn
    if not isinstance(weight_column, numeric):
        what = "NumericColumn" if v2 else "_NumericColumn"
        raise TypeError(f"Weight column must be either a string or {what}. Given type: "
                        f"{type(weight_column)}.")
    # 2.15 called the column's `key` (a string) as a method here: a TypeError
    raise TypeError(f"Weight column {weight_column.key!r} given as a numeric column: "
                    "tensorflow_estimator 2.15 failed on it here ('str' object is not "
                    f"callable); pass its key, {weight_column.key!r}.")


def _get_weight_column_key(weight_column):
    """The features key of `weight_column`: a string as given, None for None; anything else a
    TypeError (2.15 accepted no column object here: a V2 numeric column is not a
    `_NumericColumn`)."""
    return _weight_column_key(weight_column, v2=False)


def _get_weight_column_key_v2(weight_column):
    """As `_get_weight_column_key`, naming `NumericColumn` (whose `key`, called as a method
    by 2.15, failed too)."""
    return _weight_column_key(weight_column, v2=True)


def _get_batch_size_and_size_checks(features, weight_column_key):
    """(size checks, batch size) of a features dict: the first feature's first dimension
    (a tensor), and an assert_equal of every other feature's to it; the weight column is
    skipped (serving need not feed it)."""
    checks, batch_size = [], None
    for key, feature in features.items():
        if key == weight_column_key:
            continue
        first = tf.compat.v1.shape(feature)[0]
        if batch_size is None:
            batch_size = first
        else:
            checks.append(tf.compat.v1.debugging.assert_equal(batch_size, first))
    return checks, batch_size


def _validate_features(features):
    """ValueError unless `features` is a dict (the canned models' feature columns read one)."""
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")


def _get_previous_name_scope():
    """The enclosing name scope's parent, with a trailing '/' ('a/b' -> 'a/')."""
    return tf.__internal__.get_name_scope().rsplit("/", 1)[0] + "/"


def _validate_feature_columns(linear_feature_columns, dnn_feature_columns):
    """The linear then the DNN columns in one list; ValueError when both are empty."""
    columns = list(linear_feature_columns or []) + list(dnn_feature_columns or [])
    if not columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    return columns


def _get_default_optimizer_v2(feature_columns):
    """The V2 linear estimators' default: a Keras Ftrl at min(0.2, 1/sqrt(number of
    columns))."""
    rate = min(LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns)))
    return keras.optimizers.Ftrl(learning_rate=rate)


def _check_sdca(feature_columns, optimizer, sparse_combiner):
    from estimator_compat.canned.linear_sdca import LinearSDCA
    if not isinstance(optimizer, LinearSDCA):
        return False
    if sparse_combiner != "sum":
        raise ValueError('sparse_combiner must be "sum" when optimizer is a LinearSDCA object.')
    if not all(isinstance(c, _FeatureColumn) for c in feature_columns):
        raise ValueError("V2 feature columns required when optimizer is a LinearSDCA object.")
    return True


def _validate_linear_sdca_optimizer_for_linear_classifier(feature_columns, n_classes,
                                                          optimizer, sparse_combiner):
    """What LinearClassifier checks of a LinearSDCA optimizer (nothing for another one):
    the 'sum' combiner, V2 feature columns, two classes."""
    if _check_sdca(feature_columns, optimizer, sparse_combiner) and n_classes > 2:
        raise ValueError("LinearSDCA cannot be used in a multi-class setting.")


def _validate_linear_sdca_optimizer_for_linear_regressor(feature_columns, label_dimension,
                                                         optimizer, sparse_combiner):
    """What LinearRegressor checks of a LinearSDCA optimizer: the 'sum' combiner, V2 feature
    columns, a one-dimensional label."""
    if _check_sdca(feature_columns, optimizer, sparse_combiner) and label_dimension > 1:
        raise ValueError("LinearSDCA can only be used with one-dimensional label.")


class _InitializeClustersHook(tf.compat.v1.train.SessionRunHook):
    """canned.kmeans' hook for a TF1 session: once the session exists, the chief runs
    `init_op` until `is_initialized_var` is true (it may choose a few centers a run); the
    other tasks wait for it. (estimator_compat's KMeansClustering chooses its centers inside
    its first train step instead.)"""

    def __init__(self, init_op, is_initialized_var, is_chief):
        self._init_op, self._is_initialized_var = init_op, is_initialized_var
        self._is_chief = is_chief

    def after_create_session(self, session, coord):
        import time
        if self._init_op.graph is not tf.compat.v1.get_default_graph() or \
                self._is_initialized_var.graph is not self._init_op.graph:
            raise AssertionError("_InitializeClustersHook's init_op and is_initialized_var "
                                 "must be in the session's (default) graph.")
        while True:
            try:
                if session.run(self._is_initialized_var):
                    return
                if self._is_chief:
                    session.run(self._init_op)
                else:
                    time.sleep(1)
            except RuntimeError as e:
                tf.compat.v1.logging.info(e)
