"""`tf.contrib.losses`, served whole: `loss_ops.py` (contrib's deprecated loss functions, their
TF 1.15 reductions, op names and LOSSES collection) and `metric_learning.py`
(`tf.contrib.losses.metric_learning`). Deep paths:
`tensorflow.contrib.losses.python.losses[.loss_ops]`,
`tensorflow.contrib.losses.python.metric_learning[.metric_loss_ops]`."""
from estimator_compat.legacy.contrib.losses import loss_ops, metric_learning


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.losses"
    ml = namespace(f"{prefix}.metric_learning", "tf.contrib.losses.metric_learning",
                   **metric_learning.FUNCTIONS)
    ml_ops = namespace(f"{prefix}.python.metric_learning.metric_loss_ops",
                       "tf.contrib.losses.metric_learning", **metric_learning.FUNCTIONS)
    ops = namespace(f"{prefix}.python.losses.loss_ops", "tf.contrib.losses",
                    **loss_ops.FUNCTIONS)
    namespace(f"{prefix}.python", "tf.contrib.losses",
              losses=namespace(f"{prefix}.python.losses", "tf.contrib.losses", loss_ops=ops,
                               **loss_ops.FUNCTIONS),
              metric_learning=namespace(f"{prefix}.python.metric_learning",
                                        "tf.contrib.losses.metric_learning",
                                        metric_loss_ops=ml_ops, **metric_learning.FUNCTIONS))
    return namespace(prefix, "tf.contrib.losses", __served_whole__=True, metric_learning=ml,
                     **loss_ops.FUNCTIONS)
