"""`canned.optimizers`: tf.estimator's optimizer getters. `get_optimizer_instance` gives a
tf.compat.v1 optimizer (a name needs a learning rate), `get_optimizer_instance_v2` a Keras one
(a name without a rate gets Keras' default, as tf.estimator 2.15's V2 estimators did)."""
import inspect

import keras
import tensorflow as tf

from estimator_compat.canned.optimizers import _BY_NAME, KERAS_DEFAULT_LEARNING_RATE, check_name

_KERAS_BY_NAME = {"Adagrad": keras.optimizers.Adagrad, "Adam": keras.optimizers.Adam,
                  "Ftrl": keras.optimizers.Ftrl, "RMSProp": keras.optimizers.RMSprop,
                  "SGD": keras.optimizers.SGD}


def get_optimizer_instance(opt, learning_rate=None):
    """A tf.compat.v1.train.Optimizer from a name (with `learning_rate`), an instance, or a
    callable returning one."""
    v1_optimizer = tf.compat.v1.train.Optimizer
    if isinstance(opt, str):
        check_name(opt)
        if learning_rate is None:
            raise ValueError("learning_rate must be specified when opt is string.")
        return _BY_NAME[opt](learning_rate=learning_rate)
    if callable(opt) and not isinstance(opt, v1_optimizer):
        opt = opt()
    if not isinstance(opt, v1_optimizer):
        raise ValueError(f"The given object is not an Optimizer instance. Given: {opt}")
    return opt


def get_optimizer_instance_v2(opt, learning_rate=None):
    """A Keras optimizer from a name (Keras' default rate without `learning_rate`), an
    instance, or a callable returning one."""
    if isinstance(opt, str):
        check_name(opt)
        rate = KERAS_DEFAULT_LEARNING_RATE[opt] if learning_rate is None else learning_rate
        return _KERAS_BY_NAME[opt](learning_rate=rate)
    if callable(opt) and not isinstance(opt, keras.optimizers.Optimizer):
        opt = opt()
    if not isinstance(opt, keras.optimizers.Optimizer):
        raise ValueError("The given object is not a tf.keras.optimizers.Optimizer instance. "
                         f"Given: {opt}")
    return opt


def has_default_learning_rate(opt):
    """Whether optimizer class `opt`'s constructor has a default `learning_rate`."""
    parameter = inspect.signature(opt.__init__).parameters.get("learning_rate")
    return parameter is not None and parameter.default is not inspect.Parameter.empty
