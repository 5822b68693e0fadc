"""`tf.estimator.experimental.LinearSDCA`: stochastic dual coordinate ascent as the `optimizer`
of LinearClassifier (binary) / LinearRegressor / LinearEstimator, as tf.estimator 2.15 ran it.

The linear model is the usual one (same variables, logits, head, metrics, export); only the
train op differs: sdca_step.py, on TensorFlow's SDCA kernel. The checks tf.estimator made at
construction are made here too, and the ones it made at the first step (head, columns) as well.
"""
import tensorflow as tf

from estimator_compat.canned import heads as heads_lib
from estimator_compat.canned.sdca_step import SdcaStep, sparse_feature

v1 = tf.compat.v1
_FeatureColumn = tf.__internal__.feature_column.FeatureColumn
_DenseColumn = tf.__internal__.feature_column.DenseColumn


class LinearSDCA:
    """Stochastic dual coordinate ascent settings for LinearClassifier / LinearRegressor.

    `example_id_column`: the feature holding each example's unique id (a string; the solver
    keeps a dual value per id across steps). `symmetric_l2_regularization` must be > 0
    (typically > 1), `symmetric_l1_regularization` >= 0.
    """

    def __init__(self, example_id_column, num_loss_partitions=1, num_table_shards=None,
                 symmetric_l1_regularization=0.0, symmetric_l2_regularization=1.0,
                 adaptive=False):
        if not example_id_column:
            raise ValueError("LinearSDCA needs example_id_column, the feature holding a "
                             "unique id per example.")
        if num_loss_partitions < 1:
            raise ValueError(f"num_loss_partitions must be >= 1, given {num_loss_partitions}.")
        if num_table_shards is not None and num_table_shards < 1:
            raise ValueError(f"num_table_shards must be >= 1 or None, given {num_table_shards}.")
        if symmetric_l2_regularization <= 0:
            raise ValueError("symmetric_l2_regularization should be positive, given "
                             f"{symmetric_l2_regularization}.")
        if symmetric_l1_regularization < 0:
            raise ValueError("symmetric_l1_regularization should be non-negative, given "
                             f"{symmetric_l1_regularization}.")
        self.example_id_column = example_id_column
        self.num_loss_partitions = num_loss_partitions
        self.num_table_shards = num_table_shards
        self.symmetric_l1_regularization = float(symmetric_l1_regularization)
        self.symmetric_l2_regularization = float(symmetric_l2_regularization)
        self.adaptive = adaptive


def loss_type(head):
    """The kernel's loss for `head`, or a ValueError naming what LinearSDCA trains."""
    if isinstance(head, heads_lib.BinaryClassHead):
        return "logistic_loss"
    if isinstance(head, heads_lib.RegressionHead) and head.logits_dimension == 1:
        return "squared_loss"
    raise ValueError(f"Unsupported head type: {type(head).__name__}. LinearSDCA trains a "
                     "binary classifier (logistic loss) or a one-dimensional regression "
                     "(squared loss); use optimizer='Ftrl' for other heads.")


def check_sdca(optimizer, head, feature_columns, sparse_combiner):
    """What tf.estimator checked when a linear estimator was given a LinearSDCA."""
    if sparse_combiner != "sum":
        raise ValueError('sparse_combiner must be "sum" when optimizer is a LinearSDCA object.')
    if not all(isinstance(c, _FeatureColumn) for c in feature_columns):
        raise ValueError("V2 feature columns required when optimizer is a LinearSDCA object "
                         "(tf.feature_column.*, not tf.compat.v1.feature_column.*).")
    if isinstance(head, heads_lib.MultiClassHead):
        raise ValueError("LinearSDCA cannot be used in a multi-class setting.")
    if isinstance(head, heads_lib.RegressionHead) and head.logits_dimension > 1:
        raise ValueError("LinearSDCA can only be used with one-dimensional label.")
    loss_type(head)
    for column in feature_columns:
        if _is_categorical(column):
            continue
        if not isinstance(column, _DenseColumn) or type(column).__name__ in (
                "EmbeddingColumn", "SharedEmbeddingColumn"):
            raise ValueError(f"LinearSDCA does not support column type "
                             f"{type(column).__name__} ({column.name}): give it numeric, "
                             "bucketized, categorical, crossed or indicator columns.")
        if column.variable_shape.ndims != 1:
            raise ValueError(f"Column {type(column).__name__} ({column.name}) has rank "
                             f"{column.variable_shape.ndims}, larger than 1.")


def _is_categorical(column):
    return callable(getattr(column, "get_sparse_tensors", None))


def train_op_builder(sdca, head, feature_columns, v1_names=False):
    """(features, labels) -> the SDCA train op of the linear model made just before in the
    same trace (its variables are found by name). `v1_names`: tf.compat.v1.estimator's
    partitioned-variable slot names (`linear/<weight>/part_0_unshrunk`)."""
    def unshrunk_name(name):
        return f"linear/{name}/part_0_unshrunk" if v1_names else f"{name}_unshrunk"

    def build(features, labels):
        _check_one_replica()
        model = {v.name.split(":")[0]: v for v in v1.get_collection(
            v1.GraphKeys.GLOBAL_VARIABLES, scope="linear/linear_model/")}
        cache = tf.__internal__.feature_column.FeatureTransformationCache(features)
        sparse, dense = [], []
        for column in sorted(feature_columns, key=lambda c: c.name):
            weights = model[f"linear/linear_model/{column.name}/weights"]
            if _is_categorical(column):
                pair = column.get_sparse_tensors(cache, None)
                sparse.append((sparse_feature(pair.id_tensor, pair.weight_tensor), weights))
            else:
                dense.append((column.get_dense_tensor(cache, None), weights))
        labels = _labels(labels)
        dense.append((tf.ones([tf.shape(labels)[0], 1]), model["linear/linear_model/bias_weights"]))
        step = SdcaStep(sdca, loss_type(head), sparse, dense,
                        example_weights=head._weights(features, labels), labels=labels,
                        example_ids=_example_ids(features, sdca.example_id_column),
                        unshrunk_name=unshrunk_name)
        # the summaries under tf.estimator's tags: at the top (in the linear scope for
        # compat.v1), not in the head's scope, where this is called
        with v1.get_default_graph().name_scope("linear/" if v1_names else ""):
            step.summaries()
        return step.train_op(tf.compat.v1.train.get_global_step())
    return build


def _labels(labels):
    if labels is None or isinstance(labels, dict):
        raise ValueError("LinearSDCA needs the labels as one tensor (0/1 for a binary "
                         f"classifier, numbers for a regression); given {labels!r}.")
    labels = labels.values if isinstance(labels, tf.SparseTensor) else labels
    if labels.dtype == tf.string:
        raise ValueError("LinearSDCA needs numeric labels (0/1 for a binary classifier); "
                         "label_vocabulary (string labels) is not supported with it.")
    return tf.reshape(tf.cast(labels, tf.float32), [-1])


def _example_ids(features, key):
    if key not in features:
        raise ValueError(f"LinearSDCA's example_id_column {key!r} is not in the features "
                         f"given by input_fn: {sorted(features)}.")
    ids = features[key]
    ids = ids.values if isinstance(ids, tf.SparseTensor) else ids
    ids = tf.reshape(ids, [-1])
    return ids if ids.dtype == tf.string else tf.strings.as_string(ids)


def _check_one_replica():
    replicas = tf.distribute.get_strategy().num_replicas_in_sync
    if replicas > 1:
        raise ValueError(f"LinearSDCA trains on one device; this strategy has {replicas} "
                         "replicas (its per-example state and weight updates are not "
                         "replicated). Drop train_distribute, or use optimizer='Ftrl'.")
