"""A pruned inference graph: `strip_pruning_vars_fn` replaces each `.../masked_weight` node of
a frozen GraphDef by a constant of its value (mask * weights) and drops what no output needs
(the masks, the weights); `graph_def_from_checkpoint` freezes a checkpoint's graph."""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def _tensor_name(node_name):
    return node_name if ":" in node_name else node_name + ":0"


def _get_masked_weights(input_graph_def):
    """{node name: value} of the `masked_weight` nodes of a frozen graph."""
    with tf.Graph().as_default() as graph:
        tf.graph_util.import_graph_def(input_graph_def, name="")
        with v1.Session(graph=graph) as sess:
            values = {}
            for node in input_graph_def.node:
                if "masked_weight" in node.name:
                    value = sess.run(graph.get_tensor_by_name(_tensor_name(node.name)))
                    tf.get_logger().info(
                        "%s has %d values, %1.2f%% zeros \n", node.name, np.size(value),
                        100 - float(100 * np.count_nonzero(value)) / np.size(value))
                    values[node.name] = value
    return values


def strip_pruning_vars_fn(input_graph_def, output_node_names):
    """The frozen `input_graph_def` with its masked weights as constants and only what
    `output_node_names` need."""
    values = _get_masked_weights(input_graph_def)
    pruned = tf.compat.v1.GraphDef()
    for node in input_graph_def.node:
        out = pruned.node.add()
        if "masked_weight" in node.name:
            out.op = "Const"
            out.name = node.name
            out.attr["dtype"].CopyFrom(node.attr["T"])
            out.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(values[node.name]))
        else:
            out.CopyFrom(node)
    return v1.graph_util.extract_sub_graph(pruned, output_node_names)


def graph_def_from_checkpoint(checkpoint_dir, output_node_names):
    """The latest checkpoint of `checkpoint_dir`, its variables frozen into constants (its meta
    graph imported into the default graph)."""
    checkpoint_path = v1.train.latest_checkpoint(checkpoint_dir)
    if checkpoint_path is None:
        raise ValueError("Could not find a checkpoint at: {0}.".format(checkpoint_dir))
    saver = v1.train.import_meta_graph(checkpoint_path + ".meta", clear_devices=True)
    with v1.Session() as sess:
        saver.restore(sess, checkpoint_path)
        graph_def = v1.get_default_graph().as_graph_def()
        return v1.graph_util.convert_variables_to_constants(sess, graph_def, output_node_names)
