"""contrib.framework's graph and op helpers: `get_placeholders`, `py_func` (contrib's
wrapper of `tf.compat.v1.py_func` taking nested args/kwargs and output shapes),
`zero_initializer`."""
import tensorflow as tf

v1 = tf.compat.v1


def get_placeholders(graph):
    """The outputs of every Placeholder op in `graph`."""
    if not isinstance(graph, tf.Graph):
        raise TypeError(f"Input graph needs to be a Graph: {graph}")
    return [op.outputs[0] for op in graph.get_operations() if op.type == "Placeholder"]


def py_func(func, args=(), kwargs=None, output_types=None, output_shapes=None, stateful=True,
            name=None):
    """`func(*args, **kwargs)` as a graph op; args/kwargs may nest, tensors among them are fed,
    the rest passed as they are; the results get `output_types`' structure and
    `output_shapes`."""
    kwargs = kwargs or {}
    flat = tf.nest.flatten((args, kwargs))
    tensor_at = [i for i, x in enumerate(flat) if isinstance(x, (tf.Tensor, tf.Variable))]
    inputs = [flat[i] for i in tensor_at]

    def call(*values):
        filled = list(flat)
        for i, value in zip(tensor_at, values):
            filled[i] = value
        call_args, call_kwargs = tf.nest.pack_sequence_as((args, kwargs), filled)
        return tf.nest.flatten(func(*call_args, **call_kwargs))

    types = tf.nest.flatten(output_types)
    outputs = v1.py_func(call, inputs, types, stateful=stateful, name=name)
    if output_shapes is not None:
        for out, shape in zip(outputs, tf.nest.flatten(
                output_shapes, expand_composites=False) if not isinstance(
                    output_shapes, tf.TensorShape) else [output_shapes]):
            out.set_shape(shape)
    return tf.nest.pack_sequence_as(output_types, outputs)


def zero_initializer(ref, use_locking=True, name="zero_initializer"):
    """Assigns zeros to the uninitialized variable `ref` (an error when run on an initialized
    one, as TF 1.15's ZeroInitializer op raised); returns `ref`'s value after it."""
    with tf.name_scope(name):
        fresh = tf.logical_not(v1.is_variable_initialized(ref))
        check = tf.debugging.Assert(fresh, [f"{ref.op.name} is already initialized"])
        with tf.control_dependencies([check]):
            return v1.assign(ref, tf.zeros(ref.shape, ref.dtype.base_dtype),
                             use_locking=use_locking)
