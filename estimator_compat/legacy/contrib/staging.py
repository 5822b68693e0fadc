"""`tf.contrib.staging`, served whole: `StagingArea`, TensorFlow's own (TF 2.21 still has the
class and its Stage/Unstage ops in `data_flow_ops`, which is where TF 1.15 took it from)."""
import __future__

from tensorflow.python.ops.data_flow_ops import StagingArea


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.staging", __doc__, __served_whole__=True,
                     StagingArea=StagingArea, absolute_import=__future__.absolute_import,
                     division=__future__.division, print_function=__future__.print_function)
