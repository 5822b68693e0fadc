"""`tf.contrib.data`: the tf.data transformations TF 1.x input_fns took from contrib."""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace


def build():
    return namespace("tensorflow.contrib.data", "tf.contrib.data",
                     map_and_batch=tf.data.experimental.map_and_batch,
                     parallel_interleave=tf.data.experimental.parallel_interleave)
