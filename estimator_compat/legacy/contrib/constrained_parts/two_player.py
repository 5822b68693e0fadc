"""The constrained step both regret optimizers take (Cotter, Jiang & Sridharan, "Two-Player
Games for Efficient Non-Convex Constrained Optimization", arXiv:1804.06500).

The model player descends a weighted sum of the objective and the *proxy* constraints; the
constraint player, whose state is a non-trainable variable (Lagrange multipliers, or a
stochastic matrix), ascends along the *true* constraints. One train_op applies both gradients
(with `constraint_optimizer` for the state when there is one) and then projects the state back
onto its feasible set; with a `global_step`, it is incremented too.
"""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.constrained_parts.optimizer import (
    GATE_OP, ConstrainedOptimizer)

_v1 = tf.compat.v1


class TwoPlayerOptimizer(ConstrainedOptimizer):
    """What the external- and swap-regret optimizers share; subclasses say what their state
    is (`_STATE_NAME`, `_initial_state`), how it weighs the problem (`_loss_and_state_gradient`)
    and how it is projected (`_projection_op`)."""

    _STATE_NAME = None

    def __init__(self, optimizer, constraint_optimizer=None):
        super().__init__(optimizer=optimizer)
        self._constraint_optimizer = constraint_optimizer

    @property
    def constraint_optimizer(self):
        """The optimizer of the constraint player's state (None: `optimizer` does both)."""
        return self._constraint_optimizer

    @abc.abstractmethod
    def _initial_state(self, num_constraints):
        """The state's initial value."""

    @abc.abstractmethod
    def _loss_and_state_gradient(self, state, objective, constraints, proxy_constraints):
        """(the model player's loss, the gradient the state *ascends*)."""

    @abc.abstractmethod
    def _projection_op(self, state, name=None):
        """The op assigning the state its projection onto the feasible set."""

    def _constraint_grad_and_var(self, state, gradient):
        return (-gradient, state)  # the optimizers descend: ascend by negating

    def _gradients(self, minimization_problem, var_list=None, gate_gradients=GATE_OP,
                   aggregation_method=None, colocate_gradients_with_ops=False,
                   grad_loss=None):
        """(the state variable, the model's grads_and_vars, the state's (grad, var))."""
        objective = minimization_problem.objective
        constraints = minimization_problem.constraints
        proxy_constraints = minimization_problem.proxy_constraints
        if proxy_constraints is None:
            proxy_constraints = constraints
        dtype = objective.dtype.base_dtype
        if constraints.dtype.base_dtype != dtype or proxy_constraints.dtype.base_dtype != dtype:
            raise ValueError("objective, constraints and proxy_constraints must "
                             "have the same dtype")
        count = minimization_problem.num_constraints
        constraints = tf.reshape(constraints, (count,))
        proxy_constraints = tf.reshape(proxy_constraints, (count,))
        # a callable initial value keeps any enclosing control dependencies off the initializer
        state = _v1.Variable(lambda: self._initial_state(count), trainable=False,
                             name=self._STATE_NAME)
        loss, state_gradient = self._loss_and_state_gradient(state, objective, constraints,
                                                             proxy_constraints)
        grads_and_vars = self.optimizer.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        return state, grads_and_vars, self._constraint_grad_and_var(state, state_gradient)

    def _apply(self, state, grads_and_vars, state_grad_and_var, global_step=None, name=None):
        """The train_op: both players' updates, then the state's projection (and the
        global_step's increment)."""
        # both players' gradients are computed (the state read) before either updates
        gradients = [g for g, _ in grads_and_vars + [state_grad_and_var] if g is not None]
        with tf.control_dependencies(gradients):
            if self.constraint_optimizer is None:
                update_ops = [self.optimizer.apply_gradients(
                    grads_and_vars + [state_grad_and_var], name="update")]
            else:
                update_ops = [
                    self.optimizer.apply_gradients(grads_and_vars, name="update"),
                    self.constraint_optimizer.apply_gradients(
                        [state_grad_and_var], name="optimizer_state_update")]
        with tf.control_dependencies(update_ops):
            if global_step is None:
                return self._projection_op(state, name=name)
            projection = self._projection_op(state, name="project")
            with _v1.colocate_with(global_step):
                increment = _v1.assign_add(global_step, 1, name="global_step_increment")
            return tf.group(projection, increment, name=name)

    def _minimize_constrained(self, minimization_problem, global_step=None, var_list=None,
                              gate_gradients=GATE_OP, aggregation_method=None,
                              colocate_gradients_with_ops=False, name=None, grad_loss=None):
        parts = self._gradients(minimization_problem, var_list, gate_gradients,
                                aggregation_method, colocate_gradients_with_ops, grad_loss)
        return self._apply(*parts, global_step=global_step, name=name)


def do_while(body, loop_vars, keep_going, name):
    """`body` once, then repeated while `keep_going(*loop_vars)` (tf.while_loop)."""
    loop_vars = body(*loop_vars)
    return _v1.while_loop(keep_going, body, loop_vars=loop_vars, name=name)


def project_by_active_set(values, shift, size):
    """The Euclidean projections' active-set iterations: each adds `shift(values, active)` (the
    excess or deficit shared among the still-positive entries) to those entries and zeroes the
    ones that go negative, until the active set settles or after `size` iterations."""
    def step(iteration, values, active, _):
        values = values + shift(values, active) * active
        now_active = tf.cast(values > 0, values.dtype)
        return iteration + 1, values * now_active, now_active, active

    def unsettled(iteration, _, active, was_active):
        return tf.logical_and(iteration < size,
                              tf.reduce_any(tf.not_equal(active, was_active)))

    ones = tf.ones_like(values)
    return do_while(step, (tf.constant(0), values, ones, ones), unsettled,
                    "euclidean_projection")[1]
