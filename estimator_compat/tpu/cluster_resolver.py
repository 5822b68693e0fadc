"""`TPUClusterResolver` as TF 1.x programs call it when they do not run on a TPU.

TF 1.15 took `TPUClusterResolver("")` (and 'local', 'grpc://...') as "no Cloud TPU": the
official TPU samples pass "" when `use_tpu` is off. TensorFlow 2 raises "Please provide a TPU
Name" for "" (and for None off Google Cloud). Here both resolve locally instead, unless the
environment names a TPU (TPU_NAME), in which case TensorFlow's own resolution runs.
"""
import os

import tensorflow as tf


class TPUClusterResolver(tf.distribute.cluster_resolver.TPUClusterResolver):
    """tf.distribute.cluster_resolver.TPUClusterResolver; '' / None off a TPU resolve locally."""

    def __init__(self, tpu=None, *args, **kwargs):
        if tpu in ("", None) and not os.environ.get("TPU_NAME"):
            tpu = "local"
        super().__init__(tpu, *args, **kwargs)
