"""Compiled steps: each mode's model_fn traced once into a `tf.function` and reused.

`ModeStep(mode=...).function(names)` returns the step that also returns the graph tensors named
in `names` (what hooks fetch). The first trace's EstimatorSpec is kept (hooks, metric objects);
a retrace happens only when the set of fetched names grows.
"""
import contextlib
import warnings

import keras
import tensorflow as tf

from estimator_compat import inputs
from estimator_compat.engine import fetches
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.mode_keys import ModeKeys


class ModeStep:
    """One mode's step function, built lazily and cached per set of fetched tensor names."""

    def __init__(self, *, mode, model_fn, params, config, store, strategy,
                 summary_writer=None, save_summary_steps=None):
        self.mode = mode
        self._model_fn, self._params, self._config = model_fn, params, config
        self._store, self._strategy = store, strategy
        self._writer, self._summary_steps = summary_writer, save_summary_steps
        self._cache = {}
        self.spec = None
        self.graph = None
        self.keras_metrics = {}
        self.eval_loss = None
        if mode == ModeKeys.EVAL:
            with strategy.scope(), tf.init_scope():
                self.eval_loss = (tf.Variable(0.0, dtype=tf.float64, trainable=False,
                                              aggregation=tf.VariableAggregation.SUM),
                                  tf.Variable(0.0, dtype=tf.float64, trainable=False,
                                              aggregation=tf.VariableAggregation.SUM))

    @property
    def compiled_names(self):
        return set().union(*self._cache) if self._cache else set()

    def function(self, names=()):
        """The compiled step returning, besides its outputs, the tensors in `names`."""
        key = frozenset(names)
        if not key <= self.compiled_names or not self._cache:
            key = frozenset(self.compiled_names | key)
            self._cache = {key: self._build(tuple(sorted(key)))}
        return next(iter(self._cache.values()))

    # -- tracing ------------------------------------------------------------------------------
    def _build(self, names):
        strategy = self._strategy

        def step(iterator):
            element = next(iterator)
            out = strategy.run(self._replica_body, args=(element, names))
            return self._merge_replicas(out)

        return tf.function(step, autograph=False)

    def _replica_body(self, element, names):
        features, labels = inputs.split_element(element)
        if self.mode == ModeKeys.PREDICT:
            labels = None
        store = self._store
        step_before = store.create_global_step().read_value()
        # Every op of the step waits for the input: on the call that finds the input ended,
        # no metric count, summary or other state update may run.
        inputs_ready = tf.control_dependencies(tf.nest.flatten(element, expand_composites=True))
        with inputs_ready, store.trace_scope() as graph, self._summaries(step_before):
            spec = call_model_fn(self._model_fn, features, labels, self.mode, self._params,
                                 self._config)
            if self.spec is None:
                self.spec, self.graph = spec, graph
            out = getattr(self, "_outputs_" + self.mode)(spec, step_before)
            out["fetches"] = {n: fetches.lookup(graph, n) for n in names}
        return out

    def _summaries(self, step_before):
        writer, every = self._writer, self._summary_steps
        if self.mode != ModeKeys.TRAIN or writer is None or not every:
            return _NoSummaries()
        # Recorded every `every` steps, at global_step + 1 (tf.estimator's steps 1, 1+N, ...).
        scope = contextlib.ExitStack()
        scope.enter_context(writer.as_default(step=step_before + 1))
        scope.enter_context(tf.summary.record_if(tf.equal(step_before % every, 0)))
        return scope

    def _outputs_train(self, spec, step_before):
        with tf.control_dependencies([spec.train_op]):
            loss = tf.identity(spec.loss)
        tf.summary.scalar("loss", loss)
        return {"loss": loss, "global_step": step_before}

    def _outputs_eval(self, spec, step_before):
        metrics = {}
        for key, value in spec.eval_metric_ops.items():
            if isinstance(value, keras.metrics.Metric):
                if key not in self.keras_metrics:
                    self.keras_metrics[key] = value
                    self._store.mark_local(value.variables)
                metrics[key] = tf.convert_to_tensor(value.result())
            elif isinstance(value[1], tf.Operation):
                with tf.control_dependencies([value[1]]):
                    metrics[key] = tf.identity(value[0])
            else:
                metrics[key] = tf.convert_to_tensor(value[1])
        loss_sum, loss_count = self.eval_loss
        loss_sum.assign_add(tf.cast(spec.loss, tf.float64))
        loss_count.assign_add(1.0)
        return {"loss": spec.loss, "metrics": metrics, "global_step": step_before}

    def _outputs_infer(self, spec, step_before):
        return {"predictions": spec.predictions}

    def _merge_replicas(self, out):
        strategy = self._strategy
        if strategy.num_replicas_in_sync == 1 and not isinstance(
                out.get("loss", out.get("predictions")), tf.distribute.DistributedValues):
            return out
        first = lambda v: strategy.experimental_local_results(v)[0]  # noqa: E731
        merged = {k: tf.nest.map_structure(first, v) for k, v in out.items()}
        if "loss" in out:
            merged["loss"] = strategy.reduce(tf.distribute.ReduceOp.MEAN, out["loss"], axis=None)
        if "predictions" in out:
            merged["predictions"] = tf.nest.map_structure(
                lambda v: tf.concat(strategy.experimental_local_results(v), axis=0),
                out["predictions"])
        return merged


class _NoSummaries(warnings.catch_warnings):
    """model_fn's summaries record nothing (eval, predict), as in tf.estimator, and say nothing."""

    def __enter__(self):
        super().__enter__()
        warnings.filterwarnings("ignore", message="Cannot activate TF2 compatibility support")
        return self
