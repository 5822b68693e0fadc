"""`tf.contrib.input_pipeline`, served whole: `obtain_next`.

TF 1.15's `ObtainNext` kernel is gone; it advanced an int64 counter variable round robin,
`counter = (counter + 1) % len(list)`, and returned the list's element at the new counter.
The same is written here with an assign on the counter (ref or resource variable).
"""
import tensorflow as tf


def obtain_next(string_list_tensor, counter):
    """The element of `string_list_tensor` after the one `counter` points at (round robin);
    advances `counter`."""
    with tf.name_scope("ObtainNext"):
        strings = tf.convert_to_tensor(string_list_tensor)
        size = tf.cast(tf.size(strings), tf.int64)
        advanced = tf.compat.v1.assign(counter, tf.math.floormod(counter + 1, size))
        return tf.gather(tf.reshape(strings, [-1]), advanced)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.input_pipeline", __doc__, __served_whole__=True,
                     obtain_next=obtain_next)
