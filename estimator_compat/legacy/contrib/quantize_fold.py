"""Batch-norm folding of `tf.contrib.quantize`, as TF 1.15 rewrote a TF1 graph in place: a
conv / depthwise conv / matmul followed by a batch norm becomes the layer on weights scaled by
gamma / sqrt(var + eps) (`mul_fold`) plus the folded bias (`add_fold`), so FakeQuant sees the
weights inference will use. While training, the batch statistics are corrected toward the
moving ones (`batch_norm_correction`), and after `freeze_batch_norm_delay` steps the moving
averages stop and are used instead.

Fused batch norms (FusedBatchNorm / V3) are found by op pattern; unfused ones by slim's names
(`<scope>BatchNorm/batchnorm_1/...`), as TF 1.15 found them. Where a TensorFlow 2 graph names
a piece otherwise (resource variables' reads, the moving averages' decay factor), it is taken
from the op that uses it instead of failing.
"""
import re

import tensorflow as tf

from estimator_compat.legacy.contrib import quantize_ops as qops
from estimator_compat.legacy.contrib.quantize_matcher import OneofPattern, OpTypePattern
from estimator_compat.legacy.contrib.quantize_matcher import match_graph

_v1 = tf.compat.v1


def _fold_fused_batch_norm_grad(op, unused_grad_y, grad_mean, grad_var, *unused):
    """The batch mean / variance outputs' gradient for x (the folded graph reads them)."""
    x = op.inputs[0]
    n = tf.cast(tf.size(x) / tf.size(grad_mean), tf.float32)
    dmean_dx = grad_mean / n
    dvar_dx = 2 * grad_var * (x - op.outputs[1]) / (n - 1)
    return (dmean_dx + dvar_dx), None, None, None, None


try:
    tf.RegisterGradient("FoldFusedBatchNormGrad")(_fold_fused_batch_norm_grad)
except KeyError:  # registered already (a module reload)
    pass


class _Match(object):
    def __init__(self, **fields):
        self.__dict__.update(fields)


def _smart_cond(pred, true_fn, false_fn, name):
    if isinstance(pred, bool):
        return true_fn() if pred else false_fn()
    return _v1.cond(pred, true_fn, false_fn, name=name)


def _corrections(context, match, freeze_batch_norm_delay):
    """(scale, recip, offset) moving the batch statistics' output to the moving ones."""
    graph = _v1.get_default_graph()
    with graph.name_scope((context or "") + "batch_norm_correction"):
        recip_sigma_mv = tf.math.rsqrt(match.moving_variance_tensor + match.batch_epsilon)
        recip_sigma = tf.math.rsqrt(match.variance_tensor + match.batch_epsilon)
        scale = tf.math.divide(recip_sigma_mv, recip_sigma, name="scale_compute")
        scale = tf.identity(scale, name="correction_scale")
        recip = tf.math.reciprocal(scale, name="reciprocal_compute")
        offset = tf.multiply(match.gamma_tensor, match.mean_tensor * recip_sigma -
                             match.moving_mean_tensor * recip_sigma_mv, name="offset_compute")
        if freeze_batch_norm_delay is not None:
            use_moving = tf.greater_equal(qops.quantization_step(), freeze_batch_norm_delay,
                                          name="use_moving_average")
        else:
            use_moving = False
        mean_decay_readers = list(match.bn_decay_mean_tensor.consumers())
        mean_decay = _smart_cond(use_moving, lambda: 0.0, lambda: match.bn_decay_mean_tensor,
                                 name="freeze_moving_mean")
        qops.reroute(mean_decay, match.bn_decay_mean_tensor, can_modify=mean_decay_readers)
        var_decay_readers = list(match.bn_decay_var_tensor.consumers())
        var_decay = _smart_cond(use_moving, lambda: 0.0, lambda: match.bn_decay_var_tensor,
                                name="freeze_moving_var")
        qops.reroute(var_decay, match.bn_decay_var_tensor, can_modify=var_decay_readers)
        recip = _smart_cond(use_moving, lambda: tf.ones(scale.shape), lambda: recip,
                            name="correction_recip")
        offset = _smart_cond(use_moving, lambda: offset, lambda: tf.zeros(offset.shape),
                             name="correction_offset")
    return scale, recip, offset


def _clone_layer(op, inputs, name):
    """The conv / matmul `op` again on new inputs (TF 1.15's op cloner)."""
    if op.type == "Conv2D":
        data, weights = inputs
        _check_conv_shapes(op.name, data, weights)
        return _v1.nn.conv2d(data, weights, strides=op.get_attr("strides"),
                             padding=op.get_attr("padding"),
                             use_cudnn_on_gpu=op.get_attr("use_cudnn_on_gpu"),
                             data_format=op.get_attr("data_format").decode(), name=name)
    if op.type == "DepthwiseConv2dNative":
        data, weights = inputs
        _check_conv_shapes(op.name, data, weights)
        return _v1.nn.depthwise_conv2d(data, weights, strides=op.get_attr("strides"),
                                       padding=op.get_attr("padding"), name=name)
    if op.type == "MatMul":
        return tf.matmul(inputs[0], inputs[1], transpose_a=op.get_attr("transpose_a"),
                         transpose_b=op.get_attr("transpose_b"), name=name)
    raise ValueError("Cannot handle operation of type: %s" % op.type)


def _check_conv_shapes(name, data, weights):
    if (len(data.shape) != 4 or len(weights.shape) != 4 or data.shape[3] != weights.shape[2]):
        raise ValueError("Incompatible shapes for op %s inputs: %s and %s" % (
            name, data.shape, weights.shape))


def _fused_patterns():
    P = OpTypePattern
    p = _Match(input=P("*"), weight=P("*"), gamma=P("*"), beta=P("*"), mean=P("*"),
               variance=P("*"), moving_average=P("*"), decay=P("*"))
    p.layer = P("Conv2D|DepthwiseConv2dNative|MatMul", inputs=[p.input, p.weight])
    p.batch_to_space = P("BatchToSpaceND", inputs=[p.layer, P("*"), P("*")])
    with_identity = P("Identity", inputs=[OneofPattern([p.batch_to_space, p.layer])])
    layer_output = OneofPattern([with_identity, p.layer, p.batch_to_space])
    matmul_reshape = P("Reshape", inputs=[layer_output, P("*")])
    p.bn = P("FusedBatchNorm|FusedBatchNormV3", inputs=[
        OneofPattern([matmul_reshape, layer_output]), p.gamma, p.beta, p.mean, p.variance])
    p.output_reshape = P("Reshape", inputs=[p.bn, P("*")])
    p.bn_identity = P("Identity", inputs=[p.bn, p.output_reshape])
    p.ema_sub = P("Sub", inputs=[p.moving_average, p.bn])
    p.ema_mul = P("Mul", inputs=[p.ema_sub, p.decay])
    return p


def _fused_match(p, m, graph):
    layer = m.get_op(p.layer)
    bn = m.get_op(p.bn)
    output = bn.outputs[0]
    if layer.type == "MatMul":
        reshape = m.get_op(p.output_reshape)
        if reshape is None:
            return None
        output = reshape.outputs[0]
    if not output.consumers():
        return None
    match = _Match(layer_op=layer, bn_op=bn, output_tensor=output,
                   input_tensor=m.get_tensor(p.input), weight_tensor=m.get_tensor(p.weight),
                   gamma_tensor=m.get_tensor(p.gamma), beta_tensor=m.get_tensor(p.beta),
                   batch_epsilon=bn.get_attr("epsilon"),
                   batch_to_space_op=m.get_op(p.batch_to_space), moving_mean_tensor=None,
                   moving_variance_tensor=None, bn_decay_mean_tensor=None,
                   bn_decay_var_tensor=None)
    if bn.get_attr("is_training"):
        bn._set_attr("_gradient_op_type", tf.compat.v1.AttrValue(  # noqa: SLF001
            s=b"FoldFusedBatchNormGrad"))
        match.mean_tensor = bn.outputs[1]
        scope, sep, _ = bn.name.rpartition("/")
        with graph.as_default(), graph.name_scope(scope + sep):
            n = tf.cast(tf.size(m.get_tensor(p.layer)) / tf.size(match.mean_tensor),
                        tf.float32)
            match.variance_tensor = tf.multiply(bn.outputs[2], (n - 1) / n,
                                                name="Undo_Bessel_Correction")
        for ema in match_graph(p.ema_mul, graph):
            sub = ema.get_op(p.ema_sub)
            if sub.inputs[1].name == bn.outputs[1].name:
                match.moving_mean_tensor = sub.inputs[0]
                match.bn_decay_mean_tensor = ema.get_tensor(p.decay)
            if sub.inputs[1].name == bn.outputs[2].name:
                match.moving_variance_tensor = sub.inputs[0]
                match.bn_decay_var_tensor = ema.get_tensor(p.decay)
    else:
        match.mean_tensor = m.get_tensor(p.mean)
        match.variance_tensor = m.get_tensor(p.variance)
    return match


def _find_fused(graph):
    p = _fused_patterns()
    found, seen = [], set()
    for pattern in (p.bn_identity, OneofPattern([p.output_reshape, p.bn])):
        for m in match_graph(pattern, graph):
            match = _fused_match(p, m, graph)
            if match is not None and match.layer_op not in seen:
                seen.add(match.layer_op)
                found.append(match)
    return found


def _fold_fused(graph, freeze_batch_norm_delay):
    for match in _find_fused(graph):
        scope, sep, _ = match.layer_op.name.rpartition("/")
        with graph.as_default(), graph.name_scope(scope + sep):
            with graph.name_scope(scope + sep + "BatchNorm_Fold" + sep):
                multiplier = match.gamma_tensor * tf.math.rsqrt(
                    match.variance_tensor + match.bn_op.get_attr("epsilon"))
                bias = tf.subtract(match.beta_tensor, match.mean_tensor * multiplier,
                                   name="bias")
                scale = recip = offset = None
                if match.bn_op.get_attr("is_training"):
                    scale, recip, offset = _corrections("", match, freeze_batch_norm_delay)
                weights = match.weight_tensor
                if match.layer_op.type == "DepthwiseConv2dNative":
                    shape = weights.shape.as_list()[2:4]
                    multiplier = tf.reshape(multiplier, shape, name="scale_reshape")
                    if scale is not None:
                        scale = tf.reshape(scale, shape, name="correction_reshape")
            if scale is not None:
                weights = tf.multiply(scale, weights, name="correction_mult")
            scaled = tf.multiply(weights, multiplier, name="mul_fold")
            new_layer = _clone_layer(match.layer_op, [match.input_tensor, scaled],
                                     match.layer_op.name.split("/")[-1] + "_Fold")
            if match.batch_to_space_op:
                space = match.layer_op.outputs[0].consumers()[0]
                new_layer = tf.batch_to_space(new_layer, space.inputs[1], space.inputs[2],
                                              name=space.name.split("/")[-1] + "_Fold")
            if recip is not None:
                new_layer = tf.multiply(recip, new_layer, name="post_conv_mul")
                new_layer = tf.add(new_layer, offset, "correction_add")
            folded = tf.add(new_layer, bias, name="add_fold")
            if qops.reroute(folded, match.output_tensor) == 0:
                raise ValueError("Folding batch norms failed, %s had no outputs." %
                                 match.output_tensor.name)


def _find_tensor(graph, suffix, scope):
    """The op ending in `suffix` sharing the most scope parts with `scope`: its output 0."""
    parts = set(scope.split("/"))
    scores = {}
    for op in graph.get_operations():
        if op.name.endswith(suffix):
            shared = len(set(op.name.split("/")) & parts)
            if shared > 0 or not scope:
                scores[op.name] = shared
    if not scores:
        return None
    return graph.get_tensor_by_name(max(scores, key=scores.get) + ":0")


def _decay(find, scope):
    """The (1 - decay) factor of a moving-average update: TF 1.15's `<scope>/decay`, or where
    a graph names it otherwise (estimator_compat's slim batch norm), the factor its `mul` takes
    beside the `sub`."""
    tensor = find(scope + "/decay")
    if tensor is None:
        mul = find(scope + "/mul")
        if mul is not None:
            others = [t for t in mul.op.inputs if t.op.type != "Sub"]
            tensor = others[0] if len(others) == 1 else None
    return tensor


def _read(find, name, resource, update):
    """A variable's value as the batch norm reads it: `<name>/read` (reference variables) or
    `<name>/Read/ReadVariableOp` (resource variables), the kind the variable scope says first
    as TF 1.15 looked; failing both (a TensorFlow 2 graph's reads are named by their
    consumers), what the moving-average `update`'s sub or the scale's mul reads."""
    suffixes = ["/read", "/Read/ReadVariableOp"]
    for suffix in (suffixes[::-1] if resource else suffixes):
        tensor = find(name + suffix)
        if tensor is not None:
            return tensor
    op = find(update)
    if op is None:
        return None
    reads = [t for t in op.op.inputs if t.op.type not in ("Squeeze", "Rsqrt", "Reshape")]
    return reads[0] if len(reads) == 1 else None


def _unfused_params(graph, context, has_scaling):
    resource = _v1.get_variable_scope().use_resource
    find = lambda suffix: _find_tensor(graph, suffix, context)  # noqa: E731
    match = _Match(mean_tensor=find("BatchNorm/moments/Squeeze"),
                   variance_tensor=find("BatchNorm/moments/Squeeze_1"),
                   moving_mean_tensor=_read(find, "BatchNorm/moving_mean", resource,
                                            "BatchNorm/AssignMovingAvg/sub"),
                   moving_variance_tensor=_read(find, "BatchNorm/moving_variance", resource,
                                                "BatchNorm/AssignMovingAvg_1/sub"),
                   batch_epsilon=find("BatchNorm/batchnorm_1/add/y"),
                   bn_decay_mean_tensor=_decay(find, "BatchNorm/AssignMovingAvg"),
                   bn_decay_var_tensor=_decay(find, "BatchNorm/AssignMovingAvg_1"))
    if has_scaling:  # a reference variable itself, as TF 1.15 took it, else its read
        gamma = None if resource else find("BatchNorm/gamma")
        if gamma is None or gamma.op.type == "VarHandleOp":
            gamma = _read(find, "BatchNorm/gamma", resource, "BatchNorm/batchnorm_1/mul")
        match.gamma_tensor = gamma
    else:
        match.gamma_tensor = tf.ones(match.moving_mean_tensor.shape)
    return match


def _fold_unfused_one(graph, context, has_scaling, freeze_batch_norm_delay, is_training):
    """(the batch norm's add_1, its folded replacement) for slim's batch norm at `context`."""
    mul_scale = graph.get_operation_by_name(
        context + "BatchNorm/batchnorm_1/" + ("mul_1" if has_scaling else "mul"))
    below = mul_scale.inputs[0].op
    batch_to_space = None
    if below.type == "BatchToSpaceND":
        batch_to_space, below = below, below.inputs[0].op
    weights = below.inputs[1]
    match = _unfused_params(graph, context, has_scaling)
    scale = recip = offset = None
    if is_training:
        scale, recip, offset = _corrections(context, match, freeze_batch_norm_delay)
    if below.type == "DepthwiseConv2dNative":
        shape = weights.shape.as_list()[2:4]
        bn_scale = graph.get_operation_by_name(
            context + "BatchNorm/batchnorm_1/" + ("mul" if has_scaling else "Rsqrt"))
        bn_scale = tf.reshape(bn_scale.outputs[0], shape, context + "scale_reshape")
        if scale is not None:
            scale = tf.reshape(scale, shape, context + "correction_reshape")
            with tf.device(mul_scale.device):
                weights = tf.multiply(scale, weights, context + "correction_mult")
        mul_fold = tf.multiply(weights, bn_scale, name=context + "mul_fold")
    elif below.type in ("Conv2D", "MatMul"):
        if scale is not None:
            with tf.device(mul_scale.device):
                weights = tf.multiply(scale, weights, context + "correction_mult")
        mul_fold = tf.multiply(weights, mul_scale.inputs[1], name=context + "mul_fold")
    else:
        raise ValueError("Cannot handle operation of type: %s" % below.type)
    _check_same_shape("mul_fold", mul_fold.op.inputs[0], mul_fold)
    inputs = list(below.inputs)
    inputs[1] = mul_fold
    if below.type == "MatMul":
        _check_fc_shapes(below.name, inputs[0], inputs[1])
    folded = _clone_layer(below, inputs, below.name + "_Fold")
    add_shift = graph.get_operation_by_name(context + "BatchNorm/batchnorm_1/add_1")
    output = folded
    if batch_to_space:
        output = tf.batch_to_space(output, batch_to_space.inputs[1], batch_to_space.inputs[2],
                                   name=batch_to_space.name + "_Fold")
    if offset is not None:
        with tf.device(folded.device):
            output = tf.multiply(recip, output, context + "post_conv_mul")
            output = tf.add(output, offset, context + "correction_add")
    add_fold = tf.add(output, add_shift.inputs[1], name=context + "add_fold")
    _check_same_shape("add_fold", add_fold.op.inputs[0], add_fold)
    return add_shift, add_fold.op


def _check_fc_shapes(name, weights, data):
    if len(weights.shape) != 2 or len(data.shape) != 2 or weights.shape[1] != data.shape[0]:
        raise ValueError("Incompatible shapes for op %s inputs: %s and %s" % (
            name, weights.shape, data.shape))


def _check_same_shape(name, before, after):
    if not before.shape.is_compatible_with(after.shape):
        raise ValueError("%s should not change tensor shape: input %s, output %s" % (
            name, before.shape, after.shape))


def _fold_unfused(graph, is_training, freeze_batch_norm_delay):
    consumers = qops.consumers_map(graph)
    for bn in qops.batch_norm_groups(graph):
        rsqrt = graph.get_operation_by_name(bn + "BatchNorm/batchnorm_1/Rsqrt")
        has_scaling = sum(1 for op in qops.consumer_ops(consumers, rsqrt)
                          if op.type == "Mul") == 1
        add_shift = graph.get_operation_by_name(bn + "BatchNorm/batchnorm_1/add_1")
        if not add_shift.outputs[0].consumers():
            continue
        original, folded = _fold_unfused_one(graph, bn, has_scaling, freeze_batch_norm_delay,
                                             is_training)
        activation = qops.endpoint_activation(graph, bn)
        if activation:
            target = activation
        else:
            context = re.search(r"^(.*)/([^/]+)", bn) if bn else None
            context = context.group(1) + "/" if context and context.group(1) else ""
            target = graph.get_operation_by_name(context + "AddV2")
        if qops.reroute(folded.outputs[0], original.outputs[0], can_modify=[target]) != 1:
            raise ValueError("Unexpected inputs to op: %s" % target.name)


def fold_batch_norms(graph, is_training, freeze_batch_norm_delay=None):
    """Fold every fused, then every slim unfused, batch norm after a conv / fc layer."""
    _fold_fused(graph, freeze_batch_norm_delay)
    _fold_unfused(graph, is_training, freeze_batch_norm_delay)
