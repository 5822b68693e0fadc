"""`GGTOptimizer` (Agarwal et al. 2018, "The case for full-matrix adaptive regularization"):
every variable's gradient is written into one flat vector (non-slot `flat_grad`), its first
moment (`moment1`) is kept in a ring of the last `window` moments (`grad_buffer`, one row a
step, counted by the non-slot float `global_step`), and the step is the moment preconditioned
by the inverse square root of the window's (low-rank) covariance, computed through the SVD of
the small `window x window` Gram matrix. TF 1.15's names: the four non-slot variables are
`global_step`, `grad_buffer`, `moment1`, `flat_grad` (uniquified like any variable)."""
import numpy as np
import tensorflow as tf


class GGTOptimizer(tf.compat.v1.train.Optimizer):
    """GGT: full-matrix adaptive regularization over a window of first moments."""

    def __init__(self, learning_rate=0.001, beta1=0.9, use_locking=False, name="GGT",
                 window=10, eps=1e-4, svd_eps=1e-6, sigma_eps=1e-2):
        if int(window) != window or window < 1:
            raise ValueError(f"GGTOptimizer's window must be a positive integer, got {window!r}")
        super().__init__(use_locking, name)
        self._lr, self._beta1 = learning_rate, beta1
        self._window, self._eps = int(window), eps
        self._svd_eps, self._sigma_eps = svd_eps, sigma_eps
        self._layout = {}  # a variable's name: (variable, offset in the flat vector, size)

    def _variable(self, name):
        with tf.init_scope():
            graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
            return self._get_non_slot_variable(name, graph=graph)

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        dtype = first_var.dtype.base_dtype.as_numpy_dtype
        offset, self._layout = 0, {}
        for v in sorted(var_list, key=lambda x: x.name):  # TF 1.15's layout: by name
            shape = v.shape
            if not shape.is_fully_defined():
                raise ValueError(f"GGTOptimizer needs variables of a known shape; {v.name} "
                                 f"has {shape}")
            size = int(np.prod(shape.as_list(), dtype=np.int64))
            self._layout[_key(v)] = (v, offset, size)
            offset += size
        self._create_non_slot_variable(np.array(0.0, dtype), "global_step", first_var)
        self._create_non_slot_variable(np.zeros((self._window, offset), dtype), "grad_buffer",
                                       first_var)
        self._create_non_slot_variable(np.zeros((offset,), dtype), "moment1", first_var)
        self._create_non_slot_variable(np.zeros((offset,), dtype), "flat_grad", first_var)

    def _prepare(self):
        self._lr_t = tf.convert_to_tensor(self._lr, name="lr")
        self._beta1_t = tf.convert_to_tensor(self._beta1, name="beta1")
        self._eps_t = tf.convert_to_tensor(self._eps, name="eps")
        self._svd_eps_t = tf.convert_to_tensor(self._svd_eps, name="svd_eps")
        self._sigma_eps_t = tf.convert_to_tensor(self._sigma_eps, name="sigma_eps")

    def _write_gradient(self, grad, var):
        _, offset, size = self._layout[_key(var)]
        return tf.compat.v1.scatter_update(self._variable("flat_grad"),
                                           tf.range(offset, offset + size),
                                           tf.reshape(grad, [-1]), use_locking=self._use_locking)

    def _apply_dense(self, grad, var):
        return self._write_gradient(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._write_gradient(grad, var)

    def _apply_sparse(self, grad, var):
        raise TypeError(f"GGTOptimizer takes dense gradients only, and {var.name}'s is sparse "
                        "(IndexedSlices, e.g. from an embedding lookup); TF 1.15's GGT failed "
                        "on it too: densify it with tf.convert_to_tensor before "
                        "apply_gradients, or use another optimizer for that variable")

    def _resource_apply_sparse(self, grad, var, indices):
        return self._apply_sparse(grad, var)

    def _finish(self, update_ops, name_scope):
        use_locking = self._use_locking
        dtype = self._variable("flat_grad").dtype.base_dtype
        with tf.control_dependencies(update_ops):
            step = tf.compat.v1.assign_add(self._variable("global_step"), 1.0,
                                           use_locking=use_locking)
            moment1, flat_grad = self._variable("moment1"), self._variable("flat_grad")
            beta1 = tf.cast(self._beta1_t, dtype)
            m = tf.compat.v1.assign(moment1, beta1 * moment1 + (1.0 - beta1) * flat_grad,
                                    use_locking=use_locking)
            row = tf.math.floormod(tf.cast(step - 1.0, tf.int32), self._window)
            buffer = tf.compat.v1.scatter_update(self._variable("grad_buffer"), row, m,
                                                 use_locking=use_locking)
            new_step = self._preconditioned(buffer, m, step, dtype)
            lr = tf.cast(self._lr_t, dtype)
            updates = []
            for var, offset, size in self._layout.values():
                piece = tf.reshape(new_step[offset:offset + size], var.shape)
                updates.append(tf.compat.v1.assign_sub(var, lr * piece,
                                                       use_locking=use_locking))
            return tf.group(*updates, name=name_scope)

    def _preconditioned(self, buffer, m, step, dtype):
        """M U diag((sqrt(sigma) + sigma_eps)^-3) U^T M^T m, plus the part of m outside M's
        span divided by the smallest sqrt(sigma) when that is above `eps`."""
        window = float(self._window)
        mat_m = tf.transpose(buffer) / tf.sqrt(tf.minimum(tf.cast(window, dtype), step))
        gram = tf.matmul(mat_m, mat_m, transpose_a=True)
        gram += tf.cast(self._svd_eps_t, dtype) * tf.eye(self._window, dtype=dtype)
        sigma, mat_u, _ = tf.linalg.svd(gram)
        sigma_sqrt = tf.sqrt(sigma)
        sigma_sqrt_min = tf.reduce_min(sigma_sqrt)
        sigma_sqrt_inv = tf.pow(sigma_sqrt + tf.cast(self._sigma_eps_t, dtype), -3.0)
        column = tf.expand_dims(m, 1)
        projected = tf.matmul(mat_u, tf.matmul(mat_m, column, transpose_a=True),
                              transpose_a=True)  # U^T M^T m

        def through(diag):  # M U diag U^T M^T m
            return tf.matmul(mat_m, tf.matmul(mat_u, tf.expand_dims(diag, 1) * projected))
        low_rank = through(sigma_sqrt_inv)
        in_span = through(1.0 / sigma)
        rest = (column - in_span) / sigma_sqrt_min
        new_step = tf.where(sigma_sqrt_min > tf.cast(self._eps_t, dtype),
                            low_rank + rest, low_rank)
        return tf.reshape(new_step, [-1])


def _key(var):
    return var.name
