"""MultiHead: several named heads on one model.

Logits are split by the heads' logits dimensions (or given as a dict by head name), labels are
a dict by head name, the loss is the weighted sum of the heads' losses. As tf.estimator's:
predictions are keyed by (head name, key) tuples; metrics by `<key>/<head name>` plus each
head's `loss/<head name>`; export outputs by head name (the first head's serves by default),
`<head name>/<output>`, and `predict` with every prediction as `<head name>/<key>`.
"""
import types

import keras
import tensorflow as tf

from estimator_compat.canned.heads import metric_table
from estimator_compat.canned.heads.base import SERVING_KEY, Head, train_op_for
from estimator_compat.export.outputs import PredictOutput
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.spec import EstimatorSpec


class MultiHead(Head):
    def __init__(self, heads, head_weights=None):
        heads = list(heads)
        if not heads:
            raise ValueError("Must specify heads. Given: []")
        if any(h.name is None for h in heads):
            raise ValueError("All given heads must have name specified. Given: "
                             f"{[h.name for h in heads]}")
        if len({h.name for h in heads}) != len(heads):
            raise ValueError(f"Heads must have distinct names: {[h.name for h in heads]}")
        if head_weights is not None and len(head_weights) != len(heads):
            raise ValueError(f"heads and head_weights must have the same size. Given "
                             f"len(heads): {len(heads)}. Given len(head_weights): "
                             f"{len(head_weights)}.")
        super().__init__(name="_".join(h.name for h in heads))
        self._heads = heads
        self._head_weights = list(head_weights or [1.0] * len(heads))

    logits_dimension = property(lambda self: sum(h.logits_dimension for h in self._heads))

    def _split(self, logits):
        if isinstance(logits, dict):
            missing = sorted({h.name for h in self._heads} - set(logits))
            if missing:
                raise ValueError(f"logits lack the heads {missing}: {sorted(logits)}")
            return [logits[h.name] for h in self._heads]
        return tf.split(logits, [h.logits_dimension for h in self._heads], axis=-1)

    def _head_labels(self, labels):
        if not isinstance(labels, dict):
            raise ValueError("labels must be a dict by head name for a MultiHead. Given: "
                             f"{type(labels).__name__}")
        missing = sorted({h.name for h in self._heads} - set(labels))
        if missing:
            raise ValueError(f"labels lack the heads {missing}: {sorted(labels)}")
        return [labels[h.name] for h in self._heads]

    def _losses(self, features, logits, labels):
        return [h.loss(lab, part, features)
                for h, part, lab in zip(self._heads, self._split(logits),
                                        self._head_labels(labels))]

    def loss(self, labels, logits, features=None, mode=None, regularization_losses=None):
        losses = self._losses(features or {}, logits, labels)
        total = tf.add_n([w * loss for w, loss in zip(self._head_weights, losses)])
        return self._regularized(total, regularization_losses)

    def predictions(self, logits, keys=None):
        out = {(h.name, k): v for h, part in zip(self._heads, self._split(logits))
               for k, v in h.predictions(part).items()}
        return out if keys is None else {k: v for k, v in out.items() if k in set(keys)}

    def _loss_rows(self):
        return [metric_table.Row(f"loss/{h.name}", "mean", None,
                                 lambda c, i=i: (None, c.losses[i], None))
                for i, h in enumerate(self._heads)]

    def metrics(self, regularization_losses=None):
        out = {}
        for h in self._heads:
            out.update(h.metrics())
        out.update(metric_table.make_keras(self._loss_rows()))
        if regularization_losses:
            out["regularization_loss"] = keras.metrics.Mean(name="regularization_loss")
        return out

    def update_metrics(self, eval_metrics, features, logits, labels,
                       regularization_losses=None, mode=None):
        for h, part, lab in zip(self._heads, self._split(logits), self._head_labels(labels)):
            h.update_metrics(eval_metrics, features, part, lab)
        ctx = types.SimpleNamespace(losses=self._losses(features, logits, labels))
        metric_table.update_keras(self._loss_rows(), eval_metrics, ctx)
        if regularization_losses:
            eval_metrics["regularization_loss"].update_state(
                tf.add_n(list(regularization_losses)))
        return eval_metrics

    def _export_outputs(self, specs):
        merged = {}
        out = {SERVING_KEY: specs[0].export_outputs[SERVING_KEY]}
        for h, spec in zip(self._heads, specs):
            for key, output in spec.export_outputs.items():
                out[h.name if key == SERVING_KEY else f"{h.name}/{key}"] = output
                if key == "predict":
                    merged.update({f"{h.name}/{k}": v for k, v in output.outputs.items()})
        out["predict"] = PredictOutput(merged)
        return out

    def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None,
                              trainable_variables=None, train_op_fn=None, update_ops=None,
                              regularization_losses=None):
        parts = self._split(logits)
        head_labels = [None] * len(parts) if labels is None else self._head_labels(labels)
        specs = [h.create_estimator_spec(features, mode, part, labels=lab,
                                         train_op_fn=lambda loss: tf.no_op())
                 for h, part, lab in zip(self._heads, parts, head_labels)]
        predictions = {(h.name, k): v for h, s in zip(self._heads, specs)
                       for k, v in s.predictions.items()}
        if mode == ModeKeys.PREDICT:
            return EstimatorSpec(mode, predictions=predictions,
                                 export_outputs=self._export_outputs(specs))
        loss = tf.add_n([w * s.loss for w, s in zip(self._head_weights, specs)])
        loss = self._regularized(loss, regularization_losses)
        if mode == ModeKeys.EVAL:
            metrics = {}
            for h, s in zip(self._heads, specs):
                metrics.update(s.eval_metric_ops)
                metrics[f"loss/{h.name}"] = tf.compat.v1.metrics.mean(s.loss)
            if regularization_losses:
                metrics["regularization_loss"] = tf.compat.v1.metrics.mean(
                    tf.add_n(list(regularization_losses)))
            return EstimatorSpec(mode, predictions=predictions, loss=loss,
                                 eval_metric_ops=metrics)
        train_op = train_op_for(loss, optimizer, trainable_variables, train_op_fn, update_ops)
        return EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op)
