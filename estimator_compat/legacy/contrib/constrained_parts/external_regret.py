"""`AdditiveExternalRegretOptimizer`: the plain Lagrangian game. The state is one Lagrange
multiplier per constraint (zeros at first); the model descends objective + multipliers .
proxy_constraints, the multipliers ascend along the constraints and are projected back to be
nonnegative (and to sum to at most `maximum_multiplier_radius`, when given)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.constrained_parts.two_player import (
    TwoPlayerOptimizer, project_by_active_set)

_v1 = tf.compat.v1


def project_multipliers(multipliers, radius):
    """Euclidean projection of a 1-d `multipliers` onto {m >= 0, sum(m) <= radius}: active-set
    iterations (at most one per element) that shift the still-positive entries down by the
    excess over `radius` shared among them, and zero the entries that go negative."""
    if not multipliers.dtype.is_floating:
        raise ValueError("multipliers must have a floating-point dtype")
    shape = multipliers.get_shape()
    if shape.ndims is None:
        raise ValueError("multipliers must have known shape")
    if shape.ndims != 1:
        raise ValueError("multipliers must be one dimensional (instead is %d-dimensional)"
                         % shape.ndims)
    size = tf.compat.dimension_value(shape[0])
    if size is None:
        raise ValueError("multipliers must have fully-known shape")

    def excess(values, active):
        return tf.minimum(0.0, (radius - tf.reduce_sum(values)) /
                          tf.maximum(1.0, tf.reduce_sum(active)))
    return project_by_active_set(multipliers, excess, size)


class AdditiveExternalRegretOptimizer(TwoPlayerOptimizer):
    """Constrained optimization by external-regret minimization with additive updates of the
    Lagrange multipliers (arXiv:1804.06500, Algorithm 3; `optimizer`s in place of SGD)."""

    _STATE_NAME = "external_regret_optimizer_state"

    def __init__(self, optimizer, constraint_optimizer=None, maximum_multiplier_radius=None):
        super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)
        if maximum_multiplier_radius and maximum_multiplier_radius <= 0.0:
            raise ValueError("maximum_multiplier_radius must be strictly positive")
        self._maximum_multiplier_radius = maximum_multiplier_radius

    def _initial_state(self, num_constraints):
        return tf.zeros((num_constraints,), tf.float32)

    def _lagrange_multipliers(self, state):
        return state

    def _loss_and_state_gradient(self, state, objective, constraints, proxy_constraints):
        multipliers = self._lagrange_multipliers(state)
        loss = objective + tf.tensordot(tf.cast(multipliers, proxy_constraints.dtype),
                                        proxy_constraints, 1)
        return loss, tf.cast(constraints, multipliers.dtype)

    def _projection_op(self, state, name=None):
        with _v1.colocate_with(state):
            if self._maximum_multiplier_radius:
                projected = project_multipliers(state, self._maximum_multiplier_radius)
            else:
                projected = tf.maximum(state, 0.0)
            return _v1.assign(state, projected, name=name)
