"""`AdditiveSwapRegretOptimizer` and `MultiplicativeSwapRegretOptimizer`: the swap-regret game
(arXiv:1804.06500, Definition 2, Algorithm 2). The constraint player's state is an (m+1, m+1)
left-stochastic matrix (row / column 0: the objective), kept as is (additive updates, Euclidean
projection per column) or as its elementwise log (multiplicative updates, KL projection). The
model descends the objective and proxy constraints weighted by the matrix's stationary
distribution (its maximal right eigenvector, by the power method); the matrix ascends along
the outer product of (0, constraints) with that distribution."""
import math

import tensorflow as tf

from estimator_compat.legacy.contrib.constrained_parts.two_player import (
    TwoPlayerOptimizer, do_while, project_by_active_set)

_v1 = tf.compat.v1


def maximal_eigenvector(matrix, epsilon=1e-6, maximum_iterations=100):
    """The power method from the normalized all-ones vector, until two iterates are within
    `epsilon` (L2) or after `maximum_iterations` multiplications."""
    if not matrix.dtype.is_floating:
        raise ValueError("multipliers must have a floating-point dtype")
    if epsilon <= 0.0:
        raise ValueError("epsilon must be strictly positive")
    if maximum_iterations <= 0:
        raise ValueError("maximum_iterations must be strictly positive")

    def step(iteration, vector, _):
        # matmul (not tensordot) keeps the static shape the loop needs
        product = tf.matmul(matrix, tf.expand_dims(vector, 1))[:, 0]
        return iteration + 1, product / tf.norm(product), vector

    def unconverged(iteration, vector, previous):
        return tf.logical_and(iteration < maximum_iterations,
                              tf.norm(vector - previous) > epsilon)

    start = tf.ones_like(matrix[:, 0])
    start /= tf.norm(start)
    return do_while(step, (tf.constant(0), start, start), unconverged, "power_method")[1]


def project_stochastic_matrix(matrix):
    """Euclidean projection of a square matrix's columns onto the probability simplex: per
    column, active-set iterations shifting the positive entries by the deficit from 1 and
    zeroing those that go negative (at most one iteration per row)."""
    if not matrix.dtype.is_floating:
        raise ValueError("multipliers must have a floating-point dtype")
    shape = matrix.get_shape()
    if shape.ndims is None:
        raise ValueError("matrix must have known shape")
    if shape.ndims != 2:
        raise ValueError("matrix must be two dimensional (instead is %d-dimensional)"
                         % shape.ndims)
    if shape[0] != shape[1]:
        raise ValueError("matrix must be square (instead has shape (%d,%d))"
                         % (shape[0], shape[1]))
    size = tf.compat.dimension_value(shape[0])
    if size is None:
        raise ValueError("matrix must have fully-known shape")

    def deficit(values, active):
        return (1.0 - tf.reduce_sum(values, axis=0, keepdims=True)) / tf.maximum(
            1.0, tf.reduce_sum(active, axis=0, keepdims=True))
    return project_by_active_set(matrix, deficit, size)


def project_log_stochastic_matrix(log_matrix):
    """KL projection of exp(log_matrix)'s columns onto the simplex: normalize each column, in
    log space (its largest entry shifted to 0 first, so exp cannot overflow)."""
    log_matrix = log_matrix - tf.reduce_max(log_matrix, axis=0, keepdims=True)
    return log_matrix - tf.math.log(tf.reduce_sum(tf.exp(log_matrix), axis=0, keepdims=True))


class _SwapRegretOptimizer(TwoPlayerOptimizer):
    _STATE_NAME = "swap_regret_optimizer_state"

    def _stochastic_matrix(self, state):
        raise NotImplementedError

    def _distribution(self, state):
        distribution = tf.abs(maximal_eigenvector(self._stochastic_matrix(state)))
        return distribution / tf.reduce_sum(distribution)

    def _loss_and_state_gradient(self, state, objective, constraints, proxy_constraints):
        zero_and_constraints = tf.concat((tf.zeros((1,), constraints.dtype), constraints), 0)
        objective_and_proxies = tf.concat((tf.expand_dims(objective, 0), proxy_constraints), 0)
        distribution = self._distribution(state)
        loss = tf.tensordot(tf.cast(distribution, objective_and_proxies.dtype),
                            objective_and_proxies, 1)
        gradient = tf.matmul(
            tf.expand_dims(tf.cast(zero_and_constraints, distribution.dtype), 1),
            tf.expand_dims(distribution, 0))
        return loss, gradient


class AdditiveSwapRegretOptimizer(_SwapRegretOptimizer):
    """Swap-regret minimization with additive updates of the stochastic matrix, which starts
    with all its weight on the objective."""

    def __init__(self, optimizer, constraint_optimizer=None):
        super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)

    def _initial_state(self, num_constraints):
        size = num_constraints + 1
        return tf.concat((tf.ones((1, size)), tf.zeros((size - 1, size))), 0)

    def _stochastic_matrix(self, state):
        return state

    def _projection_op(self, state, name=None):
        with _v1.colocate_with(state):
            return _v1.assign(state, project_stochastic_matrix(state), name=name)


class MultiplicativeSwapRegretOptimizer(_SwapRegretOptimizer):
    """Swap-regret minimization with multiplicative updates: the state is the matrix's log.
    Each constraint entry starts at `initial_multiplier_radius` / (m+1) (default:
    `minimum_multiplier_radius`), the objective's at what keeps the columns stochastic; no
    entry goes below `minimum_multiplier_radius` / (m+1)."""

    def __init__(self, optimizer, constraint_optimizer=None, minimum_multiplier_radius=1e-3,
                 initial_multiplier_radius=None):
        super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)
        if minimum_multiplier_radius <= 0.0 or minimum_multiplier_radius >= 1.0:
            raise ValueError("minimum_multiplier_radius must be in the range (0,1)")
        if initial_multiplier_radius is None:
            initial_multiplier_radius = minimum_multiplier_radius
        elif initial_multiplier_radius < minimum_multiplier_radius:
            raise ValueError("initial_multiplier_radius must be in the range "
                             "[minimum_multiplier_radius,1]")
        self._minimum_multiplier_radius = minimum_multiplier_radius
        self._initial_multiplier_radius = initial_multiplier_radius

    def _initial_state(self, num_constraints):
        size = num_constraints + 1
        radius = self._initial_multiplier_radius
        objective_row = math.log(1.0 - radius * (size - 1) / size)
        constraint_rows = math.log(radius / size)
        return tf.concat((tf.constant(objective_row, tf.float32, shape=(1, size)),
                          tf.constant(constraint_rows, tf.float32, shape=(size - 1, size))), 0)

    def _stochastic_matrix(self, state):
        return tf.exp(state)

    def _projection_op(self, state, name=None):
        with _v1.colocate_with(state):
            size = tf.compat.dimension_value(state.get_shape()[0])
            floor = tf.math.log(self._minimum_multiplier_radius / tf.cast(size, tf.float32))
            return _v1.assign(state, tf.maximum(project_log_stochastic_matrix(state), floor),
                              name=name)
