"""`tf.contrib.batching`, served whole: `batch_function`, TensorFlow's own batch ops.

TF 1.15's decorator returned the `BatchFunction` op's outputs as a list (TF 2.21's repacks
them into the function's structure) and had no `enable_large_batch_splitting` (TF 2.21's
defaults to True, which splits an input larger than `max_batch_size`; TF 1.15 refused it), so
the op is made here as TF 1.15 made it, with splitting off.
Importing TF 1.15's module also registered gradients for the raw `Batch` / `Unbatch` ops (an
`Unbatch` / `UnbatchGrad` pair); they are registered here too where TensorFlow has none.
"""
from tensorflow.python.eager import def_function
from tensorflow.python.framework import ops, tensor_spec
from tensorflow.python.framework import tensor as tensor_lib
from tensorflow.python.ops import gen_batch_ops


def batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                   allowed_batch_sizes=None, max_enqueued_batches=10, autograph=True):
    """Batches the decorated function's computation across concurrent session runs; the
    decorated call returns the list of its outputs (TF 1.15 did not repack them)."""
    def decorator(fn):
        def decorated(*args):
            computation = def_function.function(fn, autograph=autograph).get_concrete_function(
                *[tensor_spec.TensorSpec(dtype=x.dtype, shape=x.shape, name=str(i))
                  for i, x in enumerate(args)])
            with ops.name_scope("batch") as name:
                for a in args:
                    if not isinstance(a, tensor_lib.Tensor):
                        raise ValueError("All arguments to functions decorated with "
                                         "`batch_function`  are supposed to be Tensors; "
                                         "found %s" % repr(a))
                return gen_batch_ops.batch_function(
                    num_batch_threads=num_batch_threads, max_batch_size=max_batch_size,
                    batch_timeout_micros=batch_timeout_micros,
                    allowed_batch_sizes=allowed_batch_sizes,
                    max_enqueued_batches=max_enqueued_batches, shared_name=name,
                    f=computation, in_tensors=list(args),
                    captured_tensors=computation.captured_inputs,
                    Tout=[o.dtype for o in computation.outputs],
                    enable_large_batch_splitting=False)
        return decorated
    return decorator


def _batch_grad(op, *out_grads):
    """Each input's gradient is its batched output's gradient, unbatched back to the caller."""
    return [gen_batch_ops.unbatch(out_grads[i], op.outputs[-2], op.outputs[-1],
                                  timeout_micros=op.get_attr("grad_timeout_micros"),
                                  shared_name="batch_gradient_{}_{}".format(op.name, i))
            for i in range(len(op.inputs))]


def _unbatch_grad(op, grad):
    return [gen_batch_ops.unbatch_grad(op.inputs[0], op.inputs[1], grad, op.inputs[2],
                                       shared_name="unbatch_gradient_{}".format(op.name)),
            None, None]


def _register_gradients():
    for op_type, fn in (("Batch", _batch_grad), ("Unbatch", _unbatch_grad)):
        try:
            ops._gradient_registry.lookup(op_type)  # pylint: disable=protected-access
        except LookupError:
            ops.RegisterGradient(op_type)(fn)


def build():
    from estimator_compat.legacy.namespaces import namespace
    _register_gradients()
    return namespace("tensorflow.contrib.batching", __doc__, __served_whole__=True,
                     batch_function=batch_function)
