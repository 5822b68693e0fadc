"""TF 1.15's `estimator_head_distribution_regression`: a contrib.learn regression head whose
logits parameterize a distribution (`make_distribution_fn(logits)`), trained on the negative
log-likelihood of the labels, predicting the distribution's mean (`scores`).

Built on our contrib.learn `_RegressionHead` (`estimator_compat/learn/heads.py`): the same
scopes, `loss` metric, summary and predictions as TF 1.15's. The loss is the (weighted) mean
of -log_prob over the batch in a `loss` name scope, the metric and summary its average
normalized by the weights' sum.
"""
import tensorflow as tf
from tensorflow.python.ops import weights_broadcast_ops

from estimator_compat.learn.heads import _RegressionHead

_v1 = tf.compat.v1


def estimator_head_distribution_regression(make_distribution_fn, label_dimension=1,
                                           logits_dimension=None, label_name=None,
                                           weight_column_name=None,
                                           enable_centered_bias=False, head_name=None):
    """A contrib.learn `Head` for regression under the distribution `make_distribution_fn`
    makes of the logits (`logits_dimension` defaults to `label_dimension`)."""
    return _DistributionRegressionHead(
        make_distribution_fn=make_distribution_fn, label_dimension=label_dimension,
        logits_dimension=logits_dimension, label_name=label_name,
        weight_column_name=weight_column_name, enable_centered_bias=enable_centered_bias,
        head_name=head_name)


class _DistributionRegressionHead(_RegressionHead):
    """Regression by maximum likelihood of `make_distribution_fn(logits)`."""

    def __init__(self, make_distribution_fn, label_dimension, logits_dimension=None,
                 label_name=None, weight_column_name=None, enable_centered_bias=False,
                 head_name=None):
        if not callable(make_distribution_fn):
            raise TypeError("`make_distribution_fn` must be a callable function.")
        self._distributions = {}
        self._make_distribution_fn = make_distribution_fn
        super().__init__(label_name, weight_column_name, label_dimension,
                         enable_centered_bias, head_name,
                         lambda logits: self.distribution(logits).mean())
        if logits_dimension is not None:
            self._logits_dimension = logits_dimension

    @property
    def distributions(self):
        """The distributions made so far, keyed by their logits' `ref()`."""
        return self._distributions

    def distribution(self, logits, name=None):
        """The distribution of `logits` (made once per logits tensor)."""
        with _v1.name_scope(name, "distribution", [logits]):
            d = self._distributions.get(logits.ref())
            if d is None:
                d = self._make_distribution_fn(logits)
                self._distributions[logits.ref()] = d
            return d

    def _loss(self, labels, logits, weight_column, weights):
        d = self.distribution(logits)
        batch = labels.shape.with_rank_at_least(1)[:-1]
        batch = (tf.constant(batch.as_list(), tf.int32) if batch.is_fully_defined()
                 else tf.shape(labels)[:-1])
        labels = tf.reshape(labels, tf.concat([batch, d.event_shape_tensor()], 0))
        per_example = -d.log_prob(labels)
        with _v1.name_scope("loss", values=(per_example, weight_column)) as scope:
            if weight_column is None:
                loss = tf.reduce_mean(per_example, name=scope)
                return loss, loss, loss
            weight = weights_broadcast_ops.broadcast_weights(weight_column, per_example)
            with _v1.name_scope(None, "weighted_loss", (per_example, weight)) as name:
                weighted = tf.multiply(per_example, weight, name=name)
            loss = tf.reduce_mean(weighted, name=scope)
            normalized = tf.math.divide(tf.reduce_sum(weighted),
                                        tf.cast(tf.reduce_sum(weight), tf.float32),
                                        name="weighted_average_loss")
        return loss, normalized, normalized
