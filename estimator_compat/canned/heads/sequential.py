"""SequentialHeadWrapper: a head over per-timestep logits ([batch, time, ...]), for
RNNEstimator(return_sequences=True).

Training and evaluation flatten logits, labels and the named weight features by the sequence
mask (features[sequence_length_mask], [batch, time]) and hand them to the wrapped head, so
padding steps count nowhere; prediction gives the wrapped head's predictions per timestep
([batch, time, ...], padding steps included, as tf.estimator gave them).
"""
import tensorflow as tf

from estimator_compat.canned.heads.base import SERVING_KEY
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec


class SequentialHeadWrapper:
    """Wraps a static head (BinaryClassHead, MultiClassHead, RegressionHead, ...)."""

    def __init__(self, static_head, sequence_length_mask="sequence_length_mask",
                 feature_columns=None):
        self._static_head = static_head
        self.input_sequence_mask_key = sequence_length_mask
        if feature_columns is None:  # the static head's weight feature, if any
            weight = getattr(static_head, "_weight_column", None)
            feature_columns = [weight] if weight is not None else []
        elif isinstance(feature_columns, str):
            feature_columns = [feature_columns]
        self._feature_columns = [getattr(c, "key", c) for c in feature_columns]

    name = property(lambda self: self._static_head.name)
    logits_dimension = property(lambda self: self._static_head.logits_dimension)
    loss_reduction = property(lambda self: self._static_head.loss_reduction)

    def _flatten(self, labels, logits, features):
        key = self.input_sequence_mask_key
        if key not in features:
            raise ValueError(f"The provided sequence_length_mask key `{key}` should be included "
                             f"in the features dictionary, but was not found. Found keys: "
                             f"{sorted(features)}.")
        mask = tf.cast(features[key], tf.bool)
        if mask.shape.rank != 2:
            raise ValueError(f"Mask is expected to have two dimensions, got {mask.shape.rank} "
                             "instead.")
        with tf.name_scope("flatten"):
            flat_features = {}
            for column in self._feature_columns:
                if column not in features:
                    raise ValueError(f"`{column}` column expected in features dictionary.")
                flat_features[column] = _flatten(features[column], mask)
            return _flatten(labels, mask), _flatten(logits, mask), flat_features

    def loss(self, labels, logits, features=None, mode=None, regularization_losses=None):
        labels, logits, flat = self._flatten(labels, logits, features)
        return self._static_head.loss(labels, logits, flat, mode, regularization_losses)

    def predictions(self, logits, keys=None):
        return self._static_head.predictions(logits, keys=keys)

    def metrics(self, regularization_losses=None):
        return self._static_head.metrics(regularization_losses)

    def update_metrics(self, eval_metrics, features, logits, labels, regularization_losses=None):
        labels, logits, flat = self._flatten(labels, logits, features)
        return self._static_head.update_metrics(eval_metrics, flat, logits, labels,
                                                regularization_losses)

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              trainable_variables=None, train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        if mode == ModeKeys.PREDICT:  # the static head's predictions, per timestep
            batch_and_time = tf.shape(logits)[:2]
            flat = self._static_head.predictions(
                tf.reshape(logits, [-1, self.logits_dimension]))
            predictions = {k: tf.reshape(v, tf.concat([batch_and_time, tf.shape(v)[1:]], 0))
                           for k, v in flat.items()}
            return EstimatorSpec(mode, predictions=predictions, export_outputs={
                SERVING_KEY: PredictOutput(predictions)})
        if labels is None:
            raise ValueError(f"labels must not be None in mode {mode!r}.")
        labels, logits, flat = self._flatten(labels, logits, features)
        return self._static_head.create_estimator_spec(
            features=flat, mode=mode, logits=logits, labels=labels, optimizer=optimizer,
            trainable_variables=trainable_variables, train_op_fn=train_op_fn,
            update_ops=update_ops, regularization_losses=regularization_losses)


def _flatten(tensor, mask):
    """[batch, time, ...] -> [n, ...] over the mask's true steps; [batch, time] -> [n, 1]."""
    if isinstance(tensor, tf.SparseTensor):
        tensor = tf.sparse.to_dense(tensor)
    flat = tf.boolean_mask(tensor, mask)
    return flat[:, None] if flat.shape.rank == 1 else flat
