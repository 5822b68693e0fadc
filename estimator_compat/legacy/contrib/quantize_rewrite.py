"""The FakeQuant insertion of `tf.contrib.quantize`, as TF 1.15 rewrote a TF1 graph in place.

Each conv / depthwise conv / matmul layer found (with its weights read from a variable or a
folded `mul_fold`, an optional bias add, residual bypass add and Relu / Relu6 / Identity
activation) gets `<layer scope>/weights_quant` (last-value range, narrow) on its weights and
moving-average ranges on its activation (`act_quant`), its pre-bypass output (`conv_quant`),
its bypass (`add_quant`) and a bypass after the activation (`post_activation_bypass_quant`);
Add / Mul ops fed by quantized values get `activation_<type>_quant`. A `quant_delay` switches
each FakeQuant on at that `fake_quantization_step`.
"""
import re

import tensorflow as tf

from estimator_compat.legacy.contrib import quantize_ops as qops
from estimator_compat.legacy.contrib.quantize_matcher import OneofPattern, OpTypePattern
from estimator_compat.legacy.contrib.quantize_matcher import match_graph

_v1 = tf.compat.v1

_QUANTIZABLE = "Conv2D|MatMul|DepthwiseConv2dNative"
_ACTIVATIONS = {"Relu", "Relu6", "Identity"}
_RELUS = {"Relu", "Relu6"}
_VALID_SRC = {"Add", "AddV2", "Mul"}
_PASS_THROUGH = {"Reshape", "Identity", "BatchToSpaceND", "SpaceToBatchND", "MaxPool", "Max"}
_FAKE_QUANT = {"FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxArgs",
               "FakeQuantWithMinMaxVarsPerChannel"}


def _parent_scope(name):
    match = re.search(r"^(.*)/([^/]+)", name)
    return match.group(1) if match else ""


class _Patterns(object):
    """The layer patterns TF 1.15 looked for."""

    def __init__(self):
        P = OpTypePattern
        var = P("Variable|VariableV2")
        partition_identity = P("Identity", inputs=[var])
        partition_concat = P("ConcatV2", inputs=[partition_identity, "*", "*"])
        self.weight_identity = P("Identity", inputs=[
            OneofPattern([partition_identity, partition_concat, var])])
        self.weight_resource = P("ReadVariableOp")
        self.folded_weight = P("Mul")
        self.layer = P(_QUANTIZABLE, inputs=[P("*"), OneofPattern([
            self.weight_identity, self.weight_resource, self.folded_weight])],
            ordered_inputs=False)
        batch_to_space = P("BatchToSpaceND", inputs=[self.layer, P("*"), P("*")])
        layer_output = OneofPattern([batch_to_space, self.layer])
        self.sep_conv = P(_QUANTIZABLE, inputs=[OneofPattern([layer_output]), P("*")],
                          ordered_inputs=False)
        folded_bias_mul = P("Mul", inputs=[P("*"), layer_output], ordered_inputs=False)
        correction = P("Add|AddV2", inputs=[folded_bias_mul, P("*")], ordered_inputs=False)
        self.folded_bias_add = P("Add|AddV2", inputs=[correction, P("*")],
                                 ordered_inputs=False)
        bn_identity = P("Identity", inputs=[self.folded_bias_add])
        self.bias_add = P("Add|AddV2|BiasAdd", inputs=[layer_output, "*"],
                          ordered_inputs=False)
        self.bypass = P("Add|AddV2", inputs=[
            OneofPattern([self.bias_add, self.folded_bias_add, bn_identity]), "*"],
            ordered_inputs=False)
        self.activation = P("|".join(sorted(_ACTIVATIONS)) + "|Identity", inputs=[
            OneofPattern([self.bias_add, self.folded_bias_add, bn_identity, self.bypass,
                          self.layer])])
        self.post_activation_bypass = P("Add|AddV2", inputs=["*", self.activation],
                                        ordered_inputs=False)

    def weight(self, match, folded=True):
        tensor = match.get_tensor(self.weight_identity)
        if tensor is None:
            tensor = match.get_tensor(self.weight_resource)
        if tensor is None and folded:
            tensor = match.get_tensor(self.folded_weight)
        return tensor

    def bias(self, match):
        op = match.get_op(self.bias_add)
        return op if op is not None else match.get_op(self.folded_bias_add)


def _is_skip_layer(activation):
    """An Identity after a conv / fc that feeds a fused batch norm is left alone."""
    if activation.type == "Identity" and len(activation.outputs) == 1:
        consumers = activation.outputs[0].consumers()
        return len(consumers) == 1 and consumers[0].type in ("FusedBatchNorm",
                                                              "FusedBatchNormV3")
    return False


def _find_layers(graph):
    """[(layer, weights, activation, bypass, post_activation_bypass, bias_add)], each layer
    once, in TF 1.15's order of preference."""
    p = _Patterns()
    found, seen = [], set()

    def add(layer, *rest):
        if layer not in seen:
            seen.add(layer)
            found.append((layer,) + rest)
    for m in match_graph(p.post_activation_bypass, graph):
        add(m.get_op(p.layer), p.weight(m), m.get_op(p.activation), m.get_op(p.bypass),
            m.get_op(p.post_activation_bypass), p.bias(m))
    for m in match_graph(p.activation, graph):
        layer = m.get_op(p.layer)
        activation = m.get_op(p.activation)
        if layer not in seen and not _is_skip_layer(activation):
            add(layer, p.weight(m), activation, m.get_op(p.bypass), None, p.bias(m))
    for m in match_graph(OneofPattern([p.bias_add, p.folded_bias_add]), graph):
        add(m.get_op(p.layer), p.weight(m), p.bias(m), None, None, None)
    for m in match_graph(p.sep_conv, graph):
        add(m.get_op(p.layer), p.weight(m, folded=False), m.get_op(p.layer), None, None, None)
    return found


def _followed_by_fake_quant(tensor):
    consumers = list(tensor.consumers())
    while consumers:
        consumer = consumers.pop()
        if consumer.type in _FAKE_QUANT:
            return True
        if consumer.type in ("Reshape", "Identity"):
            for output in consumer.outputs:
                consumers.extend(output.consumers())
    return False


def _insert(context, name, producer, consumers, is_training, moving_avg=True, init_min=-6.0,
            init_max=6.0, bits=8, symmetric=False, ema_decay=0.999, quant_delay=None,
            vars_collection=_v1.GraphKeys.GLOBAL_VARIABLES, narrow_range=False,
            producer_scope=None, consumer_scope=None):
    """A FakeQuant after `producer`'s first output, read by `consumers` instead."""
    if producer_scope and not producer.name.startswith(producer_scope):
        return
    if consumer_scope:
        if any(not c.name.startswith(consumer_scope) for c in consumers):
            return
    prefix = context + "/" + name if context else name
    scope = _v1.get_default_graph().get_name_scope()
    if scope and prefix.startswith(scope + "/"):
        prefix = prefix[len(scope) + 1:]
    inputs = producer.outputs[0]
    if _followed_by_fake_quant(inputs):
        return
    quantize = qops.moving_avg_quantize if moving_avg else qops.last_value_quantize
    options = dict(ema_decay=ema_decay) if moving_avg else {}
    quant = quantize(inputs, init_min=init_min, init_max=init_max, is_training=is_training,
                     num_bits=bits, symmetric=symmetric, narrow_range=narrow_range,
                     vars_collection=vars_collection, name_prefix=prefix, **options)
    if quant_delay and quant_delay > 0:
        active = tf.greater_equal(qops.quantization_step(), quant_delay,
                                  name=prefix + "/activate_quant")
        quant = _v1.cond(active, lambda: quant, lambda: inputs, name=prefix + "/delayed_quant")
    if consumers:
        if qops.reroute(quant, inputs, can_modify=consumers) < len(consumers):
            raise ValueError("No inputs quantized for ops: [%s]" % ", ".join(
                c.name for c in consumers))


def _is_delayed_quant(op):
    """The output of a `delayed_quant` cond (a Merge in TF 1.15's control flow, an If in
    TensorFlow 2's)."""
    return op.name.find("delayed_quant/Merge") > 0 or (
        op.type in ("If", "StatelessIf") and op.name.endswith("/delayed_quant"))


def _quantizable_source(op, quantized):
    """Whether an Add / Mul reads (through pass-through ops) a quantized value and is not
    followed by its own Relu."""
    if op in quantized or op.type not in _VALID_SRC:
        return False
    if len(op.outputs) == 1 and len(op.outputs[0].consumers()) == 1:
        if op.outputs[0].consumers()[0].type in _RELUS:
            return False
    for tensor in op.inputs:
        source = tensor.op
        while source.type in _PASS_THROUGH:
            source = source.inputs[0].op
        if source.type == "FakeQuantWithMinMaxVars" or _is_delayed_quant(source):
            return True
        if source.type in _VALID_SRC:
            if any(_quantizable_source(t.op, quantized) for t in source.inputs):
                return True
    return False


def quantize(graph, is_training, weight_bits=8, activation_bits=8, symmetric=False,
             ema_decay=0.999, quant_delay=None, vars_collection=_v1.GraphKeys.GLOBAL_VARIABLES,
             scope=None):
    """Insert FakeQuant ops into `graph` (TF 1.15's `quantize.Quantize`)."""
    if scope and not scope.endswith("/"):
        scope += "/"
    consumers = qops.consumers_map(graph)
    common = dict(ema_decay=ema_decay, quant_delay=quant_delay,
                  vars_collection=vars_collection, symmetric=symmetric)
    quantized = set()
    for layer, weights, activation, bypass, post_bypass, bias_add in _find_layers(graph):
        context = _parent_scope(layer.name)
        if weights is not None:
            _insert(context, "weights_quant", weights.op,
                    qops.consumer_ops(consumers, weights.op), is_training, moving_avg=False,
                    narrow_range=True, bits=weight_bits, consumer_scope=scope, **common)
        add_context = _parent_scope(context) if bypass else context
        if activation is not None:
            _insert(add_context, "act_quant", activation,
                    qops.consumer_ops(consumers, activation), is_training,
                    bits=activation_bits, init_min=0.0, producer_scope=scope, **common)
            quantized.add(activation)
        if bypass is not None:
            _insert(context, "conv_quant", bias_add, qops.consumer_ops(consumers, bias_add),
                    is_training, bits=activation_bits, producer_scope=scope,
                    consumer_scope=scope, **common)
            quantized.add(bias_add)
            readers = qops.consumer_ops(consumers, bypass)
            if not any(c.type in _ACTIVATIONS for c in readers):
                _insert(add_context, "add_quant", bypass, readers, is_training,
                        bits=activation_bits, producer_scope=scope, consumer_scope=scope,
                        **common)
                quantized.add(bypass)
        if post_bypass is not None:
            readers = qops.consumer_ops(consumers, post_bypass)
            if not any(c.type in _RELUS for c in readers):
                _insert(_parent_scope(post_bypass.name), "post_activation_bypass_quant",
                        post_bypass, readers, is_training, bits=activation_bits,
                        producer_scope=scope, **common)
                quantized.add(post_bypass)
    consumers = qops.consumers_map(graph)
    for op in graph.get_operations():
        if _quantizable_source(op, quantized):
            _insert(op.name, "activation_" + op.type + "_quant", op,
                    qops.consumer_ops(consumers, op), is_training, bits=activation_bits,
                    ema_decay=ema_decay, quant_delay=quant_delay,
                    vars_collection=vars_collection, producer_scope=scope)
