"""The shapes and checks of the location-scale vector distributions' `scale` operators, as
TF 1.15's contrib `distribution_util` had them (gone in TensorFlow 2.21); the operators
themselves are made by `bijectors/scale_operators.py` (`make_diag_scale`, shared with Affine)."""
import tensorflow as tf
from tensorflow.python.framework import tensor_util

from estimator_compat.legacy.contrib.distributions_parts.transformed_distribution import (
    static_value)

_v1 = tf.compat.v1


def shapes_from_loc_and_scale(loc, scale, name="shapes_from_loc_and_scale"):
    """(batch_shape, event_shape) of a distribution with `loc` and a `scale` operator."""
    with _v1.name_scope(name, values=[loc]):
        event_size = scale.range_dimension_tensor()
        event_size_ = tf.get_static_value(event_size)
        event_shape = (event_size_.reshape([1]) if event_size_ is not None
                       else event_size[tf.newaxis])
        if loc is not None:
            loc_event = tf.compat.dimension_value(loc.shape[-1])
            if loc_event is not None and event_size_ is not None:
                if loc_event != 1 and loc_event != event_size_:
                    raise ValueError(f"Event size of 'scale' ({event_size_}) could not be "
                                     f"broadcast up to that of 'loc' ({loc_event}).")
        batch_shape = scale.batch_shape_tensor()
        if loc is None:
            known = tf.get_static_value(batch_shape)
            batch_shape = known if known is not None else batch_shape
        else:
            loc_batch = loc.shape.with_rank_at_least(1)[:-1]
            if loc.shape.ndims is None or not loc_batch.is_fully_defined():
                loc_batch = tf.shape(loc)[:-1]
            else:
                loc_batch = tf.convert_to_tensor(loc_batch.as_list(), tf.int32,
                                                 name="loc_batch_shape")
            batch_shape = _broadcast_shape(batch_shape, loc_batch)
    return batch_shape, event_shape


def _broadcast_shape(a, b):
    a_, b_ = tf.get_static_value(a), tf.get_static_value(b)
    if a_ is not None and b_ is not None:
        return tf.constant(tf.broadcast_static_shape(
            tf.TensorShape(a_), tf.TensorShape(b_)).as_list(), tf.int32)
    return tf.broadcast_dynamic_shape(a, b)


def broadcast_shape(*tensors):
    """The broadcast shape of `tensors`: a list where static, else a tensor."""
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = tf.broadcast_static_shape(shape, t.shape)
    if shape.is_fully_defined():
        return shape.as_list()
    dynamic = tf.shape(tensors[0])
    for t in tensors[1:]:
        dynamic = tf.broadcast_dynamic_shape(dynamic, tf.shape(t))
    return dynamic


def operator_parents(operator):
    """The tensors a LinearOperator was built from (its `graph_parents`, read without
    TensorFlow 2's deprecation warning; variables left out, as `Distribution` takes tensors)."""
    return [t for t in (getattr(operator, "_graph_parents", None) or [])
            if tensor_util.is_tf_type(t)]


def is_diagonal_scale(scale):
    if not isinstance(scale, tf.linalg.LinearOperator):
        raise TypeError("Expected argument 'scale' to be instance of LinearOperator. "
                        f"Found: {scale}")
    return isinstance(scale, (tf.linalg.LinearOperatorIdentity,
                              tf.linalg.LinearOperatorScaledIdentity,
                              tf.linalg.LinearOperatorDiag))


def check_scalar_distribution(distribution, expected_dtype, validate_args):
    """The checks that `distribution` is a scalar, reparameterized one of `expected_dtype`:
    raised now where known, else returned as assertions (with validate_args)."""
    from tensorflow.python.ops.distributions import distribution as distribution_lib
    if distribution.dtype != expected_dtype:
        raise TypeError(f'dtype mismatch; distribution.dtype="{distribution.dtype.name}" is '
                        f'not "{expected_dtype.name}"')
    if validate_args and (distribution.reparameterization_type
                          != distribution_lib.FULLY_REPARAMETERIZED):
        raise ValueError(
            "Base distribution should be reparameterized or be a function of non-trainable "
            "variables; distribution.reparameterization_type = "
            f'"{distribution.reparameterization_type}" != "FULLY_REPARAMETERIZED".')
    with _v1.name_scope(name="check_distribution"):
        checks = []
        for what, is_scalar in (("is_scalar_event", distribution.is_scalar_event()),
                                ("is_scalar_batch", distribution.is_scalar_batch())):
            message = f"distribution must be scalar; distribution.{what}=False is not True"
            known = static_value(is_scalar)
            if known is not None:
                if not known:
                    raise ValueError(message)
            elif validate_args:
                checks.append(_v1.assert_equal(is_scalar, True, message=message))
        return checks
