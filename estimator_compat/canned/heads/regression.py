"""RegressionHead (mean squared error), PoissonRegressionHead, LogisticRegressionHead."""
import tensorflow as tf

from estimator_compat.canned.heads.base import SERVING_KEY, SUM_OVER_BATCH_SIZE, Head
from estimator_compat.export.outputs import PredictOutput, RegressionOutput


class RegressionHead(Head):
    """`label_dimension` outputs; predictions = inverse_link_fn(logits) when one is given."""

    def __init__(self, label_dimension=1, weight_column=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, loss_fn=None, inverse_link_fn=None,
                 name=None):
        if label_dimension < 1:
            raise ValueError(f"Invalid label_dimension {label_dimension}.")
        super().__init__(weight_column, loss_reduction, loss_fn, name)
        self._label_dimension, self._inverse_link_fn = label_dimension, inverse_link_fn

    logits_dimension = property(lambda self: self._label_dimension)

    def _predictions(self, logits):
        if not self._inverse_link_fn:
            return {"predictions": logits}
        return {"predictions": self._inverse_link_fn(logits), "logits": logits}

    def _label_ids(self, labels):
        return tf.reshape(tf.cast(labels, tf.float32), [-1, self._label_dimension])

    def _per_example_loss(self, labels, logits, features):
        if self._loss_fn:
            return tf.reshape(self._call_loss_fn(labels, logits, features),
                              [-1, self._label_dimension])
        return tf.square(logits - labels)  # on the logits, link or not (as tf.estimator 2.15)

    def _metric_rows(self):
        return [("average_loss", "mean", None, lambda c: (None, c.unreduced, c.weights)),
                ("label/mean", "mean", None, lambda c: (None, c.labels, c.weights)),
                ("prediction/mean", "mean", None,
                 lambda c: (None, c.predictions["predictions"], c.weights))]

    def _export_outputs(self, predictions):
        out = {"predict": PredictOutput(predictions)}
        if self._label_dimension == 1:
            out[SERVING_KEY] = out["regression"] = RegressionOutput(predictions["predictions"])
        else:
            out[SERVING_KEY] = out["predict"]
        return out


class PoissonRegressionHead(RegressionHead):
    """Regression of counts: predictions = exp(logits), log-Poisson loss."""

    def __init__(self, label_dimension=1, weight_column=None,
                 loss_reduction=SUM_OVER_BATCH_SIZE, compute_full_loss=True, name=None):
        def poisson_loss(labels, logits):
            return tf.nn.log_poisson_loss(labels, logits, compute_full_loss=compute_full_loss)
        super().__init__(label_dimension, weight_column, loss_reduction, poisson_loss,
                         inverse_link_fn=tf.exp, name=name)


class LogisticRegressionHead(RegressionHead):
    """Regression of values in [0, 1]: predictions = sigmoid(logits), sigmoid cross entropy."""

    def __init__(self, weight_column=None, loss_reduction=SUM_OVER_BATCH_SIZE, name=None):
        def logistic_loss(labels, logits):
            check = tf.debugging.assert_less_equal(labels, 1.0,
                                                   message="Labels must be in range [0, 1]")
            with tf.control_dependencies([check, tf.debugging.assert_non_negative(
                    labels, message="Labels must be in range [0, 1]")]):
                return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        super().__init__(1, weight_column, loss_reduction, logistic_loss,
                         inverse_link_fn=tf.sigmoid, name=name)
