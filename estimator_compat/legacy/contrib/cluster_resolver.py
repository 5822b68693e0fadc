"""`tf.contrib.cluster_resolver`: the cluster resolvers, now `tf.distribute.cluster_resolver`.

TF 1.15's names map onto TensorFlow 2's classes, with two differences kept as TF 1.15 had them:
`TPUClusterResolver("")` means "no Cloud TPU" (`estimator_compat.tpu.cluster_resolver`), and
`SlurmClusterResolver` requires `jobs` and assumes one GPU per node and per task (TensorFlow 2
made `jobs` optional and detects GPUs with nvidia-smi). `UnionClusterResolver` is TensorFlow
2's `UnionResolver`. Also under the deep path `tensorflow.contrib.cluster_resolver.python.
training` (where TF 1.x code imported them from).
"""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

_resolvers = tf.distribute.cluster_resolver


class SlurmClusterResolver(_resolvers.SlurmClusterResolver):
    """TF 1.15's signature: `jobs` required, one GPU per node and per task by default."""

    def __init__(self, jobs, port_base=8888, gpus_per_node=1, gpus_per_task=1,
                 tasks_per_node=None, auto_set_gpu=True, rpc_layer="grpc"):
        if not isinstance(jobs, dict) or not jobs:
            raise ValueError("SlurmClusterResolver(jobs=...) takes a dict of job name to task "
                             f"count, e.g. {{'ps': 1, 'worker': 2}}; given {jobs!r}")
        super().__init__(jobs=jobs, port_base=port_base, gpus_per_node=gpus_per_node,
                         gpus_per_task=gpus_per_task, tasks_per_node=tasks_per_node,
                         auto_set_gpu=auto_set_gpu, rpc_layer=rpc_layer)


def build():
    from estimator_compat.tpu.cluster_resolver import TPUClusterResolver
    names = dict(ClusterResolver=_resolvers.ClusterResolver,
                 GCEClusterResolver=_resolvers.GCEClusterResolver,
                 KubernetesClusterResolver=_resolvers.KubernetesClusterResolver,
                 SimpleClusterResolver=_resolvers.SimpleClusterResolver,
                 SlurmClusterResolver=SlurmClusterResolver,
                 TFConfigClusterResolver=_resolvers.TFConfigClusterResolver,
                 TPUClusterResolver=TPUClusterResolver,
                 UnionClusterResolver=_resolvers.UnionResolver)
    training = namespace("tensorflow.contrib.cluster_resolver.python.training",
                         "tf.contrib.cluster_resolver's resolvers", **names)
    python = namespace("tensorflow.contrib.cluster_resolver.python",
                       "tf.contrib.cluster_resolver", training=training)
    return namespace("tensorflow.contrib.cluster_resolver", "tf.contrib.cluster_resolver",
                     __served_whole__=True, python=python, **names)
