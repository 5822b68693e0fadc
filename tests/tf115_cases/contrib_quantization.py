"""tf.contrib.quantization cases (TF 1.15 style, Python 3.7): the generated op wrappers TF 1.15
re-exported there, called as TF 1.15 programs called them (positionally, `name=` last) -- a
quantize / dequantize round trip in each mode, a quantized matmul and conv chain with
requantization, quantized activations and pooling, plain math / nn ops, CompareAndBitpack,
the raw-op (CamelCase) forms, the eager fallbacks in a graph, and every wrapper's parameter list."""
import inspect

import numpy as np
from tf115_cases.recorded_errors import error_type as _error

X = (np.sin(np.arange(12) * 0.9) * 3.0).reshape(3, 4).astype(np.float32)
W = (np.cos(np.arange(8) * 0.7) * 2.0).reshape(4, 2).astype(np.float32)
IMAGE = (np.sin(np.arange(2 * 5 * 5 * 3) * 0.37) * 4.0).reshape(2, 5, 5, 3).astype(np.float32)
KERNEL = (np.cos(np.arange(3 * 3 * 3 * 4) * 0.21)).reshape(3, 3, 3, 4).astype(np.float32)


def _int(tf, quantized):
    """A quantized tensor's integers (numpy has no quint8: the harness records these)."""
    plain = {tf.quint8: tf.uint8, tf.qint8: tf.int8, tf.quint16: tf.uint16,
             tf.qint16: tf.int16, tf.qint32: tf.int32}[quantized.dtype.base_dtype]
    return tf.bitcast(quantized, plain)


def case_quantize_dequantize_round_trip(tf):
    q = tf.contrib.quantization
    x = tf.constant(X)
    out = {}
    for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
        quantized, low, high = q.quantize_v2(x, -3.0, 3.0, tf.quint8 if mode != "SCALED"
                                             else tf.qint8, mode, name="q_" + mode.lower())
        out[mode] = {"values": _int(tf, quantized), "min": low, "max": high,
                     "back": q.dequantize(quantized, low, high, mode)}
    half_even = q.quantize_v2(x, -3.0, 3.0, tf.qint8, "SCALED", "HALF_TO_EVEN")
    out["half_to_even"] = _int(tf, half_even.output)
    keywords = q.quantize_v2(input=x, min_range=-1.0, max_range=2.0, T=tf.quint8)
    out["keywords"] = _int(tf, keywords.output)
    out["keywords_back"] = q.dequantize(input=keywords.output, min_range=keywords.output_min,
                                        max_range=keywords.output_max, name="back")
    a = q.quantize_v2(x, -3.0, 3.0, tf.quint8)
    b = q.quantize_v2(x * 0.5, -2.0, 2.0, tf.quint8)
    concat = q.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min],
                                [a.output_max, b.output_max])
    out["concat"] = {"values": _int(tf, concat.output), "min": concat.output_min,
                     "max": concat.output_max}
    out["array_module"] = q.quantized_array_ops.dequantize(a.output, a.output_min,
                                                           a.output_max)
    return out


def case_quantized_matmul_requantize(tf):
    q = tf.contrib.quantization
    a = q.quantize_v2(tf.constant(np.abs(X)), 0.0, 3.0, tf.quint8)
    b = q.quantize_v2(tf.constant(W), -2.0, 2.0, tf.quint8)
    product, low, high = q.quantized_mat_mul(a.output, b.output, a.output_min, a.output_max,
                                             b.output_min, b.output_max)
    range_low, range_high = q.requantization_range(product, low, high)
    requantized = q.requantize(product, low, high, range_low, range_high, tf.quint8)
    shrunk = q.quantize_down_and_shrink_range(product, low, high, tf.quint8)
    transposed = q.QuantizedMatMul(a=b.output, b=a.output, min_a=b.output_min,
                                   max_a=b.output_max, min_b=a.output_min,
                                   max_b=a.output_max, transpose_a=True, transpose_b=True)
    return {"product": _int(tf, product), "min": low, "max": high,
            "range": [range_low, range_high],
            "requantized": _int(tf, requantized.output),
            "requantized_range": [requantized.output_min, requantized.output_max],
            "shrunk": _int(tf, shrunk.output),
            "shrunk_range": [shrunk.output_min, shrunk.output_max],
            "dequantized": q.dequantize(requantized.output, requantized.output_min,
                                        requantized.output_max),
            "transposed": _int(tf, transposed.out)}


def case_quantized_conv_pool_activations(tf):
    q = tf.contrib.quantization
    image = q.quantize_v2(tf.constant(IMAGE), -4.0, 4.0, tf.quint8)
    kernel = q.quantize_v2(tf.constant(KERNEL), -1.0, 1.0, tf.quint8)
    conv, low, high = q.quantized_conv2d(image.output, kernel.output, image.output_min,
                                         image.output_max, kernel.output_min,
                                         kernel.output_max, [1, 1, 1, 1], "SAME")
    down = q.quantize_down_and_shrink_range(conv, low, high, tf.quint8)
    relu = q.quantized_relu(down.output, down.output_min, down.output_max)
    relu6 = q.quantized_relu6(down.output, down.output_min, down.output_max, tf.quint8)
    max_pool = q.quantized_max_pool(image.output, image.output_min, image.output_max,
                                    [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    avg_pool = q.quantized_avg_pool(image.output, image.output_min, image.output_max,
                                    [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    bias = q.quantize_v2(tf.constant([0.5, -0.5, 1.0, 0.0]), -1.0, 1.0, tf.quint8)
    biased = q.quantized_bias_add(down.output, bias.output, down.output_min, down.output_max,
                                  bias.output_min, bias.output_max, tf.qint32)
    added = q.quantized_add(image.output, image.output, image.output_min, image.output_max,
                            image.output_min, image.output_max)
    multiplied = q.quantized_mul(image.output, image.output, image.output_min,
                                 image.output_max, image.output_min, image.output_max)
    return {"conv": _int(tf, conv), "conv_range": [low, high],
            "mul": _int(tf, multiplied.z), "mul_range": [multiplied.min_z, multiplied.max_z],
            "relu": _int(tf, relu.activations),
            "relu6": _int(tf, relu6.activations),
            "relu_range": [relu.min_activations, relu.max_activations],
            "max_pool": _int(tf, max_pool.output),
            "avg_pool": _int(tf, avg_pool.output),
            "biased": _int(tf, biased.output),
            "biased_range": [biased.min_out, biased.max_out],
            "added": _int(tf, added.z), "added_range": [added.min_z, added.max_z]}


def case_plain_ops_positional(tf):
    q = tf.contrib.quantization
    x, w = tf.constant(X), tf.constant(W)
    image = tf.constant(IMAGE)
    batch_norm = q.fused_batch_norm_v3(image, tf.ones([3]), tf.zeros([3]), tf.zeros([0]),
                                       tf.zeros([0]), 0.001, "NHWC", True, "bn")
    data = tf.constant(X)
    return {
        "add": q.add(x, x, "added"),
        "mat_mul": q.mat_mul(x, w, False, False, "mm"),
        "mat_mul_t": q.mat_mul(w, x, True, True),
        "batch_mat_mul": q.batch_mat_mul(tf.stack([x, x]), tf.stack([w, w]), False, False,
                                         "bmm"),
        "top_kv2": list(q.top_kv2(x, 2, True, "top")),
        "sparse_segment_sum": q.sparse_segment_sum(data, [0, 2, 1], [0, 0, 1], "sss"),
        "sparse_segment_mean_n": q.sparse_segment_mean_with_num_segments(
            data, [0, 1, 2], [0, 2, 2], 4, "ssm"),
        "max_pool": q.max_pool(image, [1, 2, 2, 1], [1, 1, 1, 1], "VALID", "NHWC", "mp"),
        "depthwise": q.depthwise_conv2d_native(image, tf.constant(KERNEL[..., :1]),
                                               [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1],
                                               "dw"),
        "batch_norm": batch_norm.y,
        "batch_norm_moments": [batch_norm.batch_mean, batch_norm.batch_variance],
        "cumsum": q.cumsum(x, 1, True, True),
        "cast": q.Cast(x=x, DstT=tf.int32),
        "relu6": q.relu6(x),
        "softmax_xent": q.softmax_cross_entropy_with_logits(x, tf.nn.softmax(x * 0.5)).loss,
        "bessel_i0e": q.bessel_i0e(x),
        "bessel_i1e": q.BesselI1e(x=x),
        "mean": q.mean(x, [1], True),
        "select": q.select(x > 0, x, -x),
        "raw_add": q.AddV2(x=x, y=x),
        "python_module": q.python.math_ops.sub(x, 1.0),
        "nn_module": q.python.nn_ops.elu(x),
    }


def case_compare_and_bitpack(tf):
    q = tf.contrib.quantization
    values = np.sin(np.arange(48) * 1.7).reshape(2, 3, 8).astype(np.float32)
    bools = tf.constant([[True, False, True, True, False, False, False, True] * 2])
    return {
        "float": q.compare_and_bitpack(tf.constant(values), 0.1),
        "int": q.compare_and_bitpack(tf.constant(np.arange(-8, 24, dtype=np.int64)), 3),
        "bool_ignores_threshold": q.compare_and_bitpack(bools, True),
        "raw": q.CompareAndBitpack(input=tf.constant(values[0]), threshold=-0.5),
        "half": q.compare_and_bitpack(tf.constant(values, tf.float16), 0.0),
    }


def case_misuse_errors(tf):
    q = tf.contrib.quantization
    x = tf.constant(X)
    return lambda sess: {
        "raw_positional": _error(lambda: q.Abs(x)),
        "raw_positional_adapted": _error(lambda: q.MatMul(x, x)),
        "bitpack_not_by_8": _error(lambda: q.compare_and_bitpack(tf.zeros([6]), 0.0)),
        "bitpack_scalar": _error(lambda: q.compare_and_bitpack(tf.constant(1.0), 0.0)),
        "bitpack_uint8": _error(lambda: q.compare_and_bitpack(tf.zeros([8], tf.uint8),
                                                              tf.constant(0, tf.uint8))),
        "too_many_args": _error(lambda: q.mat_mul(x, x, False, False, "n", True)),
        "unknown_keyword": _error(lambda: q.mat_mul(x, x, grad_a=True)),
    }


def case_eager_fallback_in_a_graph(tf):
    """The eager slow paths called in a graph: the inputs become graph tensors, which the
    eager execution they go to refuses."""
    q = tf.contrib.quantization
    return lambda sess: {"add": _error(lambda: q.add_eager_fallback(X, X)),
                         "mat_mul": _error(lambda: q.mat_mul_eager_fallback(X, W, False,
                                                                            False))}


def case_wrapper_signatures(tf):
    """Every function's parameter names and defaults (tf_export, a functools.partial whose
    signature is Python's own, aside)."""
    q = tf.contrib.quantization
    out = {}
    for name in sorted(dir(q)):
        value = getattr(q, name)
        if name.startswith("_") or name == "tf_export" or not inspect.isfunction(value):
            continue
        out[name] = ",".join(
            p.name if p.default is p.empty else "%s=%r" % (p.name, p.default)
            for p in inspect.signature(value).parameters.values())
    return lambda sess: {"signatures": out,
                         "names": ",".join(n for n in sorted(dir(q)) if not n.startswith("_"))}
