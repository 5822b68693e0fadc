"""EVAL and PREDICT change no model variable the spec does not need, as a TF1 session did.

TF1 model_fns often build their train_op before branching on mode; a TF1 session never ran it
when evaluating or predicting: it ran only what was fetched. `tf.function` runs every stateful
op it traces, so that optimizer would train on the evaluation data and advance global_step.
After the replicas' step is built, each op that no output (fetches included) needs and that
writes a model (global) variable is pointed at a scratch copy of that variable
(`Operation._update_input`): it runs, harmlessly. Reads are left alone (a hook may read).

TRAIN does the same for the train_ops a model_fn built and did not return (a wrapper such as
Neural Structured Learning calls the canned model_fn several times and keeps one train_op): an
optimizer's apply op or a global_step increment that the returned train_op, the loss, the
summaries and the hooks' fetches do not need. Other side writes (a Keras layer's moving
averages, which Keras 3 assigns as it calls) still run in TRAIN.
"""
import tensorflow as tf
from tensorflow.python.ops import resource_variable_ops


_APPLIES = ("ResourceApply", "ResourceSparseApply")  # the compat.v1 optimizers' update kernels
_READS = {"ReadVariableOp", "ResourceGather", "ResourceGatherNd", "VariableShape",
          "VarIsInitializedOp"}


def _ancestors(roots):
    seen, stack = set(), [r.op if isinstance(r, tf.Tensor) else r for r in roots]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return seen


def _components(variable):
    variable = variable if isinstance(variable, tf.Variable) else getattr(variable, "value", None)
    if variable is None:
        return []
    return list(getattr(variable, "values", None) or [variable])


class WriteDiverter:
    """Scratch variables (made once per model variable written needlessly) and the rewiring."""

    def __init__(self, store, *, train=False):
        self._store = store
        self._scratch = {}
        self._train = train

    def divert(self, graph, ops, outputs):
        """Points the model-variable inputs of the writes among `ops` that `outputs` do not
        need at scratch variables; returns how many inputs it changed."""
        stateful = [op for op in ops if op._is_stateful and op.type not in _READS and any(
            t.dtype == tf.resource for t in op.inputs)]
        model = {id(c.handle): c for v in self._store.saveable().values() for c in _components(v)}
        by_internal = {id(internal): model[id(external)] for external, internal in graph.captures
                       if id(external) in model}
        if self._train:  # only what a train_op does: apply gradients, advance global_step
            step = {id(c.handle) for c in _components(self._store.create_global_step())}
            step = {id(internal) for external, internal in graph.captures
                    if id(external) in step}
            stateful = [op for op in stateful
                        if op.type.startswith(_APPLIES) or id(op.inputs[0]) in step]
        if not stateful:
            return 0
        needed = _ancestors([x for x in tf.nest.flatten(outputs)
                             if isinstance(x, (tf.Tensor, tf.Operation))])
        diverted = 0
        for op in stateful:
            if op in needed:
                continue
            for index, tensor in enumerate(op.inputs):
                variable = by_internal.get(id(tensor))
                if variable is not None:
                    scratch = self._scratch_for(variable)
                    op._update_input(index, graph.capture(scratch.handle))
                    # what a hook's session.run of this op writes: the model variable, as
                    # a TF1 session wrote it (hooks/graph_reader.py)
                    if not hasattr(graph, "_estimator_compat_diverted"):
                        graph._estimator_compat_diverted = {}
                    graph._estimator_compat_diverted[id(scratch.handle)] = variable.handle
                    diverted += 1
        return diverted

    def _scratch_for(self, variable):
        scratch = self._scratch.get(id(variable))
        if scratch is None:
            with tf.init_scope(), tf.device(variable.device):
                # ResourceVariable(...) itself, not tf.Variable: no creator (the store's, a
                # strategy's) may take it for a model variable
                known = variable.shape.is_fully_defined()  # k-means' clusters: not until set
                scratch = resource_variable_ops.ResourceVariable(
                    tf.zeros(variable.shape if known else [0], variable.dtype),
                    trainable=False, name="unneeded_write_scratch",
                    shape=None if known else tf.TensorShape(None))
            self._scratch[id(variable)] = scratch
        return scratch
