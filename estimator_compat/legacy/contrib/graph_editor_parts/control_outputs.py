"""`ControlOutputs`: which ops name each op as a control input (a graph only records the
other direction), rebuilt when the graph's version moves on."""
import tensorflow as tf


class ControlOutputs:
    """The control outputs of every op of a graph."""

    def __init__(self, graph):
        if not isinstance(graph, tf.Graph):
            raise TypeError(f"Expected a tf.Graph, got: {type(graph)}")
        self._control_outputs = {}
        self._graph = graph
        self._version = None
        self._build()

    def update(self):
        """Rebuild if the graph changed since; returns self."""
        if self._version != self._graph.version:
            self._build()
        return self

    def _build(self):
        self._control_outputs.clear()
        for op in self._graph.get_operations():
            for control_input in op.control_inputs:
                users = self._control_outputs.setdefault(control_input, [])
                if op not in users:
                    users.append(op)
        self._version = self._graph.version

    def get_all(self):
        return self._control_outputs

    def get(self, op):
        """The ops with `op` among their control inputs (an empty tuple if none)."""
        return self._control_outputs.get(op, ())

    @property
    def graph(self):
        return self._graph
