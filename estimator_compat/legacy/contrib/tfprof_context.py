"""`tf.contrib.tfprof.ProfileContext`: TF 1.15's profiling context (TF 2.21 dropped the class
but keeps the profiler it drives, `model_analyzer.Profiler`).

Inside the context every `Session.run` is a step: chosen steps run with a full trace and their
RunMetadata is added to the profiler, profiles are written to `<profile_dir>/profile_<step>` at
the dump steps, and `add_auto_profiling` runs profiling commands at given steps. Without
`trace_steps`, steps after the 10 warm-up ones are traced automatically: each new set of
fetches once, then (while the profiler's coverage is under half, up to step 100) now and then.
"""
import contextlib
import os
import random
import sys
import threading

from tensorflow.core.protobuf import config_pb2
from tensorflow.python.client import session
from tensorflow.python.framework import errors, ops
from tensorflow.python.platform import gfile
from tensorflow.python.profiler import model_analyzer
from tensorflow.python.util import _pywrap_tfprof, compat

WARMUP_STEPS = 10
MAX_TRACED_STEPS = 100
_COMMANDS = {"graph": "profile_graph", "scope": "profile_name_scope",
             "op": "profile_operations", "code": "profile_python"}


def _traced_run(sess, context, step, fetches, feed_dict, options, run_metadata):
    """One step run with a full trace, its RunMetadata added to the profiler."""
    run_metadata = run_metadata or config_pb2.RunMetadata()
    if options is None:
        options = config_pb2.RunOptions(trace_level=config_pb2.RunOptions.FULL_TRACE)
        old_level = options.trace_level
    else:
        old_level = options.trace_level
        options.trace_level = config_pb2.RunOptions.FULL_TRACE
    result = sess._profiler_run_internal(fetches, feed_dict, options, run_metadata)
    if context._debug:
        context._dump_file(run_metadata, "run_meta_%d" % step)
    context.profiler._graph = sess.graph
    context.profiler.add_step(step, run_metadata)
    options.trace_level = old_level
    return result


def _profiled_run(self, fetches, feed_dict=None, options=None, run_metadata=None):
    """Session.run while a ProfileContext is open."""
    context = self.profile_context
    with context._new_step() as (step, locked):
        if locked and not context._is_fast_path(step):
            if context._should_trace(step, self.graph, fetches):
                if context._debug:
                    sys.stderr.write("debug: tracing step: %d\n" % step)
                result = _traced_run(self, context, step, fetches, feed_dict, options,
                                     run_metadata)
            else:
                result = self._profiler_run_internal(fetches, feed_dict, options)
            context._maybe_dump(step)
            for cmd, opts, _ in context._profile_candidates():
                if cmd not in _COMMANDS:
                    raise ValueError("Unknown cmd: %s\n" % cmd)
                if context._debug:
                    sys.stderr.write("debug: profiling %s step: %d\n" % (cmd, step))
                views = context._views.setdefault(cmd, {})
                views[step] = getattr(context.profiler, _COMMANDS[cmd])(opts)
            return result
    return self._profiler_run_internal(fetches, feed_dict, options, run_metadata)


def _profiled_init(self, target="", graph=None, config=None):
    self._profiler_init_internal(target, graph, config)


class ProfileContext:
    """Captures RunMetadata of chosen session steps and profiles them (`with
    ProfileContext(profile_dir, trace_steps, dump_steps) as pctx: ...`)."""

    def __init__(self, profile_dir, trace_steps=None, dump_steps=None, enabled=True,
                 debug=False):
        self._enabled = enabled
        if not enabled:
            return
        self._debug = debug
        if not profile_dir:
            raise ValueError("Must have a directory for profile.\n")
        self._profiler_dir = profile_dir
        self._auto_tracing = trace_steps is None
        if trace_steps is not None and len(trace_steps) > MAX_TRACED_STEPS:
            raise ValueError("Only support tracing up to 100 steps.\n")
        self._trace_steps = set(trace_steps or ())
        self._dump_steps = {MAX_TRACED_STEPS} if dump_steps is None else set(dump_steps)
        self._rng = random.Random(111)
        self._fetched = set()
        self._slow_path_steps = self._dump_steps | self._trace_steps
        self._trace_next_step = False
        self._dump_next_step = False
        self._step = 0
        self._traced_steps = 0
        self._auto_profiles = []
        self._profiler = None
        self._views = {}
        self._lock = threading.Lock()

    def get_profiles(self, cmd):
        """{step: profile} of the auto-profiling command `cmd`."""
        if cmd not in self._views:
            raise ValueError("No autoprofiler for command: {}, was run".format(cmd))
        return self._views[cmd]

    def add_auto_profiling(self, cmd, options, profile_steps):
        """Traces and runs the profiling command `cmd` ("scope", "op", "code", "graph")
        with `options` at the session-run steps `profile_steps`."""
        if not self._enabled:
            return
        self._auto_profiles.append((cmd, options, list(profile_steps)))
        self._slow_path_steps |= set(profile_steps)
        self._trace_steps |= set(profile_steps)

    @property
    def profiler(self):
        """The context's `Profiler` (of the default graph), made on first use."""
        if not self._enabled:
            return None
        if not self._profiler:
            self._profiler = model_analyzer.Profiler(ops.get_default_graph())
        return self._profiler

    def trace_next_step(self):
        if not self._enabled:
            return
        self._trace_next_step = True
        self._slow_path_steps.add(self._step)

    def dump_next_step(self):
        if not self._enabled:
            return
        self._dump_next_step = True
        self._slow_path_steps.add(self._step)

    def _is_fast_path(self, step):
        if step in self._slow_path_steps:
            return False
        return not (self._auto_tracing and step > WARMUP_STEPS
                    and self._traced_steps <= MAX_TRACED_STEPS)

    def _should_trace(self, step, graph, fetches):
        if self._traced_steps > MAX_TRACED_STEPS:
            return False
        if step in self._trace_steps or self._trace_next_step:
            self._traced_steps += 1
            return True
        if self._auto_tracing and step > WARMUP_STEPS:
            with graph.as_default():
                mapper = session._FetchMapper.for_fetch(fetches)  # pylint: disable=protected-access
                name = "-".join(sorted(f.name for f in mapper.unique_fetches()))
            if self._debug:
                sys.stderr.write("debug: trace fetches: %s\n" % name)
            if name not in self._fetched:
                self._fetched.add(name)
                self._traced_steps += 1
                return True
            if (self.profiler._coverage < 0.5 and step < MAX_TRACED_STEPS
                    and self._rng.randint(0, 10) < 2):
                self._traced_steps += 1
                return True
        return False

    def _maybe_dump(self, step):
        if not (step in self._dump_steps or self._dump_next_step):
            return
        if self._debug:
            sys.stderr.write("debug: dumping file at step: %d\n" % step)
        if not gfile.Exists(self._profiler_dir):
            gfile.MakeDirs(self._profiler_dir)
        self.profiler._write_profile(os.path.join(compat.as_bytes(self._profiler_dir),
                                                  compat.as_bytes("profile_%d" % step)))

    def _dump_file(self, pb, basename):
        if not gfile.Exists(self._profiler_dir):
            gfile.MakeDirs(self._profiler_dir)
        with gfile.Open(os.path.join(self._profiler_dir, basename), "w") as f:
            f.write("%s" % pb)

    @contextlib.contextmanager
    def _new_step(self):
        acquired = self._lock.acquire(False)
        yield (self._step, acquired)
        self._step += 1
        self._trace_next_step = False
        self._dump_next_step = False
        if acquired:
            self._lock.release()

    def _profile_candidates(self):
        return [p for p in self._auto_profiles if self._step in p[2]]

    def __enter__(self):
        if not self._enabled:
            return self
        base = session.BaseSession
        if getattr(base, "_profiler_run_internal", None) or getattr(
                base, "_profiler_init_internal", None):
            raise errors.InternalError(None, None, "Already in context or context not cleaned.")
        self.old_run, self.old_init = base.run, base.__init__
        base.run, base.__init__ = _profiled_run, _profiled_init
        base._profiler_run_internal, base._profiler_init_internal = self.old_run, self.old_init
        base.profile_context = self
        return self

    def __exit__(self, exec_type, exec_value, exec_tb):
        if not self._enabled:
            return
        _pywrap_tfprof.DeleteProfiler()
        base = session.BaseSession
        base.run, base.__init__ = self.old_run, self.old_init
        base._profiler_run_internal = base._profiler_init_internal = None
        base.profile_context = None
