"""`tf.contrib.reduce_slice_ops`, served whole: reduce_slice_sum / prod / max / min (at
`python.ops.reduce_slice_ops`, as in TF 1.15), whose kernels TensorFlow 2 dropped, with TF ops.

Each output row k along `axis` reduces data[start_k:end_k] (indices [K, 2] of (start, end), or
a [K+1] vector of consecutive bounds), the bounds clipped to [0, n): an empty slice gives the
reduction's identity (0, 1, the dtype's lowest, its highest), as TF 1.15's kernels did.
"""
import __future__

import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace


def _lowest(dtype):
    return float("-inf") if dtype.is_floating else dtype.min


def _highest(dtype):
    return float("inf") if dtype.is_floating else dtype.max


def _reduce_slice(reduce, identity, default_name):
    def reduce_slice(data, indices, axis, name=None):
        with tf.name_scope(name or default_name):
            data = tf.convert_to_tensor(data, name="data")
            indices = tf.convert_to_tensor(indices, name="indices")
            axis = tf.cast(axis, tf.int32)
            rank = tf.rank(data)
            axis = tf.where(axis < 0, axis + rank, axis)
            if indices.shape.rank == 1:
                bounds = tf.stack([indices[:-1], indices[1:]], axis=1)
            else:
                bounds = indices
            n = tf.cast(tf.shape(data)[axis], bounds.dtype)
            starts = tf.clip_by_value(bounds[:, :1], 0, n)
            ends = tf.clip_by_value(bounds[:, 1:], 0, n)
            position = tf.range(n)[tf.newaxis, :]
            inside = (position >= starts) & (position < ends)  # [K, n]
            perm = tf.concat([[axis], tf.range(axis), tf.range(axis + 1, rank)], 0)
            front = tf.transpose(data, perm)  # [n, ...]
            extra = tf.ones([rank - 1], tf.int32)
            mask = tf.reshape(inside, tf.concat([tf.shape(inside), extra], 0))
            values = tf.where(mask, front[tf.newaxis],
                              tf.constant(identity(data.dtype), data.dtype))
            reduced = reduce(values, axis=1)  # [K, ...]
            back = tf.concat([tf.range(1, axis + 1), [0], tf.range(axis + 1, rank)], 0)
            out = tf.transpose(reduced, back)
            static_axis = tf.get_static_value(axis)
            if data.shape.rank is not None and static_axis is not None:
                shape = data.shape.as_list()
                shape[static_axis] = (indices.shape[0] if indices.shape.rank == 2 else
                                      None if indices.shape[0] is None else
                                      indices.shape[0] - 1)
                out.set_shape(shape)
            return out
    reduce_slice.__name__ = default_name
    reduce_slice.__doc__ = (f"{default_name}(data, indices, axis): {reduce.__name__} over "
                            "each [start, end) slice of `data` along `axis`.")
    return reduce_slice


reduce_slice_sum = _reduce_slice(tf.reduce_sum, lambda dtype: 0, "reduce_slice_sum")
reduce_slice_prod = _reduce_slice(tf.reduce_prod, lambda dtype: 1, "reduce_slice_prod")
reduce_slice_max = _reduce_slice(tf.reduce_max, _lowest, "reduce_slice_max")
reduce_slice_min = _reduce_slice(tf.reduce_min, _highest, "reduce_slice_min")


def build():
    future = dict(absolute_import=__future__.absolute_import, division=__future__.division,
                  print_function=__future__.print_function)
    names = dict(reduce_slice_sum=reduce_slice_sum, reduce_slice_prod=reduce_slice_prod,
                 reduce_slice_max=reduce_slice_max, reduce_slice_min=reduce_slice_min)
    module = namespace("tensorflow.contrib.reduce_slice_ops.python.ops.reduce_slice_ops",
                       "contrib.reduce_slice_ops' ops", **future, **names)
    ops = namespace("tensorflow.contrib.reduce_slice_ops.python.ops",
                    "contrib.reduce_slice_ops' ops", reduce_slice_ops=module)
    python = namespace("tensorflow.contrib.reduce_slice_ops.python", "contrib.reduce_slice_ops",
                       ops=ops)
    return namespace("tensorflow.contrib.reduce_slice_ops", "tf.contrib.reduce_slice_ops",
                     __served_whole__=True, python=python, **future)
