"""The `session` handed to hooks: the parts of tf.compat.v1.Session that hooks use.

`run(fetches)` takes variables, eager tensors, and graph tensors / ops / their names from the
mode's trace graph, in any nest of dicts, lists and tuples; values come back as numpy. A graph
tensor is computed by a function cut out of the step's graph, so it gives the *current* value
(e.g. a read of global_step, a metric's value op) — as a TF1 Session did (see graph_reader). Ops
and tensors of an input_fn's own TF1 graph (`iterator.initializer` with the `feed_dict` of its
placeholders) run in that input's session (engine/session_input.py). A model tensor or op that
needs the input batch (TF-GAN's RunTrainOpsHook runs a train op) reads a fresh batch from the
call's iterator, as a TF1 session did (steps_per_execution 1). `feed_dict` replaces tensors of
the trace graph (a placeholder the hook made in begin(): 2.15's _MultiWorkerEarlyStoppingHook
feeds its stop value), keys and values checked as TF1 did (hooks/feeds.py); a fetched tensor
that is fed gives the fed value. The step itself runs what the hooks' begin() made, so a
placeholder a hook feeds must be a `placeholder_with_default` if a stateful op the step runs
uses it. Not supported: `options` and `run_metadata`. `graph` is the mode's trace graph.
"""
import tensorflow as tf
from tensorflow.python.ops import gen_resource_variable_ops

from estimator_compat.engine import fetches as fetch_lib
from estimator_compat.engine import session_input
from estimator_compat.hooks import feeds as feed_lib
from estimator_compat.hooks import graph_reader


class HookSession:
    def __init__(self, graph=None, state=None):
        self.graph = graph
        self.state = state
        self.last_values = {}
        self._readers = {}
        self.iterator = None  # the call's input iterator (engine/run_step.py)

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        input_session = session_input.session_of(fetches)
        if input_session is not None:
            return input_session.run(fetches, feed_dict, options, run_metadata)
        leaves = tf.nest.flatten(fetches)
        writes = {i: leaf for i, leaf in enumerate(leaves) if _is_unread(leaf)}
        if writes:  # an assign's result (resource variables): the write, then a read
            flat = tf.nest.flatten(self.run(tf.nest.pack_sequence_as(fetches, [
                writes[i].op if i in writes else leaf for i, leaf in enumerate(leaves)]),
                feed_dict))
            flat = [self._read_written(writes[i]) if i in writes else value
                    for i, value in enumerate(flat)]
            return tf.nest.pack_sequence_as(fetches, flat)
        structure, resolved = fetch_lib.flatten(fetches)
        fed = []
        if feed_dict:
            if self.graph is None:
                raise RuntimeError("session.run(feed_dict=...) before the model_fn was traced.")
            fed = feed_lib.resolve(self.graph, feed_dict)
        fed_values = {t.name: v for t, v in fed}
        keys = tuple(f.key for f in resolved if f.kind in ("graph", "op"))
        run = tuple(k for k in keys if k not in fed_values)  # a fed tensor: its fed value
        values = dict(zip(run, self._run_graph(run, fed))) if run else {}
        values.update((k, fed_values[k]) for k in keys if k in fed_values)
        return fetch_lib.pack(structure, resolved, values)

    def _run_graph(self, keys, fed=()):
        if self.graph is None:
            raise RuntimeError("session.run of graph tensors before the model_fn was traced.")
        fed_tensors = [t for t, _ in fed]
        fed_values = [v for _, v in fed]
        cache_key = (id(self.graph), keys, tuple(t.name for t in fed_tensors))
        fn = self._readers.get(cache_key)
        if fn is None:
            targets = [fetch_lib.lookup(self.graph, k) if ":" in k else _op(self.graph, k)
                       for k in keys]
            try:  # what needs no input: its current value
                fn = graph_reader.make_reader(self.graph, targets, feeds=fed_tensors)
            except graph_reader.InputDependent as e:
                # computed by the last step (a run with feeds computes anew)
                if not fed and all(k in self.last_values for k in keys):
                    return [self.last_values[k] for k in keys]
                try:  # else on a fresh batch, as a TF1 session ran it (a hook's train op)
                    fn = graph_reader.make_reader(self.graph, targets,
                                                  iterator=_resource(self.iterator),
                                                  feeds=fed_tensors)
                except graph_reader.InputDependent:
                    raise ValueError(
                        f"session.run: {e}. Outside the compiled step a hook can run what "
                        "depends on the input batch only with steps_per_execution=1; return "
                        "such tensors from before_run as SessionRunArgs fetches instead."
                    ) from None
            self._readers[cache_key] = fn
        outs = fn(_resource(self.iterator), *fed_values) if getattr(
            fn, "takes_iterator", False) else fn(*fed_values)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        return [o.numpy() if hasattr(o, "numpy") and ":" in k else None  # an op's: None
                for k, o in zip(keys, outs)]

    def _read_written(self, unread):
        """The value of the variable an assign op of the trace graph wrote (its real variable,
        as graph_reader's function wrote it)."""
        diverted = getattr(self.graph, "_estimator_compat_diverted", {})
        handle = unread.handle
        if not tf.is_symbolic_tensor(handle):  # the variable's own (made outside the trace)
            return gen_resource_variable_ops.read_variable_op(handle, unread.dtype).numpy()
        for external, internal in self.graph.captures:
            if internal.name == handle.name:
                handle = diverted.get(id(external), external)
                return gen_resource_variable_ops.read_variable_op(handle, unread.dtype).numpy()
        raise ValueError(f"session.run: cannot find the variable {unread.handle.name!r} that "
                         f"{unread.op.name!r} writes in the model_fn's graph.")

    def should_stop(self):
        return False


def _is_unread(leaf):
    """An `assign`'s result on a resource variable in a trace graph (TF1's RefVariable gave a
    tensor, whose session.run ran the write and returned the value written)."""
    return type(leaf).__name__ == "_UnreadVariable" and isinstance(
        getattr(leaf, "op", None), tf.Operation)


def _resource(iterator):
    """A tf.data iterator's resource handle (None for other iterators: distributed ones)."""
    return getattr(iterator, "_iterator_resource", None)


def _op(graph, name):
    try:
        return graph.get_operation_by_name(name)
    except (KeyError, ValueError):
        raise ValueError(fetch_lib.missing_message(graph, name)) from None
