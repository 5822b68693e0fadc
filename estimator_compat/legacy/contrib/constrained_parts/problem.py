"""`ConstrainedMinimizationProblem`: what a constrained optimizer is given instead of a loss.

An objective to minimize, constraints g_i <= 0 that are only *evaluated*, and optional proxy
constraints, differentiable stand-ins that are *differentiated* in their place (a rate is
piecewise constant, a hinge bound on it is not).
"""
import abc


class ConstrainedMinimizationProblem(metaclass=abc.ABCMeta):
    """Abstract: subclasses give `objective` and `constraints` (and optionally
    `proxy_constraints`, `pre_train_ops`)."""

    @property
    @abc.abstractmethod
    def objective(self):
        """The 0-d tensor to minimize."""

    @property
    @abc.abstractmethod
    def constraints(self):
        """The tensor of constraint functions g_i, each constrained to g_i <= 0."""

    @property
    def proxy_constraints(self):
        """Differentiated in place of `constraints` when not None."""
        return None

    @property
    def pre_train_ops(self):
        """Ops the train_op runs before its step (None: none)."""
        return None

    @property
    def num_constraints(self):
        """How many constraints there are: the element count of `constraints`, which (and
        `proxy_constraints`, when given) must have a fully known and the same shape."""
        shape = self.constraints.get_shape()
        proxy = self.proxy_constraints
        proxy_shape = shape if proxy is None else proxy.get_shape()
        if not (shape.is_fully_defined() and proxy_shape.is_fully_defined()):
            raise ValueError("constraints and proxy_constraints must have fully-known shapes")
        if shape != proxy_shape:
            raise ValueError("constraints and proxy_constraints must have the same shape")
        count = 1
        for size in shape.as_list():
            count *= size
        return int(count)
