"""tensorflow_estimator 2.15's private canned model_fns and model builders that libraries
called to wrap a canned network in an Estimator of their own, with 2.15's signatures; they
build what estimator_compat's canned classes build (canned/baseline.py, dnn.py, linear.py,
dnn_linear_combined.py): the same variables and summaries, `head` making the EstimatorSpec.

- `canned.baseline`: `_baseline_logit_fn_builder` and `_baseline_model_fn` (tf.compat.v1's:
  a v1 head, optimizer at 0.3, slots `baseline/bias/Ftrl`), `_baseline_model_fn_builder_v2`
  (-> [bias], logits) and `_baseline_model_fn_v2`;
- `canned.dnn`: `dnn_model_fn_v2`, `_dnn_model_fn_builder_v2` (-> logits, trainable variables,
  update ops), `_get_dnn_estimator_spec`;
- `canned.linear`: `_linear_model_fn_v2`, `_linear_model_fn_builder_v2` (-> logits,
  variables), `_sdca_model_fn` (a LinearSDCA's train op; a V2 binary or one-dimensional
  regression head);
- `canned.dnn_linear_combined`: `_dnn_linear_combined_model_fn_v2`,
  `_init_dnn_linear_combined_estimator` (-> feature columns, the tf.compat.v1 model_fn).

The V2 model_fns' named and Keras optimizers train as the V2 classes' do (the compat.v1
optimizer of the same update rule, canned/optimizers.py). An Estimator of the caller's own
saves its slots under their compat.v1 names (`<var>/Adagrad`), where 2.15 wrote Keras ones
(`training/Adagrad/<var>/accumulator`): the V2 canned classes alone rename them
(canned/keras_slot_names.py).
"""
import tensorflow as tf

from estimator_compat.canned import dnn_linear_combined, linear_sdca
from estimator_compat.canned import v1_model_fns
from estimator_compat.canned.baseline import LEARNING_RATE as BASELINE_LEARNING_RATE
from estimator_compat.canned.dnn import check_hidden_units, dnn_logits
from estimator_compat.canned.linear import LEARNING_RATE as LINEAR_LEARNING_RATE
from estimator_compat.canned.linear import check_sparse_combiner, linear_logits
from estimator_compat.canned.optimizers import get_optimizer
from estimator_compat.legacy.estimator_tree import canned_checks
from estimator_compat.mode_keys import ModeKeys

v1 = tf.compat.v1
SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
_V2_COLUMNS = ("Received a feature column from TensorFlow v1, but this is a TensorFlow v2 "
               "Estimator. Please either use v2 feature columns (accessible via "
               "tf.feature_column.* in TF 2.x) with this Estimator, or switch to a v1 Estimator "
               "for use with v1 feature columns (accessible via tf.compat.v1.estimator.* and "
               "tf.compat.v1.feature_column.*, respectively.")


def _trained_by(mode, optimizer, learning_rate):
    """The compat.v1 optimizer a V2 model_fn trains with in TRAIN mode (None otherwise)."""
    return get_optimizer(optimizer, learning_rate) if mode == ModeKeys.TRAIN else None


def _made_in(scope, make):
    """`make()`, and the trainable variables (in creation order) and UPDATE_OPS it added under
    `scope`."""
    graph = v1.get_default_graph()
    before_vars = set(id(v) for v in graph.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES))
    before_ops = len(graph.get_collection(v1.GraphKeys.UPDATE_OPS))
    out = make()
    made = [v for v in graph.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES, scope=scope)
            if id(v) not in before_vars] or \
        graph.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES, scope=scope)
    return out, made, graph.get_collection(v1.GraphKeys.UPDATE_OPS)[before_ops:]


# --- canned.baseline ------------------------------------------------------------------------
def _baseline_bias(features, num_outputs, weight_column_key):
    checks, batch_size = canned_checks._get_batch_size_and_size_checks(features,
                                                                        weight_column_key)
    with tf.control_dependencies(checks):
        with v1.variable_scope("baseline"):
            bias = v1.get_variable("bias", shape=[num_outputs],
                                   initializer=v1.zeros_initializer())
            return bias, tf.math.multiply(bias, tf.ones([batch_size, num_outputs]))


def _baseline_logit_fn_builder(num_outputs, weight_column=None):
    """A `logit_fn(features)`: `baseline/bias` ([num_outputs], zeros) repeated for each example
    of the features dict (whose features must agree on the batch size; the weight column, a
    key, is not checked)."""
    def baseline_logit_fn(features):
        key = canned_checks._get_weight_column_key(weight_column)
        return _baseline_bias(features, num_outputs, key)[1]
    return baseline_logit_fn


def _baseline_model_fn(features, labels, mode, head, optimizer, weight_column=None,
                       config=None):
    """tf.compat.v1.estimator.Baseline*'s model_fn: the baseline logits through v1 `head`,
    trained by `optimizer` (a name: at learning rate 0.3) advancing the global step."""
    from estimator_compat.legacy.estimator_tree.optimizers import get_optimizer_instance
    logits = _baseline_logit_fn_builder(head.logits_dimension, weight_column)(features)

    def train_op_fn(loss):
        opt = get_optimizer_instance(optimizer, learning_rate=BASELINE_LEARNING_RATE)
        return opt.minimize(loss, global_step=v1.train.get_global_step())
    return head.create_estimator_spec(features=features, mode=mode, logits=logits,
                                      labels=labels, train_op_fn=train_op_fn)


def _baseline_model_fn_builder_v2(features, num_outputs, weight_column=None):
    """([the `baseline/bias` variable], logits) of the V2 baseline (see
    `_baseline_logit_fn_builder`; the weight column a key or None)."""
    key = canned_checks._get_weight_column_key_v2(weight_column)
    bias, logits = _baseline_bias(features, num_outputs, key)
    return [bias], logits


def _baseline_model_fn_v2(features, labels, mode, head, optimizer, weight_column=None,
                          config=None, loss_reduction=SUM_OVER_BATCH_SIZE):
    """tf.estimator.Baseline*'s model_fn: the baseline logits through `head`, trained by
    `optimizer` (a name: at learning rate 0.3). `loss_reduction` is the head's."""
    variables, logits = _baseline_model_fn_builder_v2(features, head.logits_dimension,
                                                      weight_column)
    return head.create_estimator_spec(
        features=features, mode=mode, labels=labels, logits=logits,
        optimizer=_trained_by(mode, optimizer, BASELINE_LEARNING_RATE),
        trainable_variables=variables)


# --- canned.dnn -----------------------------------------------------------------------------
def _dnn_model_fn_builder_v2(units, hidden_units, feature_columns, activation_fn, dropout,
                             batch_norm, features, mode):
    """(logits, trainable variables, update ops) of the V2 DNN: `dnn/hiddenlayer_<i>` and
    `dnn/logits` on the columns' input layer, with their summaries."""
    if not isinstance(units, int):
        raise ValueError(f"units must be an int.  Given type: {type(units)}")
    hidden_units = check_hidden_units(hidden_units)
    return _made_in("dnn/", lambda: dnn_logits(features, mode, list(feature_columns),
                                               hidden_units, units, activation_fn, dropout,
                                               batch_norm))


def _get_dnn_estimator_spec(use_tpu, head, features, labels, mode, logits, optimizer):
    """`head`'s spec for these logits and optimizer: with `use_tpu`, its
    `_create_tpu_estimator_spec` where it implements one, else its EstimatorSpec
    (estimator_compat's canned heads make that one kind; its TPUEstimator runs either)."""
    arguments = dict(features=features, mode=mode, labels=labels, optimizer=optimizer,
                     logits=logits)
    tpu_spec = getattr(head, "_create_tpu_estimator_spec", None) if use_tpu else None
    if tpu_spec is not None:
        try:
            return tpu_spec(**arguments)
        except NotImplementedError:  # estimator_compat's canned heads make one spec kind
            pass
    return head.create_estimator_spec(**arguments)


def dnn_model_fn_v2(features, labels, mode, head, hidden_units, feature_columns,
                    optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None, config=None,
                    use_tpu=False, batch_norm=False):
    """tf.estimator.DNN*'s model_fn: the DNN's logits through `head`, trained by `optimizer`
    (a name: at Keras' default rate); `use_tpu` wraps it in a CrossShardOptimizer."""
    canned_checks._validate_features(features)
    logits, variables, update_ops = _dnn_model_fn_builder_v2(
        head.logits_dimension, hidden_units, feature_columns, activation_fn, dropout,
        batch_norm, features, mode)
    opt = _trained_by(mode, optimizer, None)
    if opt is not None and use_tpu:
        from estimator_compat.tpu import CrossShardOptimizer
        opt = CrossShardOptimizer(opt)
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      optimizer=opt, logits=logits,
                                      trainable_variables=variables, update_ops=update_ops)


# --- canned.linear --------------------------------------------------------------------------
def _check_v2_columns(feature_columns):
    if not all(isinstance(c, canned_checks._FeatureColumn) for c in feature_columns):
        raise ValueError(_V2_COLUMNS)


def _linear_model_fn_builder_v2(units, feature_columns, sparse_combiner="sum", features=None):
    """(logits, variables) of the V2 linear model: `linear/linear_model/<column>/weights` and
    `.../bias_weights`, with the `bias` and `fraction_of_zero_weights` summaries."""
    feature_columns = list(feature_columns)
    _check_v2_columns(feature_columns)
    check_sparse_combiner(sparse_combiner)
    logits, variables, _ = _made_in("linear/linear_model/", lambda: linear_logits(
        features, feature_columns, units, sparse_combiner))
    return logits, variables


def _linear_model_fn_v2(features, labels, mode, head, feature_columns, optimizer, config,
                        sparse_combiner="sum"):
    """tf.estimator.Linear*'s model_fn: the linear logits through `head`, trained by
    `optimizer` (None: Ftrl at min(0.2, 1/sqrt(number of columns)); a name: at 0.2; a
    LinearSDCA: `_sdca_model_fn`)."""
    canned_checks._validate_features(features)
    if isinstance(optimizer, linear_sdca.LinearSDCA):
        if sparse_combiner != "sum":
            raise ValueError('sparse_combiner must be "sum" when optimizer is a LinearSDCA '
                             "object.")
        return _sdca_model_fn(features, labels, mode, head, feature_columns, optimizer)
    logits, variables = _linear_model_fn_builder_v2(head.logits_dimension, feature_columns,
                                                    sparse_combiner, features)
    if mode == ModeKeys.TRAIN and optimizer is None:
        optimizer = canned_checks._get_default_optimizer_v2(list(feature_columns))
    return head.create_estimator_spec(
        features=features, mode=mode, labels=labels, logits=logits,
        optimizer=_trained_by(mode, optimizer, LINEAR_LEARNING_RATE),
        trainable_variables=variables)


def _sdca_model_fn(features, labels, mode, head, feature_columns, optimizer):
    """The linear model trained by LinearSDCA `optimizer` (its SDCA step as the train op,
    canned/linear_sdca.py) through a binary-class or one-dimensional regression V2 `head`
    (`linear/linear_model/...`; a v1 head, whose model 2.15 named `linear_model/`, is a
    ValueError)."""
    from estimator_compat.canned.v1_heads import _Head as V1Head
    feature_columns = list(feature_columns)
    _check_v2_columns(feature_columns)
    if isinstance(head, V1Head):
        raise ValueError("_sdca_model_fn with a tf.compat.v1 head (tensorflow_estimator 2.15 "
                         "named that model `linear_model/`) is not served: give it a "
                         "tf.estimator.BinaryClassHead or RegressionHead, or use "
                         "tf.compat.v1.estimator.LinearClassifier with the LinearSDCA.")
    linear_sdca.check_sdca(optimizer, head, feature_columns, "sum")
    logits, _ = _linear_model_fn_builder_v2(1, feature_columns, "sum", features)
    train_op_fn = None
    if mode == ModeKeys.TRAIN:
        build = linear_sdca.train_op_builder(optimizer, head, feature_columns)
        train_op_fn = lambda loss: build(features, labels)  # noqa: E731
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      logits=logits, train_op_fn=train_op_fn)


# --- canned.dnn_linear_combined -------------------------------------------------------------
def _dnn_linear_combined_model_fn_v2(
        features, labels, mode, head, linear_feature_columns=None, linear_optimizer="Ftrl",
        dnn_feature_columns=None, dnn_optimizer="Adagrad", dnn_hidden_units=None,
        dnn_activation_fn=tf.nn.relu, dnn_dropout=None, config=None, batch_norm=False,
        linear_sparse_combiner="sum", loss_reduction=SUM_OVER_BATCH_SIZE):
    """tf.estimator.DNNLinearCombined*'s model_fn: the DNN's and the linear model's logits
    summed through `head`, each part trained by its optimizer (names: at 0.001 and
    min(0.005, 1/sqrt(number of linear columns))). `loss_reduction` is the head's."""
    canned_checks._validate_features(features)
    model_fn = dnn_linear_combined.combined_model_fn(
        head, linear_feature_columns, linear_optimizer, dnn_feature_columns, dnn_optimizer,
        dnn_hidden_units, dnn_activation_fn, dnn_dropout, batch_norm, linear_sparse_combiner)
    return model_fn(features, labels, mode, config)


def _init_dnn_linear_combined_estimator(head, linear_feature_columns, linear_optimizer,
                                        dnn_feature_columns, dnn_optimizer, dnn_hidden_units,
                                        dnn_activation_fn, dnn_dropout,
                                        input_layer_partitioner, linear_sparse_combiner):
    """(all feature columns, model_fn(features, labels, mode, config)) of
    tf.compat.v1.estimator.DNNLinearCombinedEstimator; ValueError without columns."""
    columns = canned_checks._validate_feature_columns(linear_feature_columns,
                                                      dnn_feature_columns)

    def _model_fn(features, labels, mode, config):
        return v1_model_fns._dnn_linear_combined_model_fn(
            features=features, labels=labels, mode=mode, head=head,
            linear_feature_columns=linear_feature_columns, linear_optimizer=linear_optimizer,
            dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
            dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
            dnn_dropout=dnn_dropout, input_layer_partitioner=input_layer_partitioner,
            config=config, linear_sparse_combiner=linear_sparse_combiner)
    return columns, _model_fn
