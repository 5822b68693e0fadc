"""`tf.contrib.training`: HParams, also under its deep path `...training.python.training.hparam`."""
import sys

from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat import learn
    hparam = namespace("tensorflow.contrib.training.python.training.hparam",
                       "tf.contrib.training's hparam", HParams=learn.HParams)
    namespace("tensorflow.contrib.training.python", "tf.contrib.training",
              training=namespace("tensorflow.contrib.training.python.training",
                                 "tf.contrib.training", hparam=hparam, HParams=learn.HParams))
    return namespace("tensorflow.contrib.training", "tf.contrib.training",
                     HParams=learn.HParams,
                     python=sys.modules["tensorflow.contrib.training.python"])
