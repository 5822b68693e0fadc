"""Private helpers of tensorflow_estimator 2.15 that public code imported by name (found with
code search: TPU samples, Cloud ML samples, yarn / Determined launchers, copies of the canned
models), served with 2.15's signatures and behaviour:

- `estimator._check_hooks_type`, `estimator._get_default_warm_start_settings`,
  `estimator._verify_model_fn_args` (`model_fn.verify_model_fn_args`),
  `estimator._get_replica_device_setter`, `estimator._write_dict_to_summary`,
  `estimator._extract_metric_update_ops`, `estimator._has_dataset_or_queue_runner`;
- `early_stopping._get_or_create_stop_var`;
- `training._assert_eval_spec`, `training._EvalStatus`, `training._is_google_env`;
- `canned.dnn._add_hidden_layer_summary` / `canned.dnn_linear_combined._add_layer_summary`
  (`<tag>/fraction_of_zero_values`, `<tag>/activation`), `canned.dnn._name_from_scope_name`;
- `canned.dnn_linear_combined._linear_learning_rate`, `_check_no_sync_replicas_optimizer`;
- `canned.linear._compute_fraction_of_zero`, `_get_expanded_variable_list`,
  `_get_default_optimizer`.
The canned model_fns (`_dnn_model_fn`, ...) are canned/v1_model_fns.py.
"""
import math
import os

import tensorflow as tf

from estimator_compat.legacy.estimator_tree.reasons import instances_of

v1 = tf.compat.v1
LINEAR_LEARNING_RATE = 0.2  # canned.linear's rate for its default Ftrl
COMBINED_LINEAR_LEARNING_RATE = 0.005  # canned.dnn_linear_combined's linear part


def _check_hooks_type(hooks):
    """`hooks` as a list, each checked to be a SessionRunHook (TypeError otherwise)."""
    return instances_of(v1.train.SessionRunHook, hooks, "Hooks must be a SessionRunHook")


def _get_default_warm_start_settings(warm_start_from):
    """WarmStartSettings for an Estimator's `warm_start_from`: None stays None; a string (a
    checkpoint, a model_dir, or a SavedModel dir, whose variables are then read) warm-starts
    every trainable variable; WarmStartSettings come back as given."""
    from estimator_compat.warm_start import WarmStartSettings
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes)):
        path = tf.compat.as_text(warm_start_from)
        variables = os.path.join(path, "variables")
        if tf.io.gfile.exists(os.path.join(variables, "variables.index")):
            tf.compat.v1.logging.info("Warm-starting from a SavedModel")
            return WarmStartSettings(ckpt_to_initialize_from=os.path.join(variables,
                                                                          "variables"))
        return WarmStartSettings(ckpt_to_initialize_from=path)
    if isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    raise ValueError("warm_start_from must be a string or a WarmStartSettings, instead got "
                     f"{type(warm_start_from)}")


def _assert_eval_spec(eval_spec):
    """TypeError unless `eval_spec` is a tf.estimator.EvalSpec."""
    from estimator_compat.training import EvalSpec
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `tf.estimator.EvalSpec`. Got: "
                        f"{type(eval_spec)}")


class _EvalStatus:
    """What one continuous-evaluation round found (train_and_evaluate's evaluator loop)."""
    EVALUATED = "evaluated"
    MISSING_CHECKPOINT = "missing checkpoint"
    NO_NEW_CHECKPOINT = "no new checkpoint"


def _is_google_env():
    """Whether TF_CONFIG names Google's internal environment ('google'): never elsewhere."""
    import json
    config = json.loads(os.environ.get("TF_CONFIG") or "{}")
    return config.get("environment") == "google"


def _add_hidden_layer_summary(value, tag):
    """Summaries of a layer's output: scalar `<tag>/fraction_of_zero_values`, histogram
    `<tag>/activation`."""
    from estimator_compat.canned.summaries import layer_summary
    layer_summary(tag, value)


def _name_from_scope_name(name):
    """`name` less one trailing '/' (a name scope's name as a plain name)."""
    return name[:-1] if (name and name[-1] == "/") else name


def _linear_learning_rate(num_linear_feature_columns):
    """The combined model's linear learning rate: min(0.005, 1/sqrt(number of columns))."""
    return min(COMBINED_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(num_linear_feature_columns))


def _check_no_sync_replicas_optimizer(optimizer):
    """ValueError for a SyncReplicasOptimizer, which wide & deep's two optimizers cannot
    share."""
    if isinstance(optimizer, v1.train.SyncReplicasOptimizer):
        raise ValueError("SyncReplicasOptimizer does not support multi optimizers case. "
                         "Therefore, it is not supported in DNNLinearCombined model. If you "
                         "want to use this optimizer, please use either DNN or Linear model.")


def _get_expanded_variable_list(var_list):
    """`var_list` with each PartitionedVariable replaced by its parts."""
    out = []
    for variable in var_list:
        if isinstance(variable, tf.compat.v1.Variable) or \
                not hasattr(variable, "_get_variable_list"):
            out.append(variable)
        else:
            out.extend(list(variable))
    return out


def _compute_fraction_of_zero(variables):
    """The fraction of zero entries over all `variables` (a list, or a list of lists; a
    PartitionedVariable counts its parts)."""
    flat = []
    for item in variables:
        flat.extend(item if isinstance(item, (list, tuple)) else [item])
    flat = _get_expanded_variable_list(flat)
    if not flat:
        return tf.constant(0.0)
    sizes = [tf.cast(tf.size(v), tf.float32) for v in flat]
    zeros = tf.add_n([tf.math.zero_fraction(v) * s for v, s in zip(flat, sizes)])
    return zeros / tf.add_n(sizes)


def _get_default_optimizer(feature_columns):
    """canned.linear's default: Ftrl at min(0.2, 1/sqrt(number of feature columns))."""
    rate = min(LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns)))
    return v1.train.FtrlOptimizer(learning_rate=rate)


def _verify_model_fn_args(model_fn, params):
    """`estimator._verify_model_fn_args` / `model_fn.verify_model_fn_args`: ValueError unless
    model_fn takes `features`, takes `params` when params are given, and takes nothing but
    (features, labels, mode, params, config) (the check Estimator-like classes of NPU, IPU
    and TPU vendors ran in their constructors)."""
    from estimator_compat.engine.model_fn_call import verify_model_fn
    verify_model_fn(model_fn, params)


def _get_replica_device_setter(config):
    """The device function placing variables on the `ps` tasks of `config`'s cluster
    (round-robin, worker ops on this task), or None without parameter servers."""
    from tensorflow.python.training import device_setter
    if config.task_type:
        worker_device = f"/job:{config.task_type}/task:{config.task_id}"
    else:
        worker_device = "/job:worker"
    if config.num_ps_replicas > 0:
        return v1.train.replica_device_setter(
            ps_tasks=config.num_ps_replicas, worker_device=worker_device, merge_devices=True,
            ps_ops=list(device_setter.STANDARD_PS_OPS), cluster=config.cluster_spec)
    return None


def _write_dict_to_summary(output_dir, dictionary, current_global_step):
    """Writes an evaluation's results to `output_dir`'s event file at `current_global_step`,
    as Estimator.evaluate did (early-stopping tests wrote their fake evaluations with it):
    numbers (bool, int, float, numpy scalars) as `simple_value`, numpy arrays as tensors, a
    serialized Summary's values as `<key>/<i>`; 'global_step' and anything else skipped with
    a warning. Unlike 2.15, the default graph is not written there too."""
    import numpy as np

    from estimator_compat import summaries
    from estimator_compat.eager_calls import eager
    from estimator_compat.engine import session_log
    session_log.results_saved(current_global_step, dictionary)
    summary = v1.Summary()
    for key, value in dictionary.items():
        if key == "global_step":
            continue
        if isinstance(value, (np.float32, float, np.int64, np.int32, int)):
            summary.value.add(tag=key, simple_value=float(value))
        elif isinstance(value, bytes):
            try:
                parsed = v1.Summary.FromString(value)
            except Exception:  # noqa: BLE001 - any unparsable string is skipped, as in 2.15
                tf.compat.v1.logging.warn(
                    "Skipping summary for %s, cannot parse string to Summary.", key)
                continue
            for i, item in enumerate(parsed.value):
                item.tag = f"{key}/{i}"
            summary.value.extend(parsed.value)
        elif isinstance(value, np.ndarray):
            summary.value.add(tag=key, tensor=tf.make_tensor_proto(value))
        else:
            tf.compat.v1.logging.warn(
                "Skipping summary for %s, must be a float, np.float32, np.int64, np.int32 or "
                "int or np.ndarray or a serialized string of Summary.", key)
    with eager():
        summaries.write_raw(output_dir, current_global_step, summary.SerializeToString())


def _extract_metric_update_ops(eval_dict, distribution=None):
    """(one op grouping every metric's update op, or None; {name: value tensor}) from
    `eval_dict` {name: (value, update_op)}, names in sorted order (custom Estimator loops
    built their evaluation with it). With a tf.distribute `distribution`, each update op is
    grouped through it."""
    update_ops, value_ops = [], {}
    for name, (value, update) in sorted(eval_dict.items()):
        value_ops[name] = value
        update_ops.append(distribution.group(update) if distribution else update)
    return (tf.group(*update_ops) if update_ops else None), value_ops


def _has_dataset_or_queue_runner(maybe_tensor):
    """True where a tensor of `maybe_tensor` (a nest) is read from a tf.data iterator
    (IteratorGetNext); else the default graph's queue runners (a list, empty: falsy)."""
    if any(getattr(getattr(t, "op", None), "type", None) == "IteratorGetNext"
           for t in tf.nest.flatten(maybe_tensor)):
        return True
    return v1.get_default_graph().get_collection(v1.GraphKeys.QUEUE_RUNNERS)


def _get_or_create_stop_var():
    """The early-stopping signal `signal_early_stopping/STOP`: a non-trainable bool scalar,
    False at first, in GLOBAL_VARIABLES only, made once per graph (programs created it so that
    their own init op covered it)."""
    with v1.variable_scope("signal_early_stopping", values=[], reuse=v1.AUTO_REUSE):
        return v1.get_variable("STOP", shape=[], dtype=tf.bool,
                               initializer=v1.constant_initializer(False),
                               collections=[v1.GraphKeys.GLOBAL_VARIABLES], trainable=False)
