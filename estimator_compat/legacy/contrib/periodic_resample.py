"""`tf.contrib.periodic_resample`, served whole: the periodic (sub-pixel) resampling whose
kernel TensorFlow 2 dropped, written as one gather (its gradient is the scatter back).

With T = values' shape, S the desired shape with one None (dimension q) and g_i =
ceil(S_i / T_i): S_q = T_q * prod_{i != q} T_i / S_i, floored after each factor as TF 1.15's
kernel did (its static shape took floor(prod(T) / prod_{i != q} S_i), which can differ: here
the static shape is the one the output has), and
output[s] = values[h] with h_i = s_i // g_i (i != q) and h_q = s_q + S_q * sum_{j != q} G_j
(s_j mod g_j), G_j the product of g_i over the earlier dimensions i != q. As TF 1.15's kernel,
h is taken as a row-major flat index into values (so h_q past T_q reads on into the next row);
a flat index past the end, where TF 1.15 read out of bounds, is an InvalidArgumentError here.
"""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace


def periodic_resample(values, shape, name=None):
    """`values` periodically resampled to `shape` (one dimension None, made to fit)."""
    with tf.name_scope(name or "PeriodicResample"):
        values = tf.convert_to_tensor(values, name="values")
        desired = tf.TensorShape(shape).as_list()
        rank = len(desired)
        if values.shape.rank is not None and values.shape.rank != rank:
            raise ValueError(f"periodic_resample: shape {desired} has rank {rank}, values "
                             f"have rank {values.shape.rank}")
        adjustable = [i for i, d in enumerate(desired) if d is None]
        in_dims = tf.shape(values, out_type=tf.int64)
        checks = [tf.debugging.Assert(tf.equal(len(adjustable), 1), [
            "periodic_resample expects exactly one dimension of the desired shape to be "
            "None (adjustable)"])]
        q = adjustable[0] if adjustable else 0
        fixed = [i for i in range(rank) if i != q]
        for i in fixed:
            checks.append(tf.debugging.Assert(in_dims[i] <= desired[i], [
                "periodic_resample expects the size of non-adjustable dimensions be at least "
                "as large as size of input tensor. Dimension", i, "input tensor has size",
                in_dims[i], "desired shape has size", desired[i]]))
        s_q = in_dims[q]
        for i in fixed:  # TF 1.15's kernel rounded down after each dimension
            s_q = s_q * in_dims[i] // desired[i]
        checks.append(tf.debugging.Assert(s_q > 0, [
            "periodic_resample found that the adjustable dimension,", q,
            ", isn't greater than zero,", s_q]))
        with tf.control_dependencies(checks):
            total = tf.reduce_prod(in_dims)
            out_dims = tf.stack([s_q if i == q else tf.constant(desired[i], tf.int64)
                                 for i in range(rank)])
        coords = tf.unravel_index(tf.range(tf.reduce_prod(out_dims)), out_dims)  # [R, N]
        periodic, span = 0, tf.constant(1, tf.int64)
        source = [None] * rank
        for i in fixed:
            g = -(-desired[i] // in_dims[i])
            source[i] = coords[i] // g
            periodic += span * (coords[i] % g)
            span *= g
        source[q] = coords[q] + s_q * periodic
        flat = 0
        for i in range(rank):
            flat = flat * in_dims[i] + source[i]
        inside = tf.debugging.Assert(tf.reduce_all(flat < total), [
            "periodic_resample: the desired shape reads past the end of values (TF 1.15 read "
            "out of bounds here); use sizes that are integer multiples of values' shape"])
        with tf.control_dependencies([inside]):
            out = tf.gather(tf.reshape(values, [-1]), flat)
        out = tf.reshape(out, out_dims)
        if values.shape.is_fully_defined() and adjustable:
            size = values.shape[q]
            for i in fixed:
                size = size * values.shape[i] // desired[i]
            desired[q] = size
        out.set_shape(desired)
        return out


def build():
    ops = namespace("tensorflow.contrib.periodic_resample.python.ops.periodic_resample_op",
                    "contrib.periodic_resample's op", periodic_resample=periodic_resample)
    # registered for deep imports; TF 1.15's package did not keep a `python` attribute
    namespace("tensorflow.contrib.periodic_resample.python",
              "contrib.periodic_resample",
              ops=namespace("tensorflow.contrib.periodic_resample.python.ops",
                            "contrib.periodic_resample's ops", periodic_resample_op=ops))
    return namespace("tensorflow.contrib.periodic_resample", "tf.contrib.periodic_resample",
                     __served_whole__=True, periodic_resample=periodic_resample)
