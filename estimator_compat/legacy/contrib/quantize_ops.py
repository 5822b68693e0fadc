"""The pieces `tf.contrib.quantize`'s rewrites insert, as TF 1.15 made them: FakeQuant ops with
min / max variables (last-value or moving-average ranges), the `fake_quantization_step`
counter, and rerouting a tensor's consumers in place."""
import collections
import re

import tensorflow as tf
from tensorflow.python.training import moving_averages

_v1 = tf.compat.v1

SKIPPED_PREFIXES = ("gradients/", "RMSProp/", "Adagrad/", "Const_", "HistogramSummary",
                    "ScalarSummary")
_BATCHNORM_RE = re.compile(r"^(.*)BatchNorm/batchnorm")


def consumers_map(graph):
    """{tensor: set of ops that read it} (ops under SKIPPED_PREFIXES left out)."""
    mapping = collections.defaultdict(set)
    for op in graph.get_operations():
        if op.name.startswith(SKIPPED_PREFIXES):
            continue
        for tensor in op.inputs:
            mapping[tensor].add(op)
    return mapping


def consumer_ops(mapping, producer):
    out = set()
    for tensor in producer.outputs:
        out.update(mapping[tensor])
    return out


def batch_norm_groups(graph):
    """The scope prefixes of slim's unfused batch norms (`<prefix>BatchNorm/batchnorm...`)."""
    found = []
    for op in graph.get_operations():
        match = _BATCHNORM_RE.search(op.name)
        if match and not match.group(1).startswith(SKIPPED_PREFIXES):
            found.append(match.group(1))
    return list(dict.fromkeys(found))


def endpoint_activation(graph, prefix):
    for suffix in ("Relu6", "Relu", "Identity"):
        try:
            return graph.get_operation_by_name(prefix + suffix)
        except KeyError:
            pass
    return None


def quantization_step():
    """The `fake_quantization_step` int64 variable's incremented value (made once a graph)."""
    graph = _v1.get_default_graph()
    try:
        return graph.get_tensor_by_name("fake_quantization_step/Identity:0")
    except KeyError:
        with graph.name_scope(None):
            step = _v1.get_variable(
                "fake_quantization_step", shape=[], dtype=tf.int64,
                initializer=_v1.zeros_initializer(), trainable=False,
                collections=[_v1.GraphKeys.GLOBAL_VARIABLES],
                aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
            with graph.name_scope(step.op.name + "/"):
                return tf.identity(_v1.assign_add(step, 1))


def reroute(new, old, can_modify=None):
    """Make the consumers of `old` (those in `can_modify`, if given) read `new`: the count of
    inputs changed."""
    consumers = old.consumers()
    if can_modify is not None:
        consumers = [c for c in consumers if c in can_modify]
    positions = {c: [i for i, t in enumerate(c.inputs) if t is old] for c in consumers}
    count = 0
    for consumer in consumers:
        for i in positions[consumer]:
            consumer._update_input(i, new)  # noqa: SLF001 - the in-place rewrite TF 1.15 made
            count += 1
    return count


def _range_variable(name, shape, value, collections):
    return _v1.get_variable(name, shape=shape, initializer=_v1.constant_initializer(value),
                            collections=list(collections) + [_v1.GraphKeys.GLOBAL_VARIABLES],
                            trainable=False, aggregation=tf.VariableAggregation.MEAN)


def _batch_range(inputs, per_channel, num_bits, narrow_range, symmetric):
    rank = len(inputs.shape)
    if per_channel and rank < 2:
        batch_min = batch_max = inputs
    else:
        axis = ({2: [0], 4: [0, 1, 2]}.get(rank) if per_channel else None)
        batch_min = tf.reduce_min(inputs, axis=axis, name="BatchMin")
        batch_max = tf.reduce_max(inputs, axis=axis, name="BatchMax")
    if symmetric:
        ratio = -1 if narrow_range else -((1 << num_bits) - 2) / (1 << num_bits)
        return (tf.minimum(batch_min, batch_max / ratio),
                tf.maximum(batch_max, batch_min * ratio))
    return tf.minimum(batch_min, 0.0), tf.maximum(batch_max, 0.0)


def _fake_quant(inputs, low, high, per_channel, num_bits, narrow_range):
    quant = (tf.quantization.fake_quant_with_min_max_vars_per_channel if per_channel
             else tf.quantization.fake_quant_with_min_max_vars)
    return quant(inputs, low, high, num_bits=num_bits, narrow_range=narrow_range)


def _quantize(inputs, moving, per_channel, init_min, init_max, ema_decay, vars_collection,
              name_prefix, reuse, is_training, num_bits, narrow_range, symmetric):
    with _v1.variable_scope(None, default_name=name_prefix, values=[inputs],
                            reuse=reuse) as scope:
        scope.set_partitioner(None)
        if per_channel:
            assert len(inputs.shape) in (1, 2, 4), (
                "Expected 1D, 2D or 4D input, was: %s in  scope: %s" % (inputs.shape,
                                                                        name_prefix))
        shape = [inputs.shape[-1]] if per_channel else []
        collections = [vars_collection] if vars_collection else []
        low = _range_variable("min", shape, init_min, collections)
        high = _range_variable("max", shape, init_max, collections)
        if is_training:
            range_min, range_max = _batch_range(inputs, per_channel, num_bits, narrow_range,
                                                symmetric)
            if moving:
                low = moving_averages.assign_moving_average(low, range_min, ema_decay,
                                                            name="AssignMinEma")
                high = moving_averages.assign_moving_average(high, range_max, ema_decay,
                                                             name="AssignMaxEma")
            else:
                low = _v1.assign(low, range_min, name="AssignMinLast")
                high = _v1.assign(high, range_max, name="AssignMaxLast")
        return _fake_quant(inputs, low, high, per_channel, num_bits, narrow_range)


def last_value_quantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0,
                        vars_collection=None, name_prefix="LastValueQuant", reuse=None,
                        is_training=True, num_bits=8, narrow_range=False, symmetric=False):
    """FakeQuant of `inputs` in [min, max] variables set to each batch's range (training)."""
    return _quantize(inputs, False, per_channel, init_min, init_max, None, vars_collection,
                     name_prefix, reuse, is_training, num_bits, narrow_range, symmetric)


def moving_avg_quantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0,
                        ema_decay=0.999,
                        vars_collection=_v1.GraphKeys.MOVING_AVERAGE_VARIABLES,
                        name_prefix="MovingAvgQuantize", reuse=None, is_training=True,
                        num_bits=8, narrow_range=False, symmetric=False):
    """FakeQuant of `inputs` in [min, max] variables that follow the batch ranges' moving
    average (training)."""
    return _quantize(inputs, True, per_channel, init_min, init_max, ema_decay,
                     vars_collection, name_prefix, reuse, is_training, num_bits, narrow_range,
                     symmetric)
