"""Compiled steps: each mode's model_fn traced once into a `tf.function` and reused.

`ModeStep(mode=...).run(iterator, names, steps)` runs the step, which also returns the tensors named
in `names` (what hooks fetch). A call (train/evaluate/predict) starts with `start_call(runner)`:
when SessionRunHooks take part, the call gets a fresh trace — as tf.estimator built a new graph
per call — and their `begin()` runs inside it, after model_fn, so hooks can look tensors up by
name and create ops. Later, a retrace happens only when the set of fetched names grows; it
replays `begin()` on copies of the hooks, so the ops they made exist again under the same names.
"""
import logging

import keras
import tensorflow as tf
from tensorflow.python.ops import resource_variable_ops

from estimator_compat import partitioned
from estimator_compat.engine import (coordinated, fetches, input_pipeline, keras_optimizer_ops,
                                     step_order, step_reads, summary_ops, variable_ops)
from estimator_compat.engine.bound_call import BoundCall
from estimator_compat.engine.metric_reset import MetricReset
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.engine.unneeded_writes import WriteDiverter
from estimator_compat.legacy import graph_mode
from estimator_compat.mode_keys import ModeKeys

logger = logging.getLogger("tensorflow")
_UNROLLED_OPS = 20000  # a call's unrolled steps, in the step's ops times the steps
_UNROLLED_STEPS = 32  # tf.data's GET_NEXT_CALL_ERROR_THRESHOLD: `next` calls in one trace


class ModeStep:
    """One mode's step function, built lazily and cached per set of fetched tensor names."""

    def __init__(self, *, mode, model_fn, params, config, store, strategy,
                 summary_writer=None, save_summary_steps=None, steps_per_execution=1,
                 jit_compile=False, coordinator=None):
        self.mode = mode
        self._model_fn, self._params, self._config = model_fn, params, config
        self._store, self._strategy = store, strategy
        self._writer, self._summary_steps = summary_writer, save_summary_steps
        self._steps_per_execution = steps_per_execution
        self._jit_compile = jit_compile
        self._coordinator = coordinator  # parameter servers: calls scheduled on the workers
        self._summary_period = -1  # the last save_summary_steps period written (ps training)
        self._summary_origin = None  # the train call's first step: summaries count from it
        if (mode == ModeKeys.TRAIN and summary_writer is not None and save_summary_steps
                and coordinator is None):
            # a plain host variable (the class called directly: no strategy's creator): only
            # the chief writes summaries, and a distributed one would be a collective the
            # other workers never join
            with tf.init_scope(), tf.device("/cpu:0"):
                self._summary_origin = resource_variable_ops.ResourceVariable(
                    0, dtype=tf.int64, trainable=False)
        self._cache = {}
        self._bound = BoundCall()
        self._diverter = WriteDiverter(store, train=mode == ModeKeys.TRAIN)
        self._runner = None
        self._fresh = True
        self.spec = None
        self.graph = None
        self.element_spec = None  # one replica's input element, as the trace saw it
        self.keras_metrics = {}
        self.metric_value_names = {}  # compat.v1 metrics: their value tensors, by graph name
        self.eval_loss = None
        self.metric_reset = MetricReset()  # zeroes eval's metric variables per evaluate call
        self.value_reader = None  # ((graph, names), fn): eval_loop's metric values, cached
        self._predictions_structure = None  # spec.predictions of the predict trace
        if mode == ModeKeys.EVAL:
            with strategy.scope(), tf.init_scope():
                self.eval_loss = (tf.Variable(0.0, dtype=tf.float64, trainable=False,
                                              aggregation=tf.VariableAggregation.SUM),
                                  tf.Variable(0.0, dtype=tf.float64, trainable=False,
                                              aggregation=tf.VariableAggregation.SUM))

    def start_call(self, runner):
        """Begins one train/evaluate/predict call whose hooks are run by `runner`."""
        self._runner = runner
        spec_hooks = runner.spec_hooks(self.spec) if self.spec is not None else ()
        if not self._cache or runner.has_session_hooks() or any(
                isinstance(h, tf.compat.v1.train.SessionRunHook) for h in spec_hooks):
            if self._cache:
                logger.info("Tracing the %s step of the model_fn anew: this call has "
                            "SessionRunHooks (tf.estimator built a new graph per call).",
                            self.mode)
            self._cache, self._fresh = {}, True
            return True
        return False

    def begin_call(self, start):
        """A train call starts at global step `start`: its summaries are written at that step
        and every save_summary_steps after it, as TF's SummarySaverHook (its timer new in
        each call) wrote them; so a resumed call's first step has its summaries too."""
        if self._summary_origin is not None:
            self._summary_origin.assign(start)

    def end_call(self):
        """Ends a train/evaluate/predict call: its iterator goes (the caller dropped its own)."""
        self._bound.release()

    @property
    def compiled_names(self):
        return set().union(*self._cache) if self._cache else set()

    def _functions(self, names=()):
        """(one step, several steps) compiled functions returning also the tensors in `names`."""
        key = frozenset(names)
        if not key <= self.compiled_names or not self._cache:
            if self._cache:
                logger.info("Tracing the %s step of the model_fn again: hooks fetch %s, "
                            "which it did not return.", self.mode,
                            ", ".join(sorted(key - self.compiled_names)))
            key = frozenset(self.compiled_names | key)
            self._cache = {key: self._build(tuple(sorted(key)))}
        return next(iter(self._cache.values()))

    @property
    def steps_per_call(self):
        """Steps one `run` may take: steps_per_execution, on each worker of a cluster."""
        if self._coordinator is None:
            return self._steps_per_execution
        return self._steps_per_execution * coordinated.number_of_workers(self._strategy)

    def trace(self, iterator):
        """Traces the step (creating the variables) without running it."""
        one = self._functions()[0]
        if self._coordinator is not None:
            coordinated.trace(one, iterator, self._strategy)
        elif self._bound.concrete(one, iterator) is None:  # (kept: the call looks it up)
            one.get_concrete_function(iterator)

    def run(self, iterator, names=(), steps=1, known=False):
        """Runs up to `steps` steps in one call (steps_per_execution), fewer where the input
        ends. The last step's outputs (predict: every step's predictions, concatenated), with
        "steps": how many ran. None or OutOfRangeError when the input had nothing left.
        `known`: the input has `steps` more elements (evaluate / predict run them unrolled)."""
        one, several = self._functions(names)
        if self.mode == ModeKeys.PREDICT and not self._batched_predictions():
            several = None  # a prediction without a batch dimension: one batch per call
        try:
            if self._coordinator is not None:
                out = coordinated.run(self._coordinator, one, several, iterator, steps,
                                      self._steps_per_execution)
                out["summaries"], self._summary_period = coordinated.first_per_period(
                    out["summaries"], self._summary_steps or 1, self._summary_period)
                return out
            if steps == 1 or several is None:
                return dict(self._bound.call(one, iterator), steps=1)
            if known and steps == self._steps_per_execution and self._unrolls(several):
                return self._bound.call(several.exact, iterator)
            out = self._bound.call(several, iterator, tf.constant(steps, tf.int32))
            return out if int(out["steps"]) else None  # (0: the input had ended)
        except (tf.errors.InvalidArgumentError, tf.errors.UnimplementedError) as e:
            if self._jit_compile and "xla" in str(e).lower():
                raise ValueError(f"RunConfig(jit_compile=True): XLA could not compile the "
                                 f"{self.mode} step of the model_fn ({type(e).__name__}: "
                                 f"{str(e).splitlines()[0]}). Set jit_compile=False.") from e
            raise

    def _unrolls(self, several):
        """Whether a call's evaluate / predict steps may run unrolled: tf.data refuses more
        than _UNROLLED_STEPS `next` calls in one trace, and the runtime inlines and optimises
        the step's ops once per step, so past _UNROLLED_OPS in all the loop runs them
        (TPUEstimator programs' iterations_per_loop: 100, BERT's 1000)."""
        steps = self._steps_per_execution
        return hasattr(several, "exact") and steps <= _UNROLLED_STEPS and \
            0 < several.step.ops * steps <= _UNROLLED_OPS  # (0: not traced yet)

    # -- tracing ------------------------------------------------------------------------------
    def _build(self, names):
        strategy = self._strategy
        keras_optimizer_ops.patch()
        partitioned.patch()
        variable_ops.patch()

        body = lambda element: self._replica_body(element, names)  # noqa: E731
        if self._jit_compile:  # XLA compiles the replica's step; the input stays outside
            body = tf.function(body, autograph=False, jit_compile=True)

        def on_element(element):
            first_op = len(tf.compat.v1.get_default_graph().get_operations())
            # strategy.run, with the store's creator above the strategy's: a compat.v1
            # optimizer makes its slots in a merge call (on this thread), which must get
            # the store's mirrored variables, not per-device components of new ones. As in
            # tf.estimator, compat.v1 optimizers divide a mean loss by the number of replicas
            # (their gradients are summed over replicas: the sum is then the global mean's).
            with strategy.scope(), self._store.merge_call_scope(), \
                    strategy._scale_loss_for_estimator_enabled():
                out = strategy.extended._call_for_each_replica(body, (element,), {})
            if self._diverter is not None:  # e.g. a train_op built before branching on mode
                graph = tf.compat.v1.get_default_graph()
                every_replica = tf.nest.map_structure(strategy.experimental_local_results, out)
                self._diverter.divert(graph, graph.get_operations()[first_op:], every_replica)
            return self._merge_replicas(out)

        if self._steps_per_execution == 1:  # model_fn traced into the one-step function
            return tf.function(lambda iterator: on_element(next(iterator)),
                               autograph=False), None
        # model_fn traced once, here, for the one-step function, the loop and the unrolled
        # steps (which it lets overlap where they share no state: step_order.py)
        on_element = step_order.OrderedStep(on_element)
        one = tf.function(lambda iterator: on_element(next(iterator)), autograph=False)
        if strategy.num_replicas_in_sync > 1:
            # a distributed iterator's optional cannot be read in a tf.cond (TF 2.21 leaves a
            # placeholder unfed): train steps take `next` in the loop; evaluation and
            # prediction run a step per call
            if self.mode != ModeKeys.TRAIN:
                return one, None
            return one, tf.function(self._several_steps_to_the_end(on_element),
                                    autograph=False)
        several = self._several(on_element)
        if self._coordinator is None:  # (workers' calls report the end of input by raising)
            several = self._or_nothing(several, on_element)
        several = tf.function(several, autograph=False)
        if self.mode != ModeKeys.TRAIN and self._coordinator is None:
            several.exact = tf.function(self._exact(on_element), autograph=False)
            several.step = on_element  # (its traced size: _unrolls)
        return one, several

    def _exact(self, on_element):
        """iterator -> steps_per_execution evaluate / predict steps, unrolled, for a call that
        knows its input has that many batches left (a known length): no end checks, and one
        step's forward pass need not wait for the last one's, as in a tf.while_loop (Keras'
        predict loop is unrolled too; a CNN's predict at spe 10: 6% a call), nor for its
        metric updates (step_order.py). The last step's outputs (predict: every step's
        predictions, concatenated)."""
        def exact(iterator):
            outs, done = [], tf.constant(0.0)
            for _ in range(self._steps_per_execution):
                out, done = on_element.after(next(iterator), done)
                outs.append(dict(out))
            out = dict(outs[-1], steps=tf.constant(len(outs)))
            if self.mode == ModeKeys.PREDICT:
                preds = [tf.nest.flatten(each.pop("predictions")) for each in outs]
                out["predictions"] = tf.nest.pack_sequence_as(
                    self._predictions_structure, [tf.concat(p, 0) for p in zip(*preds)])
                out["batch_sizes"] = tf.stack([tf.shape(p[0])[0] for p in preds])
            return out
        return exact

    @staticmethod
    def _several_steps_to_the_end(on_element):
        def several(iterator, steps):
            out = on_element(next(iterator))
            done, out = tf.while_loop(
                lambda i, _: i < steps, lambda i, _: (i + 1, on_element(next(iterator))),
                (tf.constant(1), out))
            return dict(out, steps=done)
        return several

    @staticmethod
    def _or_nothing(several, on_element):
        """`several`, returning steps=0 (and zeros) where the input has already ended.

        Every loop ends with such a call. Ending it in OutOfRangeError cost 1.3 ms (the
        runtime unwinds the function, TensorFlow builds a Python traceback from its debug
        info); returning nothing costs 0.9 ms. (Builds the false branch from the true one's
        outputs: tf.cond traces the true branch first.) Outputs of a type with no zero
        (resources, variants) keep the raising call."""
        def or_nothing(iterator, steps):
            element = iterator.get_next_as_optional()
            traced = on_element.structured_outputs(element.element_spec)
            if any(getattr(t, "dtype", tf.resource) in (tf.resource, tf.variant)
                   for t in tf.nest.flatten(traced)):
                return several(_Prefetched(iterator, element), steps)
            ran = {}

            def run():
                ran["out"] = several(_Prefetched(iterator, element), steps)
                return ran["out"]

            def nothing():
                return tf.nest.map_structure(_empty_like, ran["out"])
            return tf.cond(element.has_value(), run, nothing)
        return or_nothing

    def _batched_predictions(self):
        return all(p.shape.rank for p in tf.nest.flatten(self._predictions_structure))

    def _several(self, on_element):
        """(iterator, steps) -> up to `steps` steps in a tf.while_loop, stopping early (and
        cleanly) where the input ends. Predictions of every step are gathered in
        TensorArrays and concatenated, to reach the host once per call ("batch_sizes": how
        to split them back into batches).

        Evaluation and prediction take each iteration's next element beside its step, not
        before it (as an optional, and only while steps remain: none is taken that no step
        runs), so the input's work overlaps the step's as in Keras' loop: a CNN's evaluate
        over parsed TFRecords at spe 10 ran 0.71-1.0x Keras from one process to the next
        when each iteration began with its `next` (predict 0.67-1.02x), 0.95-1.03x so
        (predict 0.97-1.03x). (Training keeps its `next` first: not yet measured the other
        way.)"""
        gather = self.mode == ModeKeys.PREDICT
        ahead = self.mode != ModeKeys.TRAIN
        anything = tf.TensorShape(None)

        def with_batch_size(preds):
            preds = tf.nest.flatten(preds)
            return preds + [tf.shape(preds[0])[:1]]

        def several(iterator, steps):
            spec = iterator.element_spec
            out = on_element(next(iterator))  # OutOfRangeError: nothing left for this call
            preds = with_batch_size(out.pop("predictions")) if gather else []
            arrays = [tf.TensorArray(p.dtype, size=0, dynamic_size=True, infer_shape=False)
                      .write(0, p) for p in preds]
            structure = out

            def step(done, out, arrays, element):
                def run():
                    new = dict(on_element(element.get_value()))
                    new_preds = with_batch_size(new.pop("predictions")) if gather else []
                    return new, [a.write(done, p) for a, p in zip(arrays, new_preds)]
                out, arrays = tf.cond(element.has_value(), run, lambda: (out, arrays))
                return done + tf.cast(element.has_value(), tf.int32), out, arrays

            def fetch(done):  # the next element, or none once `steps` have been taken
                return tf.cond(done < steps, iterator.get_next_as_optional,
                               lambda: tf.experimental.Optional.empty(spec))

            def ahead_body(done, out, arrays, element):
                done, out, arrays = step(done, out, arrays, element)
                return done, out, arrays, fetch(done)

            def next_first_body(done, out, arrays, _):
                element = iterator.get_next_as_optional()
                return step(done, out, arrays, element) + (element.has_value(),)
            invariants = (tf.TensorShape([]), tf.nest.map_structure(
                lambda _: anything, structure), [anything] * len(arrays))
            if ahead:
                loop = (lambda done, out, arrays, element: element.has_value(), ahead_body,
                        fetch(tf.constant(1)), tf.OptionalSpec(spec))
            else:
                loop = (lambda done, out, arrays, more: tf.logical_and(more, done < steps),
                        next_first_body, tf.constant(True), tf.TensorShape([]))
            done, out, arrays, _ = tf.while_loop(
                loop[0], loop[1], (tf.constant(1), out, arrays, loop[2]),
                shape_invariants=invariants + (loop[3],))
            out = dict(out, steps=done)
            if gather:
                gathered = [a.concat() for a in arrays]
                out["predictions"] = tf.nest.pack_sequence_as(
                    self._predictions_structure, gathered[:-1])
                out["batch_sizes"] = gathered[-1]
            return out
        return several

    def _replica_body(self, element, names):
        features, labels = input_pipeline.split_element(element)
        if self.mode == ModeKeys.PREDICT:
            labels = None
        store = self._store
        step_before = store.create_global_step().read_value()
        first_op = len(tf.compat.v1.get_default_graph().get_operations())
        with store.trace_scope(step_before) as graph, self._summaries(step_before, names):
            spec = call_model_fn(self._model_fn, features, labels, self.mode, self._params,
                                 self._config)
            model_fn_end = len(graph.get_operations())
            out = getattr(self, "_outputs_" + self.mode)(spec, graph, step_before)
            if self.mode == ModeKeys.TRAIN and graph_mode.tf1_behavior():
                _global_step_by_name(graph, store.create_global_step(), out["loss"])
            _updates_wait_for_input(graph.get_operations()[first_op:], element)
            out["global_step"] = step_before
            if self._fresh:
                self.spec, self.graph, self._fresh = spec, graph, False
                self.element_spec = tf.nest.map_structure(tf.type_spec_from_value, element)
                self._store.note_object_checkpoint(self.mode, spec.scaffold)
                if self._runner is not None:
                    self._runner.begin(spec, graph)
            elif self._runner is not None:
                self._runner.replay_begin()
                self._runner.session.graph = graph
                self.graph = graph
            out["fetches"] = {n: fetches.lookup(graph, n) for n in names}
            if self.mode == ModeKeys.TRAIN:  # as a TF1 session read it: before the increment
                ops = graph.get_operations()
                step_reads.pin(graph, ops[first_op:model_fn_end], ops[model_fn_end:],
                               store.create_global_step(), step_before)
            # the model_fn's own control dependencies, before tf.function adds its automatic
            # ones: a hook's session.run of a train op keeps them (hooks/graph_reader.py)
            graph._estimator_compat_control_inputs = {
                op.name: [c.name for c in op.control_inputs]
                for op in graph.get_operations()[first_op:] if op.control_inputs}
        return out

    def _summaries(self, step_before, names):
        due = True if self._fetches_summary(names) else None
        if self._coordinator is not None:  # the chief writes what the step returns
            every = self._summary_steps if self._writer else 0
            workers = coordinated.number_of_workers(self._strategy)
            return summary_ops.train_scope(None, step_before, 0, due=due or (
                summary_ops.due_on_workers(step_before, every, workers)))
        if self._jit_compile:  # XLA compiles no summary ops: none are made
            return summary_ops.train_scope(None, step_before, 0, build=False)
        if self.mode != ModeKeys.TRAIN:
            return summary_ops.train_scope(None, step_before, 0, due=due or False)
        return summary_ops.train_scope(self._writer, step_before, self._summary_steps, due=due,
                                       origin=self._summary_origin)

    def _fetches_summary(self, names):
        """Whether a hook fetches a summary op (a TF1 session computed it for that fetch)."""
        found = fetches.existing(self.graph, names) if self.graph is not None else []
        return len(found) < len(names) or any(map(summary_ops.is_summary, found))

    def _outputs_train(self, spec, graph, step_before):
        with tf.control_dependencies([spec.train_op]):
            loss = tf.identity(spec.loss)
        if self._coordinator is None:
            summary_ops.write_merged(graph, loss)
            if self._strategy.num_replicas_in_sync > 1:
                return {"loss": loss}
            with tf.control_dependencies([loss]):  # read in the step: no host op per step
                after = self._store.create_global_step().read_value()
            return {"loss": loss, "global_step_after": after}
        return {"loss": loss, "summary": summary_ops.merged_when_due(
            graph, loss, step_before, self._summary_steps if self._writer else 0,
            window=coordinated.number_of_workers(self._strategy))}

    def _outputs_eval(self, spec, graph, _):
        metrics = {}
        for key, value in spec.eval_metric_ops.items():
            if isinstance(value, keras.metrics.Metric):
                if key not in self.keras_metrics:
                    self.keras_metrics[key] = value
                    self._store.mark_local(value.variables)
                metrics[key] = tf.convert_to_tensor(value.result())
            else:
                self.metric_value_names.setdefault(key, value[0].name)  # replica 0's
                if isinstance(value[1], tf.Operation):
                    with tf.control_dependencies([value[1]]):
                        metrics[key] = tf.identity(value[0])
                else:
                    metrics[key] = tf.convert_to_tensor(value[1])
        loss_sum, loss_count = self.eval_loss
        loss = tf.cast(spec.loss, tf.float64)
        loss_sum.assign_add(loss)
        loss_count.assign_add(tf.ones_like(loss))  # summed over replicas, like loss_sum
        return {"loss": spec.loss, "metrics": metrics}

    def _outputs_infer(self, spec, graph, _):
        self._predictions_structure = spec.predictions
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


class _Prefetched:
    """An iterator whose first element was already taken as an optional: `next` gives it."""

    def __init__(self, iterator, element):
        self._iterator, self._element = iterator, element

    def __next__(self):
        element, self._element = self._element, None
        return element.get_value() if element is not None else next(self._iterator)

    def get_next_as_optional(self):
        return self._iterator.get_next_as_optional()

    @property
    def element_spec(self):
        return self._iterator.element_spec


def _empty_like(t):
    """A zero of `t`'s dtype, its unknown and batch (first) dimensions of length 0."""
    shape = [0 if d is None else d for d in t.shape.as_list()] if t.shape.rank is not None \
        else [0]
    if shape:
        shape[0] = 0
    return tf.zeros(shape, t.dtype)


_READ_ONLY_STATEFUL = {"ReadVariableOp", "VarHandleOp", "Placeholder", "VarIsInitializedOp"}


def _updates_wait_for_input(ops, element):
    """Makes every state update of the step wait for the input element.

    On the call that finds the input exhausted no metric count, summary or other update that
    does not otherwise depend on the data may run. Reads stay free, so a hook's `session.run`
    can still compute a metric's value from its variables.
    """
    anchors = list({t.op for t in tf.nest.flatten(element, expand_composites=True)
                    if isinstance(t, tf.Tensor)})
    if not anchors:
        return
    for op in ops:
        if op._is_stateful and op.type not in _READ_ONLY_STATEFUL:
            op._add_control_inputs([a for a in anchors if a not in op.control_inputs])


def _global_step_by_name(graph, variable, after):
    """'global_step:0' as a TF 1.x hook fetches it by name (`LoggingTensorHook(['global_step'])`):
    TF 1.15's reference variable, read at the end of the run that incremented it. A read with
    no consumer is left out of the compiled step."""
    try:
        graph.get_operation_by_name("global_step")
        return  # the model_fn made that name itself
    except KeyError:
        pass
    with graph.name_scope(""), tf.control_dependencies([after]):
        tf.raw_ops.ReadVariableOp(resource=variable.handle, dtype=variable.dtype,
                                  name="global_step")
