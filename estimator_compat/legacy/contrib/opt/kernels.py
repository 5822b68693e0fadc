"""TensorFlow's fused training kernels (`tf.raw_ops.Apply*` / `ResourceApply*`) for a TF1
reference variable or a resource variable alike, so an update's arithmetic is the kernel TF 1.15
ran."""
import tensorflow as tf


def is_ref(var):
    """True for a TF1 reference variable (its dtype is the `_ref` one)."""
    return var.dtype != var.dtype.base_dtype


def apply(kernel, var, slots, use_locking=False, **inputs):
    """`Apply<kernel>` on `var` and its `slots` ({input name: slot variable})."""
    if is_ref(var):
        return getattr(tf.raw_ops, "Apply" + kernel)(var=var, use_locking=use_locking,
                                                     **slots, **inputs)
    return getattr(tf.raw_ops, "ResourceApply" + kernel)(
        var=var.handle, use_locking=use_locking,
        **{k: s.handle for k, s in slots.items()}, **inputs)


def sparse_apply(kernel, var, slots, use_locking=False, **inputs):
    """`SparseApply<kernel>` on the rows `inputs['indices']` of `var` and its slots."""
    if is_ref(var):
        return getattr(tf.raw_ops, "SparseApply" + kernel)(var=var, use_locking=use_locking,
                                                           **slots, **inputs)
    return getattr(tf.raw_ops, "ResourceSparseApply" + kernel)(
        var=var.handle, use_locking=use_locking,
        **{k: s.handle for k, s in slots.items()}, **inputs)


def scatter_update(var, indices, updates, use_locking=False):
    return tf.compat.v1.scatter_update(var, indices, updates, use_locking=use_locking)


def scatter_add(var, indices, updates, use_locking=False):
    return tf.compat.v1.scatter_add(var, indices, updates, use_locking=use_locking)


def scatter_sub(var, indices, updates, use_locking=False):
    return tf.compat.v1.scatter_sub(var, indices, updates, use_locking=use_locking)
