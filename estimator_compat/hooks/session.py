"""The `session` handed to hooks: the parts of tf.compat.v1.Session that hooks use.

`run(fetches)` takes variables, eager tensors, and graph tensors / ops / their names from the
mode's trace graph, in any nest of dicts, lists and tuples; values come back as numpy. A graph
tensor is computed by a function cut out of the step's graph, so it gives the *current* value
(e.g. a read of global_step, a metric's value op) — as a TF1 Session did (see graph_reader). Ops
and tensors of an input_fn's own TF1 graph (`iterator.initializer` with the `feed_dict` of its
placeholders) run in that input's session (engine/session_input.py). A model tensor or op that
needs the input batch (TF-GAN's RunTrainOpsHook runs a train op) reads a fresh batch from the
call's iterator, as a TF1 session did (steps_per_execution 1). Not supported: `feed_dict`
into the model, `options` and `run_metadata`. `graph` is the mode's trace graph.
"""
from estimator_compat.engine import fetches as fetch_lib
from estimator_compat.engine import session_input
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
        if feed_dict:
            raise ValueError("session.run(feed_dict=...) is not supported by estimator_compat: "
                             "the model runs as a compiled tf.function with no placeholders.")
        structure, resolved = fetch_lib.flatten(fetches)
        keys = tuple(f.key for f in resolved if f.kind in ("graph", "op"))
        values = dict(zip(keys, self._run_graph(keys))) if keys else {}
        return fetch_lib.pack(structure, resolved, values)

    def _run_graph(self, keys):
        if self.graph is None:
            raise RuntimeError("session.run of graph tensors before the model_fn was traced.")
        cache_key = (id(self.graph), keys)
        fn = self._readers.get(cache_key)
        if fn is None:
            targets = [fetch_lib.lookup(self.graph, k) if ":" in k else _op(self.graph, k)
                       for k in keys]
            try:  # what needs no input: its current value
                fn = graph_reader.make_reader(self.graph, targets)
            except graph_reader.InputDependent as e:
                if all(k in self.last_values for k in keys):  # computed by the last step
                    return [self.last_values[k] for k in keys]
                try:  # else on a fresh batch, as a TF1 session ran it (a hook's train op)
                    fn = graph_reader.make_reader(self.graph, targets,
                                                  iterator=_resource(self.iterator))
                except graph_reader.InputDependent:
                    raise ValueError(
                        f"session.run: {e}. Outside the compiled step a hook can run what "
                        "depends on the input batch only with steps_per_execution=1; return "
                        "such tensors from before_run as SessionRunArgs fetches instead."
                    ) from None
            self._readers[cache_key] = fn
        outs = fn(_resource(self.iterator)) if getattr(fn, "takes_iterator", False) else fn()
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        return [o.numpy() if hasattr(o, "numpy") and ":" in k else None  # an op's: None
                for k, o in zip(keys, outs)]

    def should_stop(self):
        return False


def _resource(iterator):
    """A tf.data iterator's resource handle (None for other iterators: distributed ones)."""
    return getattr(iterator, "_iterator_resource", None)


def _op(graph, name):
    try:
        return graph.get_operation_by_name(name)
    except (KeyError, ValueError):
        raise ValueError(fetch_lib.missing_message(graph, name)) from None
