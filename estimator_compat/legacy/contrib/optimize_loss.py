"""`tf.contrib.layers.optimize_loss`: minimize with an optimizer given by name, class or
instance, a learning-rate variable, optional decay and gradient clipping, and summaries."""
import tensorflow as tf

v1 = tf.compat.v1

OPTIMIZER_CLS_NAMES = {"Adagrad": v1.train.AdagradOptimizer, "Adam": v1.train.AdamOptimizer,
                       "Ftrl": v1.train.FtrlOptimizer, "Momentum": v1.train.MomentumOptimizer,
                       "RMSProp": v1.train.RMSPropOptimizer, "SGD": v1.train.GradientDescentOptimizer}
OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm",
                       "global_gradient_norm"]


def _make_optimizer(optimizer, lr):
    if isinstance(optimizer, str):
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of [{', '.join(OPTIMIZER_CLS_NAMES)}], "
                             f"you provided {optimizer}.")
        optimizer = OPTIMIZER_CLS_NAMES[optimizer]
    if isinstance(optimizer, v1.train.Optimizer):
        return optimizer
    if isinstance(optimizer, type) and issubclass(optimizer, v1.train.Optimizer):
        if lr is None:
            raise ValueError(f"Learning rate is None, but should be specified if optimizer is "
                             f"a class: {optimizer.__name__}")
        return optimizer(learning_rate=lr)
    if callable(optimizer):
        made = optimizer(lr) if lr is not None else optimizer()
        if not isinstance(made, v1.train.Optimizer):
            raise ValueError(f"Unrecognized optimizer: function should return a subclass of "
                             f"Optimizer. Got {made}.")
        return made
    raise ValueError(f"Unrecognized optimizer: should be a string, a subclass of Optimizer, an "
                     f"instance of one, or a function returning one; got {optimizer}.")


def optimize_loss(loss, global_step, learning_rate, optimizer, gradient_noise_scale=None,
                  gradient_multipliers=None, clip_gradients=None, learning_rate_decay_fn=None,
                  update_ops=None, variables=None, name=None, summaries=None,
                  colocate_gradients_with_ops=False, increment_global_step=True):
    """The train op: `loss` after the gradient update (a tensor, as contrib returned it)."""
    if gradient_noise_scale is not None:
        raise ValueError("optimize_loss: gradient_noise_scale is not supported by "
                         "estimator_compat; add noise to the gradients of compute_gradients().")
    if global_step is None:
        global_step = v1.train.get_global_step()
    summaries = OPTIMIZER_SUMMARIES if summaries is None else summaries
    with v1.variable_scope(name, "OptimizeLoss", [loss, global_step]):
        update_ops = set(v1.get_collection(v1.GraphKeys.UPDATE_OPS) if update_ops is None
                         else update_ops)
        if update_ops:
            with tf.control_dependencies(list(update_ops)):
                loss = tf.identity(loss)
        lr = None
        if learning_rate is not None:
            if isinstance(learning_rate, tf.Tensor):
                lr = learning_rate
            else:
                lr = v1.get_variable("learning_rate", [], trainable=False,
                                     initializer=v1.constant_initializer(learning_rate))
            if learning_rate_decay_fn is not None:
                lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                v1.summary.scalar("learning_rate", lr)
        if "loss" in summaries:
            v1.summary.scalar("loss", loss)
        opt = _make_optimizer(optimizer, lr)
        grads = opt.compute_gradients(loss, variables or v1.trainable_variables(),
                                      colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gradient_multipliers:
            grads = [(g * gradient_multipliers.get(v, gradient_multipliers.get(v.op.name, 1.0))
                      if g is not None else g, v) for g, v in grads]
        if clip_gradients is not None:
            if callable(clip_gradients):
                grads = clip_gradients(grads)
            else:
                clipped, _ = tf.clip_by_global_norm([g for g, _ in grads], clip_gradients)
                grads = list(zip(clipped, [v for _, v in grads]))
        if "global_gradient_norm" in summaries or "gradient_norm" in summaries:
            v1.summary.scalar("global_norm/gradient_norm",
                              tf.linalg.global_norm([g for g, _ in grads if g is not None]))
        update = opt.apply_gradients(grads, global_step=global_step if increment_global_step
                                     else None, name="train")
        with tf.control_dependencies([update]):
            return tf.identity(loss)
