"""Runs a mode's hooks around each compiled step: SessionRunHooks and Keras callbacks, in order.

SessionRunHooks get their TF1 protocol: `begin` inside the trace (after model_fn), then
`after_create_session`, `before_run`/`after_run` around each step with their fetches, `end`,
each with TF1's identity hashing of tensors (a hook's `feed_dict={placeholder: value}`).
Keras callbacks get on_{train,test,predict}_begin / _batch_begin / _batch_end (logs: loss,
global_step) / _end, and on training one "epoch" per `log_step_count_steps` steps (logs: the
window's mean loss), so epoch-based callbacks such as `keras.callbacks.EarlyStopping(monitor=
'loss')` work; setting `self.model.stop_training` stops training.
"""
import contextlib
import copy
import re

import keras
import numpy as np
import tensorflow as tf
from tensorflow.python.training import basic_session_run_hooks as _tf_hooks
from tensorflow.python.training import training_util

from estimator_compat.engine import fetches as fetch_lib
from estimator_compat.engine import session_input
from estimator_compat.engine.tf1_equality import identity_equality
from estimator_compat.hooks import SessionRunArgs, SessionRunContext, SessionRunValues
from estimator_compat.hooks.builtin import adapt
from estimator_compat.hooks.session import HookSession
from estimator_compat.legacy import graph_mode
from estimator_compat.mode_keys import ModeKeys

_KERAS_PREFIX = {ModeKeys.TRAIN: "train", ModeKeys.EVAL: "test", ModeKeys.PREDICT: "predict"}
_SPEC_HOOKS = {ModeKeys.TRAIN: ("training_chief_hooks", "training_hooks"),
               ModeKeys.EVAL: ("evaluation_hooks",), ModeKeys.PREDICT: ("prediction_hooks",)}


class _ModelHandle:
    """What Keras callbacks see as `self.model`: a stop flag, the Estimator, its weights."""

    def __init__(self, estimator, state):
        self.estimator = estimator
        self.stop_training = False
        self._state = state

    def get_weights(self):
        return [v.numpy() for _, v in sorted(self._state.store.saveable().items())]

    def set_weights(self, weights):
        self._state.io.forget()  # the next call reads the checkpoint again
        for (_, var), value in zip(sorted(self._state.store.saveable().items()), weights):
            var.assign(value)


class HookRunner:
    def __init__(self, mode, hooks, state=None, epoch_steps=None):
        self._mode = mode
        self._hooks = []
        self._state = state
        self._model = _ModelHandle(state.estimator if state is not None else None, state)
        self._epoch_steps = epoch_steps
        self._epoch, self._epoch_losses = 0, []
        self._step_index = 0
        self.input = None  # the call's input_fn graph and session, where it has one
        self.session = HookSession(state=state)
        self._requests = []
        self.stop_requested = False
        self._begun = False
        self.add(hooks)

    # -- the ordered list -----------------------------------------------------------------------
    def add(self, hooks):
        for hook in hooks or ():
            hook = adapt(hook)
            if isinstance(hook, keras.callbacks.Callback):
                hook.set_model(self._model)
            elif not isinstance(hook, tf.compat.v1.train.SessionRunHook):
                raise TypeError(f"All hooks must be SessionRunHook instances or Keras callbacks, "
                                f"given: {hook!r} ({type(hook).__name__})")
            self._hooks.append(hook)

    def _session_hooks(self):
        return [h for h in self._hooks if isinstance(h, tf.compat.v1.train.SessionRunHook)]

    def has_session_hooks(self):
        return bool(self._session_hooks())

    def has_hooks(self):
        return bool(self._hooks)

    def spec_hooks(self, spec):
        """The hooks an EstimatorSpec brings for this mode (chief hooks only on the chief)."""
        fields = _SPEC_HOOKS[self._mode]
        is_chief = self._state is None or self._state.estimator.config.is_chief
        return [h for f in fields if is_chief or f != "training_chief_hooks"
                for h in getattr(spec, f)]

    # -- lifecycle ----------------------------------------------------------------------------
    def begin(self, spec, graph):
        """Inside the trace, after model_fn: adds the spec's hooks, then calls every begin()."""
        if self._begun:
            return
        self._begun = True
        self.add(self.spec_hooks(spec))
        self.session.graph = graph
        with _variables_as_graph_elements(), session_input.names_fall_back(graph, self.input):
            for hook in self._session_hooks():
                try:
                    hook.begin()
                except KeyError as e:  # TF's name lookup: "The name 'x:0' refers to a Tensor ..."
                    match = re.search(r"The name '([^']+)'", str(e))
                    if match is None:
                        raise
                    raise ValueError(f"{type(hook).__name__}.begin(): "
                                     f"{fetch_lib.missing_message(graph, match.group(1))}") from None

    def replay_begin(self):
        """In a retrace: begin() on copies, so the ops the hooks made exist again by name."""
        with _variables_as_graph_elements(), session_input.names_fall_back(
                tf.compat.v1.get_default_graph(), self.input):
            for hook in self._session_hooks():
                _state_copy(hook).begin()

    def after_create_session(self):
        for hook in self._hooks:
            if isinstance(hook, keras.callbacks.Callback):
                getattr(hook, f"on_{_KERAS_PREFIX[self._mode]}_begin")({})
            else:
                with identity_equality(), self._global_step_found():  # TF1 graph mode:
                    hook.after_create_session(self.session, None)  # tensors hash

    def before_step(self):
        """Asks the hooks for their fetches; returns the graph names the step must return."""
        names = set()
        self._requests = []
        if self._mode == ModeKeys.TRAIN and self._epoch_steps and not self._epoch_losses:
            self._keras_epoch("epoch_begin", self._epoch, {})
        for hook in self._hooks:
            if isinstance(hook, keras.callbacks.Callback):
                getattr(hook, f"on_{_KERAS_PREFIX[self._mode]}_batch_begin")(self._step_index, {})
                continue
            context = SessionRunContext(original_args=SessionRunArgs([]), session=self.session)
            with identity_equality(), self._input_names(), self._global_step_found():
                args = hook.before_run(context)
            if args is not None and not isinstance(args, SessionRunArgs):
                raise TypeError(f"{type(hook).__name__}.before_run must return SessionRunArgs "
                                f"or None, given: {args!r}")
            if args is not None and args.feed_dict:
                self._feed_input(hook, args.feed_dict)
            structure, resolved = fetch_lib.flatten(args.fetches if args is not None else None)
            names.update(f.key for f in resolved if f.kind == "graph")
            for f in resolved:
                if f.kind == "input":
                    f.value.fetch_next(f.key)
            self._requests.append((hook, context, structure, resolved))
            if context.stop_requested:
                self.stop_requested = True
        if self.input is not None:
            self.input.check_fed()
        return names

    @contextlib.contextmanager
    def _global_step_found(self):
        """While a hook's callback runs: `tf.compat.v1.train.get_global_step()` (and
        get_or_create_global_step) finds the Estimator's step, as TF1's hooks found it in the
        training graph, then the default graph; the default graph's collection is as it was
        after."""
        graph = tf.compat.v1.get_default_graph()
        key = tf.compat.v1.GraphKeys.GLOBAL_STEP
        if self._state is None or graph.building_function or graph.get_collection(key):
            yield
            return
        graph.add_to_collection(key, self._state.global_step)
        try:
            yield
        finally:
            graph.clear_collection(key)

    def _input_names(self):
        """While a step's before_run: `run_context.session.graph.get_tensor_by_name` finds a
        fed input_fn's placeholders too (the feeders of its idiom look them up there)."""
        if self.input is None or not self.input.fed:
            return contextlib.nullcontext()
        return session_input.names_fall_back(self.session.graph, self.input)

    def _feed_input(self, hook, feed_dict):
        """A hook's per-step feed: the input_fn's placeholders (engine/session_input.py)."""
        target = self.input
        if target is None or not target.feeds(feed_dict):
            raise ValueError(f"{type(hook).__name__} feeds {list(feed_dict)}: a step's "
                             "feed_dict can feed the placeholders an input_fn returns (as "
                             "tf.train.FeedFnHook does), not tensors of the model_fn, whose "
                             "step is compiled once; make the value part of input_fn.")
        per_call = self._state.estimator.config.steps_per_execution if self._state else 1
        if per_call > 1:
            raise ValueError(f"{type(hook).__name__} feeds the input_fn's placeholders at each "
                             f"step, but steps_per_execution={per_call} runs {per_call} steps "
                             "per hook call: use steps_per_execution=1 (the default).")
        target.feed_next(feed_dict)

    def after_step(self, step_values, logs):
        """Hands each hook its fetched values, in list order; Keras callbacks get `logs`."""
        self.session.last_values = step_values
        requests = {id(r[0]): r for r in self._requests}
        for hook in self._hooks:
            if isinstance(hook, keras.callbacks.Callback):
                getattr(hook, f"on_{_KERAS_PREFIX[self._mode]}_batch_end")(self._step_index, logs)
                continue
            _, context, structure, resolved = requests[id(hook)]
            results = fetch_lib.pack(structure, resolved, step_values)
            with identity_equality(), self._global_step_found():
                hook.after_run(context, SessionRunValues(results=results, options=None,
                                                         run_metadata=None))
            if context.stop_requested:
                self.stop_requested = True
        self._step_index += 1
        if self._mode == ModeKeys.TRAIN and self._epoch_steps:
            self._epoch_losses.append(logs.get("loss"))
            if len(self._epoch_losses) >= self._epoch_steps:
                self._end_epoch(logs)
        if self._model.stop_training:
            self.stop_requested = True

    def _end_epoch(self, logs):
        losses = [v for v in self._epoch_losses if v is not None]
        epoch_logs = dict(logs, loss=float(np.mean(losses)) if losses else None)
        self._keras_epoch("epoch_end", self._epoch, epoch_logs)
        self._epoch += 1
        self._epoch_losses = []

    def end(self, logs=None):
        if self._epoch_losses:
            self._end_epoch(logs or {})
        for hook in self._hooks:
            if isinstance(hook, keras.callbacks.Callback):
                getattr(hook, f"on_{_KERAS_PREFIX[self._mode]}_end")(logs or {})
            else:
                with identity_equality(), self._global_step_found():
                    hook.end(self.session)
        if self.input is not None:  # the call's TF1 input session, closed as TF's was
            self.input.close()

    def _keras_epoch(self, event, epoch, logs):
        for cb in self._hooks:
            if isinstance(cb, keras.callbacks.Callback):
                getattr(cb, f"on_{event}")(epoch, logs)


@contextlib.contextmanager
def _variables_as_graph_elements():
    """TF's hooks (LoggingTensorHook) take a variable or tensor only if it lives in the graph
    being built: a variable (the engine's live outside the trace) is read in it instead, as a TF1
    graph's variable was fetched; a tensor of an earlier trace is looked up by name."""
    original = _tf_hooks._as_graph_element

    def as_graph_element(obj):
        graph = tf.compat.v1.get_default_graph()
        if isinstance(obj, tf.Variable) or (hasattr(obj, "read_value") and not isinstance(obj, str)):
            if obj is tf.compat.v1.train.get_global_step() and not graph_mode.tf1_behavior():
                # tf.estimator 2.x's logs: the step's value before it runs (TF 1.15's reference
                # variable was read after the run incremented it: the read below, made after
                # the train op, gives that)
                return training_util._get_or_create_global_step_read()
            return tf.identity(obj, name=obj.name.split(":")[0].replace("/", "_") + "_hook_read")
        if isinstance(obj, tf.Tensor) and tf.is_symbolic_tensor(obj) and obj.graph is not graph:
            if session_input.session_of([obj]) is not None:
                return obj  # the input_fn's graph's: read with the step's element
            return original(obj.name)  # a tensor of an earlier trace: the same name in this one
        return original(obj)

    _tf_hooks._as_graph_element = as_graph_element
    try:
        yield
    finally:
        _tf_hooks._as_graph_element = original


def _state_copy(hook):
    """A copy whose begin() cannot disturb the original (timers, counters, dicts copied)."""
    replica = copy.copy(hook)
    for key, value in vars(hook).items():
        try:
            setattr(replica, key, copy.copy(value))
        except Exception:  # noqa: BLE001 - an attribute that cannot be copied stays shared
            pass
    return replica
