"""Op-type patterns over a TF1 graph, for `tf.contrib.quantize`'s rewrites: a pattern names an
op type ('Conv2D|MatMul', '*' for any) and patterns for its inputs (in order, or in any order),
and a match records the op and tensor each pattern met.

As TF 1.15's matcher did, a try of one input order that fails part way keeps what its first
inputs matched, so `get_op` may report an op from an abandoned order (the rewrites rely on
finding the same ops TF 1.15 found).
"""
import itertools


class OpTypePattern(object):
    def __init__(self, op_type, name=None, inputs=None, ordered_inputs=True):
        inputs = inputs or []
        if len(inputs) > 8:
            raise ValueError("Only < 8 inputs are allowed when ordered_inputs is False.")
        self.op_type = op_type
        self.name = name
        self.inputs = [p if isinstance(p, (OpTypePattern, OneofPattern)) else OpTypePattern(p)
                       for p in inputs]
        self.ordered_inputs = ordered_inputs

    def match(self, op, tensor):
        if self.op_type != "*" and op.type not in self.op_type.split("|"):
            return None
        result = MatchResult()
        result.add(self, op, tensor)
        if not self.inputs:
            return result
        if len(op.inputs) != len(self.inputs):
            return None
        orders = ([self.inputs] if self.ordered_inputs
                  else itertools.permutations(self.inputs))
        for patterns in orders:
            for tensor_in, pattern in zip(op.inputs, patterns):
                found = pattern.match(tensor_in.op, tensor_in)
                if found is None:
                    break
                result.merge_from(found)
            else:
                return result
        return None


class OneofPattern(object):
    name = None

    def __init__(self, sub_patterns):
        self.sub_patterns = sub_patterns

    def match(self, op, tensor):
        for pattern in self.sub_patterns:
            found = pattern.match(op, tensor)
            if found is not None:
                return found
        return None


class MatchResult(object):
    def __init__(self):
        self._found = {}  # pattern -> (op, tensor)

    def add(self, pattern, op, tensor):
        self._found[pattern] = (op, tensor)

    def merge_from(self, other):
        self._found.update(other._found)

    def get_op(self, pattern):
        return self._found.get(pattern, (None, None))[0]

    def get_tensor(self, pattern):
        return self._found.get(pattern, (None, None))[1]


def match_graph(pattern, graph):
    """The matches of `pattern` rooted at each op of `graph`, in the graph's op order."""
    for op in graph.get_operations():
        found = pattern.match(op, None)
        if found is not None:
            yield found
