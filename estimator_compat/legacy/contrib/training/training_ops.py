"""tf.contrib.training's training helpers (`...contrib.training.python.training.training`):
`create_train_op` (a loss tensor that, when run, computes and applies the gradients),
the gradient transforms `add_gradients_summaries`, `clip_gradient_norms(_fn)`,
`multiply_gradients`, and `train` (a MonitoredTrainingSession loop). TF1 graph ops.
"""
import logging

import tensorflow as tf

logger = logging.getLogger("tensorflow")
v1 = tf.compat.v1
_USE_GLOBAL_STEP = 0


def _values(grad):
    return grad.values if isinstance(grad, tf.IndexedSlices) else grad


def add_gradients_summaries(grads_and_vars):
    """A histogram `<var>_gradient` and a scalar `<var>_gradient_norm` per gradient; returns
    the summary ops."""
    summaries = []
    for grad, var in grads_and_vars:
        if grad is None:
            logger.info("Var %s has no gradient", var.op.name)
            continue
        values = _values(grad)
        summaries.append(v1.summary.histogram(var.op.name + "_gradient", values))
        summaries.append(v1.summary.scalar(var.op.name + "_gradient_norm",
                                           tf.linalg.global_norm([values])))
    return summaries


def clip_gradient_norms(gradients_to_variables, max_norm):
    """Each gradient clipped to L2 norm `max_norm` (IndexedSlices: their values)."""
    clipped = []
    for grad, var in gradients_to_variables:
        if grad is not None:
            if isinstance(grad, tf.IndexedSlices):
                grad = tf.IndexedSlices(tf.clip_by_norm(grad.values, max_norm), grad.indices,
                                        grad.dense_shape)
            else:
                grad = tf.clip_by_norm(grad, max_norm)
        clipped.append((grad, var))
    return clipped


def clip_gradient_norms_fn(max_norm):
    """A `transform_grads_fn` for create_train_op: clip_gradient_norms at `max_norm`."""
    return lambda gradients_to_variables: clip_gradient_norms(gradients_to_variables, max_norm)


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """Gradients scaled by `gradient_multipliers` ({variable or its op name: factor})."""
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list of (gradient, variable) pairs.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty: give {variable: multiplier}.")
    multiplied = []
    for grad, var in grads_and_vars:
        key = var if var in gradient_multipliers else var.op.name
        if key in gradient_multipliers and grad is not None:
            multiplier = tf.constant(gradient_multipliers[key], dtype=_values(grad).dtype)
            if isinstance(grad, tf.IndexedSlices):
                grad = tf.IndexedSlices(grad.values * multiplier, grad.indices,
                                        grad.dense_shape)
            else:
                grad *= multiplier
        multiplied.append((grad, var))
    return multiplied


def create_train_op(total_loss, optimizer, global_step=_USE_GLOBAL_STEP, update_ops=None,
                    variables_to_train=None, transform_grads_fn=None, summarize_gradients=False,
                    gate_gradients=v1.train.Optimizer.GATE_OP, aggregation_method=None,
                    colocate_gradients_with_ops=False, check_numerics=True):
    """The loss as a tensor that, when evaluated, first runs `update_ops` (default: the
    UPDATE_OPS collection), then computes the gradients of `variables_to_train` (default: all
    trainable), transforms them (`transform_grads_fn`) and applies them, advancing
    `global_step` (default: the graph's, created if needed; None: no step). Added to the
    TRAIN_OP collection."""
    if global_step is _USE_GLOBAL_STEP:
        global_step = v1.train.get_or_create_global_step()
    all_update_ops = set(v1.get_collection(v1.GraphKeys.UPDATE_OPS))
    update_ops = all_update_ops if update_ops is None else set(update_ops)
    if not all_update_ops.issubset(update_ops):
        logger.warning("update_ops in create_train_op does not contain all the update_ops in "
                       "GraphKeys.UPDATE_OPS")
    if update_ops:
        with tf.control_dependencies(sorted(update_ops, key=lambda op: op.name)):
            barrier = tf.no_op(name="update_barrier")
        total_loss = _with_dependencies([barrier], total_loss)
    if variables_to_train is None:
        variables_to_train = v1.trainable_variables()
    else:
        trainable = set(v1.trainable_variables())
        for var in variables_to_train:
            if var not in trainable:
                raise ValueError(f"variables_to_train holds {var.op.name}, which is not "
                                 "trainable (not in the TRAINABLE_VARIABLES collection).")
    if not variables_to_train:
        raise ValueError("create_train_op: no variables to train (no trainable variables).")
    grads = optimizer.compute_gradients(
        total_loss, variables_to_train, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if transform_grads_fn:
        grads = transform_grads_fn(grads)
    if summarize_gradients:
        with tf.name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    with tf.name_scope("train_op"):
        if check_numerics:
            total_loss = tf.debugging.check_numerics(total_loss, "LossTensor is inf or nan")
        train_op = _with_dependencies([grad_updates], total_loss)
    train_ops = v1.get_collection_ref(v1.GraphKeys.TRAIN_OP)
    if train_op not in train_ops:
        train_ops.append(train_op)
    return train_op


def _with_dependencies(dependencies, tensor):
    """`tensor` through an identity that runs after `dependencies` (TF1's
    control_flow_ops.with_dependencies)."""
    with tf.name_scope("control_dependency") as name:
        with tf.control_dependencies(dependencies):
            return tf.identity(tensor, name=name)


def train(train_op, logdir, master="", is_chief=True, scaffold=None, hooks=None,
          chief_only_hooks=None, save_checkpoint_secs=600, save_summaries_steps=100,
          config=None, max_wait_secs=7200, run_metadata=None):
    """Runs `train_op` in a MonitoredTrainingSession (checkpoints and summaries in `logdir`)
    until a hook stops it; returns the last value of `train_op`."""
    if logdir is None and is_chief:
        if save_summaries_steps:
            raise ValueError("logdir cannot be None when save_summaries_steps is not None")
        if save_checkpoint_secs:
            raise ValueError("logdir cannot be None when save_checkpoint_secs is not None")
    with v1.train.MonitoredTrainingSession(
            master=master, is_chief=is_chief, checkpoint_dir=logdir, scaffold=scaffold,
            hooks=hooks, chief_only_hooks=chief_only_hooks,
            save_checkpoint_secs=save_checkpoint_secs,
            save_summaries_steps=save_summaries_steps, config=config,
            max_wait_secs=max_wait_secs) as session:
        loss = None
        while not session.should_stop():
            loss = session.run(train_op, run_metadata=run_metadata)
    return loss
