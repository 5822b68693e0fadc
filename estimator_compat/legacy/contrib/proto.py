"""`tf.contrib.proto`, served whole: TF 1.15's decode_proto / encode_proto were the ops that
TensorFlow 2 still has as tf.io.decode_proto / tf.io.encode_proto."""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace


def build():
    return namespace("tensorflow.contrib.proto", "tf.contrib.proto", __served_whole__=True,
                     decode_proto=tf.io.decode_proto, encode_proto=tf.io.encode_proto)
