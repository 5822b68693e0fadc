"""`tf.contrib.util`: tensor protos and graph-def op lists, which TensorFlow 2 keeps as
`tf.make_ndarray`, `tf.make_tensor_proto`, `tf.get_static_value` and its meta-graph helpers;
`util.loader.load_op_library` is `tf.load_op_library`."""
import tensorflow as tf
from tensorflow.python.framework import meta_graph

from estimator_compat.legacy.namespaces import namespace


def build():
    loader = namespace("tensorflow.contrib.util.loader", "tf.contrib.util.loader",
                       load_op_library=tf.load_op_library)
    return namespace("tensorflow.contrib.util", __doc__, __served_whole__=True,
                     constant_value=tf.get_static_value, make_ndarray=tf.make_ndarray,
                     make_tensor_proto=tf.make_tensor_proto,
                     ops_used_by_graph_def=meta_graph.ops_used_by_graph_def,
                     stripped_op_list_for_graph=meta_graph.stripped_op_list_for_graph,
                     loader=loader)
