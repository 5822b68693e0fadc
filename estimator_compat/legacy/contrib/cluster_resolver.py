"""`tf.contrib.cluster_resolver`: the TPU cluster resolver TPUEstimator programs make."""
from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat.tpu.cluster_resolver import TPUClusterResolver
    return namespace("tensorflow.contrib.cluster_resolver", "tf.contrib.cluster_resolver",
                     TPUClusterResolver=TPUClusterResolver)
