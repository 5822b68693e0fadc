"""`tf.contrib.quantize`, served whole: quantization-aware training graphs. The create_*
functions rewrite a TF1 graph in place, as TF 1.15's did: batch norms folded into the
preceding conv / fc weights (`quantize_fold`), then FakeQuantWithMinMaxVars ops with min / max
variables inserted on weights and activations (`quantize_rewrite`). Call them before the
optimizer's gradients are added (a graph with training ops is refused)."""
import tensorflow as tf

from estimator_compat.legacy.contrib import quantize_fold, quantize_rewrite
from estimator_compat.legacy.namespaces import namespace

_TRAINING_OPS = frozenset(
    ["Apply" + n for n in ("Adagrad", "AdagradDA", "Adam", "AddSign", "CenteredRMSProp", "Ftrl",
                           "FtrlV2", "GradientDescent", "Momentum", "PowerSign",
                           "ProximalAdagrad", "ProximalGradientDescent", "RMSProp")] +
    ["ResourceApply" + n for n in ("Adadelta", "Adagrad", "AdagradDA", "Adam", "AddSign",
                                   "CenteredRMSProp", "Ftrl", "FtrlV2", "GradientDescent",
                                   "Momentum", "PowerSign", "ProximalAdagrad",
                                   "ProximalGradientDescent", "RMSProp")] +
    [prefix + n for prefix in ("ResourceSparseApply", "SparseApply")
     for n in ("Adagrad", "AdagradDA", "CenteredRMSProp", "Ftrl", "FtrlV2", "Momentum",
               "ProximalAdagrad", "ProximalGradientDescent", "RMSProp")] +
    ["ResourceSparseApplyAdadelta", "SparseApplyAdadelta"])


def _check_for_training_ops(graph):
    found = {op.type for op in graph.get_operations()} & _TRAINING_OPS
    if found:
        raise ValueError("Training op found in graph, exiting %s" % found)


def _create_graph(input_graph=None, is_training=True, weight_bits=8, activation_bits=8,
                  symmetric=False, quant_delay=None, freeze_bn_delay=None, scope=None):
    if input_graph is None:
        input_graph = tf.compat.v1.get_default_graph()
    _check_for_training_ops(input_graph)
    with input_graph.as_default():
        quantize_fold.fold_batch_norms(input_graph, freeze_batch_norm_delay=freeze_bn_delay,
                                       is_training=is_training)
        quantize_rewrite.quantize(input_graph, is_training, quant_delay=quant_delay,
                                  weight_bits=weight_bits, activation_bits=activation_bits,
                                  symmetric=symmetric, scope=scope)


def create_training_graph(input_graph=None, quant_delay=0):
    """Rewrite for quantization-aware training (FakeQuant from step `quant_delay`)."""
    _create_graph(input_graph=input_graph, is_training=True, quant_delay=quant_delay)


def create_eval_graph(input_graph=None):
    """Rewrite for evaluation: FakeQuant with the trained ranges, batch norms folded."""
    _create_graph(input_graph=input_graph, is_training=False)


def experimental_create_training_graph(input_graph=None, weight_bits=8, activation_bits=8,
                                       symmetric=False, quant_delay=0, freeze_bn_delay=None,
                                       scope=None):
    """create_training_graph with bit widths, symmetric ranges, a batch-norm freeze step and
    a scope to limit the rewrite to."""
    _create_graph(input_graph=input_graph, is_training=True, weight_bits=weight_bits,
                  activation_bits=activation_bits, symmetric=symmetric,
                  quant_delay=quant_delay, freeze_bn_delay=freeze_bn_delay, scope=scope)


def experimental_create_eval_graph(input_graph=None, weight_bits=8, activation_bits=8,
                                   symmetric=False, quant_delay=None, scope=None):
    """create_eval_graph with bit widths, symmetric ranges and a scope."""
    _create_graph(input_graph=input_graph, is_training=False, weight_bits=weight_bits,
                  activation_bits=activation_bits, symmetric=symmetric,
                  quant_delay=quant_delay, scope=scope)


def build():
    names = dict(create_training_graph=create_training_graph,
                 create_eval_graph=create_eval_graph,
                 experimental_create_training_graph=experimental_create_training_graph,
                 experimental_create_eval_graph=experimental_create_eval_graph)
    namespace("tensorflow.contrib.quantize.python.quantize_graph",
              "contrib.quantize's quantize_graph", **names)
    return namespace("tensorflow.contrib.quantize", "tf.contrib.quantize",
                     __served_whole__=True, **names)
