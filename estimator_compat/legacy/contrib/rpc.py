"""`tf.contrib.rpc`, served whole as declined names: TensorFlow 2 removed the Rpc / TryRpc ops
(gRPC calls from inside a graph), so `rpc` and `try_rpc` raise the error naming what to use
(`missing.REPLACEMENTS`)."""
from estimator_compat.legacy.namespaces import namespace


def build():
    return namespace("tensorflow.contrib.rpc", "tf.contrib.rpc (declined: no Rpc op in TF 2)",
                     __served_whole__=True)
