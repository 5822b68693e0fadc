"""Eager variables that stand in a checkpoint for values that are no variable here.

tf.estimator 2.15 saved its Keras optimizers' hyperparameters (`learning_rate`, `decay`,
`beta_1`, ...) and some slots in forms ours keep differently (SGD's momentum, Nadam's
momentum cache). To write what 2.15 reads, a save needs a variable holding each such value:
one per checkpoint name, made once (outside any trace) and assigned afresh at each save.
"""
import tensorflow as tf


class Holders:
    """`holders(name, value, dtype)`: the variable written under `name`, now holding
    `value`."""

    def __init__(self):
        self._held = {}

    def __call__(self, name, value, dtype=tf.float32):
        with tf.init_scope():
            if name not in self._held:
                self._held[name] = tf.Variable(value, dtype=dtype, trainable=False,
                                               name="keras_name_holder")
            else:
                self._held[name].assign(value)
        return self._held[name]
