"""`ConstrainedOptimizer`: wraps a `tf.compat.v1.train.Optimizer` and minimizes a
`ConstrainedMinimizationProblem` with it (`minimize`, `minimize_constrained`,
`minimize_unconstrained`), the problem's `pre_train_ops` run first.

`minimize(unconstrained_steps=n)` takes plain steps on the objective while global_step < n, then
constrained ones: a conditional whose branches create the optimizer's variables, so it is built
with TF1's control flow in a TF1 session graph, as TF 1.15 built it; in a function's graph (an
Estimator's model_fn) only the updates are conditional (`_minimize_in_function`).
"""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.opt.graph_cond import tf1_control_flow

_v1 = tf.compat.v1
GATE_OP = _v1.train.Optimizer.GATE_OP


class ConstrainedOptimizer(metaclass=abc.ABCMeta):
    """Base class: subclasses implement `_minimize_constrained`."""

    def __init__(self, optimizer):
        self._optimizer = optimizer

    @property
    def optimizer(self):
        """The `tf.compat.v1.train.Optimizer` that updates the model's variables."""
        return self._optimizer

    @abc.abstractmethod
    def _minimize_constrained(self, minimization_problem, global_step=None, var_list=None,
                              gate_gradients=GATE_OP, aggregation_method=None,
                              colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """The constrained train_op (`pre_train_ops` are the caller's business)."""

    @staticmethod
    def _after_pre_train_ops(minimization_problem, make_train_op):
        pre_train_ops = minimization_problem.pre_train_ops
        if not pre_train_ops:
            return make_train_op()
        with tf.control_dependencies(pre_train_ops):
            return make_train_op()

    def minimize_constrained(self, minimization_problem, global_step=None, var_list=None,
                             gate_gradients=GATE_OP, aggregation_method=None,
                             colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """The train_op minimizing the objective subject to the constraints."""
        def make():
            with tf1_control_flow():
                return self._minimize_constrained(
                    minimization_problem, global_step=global_step, var_list=var_list,
                    gate_gradients=gate_gradients, aggregation_method=aggregation_method,
                    colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
                    grad_loss=grad_loss)
        return self._after_pre_train_ops(minimization_problem, make)

    def minimize_unconstrained(self, minimization_problem, global_step=None, var_list=None,
                               gate_gradients=GATE_OP, aggregation_method=None,
                               colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """The train_op minimizing the objective alone, the constraints ignored."""
        return self._after_pre_train_ops(minimization_problem, lambda: self.optimizer.minimize(
            minimization_problem.objective, global_step=global_step, var_list=var_list,
            gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
            grad_loss=grad_loss))

    def minimize(self, minimization_problem, unconstrained_steps=None, global_step=None,
                 var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """The constrained train_op, or (with `unconstrained_steps`) one that is unconstrained
        while `global_step` < unconstrained_steps and constrained after."""
        kwargs = dict(minimization_problem=minimization_problem, global_step=global_step,
                      var_list=var_list, gate_gradients=gate_gradients,
                      aggregation_method=aggregation_method,
                      colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
                      grad_loss=grad_loss)
        if unconstrained_steps is None:
            return self.minimize_constrained(**kwargs)
        if global_step is None:
            raise ValueError("global_step cannot be None if unconstrained_steps is provided")
        steps = tf.convert_to_tensor(unconstrained_steps)
        unconstrained = tf.cast(global_step, steps.dtype) < steps
        if getattr(_v1.get_default_graph(), "building_function", False) and \
                hasattr(self, "_gradients"):
            return self._minimize_in_function(unconstrained, **kwargs)
        with tf1_control_flow():
            return _v1.cond(unconstrained,
                            true_fn=lambda: self.minimize_unconstrained(**kwargs),
                            false_fn=lambda: self.minimize_constrained(**kwargs))

    def _minimize_in_function(self, unconstrained, minimization_problem, global_step, var_list,
                              gate_gradients, aggregation_method, colocate_gradients_with_ops,
                              name, grad_loss):
        """`minimize(unconstrained_steps=...)` in a function's graph (an Estimator's model_fn),
        where the conditional is TensorFlow 2's: a branch cannot differentiate the problem's
        tensors, made outside it, so both steps' gradients are computed before it and only
        the updates are conditional. The state keeps TF 1.15's name ("cond/...")."""
        options = dict(var_list=var_list, gate_gradients=gate_gradients,
                       aggregation_method=aggregation_method,
                       colocate_gradients_with_ops=colocate_gradients_with_ops,
                       grad_loss=grad_loss)
        with tf.control_dependencies(minimization_problem.pre_train_ops or []):
            plain = self.optimizer.compute_gradients(minimization_problem.objective, **options)
            with _v1.name_scope("cond"):
                parts = self._gradients(minimization_problem, **options)

            def step(make_op):
                with tf.control_dependencies([make_op()]):
                    return tf.constant(True)
            return tf.cond(
                unconstrained,
                lambda: step(lambda: self.optimizer.apply_gradients(
                    plain, global_step=global_step, name=name)),
                lambda: step(lambda: self._apply(*parts, global_step=global_step, name=name)))
