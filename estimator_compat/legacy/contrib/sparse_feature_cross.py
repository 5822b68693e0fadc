"""TF 1.15's `sparse_feature_cross` (tf.contrib.slim's, from contrib.layers' ops) and its two op
modules, `sparse_feature_cross_op` and `gen_sparse_feature_cross_op`, whose kernels TensorFlow 2
removed.

- string crosses (`hashed_output=False`): `tf.sparse.cross`, the same "a_X_b" values in the
  same order
- hashed with `hash_key` (TF 1.15's SparseFeatureCrossV2): `tf.sparse.cross_hashed`, the same
  ids for the same key
- hashed without `hash_key` (the first SparseFeatureCross kernel): the old hashing that
  `layers/feature_columns/crossing.py` reproduces; `num_buckets=0` gave the 64-bit hash modulo
  2**63 - 1 as that kernel did
"""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.layers import SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY
from estimator_compat.legacy.contrib.layers.feature_columns import crossing

_INT64_MAX = (1 << 63) - 1
_Output = collections.namedtuple("SparseFeatureCross",
                                 ["output_indices", "output_values", "output_shape"])


def _as_sparse(tensor):
    """A dense [batch, n] Tensor as a SparseTensor holding every entry (empty strings too)."""
    shape = tf.shape(tensor, out_type=tf.int64)
    rows, cols = tf.meshgrid(tf.range(shape[0]), tf.range(shape[1]), indexing="ij")
    indices = tf.stack([tf.reshape(rows, [-1]), tf.reshape(cols, [-1])], axis=1)
    return tf.SparseTensor(indices, tf.reshape(tensor, [-1]), shape)


def _checked(inputs):
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise TypeError("sparse_feature_cross: inputs must be a non-empty list of SparseTensors "
                        f"or 2-D Tensors, got {inputs!r}")
    out = []
    for item in inputs:
        if not isinstance(item, (tf.SparseTensor, tf.compat.v1.SparseTensorValue)):
            item = tf.convert_to_tensor(item)
            if item.shape.rank not in (None, 2):
                raise ValueError("sparse_feature_cross: a dense input must be 2-D [batch, n], "
                                 f"got shape {item.shape}")
        elif isinstance(item, tf.compat.v1.SparseTensorValue):
            item = tf.SparseTensor.from_value(item)
        if item.dtype not in (tf.string, tf.int64):  # TF 1.15 cast numbers to int64
            if not (item.dtype.is_integer or item.dtype.is_floating or item.dtype.is_bool):
                raise TypeError("sparse_feature_cross: inputs must be strings or numbers, got "
                                f"{item.dtype.name}")
            item = (tf.SparseTensor(item.indices, tf.cast(item.values, tf.int64),
                                    item.dense_shape)
                    if isinstance(item, tf.SparseTensor) else tf.cast(item, tf.int64))
        out.append(item)
    return out


def sparse_feature_cross(inputs, hashed_output=False, num_buckets=0, name=None, hash_key=None):
    """The crosses of `inputs` (SparseTensors or 2-D Tensors; strings, or numbers as int64) per row:
    strings "a_X_b", or int64 hashes (in [0, num_buckets) where num_buckets > 0), as TF 1.15."""
    inputs = _checked(inputs)
    if num_buckets < 0:
        raise ValueError(f"sparse_feature_cross: num_buckets must be >= 0, got {num_buckets}")
    with tf.compat.v1.name_scope(name, "SparseFeatureCross", inputs):
        if not hashed_output:
            return tf.sparse.cross(inputs)
        if hash_key is not None:
            return tf.sparse.cross_hashed(inputs, num_buckets=num_buckets, hash_key=hash_key)
        sparse = [i if isinstance(i, tf.SparseTensor) else _as_sparse(i) for i in inputs]
        return crossing._v1_hashed_cross(sparse, num_buckets or _INT64_MAX)


def _gen_op(indices, values, shapes, dense, hashed_output, num_buckets, hash_key, out_type,
            internal_type, name):
    del internal_type  # the input dtypes decide it, as in the kernel
    if len(indices) != len(values) or len(values) != len(shapes):
        raise ValueError("SparseFeatureCross: indices, values and shapes must have one entry "
                         "per sparse input")
    sparse = [tf.SparseTensor(i, v, s) for i, v, s in zip(indices, values, shapes)]
    out = sparse_feature_cross(sparse + list(dense), hashed_output, num_buckets, name, hash_key)
    want = tf.as_dtype(out_type)
    if want != out.values.dtype:
        raise TypeError(f"SparseFeatureCross: out_type must be {out.values.dtype.name} when "
                        f"hashed_output={hashed_output}, got {want.name}")
    return _Output(out.indices, out.values, out.dense_shape)


def gen_sparse_feature_cross(indices, values, shapes, dense, hashed_output, num_buckets,
                             out_type, internal_type, name=None):
    """The SparseFeatureCross op's wrapper: (output_indices, output_values, output_shape)."""
    return _gen_op(indices, values, shapes, dense, hashed_output, num_buckets, None, out_type,
                   internal_type, name)


def gen_sparse_feature_cross_v2(indices, values, shapes, dense, hashed_output, num_buckets,
                                hash_key, out_type, internal_type, name=None):
    """The SparseFeatureCrossV2 op's wrapper (hashes with `hash_key`)."""
    return _gen_op(indices, values, shapes, dense, hashed_output, num_buckets, hash_key,
                   out_type, internal_type, name)


def slim_names():
    """tf.contrib.slim's names of this op (and util's `loader`, which slim re-exported too),
    the op modules registered under their TF 1.15 paths."""
    import sys

    from estimator_compat.legacy.contrib import util
    from estimator_compat.legacy.contrib.tf_slim_loader import deep_paths
    gen = {"sparse_feature_cross": gen_sparse_feature_cross,
           "sparse_feature_cross_v2": gen_sparse_feature_cross_v2}
    prefix = "tensorflow.contrib.layers"
    siblings = {n: sys.modules[f"{prefix}.python.ops.{n}"] for n in (
        "sparse_ops", "bucketization_op") if f"{prefix}.python.ops.{n}" in sys.modules}
    made = deep_paths(prefix, {
        "ops.gen_sparse_feature_cross_op": gen, "ops": {}, "python.ops": siblings,
        "python.ops.sparse_feature_cross_op": {
            "sparse_feature_cross": sparse_feature_cross,
            "SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY": SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY}})
    made["python.ops.sparse_feature_cross_op"].gen_sparse_feature_cross_op = (
        made["ops.gen_sparse_feature_cross_op"])
    util.build()
    return {"sparse_feature_cross": sparse_feature_cross,
            "sparse_feature_cross_op": made["python.ops.sparse_feature_cross_op"],
            "gen_sparse_feature_cross_op": made["ops.gen_sparse_feature_cross_op"],
            "loader": sys.modules["tensorflow.contrib.util.loader"]}
