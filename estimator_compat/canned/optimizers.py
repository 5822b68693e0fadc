"""Canned estimators' `optimizer` argument: a name, an optimizer, or a callable returning one.

compat.v1 optimizers are used as they are; Keras ones are converted (keras_optimizers).
"""
import copy

import keras
import tensorflow as tf

from estimator_compat.canned.keras_optimizers import ClippedOptimizer, from_keras
from estimator_compat.canned.keras_slot_names import note

v1 = tf.compat.v1
_BY_NAME = {
    "Adagrad": v1.train.AdagradOptimizer, "Adam": v1.train.AdamOptimizer,
    "Ftrl": v1.train.FtrlOptimizer, "RMSProp": v1.train.RMSPropOptimizer,
    "SGD": v1.train.GradientDescentOptimizer,
}
# tf.estimator 2.15's V2 DNN estimators built a named optimizer with Keras' default rate
KERAS_DEFAULT_LEARNING_RATE = {"Adagrad": 0.001, "Adam": 0.001, "Ftrl": 0.001, "RMSProp": 0.001,
                               "SGD": 0.01}


def with_slot_scope(optimizer, scope):
    """A copy whose slots are named `<var>/<scope>/<Name>`: tf.compat.v1.estimator's DNN and
    linear models partitioned their variables (one part), so their slots were `.../t_0/Adagrad`
    and `.../part_0/Ftrl`; the same names let training continue from such a model_dir."""
    clone = copy.copy(optimizer)
    if isinstance(clone, ClippedOptimizer):
        clone._inner = with_slot_scope(clone._inner, scope)
    else:
        clone._name = f"{scope}/{clone._name}"
    return clone


def check_name(optimizer):
    """An unknown optimizer name fails when the estimator is built, not at its first step."""
    if isinstance(optimizer, str) and optimizer not in _BY_NAME:
        raise ValueError(f"Unsupported optimizer name: {optimizer}. Supported names are: "
                         f"{tuple(sorted(_BY_NAME))}")


def _call(make_optimizer):
    """Calls the user's optimizer factory inside model_fn, as tf.estimator did; a Keras
    optimizer (whose constructor makes variables from tensors) is then made outside the trace."""
    try:
        return make_optimizer()
    except ValueError as e:
        if "could not be lifted out of a `tf.function`" not in str(e):
            raise
    with tf.init_scope():
        return make_optimizer()


def get_optimizer(optimizer, learning_rate):
    """A compat.v1 optimizer from tf.estimator's accepted forms.

    A name ('Adagrad', 'Adam', 'Ftrl', 'RMSProp', 'SGD') with the canned estimator's default
    `learning_rate` (None: Keras' default for that optimizer); a tf.compat.v1.train.Optimizer;
    a Keras optimizer; or a callable returning one of these (called inside model_fn, so it may
    use the global step). The ones made from a name or a Keras optimizer are noted for the V2
    classes' checkpoint names (keras_slot_names), as 2.15 trained those with Keras optimizers.
    """
    if isinstance(optimizer, str):
        check_name(optimizer)
        if learning_rate is None:
            learning_rate = KERAS_DEFAULT_LEARNING_RATE[optimizer]
        return note(_BY_NAME[optimizer](learning_rate=learning_rate))
    if callable(optimizer) and not isinstance(optimizer, (v1.train.Optimizer,
                                                          keras.optimizers.Optimizer)):
        optimizer = _call(optimizer)
    if isinstance(optimizer, keras.optimizers.Optimizer):
        return note(from_keras(optimizer))
    if not isinstance(optimizer, v1.train.Optimizer):
        raise ValueError("The given object is not an Optimizer instance (a Keras optimizer, a "
                         "tf.compat.v1.train.Optimizer, a name such as 'Adagrad', or a callable "
                         f"returning one). Given: {optimizer!r}")
    return optimizer
