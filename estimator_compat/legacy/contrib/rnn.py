"""`tf.contrib.rnn`: the TF1 cells of `legacy/rnn_cells.py` and the static RNN functions."""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat.legacy import rnn_cells
    return namespace("tensorflow.contrib.rnn", "tf.contrib.rnn (the TF1 cells)",
                     **rnn_cells.CLASSES, static_rnn=tf.compat.v1.nn.static_rnn,
                     static_bidirectional_rnn=tf.compat.v1.nn.static_bidirectional_rnn)
