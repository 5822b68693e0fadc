"""tf.contrib.estimator's `dnn_logit_fn_builder` / `linear_logit_fn_builder`: TF 1.15's logit
fns made their layers in the caller's variable scope (`<scope>/hiddenlayer_0/kernel`,
`<scope>/linear_model/x/weights`), where estimator_compat's (tf.compat.v1.estimator.
experimental's) open their model's own `dnn` / `linear` scope. These call those, with the
variables named without that scope. `call_logit_fn` is the same function."""
import tensorflow as tf

from estimator_compat.canned import logit_fns

v1 = tf.compat.v1
call_logit_fn = logit_fns.call_logit_fn


def _without_scope(model_scope, fn):
    """`fn()` with variables `<current scope>/<model_scope>/x` named `<current scope>/x`."""
    outer = v1.get_variable_scope().name
    inner = f"{outer}/{model_scope}/" if outer else f"{model_scope}/"
    keep = f"{outer}/" if outer else ""

    def getter(getter, name, *args, **kwargs):
        if name.startswith(inner):
            name = keep + name[len(inner):]
        return getter(name, *args, **kwargs)
    with v1.variable_scope(v1.get_variable_scope(), custom_getter=getter,
                           auxiliary_name_scope=False):
        return fn()


def dnn_logit_fn_builder(units, hidden_units, feature_columns, activation_fn, dropout,
                         input_layer_partitioner, batch_norm):
    """A `dnn_logit_fn(features, mode)`: hidden layers `hiddenlayer_N` and `logits` in the
    caller's variable scope."""
    built = logit_fns.dnn_logit_fn_builder(units, hidden_units, feature_columns,
                                           activation_fn, dropout, input_layer_partitioner,
                                           batch_norm)

    def dnn_logit_fn(features, mode):
        return _without_scope("dnn", lambda: built(features, mode))
    return dnn_logit_fn


def linear_logit_fn_builder(units, feature_columns, sparse_combiner="sum"):
    """A `linear_logit_fn(features)`: `linear_model/<column>/weights` and
    `linear_model/bias_weights` in the caller's variable scope."""
    built = logit_fns.linear_logit_fn_builder(units, feature_columns, sparse_combiner)

    def linear_logit_fn(features):
        return _without_scope("linear", lambda: built(features))
    return linear_logit_fn
