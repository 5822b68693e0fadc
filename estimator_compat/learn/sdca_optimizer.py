"""`tf.contrib.linear_optimizer.SDCAOptimizer`: what contrib.learn's LinearClassifier (binary)
and LinearRegressor take as `optimizer=` to train by stochastic dual coordinate ascent, and
`sdca_model_fn`, the linear model they then build (TF 1.15's `linear.sdca_model_fn`).

The model: contrib.layers columns transformed, `weighted_sum_from_feature_columns` in the
`linear` scope (with the optimizer's `partitioner`), the bias trained as a column of ones;
the head's loss, metrics and predictions; the train op an `SdcaModel` (learn/sdca_model.py)
over the columns: real-valued columns as dense features, bucketized ones as their one-hot
entries, sparse / weighted sparse / crossed ones as sparse features (negative ids dropped,
an id repeated in one example kept once with its weights summed); its loss the head's
(logistic for the binary classifier, squared for the regressor, hinge for the SVM head).
TF 1.15 updated the weights from the solver's copies in a chief-only hook in the same run as
the train op; here that update is part of the train op itself (a chief-only difference only
under between-graph replication).
"""
import tensorflow as tf

from estimator_compat.canned.sdca_step import sparse_feature
from estimator_compat.learn.sdca_model import SdcaModel, SparseFeatureColumn

v1 = tf.compat.v1
BIAS_COLUMN = "tf_virtual_bias_column"


class SDCAOptimizer:
    """SDCA settings for contrib.learn's linear estimators. `example_id_column`: the feature
    holding each example's unique id (strings); `num_loss_partitions`: the number of
    concurrent train ops (workers); `num_table_shards`: shards of the example state table;
    `partitioner`: of the weights (div partitioning)."""

    def __init__(self, example_id_column, num_loss_partitions=1, num_table_shards=None,
                 symmetric_l1_regularization=0.0, symmetric_l2_regularization=1.0,
                 adaptive=True, partitioner=None):
        self._example_id_column = example_id_column
        self._num_loss_partitions = num_loss_partitions
        self._num_table_shards = num_table_shards
        self._symmetric_l1_regularization = symmetric_l1_regularization
        self._symmetric_l2_regularization = symmetric_l2_regularization
        self._adaptive = adaptive
        self._partitioner = partitioner

    def get_name(self):
        return "SDCAOptimizer"

    @property
    def example_id_column(self):
        return self._example_id_column

    @property
    def num_loss_partitions(self):
        return self._num_loss_partitions

    @property
    def num_table_shards(self):
        return self._num_table_shards

    @property
    def symmetric_l1_regularization(self):
        return self._symmetric_l1_regularization

    @property
    def symmetric_l2_regularization(self):
        return self._symmetric_l2_regularization

    @property
    def adaptive(self):
        return self._adaptive

    @property
    def partitioner(self):
        return self._partitioner

    def get_train_step(self, columns_to_variables, weight_column_name, loss_type, features,
                       targets, global_step):
        """(SdcaModel, its minimize op) over `features` (keyed by column, transformed)."""
        examples, variables = _examples_and_variables(
            columns_to_variables, weight_column_name, features, targets,
            self._example_id_column)
        model = SdcaModel(examples, variables, dict(
            symmetric_l1_regularization=self._symmetric_l1_regularization,
            symmetric_l2_regularization=self._symmetric_l2_regularization,
            adaptive=self._adaptive, num_loss_partitions=self._num_loss_partitions,
            num_table_shards=self._num_table_shards, loss_type=loss_type))
        return model, model.minimize(global_step=global_step)


def _nonzero_entries(dense):
    """A [batch, n] tensor's nonzero entries as a SparseFeatureColumn."""
    where = tf.where(tf.not_equal(dense, tf.cast(0.0, dense.dtype)))
    return SparseFeatureColumn(where[:, 0], where[:, 1],
                               tf.cast(tf.gather_nd(dense, where), tf.float32))


def _weights_of(variables):
    """A sparse column's weight: the variable, or its parts when partitioned."""
    return variables[0] if len(variables) == 1 else list(variables)


def _examples_and_variables(columns_to_variables, weight_column_name, features, targets,
                            example_id_column):
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    dense, dense_weights, sparse, sparse_weights = [], [], [], []
    for column in sorted(columns_to_variables, key=lambda c: c.key):
        value = features[column]
        variables = columns_to_variables[column]
        if isinstance(column, fc._RealValuedColumn):
            checked = tf.debugging.Assert(tf.less_equal(tf.rank(value), 2),
                                          ["transformed_tensor should have rank at most 2."])
            with tf.control_dependencies([checked]):
                dense.append(tf.reshape(value, [tf.shape(value)[0], -1]))
            dense_weights.append(variables[0])
        elif isinstance(column, fc._BucketizedColumn):
            sparse.append(_nonzero_entries(column.to_dnn_input(value, None, False)))
            sparse_weights.append(_weights_of(variables))
        elif callable(getattr(column, "id_tensor", None)) and not isinstance(
                column, (fc._EmbeddingColumn, fc._OneHotColumn)):
            found = sparse_feature(column.id_tensor(value), column.weight_tensor(value))
            sparse.append(SparseFeatureColumn(*found))
            sparse_weights.append(_weights_of(variables))
        else:
            raise ValueError("SDCAOptimizer does not support column type %s."
                             % type(column).__name__)
    labels = tf.cast(tf.reshape(targets, [-1]), tf.float32)
    weights = (tf.reshape(features[weight_column_name], [-1]) if weight_column_name
               else tf.ones(tf.shape(labels)[:1]))
    examples = dict(sparse_features=sparse, dense_features=dense, example_labels=labels,
                    example_weights=weights, example_ids=features[example_id_column])
    return examples, dict(sparse_features_weights=sparse_weights,
                          dense_features_weights=dense_weights)


def loss_type(head):
    """The solver's loss for a contrib.learn head."""
    from estimator_compat.learn import heads
    kind = type(head).__name__
    if kind == "_BinarySvmHead":
        return "hinge_loss"
    if isinstance(head, heads._BinaryLogisticHead):
        return "logistic_loss"
    if isinstance(head, heads._RegressionHead):
        if head.logits_dimension != 1:
            raise ValueError("SDCA only applies for logits_dimension=1.")
        return "squared_loss"
    raise ValueError(f"Unsupported head type: {head}")


def _batch_size(features):
    for value in features.values():
        value = value[0] if isinstance(value, tuple) else value
        if isinstance(value, tf.SparseTensor):
            return value.dense_shape[0]
        return tf.shape(value, out_type=tf.int64)[0]
    raise ValueError("Could not infer batch size from input features.")


def sdca_model_fn(features, labels, mode, params, config=None):
    """contrib.learn's linear model trained by SDCA: params `head`, `feature_columns`,
    `optimizer` (an SDCAOptimizer), `weight_column_name`."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    from estimator_compat.legacy.contrib.layers.feature_columns import ops
    head, columns = params["head"], params["feature_columns"]
    optimizer, weight_column_name = params["optimizer"], params["weight_column_name"]
    if not isinstance(optimizer, SDCAOptimizer):
        raise ValueError("Optimizer must be of type SDCAOptimizer")
    kind = loss_type(head)
    with v1.variable_scope("linear", values=list(features.values()),
                           partitioner=optimizer.partitioner) as scope:
        features = dict(features)
        features.update(ops.transform_features(features, columns))
        logits, columns_to_variables, bias = ops.weighted_sum_from_feature_columns(
            features, columns, num_outputs=1, scope=scope)
        if any(c.name == BIAS_COLUMN for c in columns):
            raise ValueError(f"{BIAS_COLUMN} is a reserved column name.")
        bias_column = fc.real_valued_column(BIAS_COLUMN)
        features[bias_column] = tf.ones(tf.stack([_batch_size(features), 1]), tf.float32)
        columns_to_variables = dict(columns_to_variables)
        columns_to_variables[bias_column] = [bias]

    def train_op_fn(unused_loss):
        model, train_op = optimizer.get_train_step(
            columns_to_variables, weight_column_name, kind, features, labels,
            v1.train.get_global_step())
        return model.update_weights(train_op)
    return head.create_model_fn_ops(features=features, labels=labels, mode=mode,
                                    train_op_fn=train_op_fn, logits=logits)
