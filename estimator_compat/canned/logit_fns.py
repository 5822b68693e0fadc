"""tf.estimator.experimental.call_logit_fn and tf.compat.v1.estimator.experimental's
dnn_logit_fn_builder / linear_logit_fn_builder: the canned models' logits for a custom
model_fn (a head then makes the EstimatorSpec).

As in tf.estimator 2.15 (and TF 1.15's tf.contrib.estimator), these make their layers in the
caller's variable scope (`hiddenlayer_0/kernel`, `linear_model/x/weights`), where the canned
estimators open their model's `dnn` / `linear` scope; only tensorflow_estimator's private
`dnn_logit_fn_builder_v2` kept `dnn/`."""
import tensorflow as tf

from estimator_compat.canned.base import check_columns
from estimator_compat.canned.dnn import check_hidden_units, dnn_logits
from estimator_compat.canned.linear import check_sparse_combiner, linear_logits
from estimator_compat.fn_args import accepted_kwargs, fn_args


def call_logit_fn(logit_fn, features, mode, params, config):
    """Calls logit_fn with the arguments it takes of (features, mode, params, config)."""
    if "features" not in fn_args(logit_fn):
        raise ValueError(f"logit_fn should have a features argument; it has "
                         f"{tuple(fn_args(logit_fn))}.")
    logits = logit_fn(**accepted_kwargs(logit_fn, features=features, mode=mode, params=params,
                                        config=config))
    ok = isinstance(logits, tf.Tensor) or (
        isinstance(logits, dict) and all(isinstance(k, str) and isinstance(v, tf.Tensor)
                                         for k, v in logits.items()))
    if not ok:
        raise ValueError("logit_fn should return a Tensor or a dictionary mapping strings to "
                         f"Tensors.  logit_fn returned: {logits}")
    return logits


def _without_scope(model_scope, fn):
    """`fn()` with variables `<current scope>/<model_scope>/x` named `<current scope>/x`."""
    outer = tf.compat.v1.get_variable_scope().name
    inner = f"{outer}/{model_scope}/" if outer else f"{model_scope}/"
    keep = f"{outer}/" if outer else ""

    def getter(getter, name, *args, **kwargs):
        if name.startswith(inner):
            name = keep + name[len(inner):]
        return getter(name, *args, **kwargs)
    with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(), custom_getter=getter,
                                     auxiliary_name_scope=False):
        return fn()


def dnn_logit_fn_builder_v2(units, hidden_units, feature_columns, activation_fn, dropout,
                            batch_norm=False):
    """A `dnn_logit_fn(features, mode)` with DNNClassifier's layers and variable names
    (`dnn/hiddenlayer_0/kernel`)."""
    if not isinstance(units, int):
        raise ValueError(f"units must be an int.  Given type: {type(units)}")
    feature_columns = check_columns(feature_columns)
    hidden_units = check_hidden_units(hidden_units)

    def dnn_logit_fn(features, mode):
        return dnn_logits(features, mode, feature_columns, hidden_units, units, activation_fn,
                          dropout, batch_norm)
    return dnn_logit_fn


def dnn_logit_fn_builder(units, hidden_units, feature_columns, activation_fn, dropout,
                         input_layer_partitioner=None, batch_norm=False):
    """A `dnn_logit_fn(features, mode)`: hidden layers `hiddenlayer_N` and `logits` in the
    caller's variable scope."""
    built = dnn_logit_fn_builder_v2(units, hidden_units, feature_columns, activation_fn,
                                    dropout, batch_norm)

    def dnn_logit_fn(features, mode):
        return _without_scope("dnn", lambda: built(features, mode))
    return dnn_logit_fn


def linear_logit_fn_builder(units, feature_columns, sparse_combiner="sum"):
    """A `linear_logit_fn(features)`: `linear_model/<column>/weights` and
    `linear_model/bias_weights` in the caller's variable scope."""
    feature_columns = check_columns(feature_columns)
    check_sparse_combiner(sparse_combiner)

    def linear_logit_fn(features):
        return _without_scope("linear", lambda: linear_logits(features, feature_columns, units,
                                                              sparse_combiner))
    return linear_logit_fn
