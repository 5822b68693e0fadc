"""Runs a mode's hooks around each compiled step: SessionRunHooks and Keras callbacks.

SessionRunHooks get their TF1 protocol (begin inside the trace, before_run/after_run around each
step with their fetches, end). Keras callbacks get the matching on_{train,test,predict}_* calls
with `logs` holding the step's loss and global_step, and may stop training by setting
`stop_training` on the object they were given as `model`.
"""
import keras
import tensorflow as tf

from estimator_compat.engine import fetches as fetch_lib
from estimator_compat.hooks import SessionRunArgs, SessionRunContext, SessionRunValues
from estimator_compat.hooks.session import HookSession
from estimator_compat.mode_keys import ModeKeys

_KERAS_PREFIX = {ModeKeys.TRAIN: "train", ModeKeys.EVAL: "test", ModeKeys.PREDICT: "predict"}


class _ModelHandle:
    """What Keras callbacks see as `self.model`: a stop flag and the Estimator."""

    def __init__(self, estimator):
        self.estimator = estimator
        self.stop_training = False


class HookRunner:
    def __init__(self, mode, hooks, estimator=None):
        self._mode = mode
        self._session_hooks, self._callbacks = [], []
        self._model = _ModelHandle(estimator)
        self._step_index = 0
        self.add(hooks)
        self.session = HookSession()
        self._requests = []
        self.stop_requested = False

    def add(self, hooks):
        for hook in hooks or ():
            if isinstance(hook, keras.callbacks.Callback):
                hook.set_model(self._model)
                self._callbacks.append(hook)
            elif isinstance(hook, tf.compat.v1.train.SessionRunHook):
                self._session_hooks.append(hook)
            else:
                raise TypeError(f"All hooks must be SessionRunHook instances (or Keras "
                                f"callbacks), given: {hook!r}")

    # -- lifecycle ----------------------------------------------------------------------------
    def begin(self, graph):
        """Called inside the trace graph, after model_fn, as MonitoredSession did."""
        self.session.graph = graph
        for hook in self._session_hooks:
            hook.begin()

    def after_create_session(self):
        for hook in self._session_hooks:
            hook.after_create_session(self.session, None)
        self._keras("begin", {})

    def before_step(self):
        """Asks every hook for its fetches; returns the graph names the step must return."""
        names = set()
        self._requests = []
        self._keras("batch_begin", {}, self._step_index)
        for hook in self._session_hooks:
            context = SessionRunContext(original_args=SessionRunArgs([]), session=self.session)
            args = hook.before_run(context)
            if args is not None and not isinstance(args, SessionRunArgs):
                raise TypeError(f"{type(hook).__name__}.before_run must return SessionRunArgs "
                                f"or None, given: {args!r}")
            if args is not None and args.feed_dict:
                raise ValueError(f"{type(hook).__name__} feeds {list(args.feed_dict)}: feed_dict "
                                 "cannot be honoured by a compiled step; make the value an input "
                                 "of input_fn instead.")
            structure, resolved = fetch_lib.flatten(args.fetches if args is not None else None)
            names.update(f.key for f in resolved if f.kind == "graph")
            self._requests.append((hook, context, structure, resolved))
            if context.stop_requested:
                self.stop_requested = True
        return names

    def after_step(self, step_values, logs):
        """Hands each hook its fetched values; Keras callbacks get `logs`."""
        for hook, context, structure, resolved in self._requests:
            results = fetch_lib.pack(structure, resolved, step_values)
            hook.after_run(context, SessionRunValues(results=results, options=None,
                                                     run_metadata=None))
            if context.stop_requested:
                self.stop_requested = True
        self._keras("batch_end", logs, self._step_index)
        self._step_index += 1
        if self._model.stop_training:
            self.stop_requested = True

    def end(self, logs=None):
        for hook in self._session_hooks:
            hook.end(self.session)
        self._keras("end", logs or {})

    def _keras(self, event, logs, index=None):
        prefix = _KERAS_PREFIX[self._mode]
        for cb in self._callbacks:
            method = getattr(cb, f"on_{prefix}_{event}")
            method(logs) if index is None else method(index, logs)
