"""`tf.contrib.remote_fused_graph`, served whole as a declined name: the
RemoteFusedGraphExecute op (a subgraph run on a Hexagon DSP) is gone from TensorFlow 2, so
`remote_fused_graph_execute` raises the error naming what to use (`missing.REPLACEMENTS`)."""
from estimator_compat.legacy.namespaces import namespace


def build():
    return namespace("tensorflow.contrib.remote_fused_graph",
                     "tf.contrib.remote_fused_graph (declined: no Hexagon execution op)",
                     __served_whole__=True)
