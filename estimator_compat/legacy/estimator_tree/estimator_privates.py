"""tensorflow_estimator 2.15's `estimator` privates that Estimator-like classes of other
libraries called (imported_privates.py has the first ones): `_check_listeners_type`,
`_check_checkpoint_available`, `_dict_to_str`, `_write_checkpoint_path_to_summary`,
`_verify_and_create_loss_metric`, `_get_loss_reduce_op_for_reporting`,
`_assert_members_are_not_overridden`, `create_per_replica_ready_for_local_init_op` and
`_combine_distributed_scaffold` (the TF1 graph pieces of a model_fn run under a
tf.distribute strategy), with 2.15's results and errors."""
import tensorflow as tf

from estimator_compat.legacy.estimator_tree.reasons import instances_of

v1 = tf.compat.v1
LOSS_METRIC_KEY = "loss"
_ALLOWED_OVERRIDES = frozenset((
    "model_fn", "_create_and_assert_global_step", "_export_all_saved_models", "_tf_api_names",
    "_tf_api_names_v1", "_estimator_api_names", "_estimator_api_names_v1",
    "_estimator_api_constants", "_estimator_api_constants_v1", "latest_checkpoint"))


def _check_listeners_type(saving_listeners):
    """`saving_listeners` as a list, TypeError for one that is not a CheckpointSaverListener."""
    return instances_of(v1.train.CheckpointSaverListener, saving_listeners,
                        "saving_listeners must be a list of CheckpointSaverListener")


def _check_checkpoint_available(model_dir):
    """ValueError when `model_dir` holds no checkpoint."""
    if not tf.train.latest_checkpoint(model_dir):
        raise ValueError(f"Could not find trained model in model_dir: {model_dir}.")


def _dict_to_str(dictionary):
    """'k1 = v1, k2 = v2' in key order, bytes values left out (how evaluations were logged)."""
    return ", ".join(f"{k} = {v}" for k, v in sorted(dictionary.items())
                     if not isinstance(v, bytes))


def _write_checkpoint_path_to_summary(output_dir, checkpoint_path, current_global_step):
    """Writes `checkpoint_path` to `output_dir`'s events as the string tensor
    'checkpoint_path' at `current_global_step` (as Estimator.evaluate did)."""
    from estimator_compat import summaries
    from estimator_compat.eager_calls import eager
    v1.logging.info("Saving 'checkpoint_path' summary for global step %d: %s",
                    current_global_step, checkpoint_path)
    summary = v1.Summary()
    summary.value.add(tag="checkpoint_path",
                      tensor=tf.make_tensor_proto(checkpoint_path, dtype=tf.string))
    with eager():
        summaries.write_raw(output_dir, current_global_step, summary.SerializeToString())


def _verify_and_create_loss_metric(eval_metric_ops, loss, distribution=None):
    """Adds `tf.compat.v1.metrics.mean(loss)` (per replica under `distribution`) to
    `eval_metric_ops` as 'loss' and returns it; ValueError when it already has a 'loss'."""
    if LOSS_METRIC_KEY in eval_metric_ops:
        raise ValueError(f'Metric with name "{LOSS_METRIC_KEY}" is not allowed, because '
                         "Estimator already defines a default metric with the same name.")
    if distribution is None:
        metric = v1.metrics.mean(loss)
    else:
        metric = distribution.extended.call_for_each_replica(v1.metrics.mean, args=(loss,))
    eval_metric_ops[LOSS_METRIC_KEY] = metric
    return eval_metric_ops


def _get_loss_reduce_op_for_reporting():
    """How replicas' losses are combined for logging: the strategy's loss reduction when the
    default graph marks the loss as scaled by the optimizer, else SUM."""
    if getattr(v1.get_default_graph(), "_is_loss_scaled_by_optimizer", False):
        return v1.distribute.get_loss_reduction()
    return tf.distribute.ReduceOp.SUM


def _assert_members_are_not_overridden(cls, obj):
    """ValueError listing the members of `cls` that `obj`'s class overrides (TPUEstimator
    and a few hooks such as model_fn excepted)."""
    if type(obj).__name__ == "TPUEstimator":
        return
    members = {m for m in dir(cls) if not m.startswith("__")}
    common = members & set(type(obj).__dict__) - _ALLOWED_OVERRIDES
    overridden = [m for m in common if getattr(cls, m) != getattr(type(obj), m)]
    if overridden:
        raise ValueError("Subclasses of Estimator cannot override members of Estimator. "
                         f"{type(obj)} does override {overridden}")


def create_per_replica_ready_for_local_init_op(scaffold):
    """The scaffold's ready_for_local_init_op, else the graph's READY_FOR_LOCAL_INIT_OP
    collection's one op, else (added there) `report_uninitialized_variables` of the global
    variables."""
    if scaffold.ready_for_local_init_op:
        return scaffold.ready_for_local_init_op
    return v1.train.Scaffold.get_or_default(
        "ready_for_local_init_op", v1.GraphKeys.READY_FOR_LOCAL_INIT_OP,
        lambda: v1.report_uninitialized_variables(v1.global_variables()))


def _combine_distributed_scaffold(grouped_scaffold, distribution):
    """One Scaffold from the per-replica Scaffolds `call_for_each_replica` returned: the
    replicas' init / local_init / summary ops and feed dicts grouped, their ready ops
    concatenated, the first replica's saver and init_fn."""
    scaffolds = distribution.experimental_local_results(grouped_scaffold)

    def grouped(field):
        values = [getattr(s, field) for s in scaffolds if getattr(s, field) is not None]
        return distribution.group(values) if values else None

    def first(field):
        values = [getattr(s, field) for s in scaffolds if getattr(s, field) is not None]
        return values[0] if values else None

    def concatenated(per_replica):
        if per_replica is None:
            return None
        parts = tf.nest.flatten(distribution.experimental_local_results(per_replica))
        return parts[0] if len(parts) == 1 else tf.concat(parts, 0)

    ready_op = distribution.extended.call_for_each_replica(
        lambda scaffold: scaffold.ready_op, args=(grouped_scaffold,))
    ready_for_local_init_op = distribution.extended.call_for_each_replica(
        create_per_replica_ready_for_local_init_op, args=(grouped_scaffold,))
    return v1.train.Scaffold(
        init_op=grouped("init_op"), ready_op=concatenated(ready_op),
        ready_for_local_init_op=concatenated(ready_for_local_init_op),
        local_init_op=grouped("local_init_op"), summary_op=grouped("summary_op"),
        saver=first("saver"), init_feed_dict=grouped("init_feed_dict"),
        init_fn=first("_user_init_fn"))
