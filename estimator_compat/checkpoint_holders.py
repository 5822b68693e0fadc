"""What tf.estimator 2.15 saved of its Keras optimizers in forms ours keep otherwise.

2.15 saved their hyperparameters (`learning_rate`, `decay`, `beta_1`, ...) and some slots in
forms ours keep differently (SGD's momentum, Nadam's momentum cache). To write what 2.15
reads, a save needs a variable holding each such value (`Holders`: one per checkpoint name,
made once outside any trace and assigned afresh at each save); a restore reads each of ours
back from 2.15's names through the optimizers that know them (`read_through`).
"""
import numpy as np
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


def read_through(optimizers, value_of, missing, reader, variables):
    """{our name: value} of the `missing` variables that `value_of(optimizer, name, reader)`
    finds under 2.15's names with the variable's own shape."""
    filled = {}
    for optimizer in optimizers:
        for name in missing:
            value = value_of(optimizer, name, reader)
            if value is not None and list(np.shape(value)) == variables[name].shape.as_list():
                filled[name] = value
    return filled
