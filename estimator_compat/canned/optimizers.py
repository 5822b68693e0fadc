"""Canned estimators' `optimizer` argument: a name, an optimizer, or a callable returning one."""
import tensorflow as tf

v1 = tf.compat.v1
_BY_NAME = {
    "Adagrad": v1.train.AdagradOptimizer, "Adam": v1.train.AdamOptimizer,
    "Ftrl": v1.train.FtrlOptimizer, "RMSProp": v1.train.RMSPropOptimizer,
    "SGD": v1.train.GradientDescentOptimizer,
}


def get_optimizer(optimizer, learning_rate):
    """A compat.v1 optimizer from tf.estimator's accepted forms."""
    if isinstance(optimizer, str):
        if optimizer not in _BY_NAME:
            raise ValueError(f"Unsupported optimizer name: {optimizer}. Supported names are: "
                             f"{tuple(sorted(_BY_NAME))}")
        return _BY_NAME[optimizer](learning_rate=learning_rate)
    if callable(optimizer) and not isinstance(optimizer, (v1.train.Optimizer,)):
        optimizer = optimizer()
    if not isinstance(optimizer, v1.train.Optimizer):
        raise ValueError("The given optimizer is not a tf.compat.v1.train.Optimizer instance "
                         f"(nor a name or a callable returning one): {optimizer!r}")
    return optimizer
