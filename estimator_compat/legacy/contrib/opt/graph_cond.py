"""TF1's control flow for the conditionals these optimizers build in a TF1 session graph.

TensorFlow 2's `cond` is functional: a TF1 reference variable it captures is read once, outside
the branch, as a value, so a branch cannot update it (the kernels want the reference) and
`ExponentialMovingAverage`'s "initialized yet?" read happens unconditionally. In a plain
(non-function) graph, the conditionals are built with TF1's Switch/Merge control flow, as TF 1.15
built them; inside a `tf.function` (the Estimator's model_fn, resource variables) nothing
changes.
"""
import contextlib

import tensorflow as tf


@contextlib.contextmanager
def tf1_control_flow():
    """Within: tf.compat.v1.cond builds TF1 control flow, where the graph is not a function's."""
    graph = tf.compat.v1.get_default_graph()
    if tf.executing_eagerly() or getattr(graph, "building_function", False) or \
            not tf.compat.v1.control_flow_v2_enabled():
        yield
        return
    tf.compat.v1.disable_control_flow_v2()
    try:
        yield
    finally:
        tf.compat.v1.enable_control_flow_v2()
