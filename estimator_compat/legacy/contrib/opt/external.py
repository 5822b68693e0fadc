"""`ExternalOptimizerInterface` and `ScipyOptimizerInterface`: minimize a graph's loss with an
optimizer outside TensorFlow (scipy.optimize.minimize), the variables packed into one vector,
the loss and its gradient (and any equality / inequality constraints) evaluated by
`session.run`, the result written back to the variables."""
import numpy as np
import tensorflow as tf

_v1 = tf.compat.v1


def _accumulate(values):
    out = [0]
    for v in values:
        out.append(out[-1] + v)
    return out


def _get_shape_tuple(tensor):
    return tuple(tensor.shape.as_list())


def _prod(shape):
    return int(np.prod(shape, dtype=np.int64))


class ExternalOptimizerInterface:
    """Base of optimizers run outside TensorFlow: subclasses implement `_minimize`."""

    def __init__(self, loss, var_list=None, equalities=None, inequalities=None,
                 var_to_bounds=None, **optimizer_kwargs):
        self._loss = loss
        self._equalities = equalities or []
        self._inequalities = inequalities or []
        if var_list is None:
            self._vars = _v1.trainable_variables()
        else:
            self._vars = list(var_list)
        if not self._vars:
            raise ValueError("ExternalOptimizerInterface: no variables to optimize (var_list is "
                             "empty and there are no trainable variables)")
        packed_bounds = None
        if var_to_bounds is not None:
            left, right = [], []
            for var in self._vars:
                shape = var.get_shape().as_list()
                bounds = (-np.inf, np.inf)
                for candidate, candidate_bounds in var_to_bounds.items():
                    if candidate is var:
                        bounds = candidate_bounds
                left.append(np.broadcast_to(bounds[0], shape).ravel())
                right.append(np.broadcast_to(bounds[1], shape).ravel())
            packed_bounds = list(zip(np.concatenate(left), np.concatenate(right)))
        self._packed_bounds = packed_bounds

        self._update_placeholders = [_v1.placeholder(var.dtype.base_dtype) for var in self._vars]
        self._var_updates = [
            _v1.assign(var, tf.reshape(placeholder, _get_shape_tuple(var)))
            for var, placeholder in zip(self._vars, self._update_placeholders)]
        loss_grads = _v1.gradients(loss, self._vars)
        self._packed_loss_grad = self._pack(
            [g if g is not None else tf.zeros_like(v) for g, v in zip(loss_grads, self._vars)])
        self._packed_equality_grads = [
            self._pack([g if g is not None else tf.zeros_like(v)
                        for g, v in zip(_v1.gradients(e, self._vars), self._vars)])
            for e in self._equalities]
        self._packed_inequality_grads = [
            self._pack([g if g is not None else tf.zeros_like(v)
                        for g, v in zip(_v1.gradients(i, self._vars), self._vars)])
            for i in self._inequalities]
        dims = [_prod(_get_shape_tuple(var)) for var in self._vars]
        accumulated = _accumulate(dims)
        self._packing_slices = [slice(start, end)
                                for start, end in zip(accumulated[:-1], accumulated[1:])]
        self.optimizer_kwargs = optimizer_kwargs

    def minimize(self, session=None, feed_dict=None, fetches=None, step_callback=None,
                 loss_callback=None, **run_kwargs):
        """Run the external optimizer from the variables' current values and store its
        result in them; `loss_callback(*fetches)` after each evaluation, `step_callback(x)`
        after each optimizer step."""
        session = session or _v1.get_default_session()
        if session is None:
            raise ValueError("ExternalOptimizerInterface.minimize needs a session (pass one, or "
                             "call it inside `with sess.as_default():`)")
        feed_dict = feed_dict or {}
        fetches = fetches or []
        loss_callback = loss_callback or (lambda *fetches: None)
        step_callback = step_callback or (lambda xk: None)

        loss_grad_func = self._make_eval_func([self._loss, self._packed_loss_grad], session,
                                              feed_dict, fetches, loss_callback)
        equality_funcs = self._make_eval_funcs(self._equalities, session, feed_dict, fetches)
        equality_grad_funcs = self._make_eval_funcs(self._packed_equality_grads, session,
                                                    feed_dict, fetches)
        inequality_funcs = self._make_eval_funcs(self._inequalities, session, feed_dict, fetches)
        inequality_grad_funcs = self._make_eval_funcs(self._packed_inequality_grads, session,
                                                      feed_dict, fetches)
        initial_packed_var_val = session.run(self._pack(self._vars))
        packed_var_val = self._minimize(
            initial_val=initial_packed_var_val, loss_grad_func=loss_grad_func,
            equality_funcs=equality_funcs, equality_grad_funcs=equality_grad_funcs,
            inequality_funcs=inequality_funcs, inequality_grad_funcs=inequality_grad_funcs,
            packed_bounds=self._packed_bounds, step_callback=step_callback,
            optimizer_kwargs=self.optimizer_kwargs)
        var_vals = [packed_var_val[s] for s in self._packing_slices]
        session.run(self._var_updates,
                    feed_dict=dict(zip(self._update_placeholders, var_vals)), **run_kwargs)

    def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs,
                  inequality_funcs, inequality_grad_funcs, packed_bounds, step_callback,
                  optimizer_kwargs):
        """The packed variables' final value: implemented by each external optimizer."""
        raise NotImplementedError(f"{type(self).__name__} must implement _minimize")

    @classmethod
    def _pack(cls, tensors):
        if not tensors:
            return None
        if len(tensors) == 1:
            return tf.reshape(tensors[0], [-1])
        return tf.concat([tf.reshape(t, [-1]) for t in tensors], 0)

    def _make_eval_func(self, tensors, session, feed_dict, fetches, callback=None):
        """f(x): the values of `tensors` with the variables set to the packed `x`."""
        if not isinstance(tensors, list):
            tensors = [tensors]
        num_tensors = len(tensors)

        def eval_func(x):
            shapes = [_get_shape_tuple(v) for v in self._vars]
            augmented_feed = dict(feed_dict)
            augmented_feed.update({p: np.reshape(x[s], shape) for p, s, shape in zip(
                self._update_placeholders, self._packing_slices, shapes)})
            session.run(self._var_updates, feed_dict=augmented_feed)
            values = session.run(tensors + list(fetches), feed_dict=feed_dict)
            if callback is not None:
                callback(*values[num_tensors:])
            values = [np.asarray(v, np.float64) for v in values[:num_tensors]]
            return values[0] if num_tensors == 1 else values
        return eval_func

    def _make_eval_funcs(self, tensors, session, feed_dict, fetches, callback=None):
        return [self._make_eval_func(t, session, feed_dict, fetches, callback)
                for t in tensors]


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """scipy.optimize.minimize (L-BFGS-B unless `method=` says otherwise; `options=` passed
    through) on the graph's loss; equality / inequality constraints as scipy's."""

    _DEFAULT_METHOD = "L-BFGS-B"

    def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs,
                  inequality_funcs, inequality_grad_funcs, packed_bounds, step_callback,
                  optimizer_kwargs):
        try:
            import scipy.optimize
        except ImportError as error:
            raise ImportError("tf.contrib.opt.ScipyOptimizerInterface needs scipy: "
                              "pip install scipy") from error

        def loss_grad_func_wrapper(x):
            loss, gradient = loss_grad_func(x)
            return loss, gradient.astype("float64")

        optimizer_kwargs = dict(optimizer_kwargs.items())
        method = optimizer_kwargs.pop("method", self._DEFAULT_METHOD)
        constraints = []
        for func, grad_func in zip(equality_funcs, equality_grad_funcs):
            constraints.append({"type": "eq", "fun": func, "jac": grad_func})
        for func, grad_func in zip(inequality_funcs, inequality_grad_funcs):
            constraints.append({"type": "ineq", "fun": func, "jac": grad_func})
        minimize_kwargs = {"jac": True, "callback": step_callback, "method": method,
                           "constraints": constraints, "bounds": packed_bounds}
        for kwarg in minimize_kwargs:
            if kwarg in optimizer_kwargs:
                if kwarg == "bounds":
                    raise ValueError("Bounds must be set using the var_to_bounds argument")
                raise ValueError(f"{kwarg} is set by ScipyOptimizerInterface; do not pass it")
        minimize_kwargs.update(optimizer_kwargs)
        if not constraints:
            del minimize_kwargs["constraints"]
        result = scipy.optimize.minimize(loss_grad_func_wrapper,
                                         np.asarray(initial_val, np.float64), **minimize_kwargs)
        message_lines = ["Optimization terminated with:", f"  Message: {result.message}",
                         f"  Objective function value: {float(result.fun):f}"]
        for attr, label in (("nit", "Number of iterations"),
                            ("nfev", "Number of functions evaluations"),
                            ("njev", "Number of gradient evaluations"),
                            ("nhev", "Number of hessian evaluations")):
            if hasattr(result, attr):
                message_lines.append(f"  {label}: {getattr(result, attr)}")
        _v1.logging.info("\n".join(message_lines))
        return result["x"]
