"""`ShampooOptimizer` (Gupta, Koren & Singer 2018): Adagrad with one preconditioner matrix per
dimension of a variable. For a rank-n variable, dimension i of size d keeps the accumulated
contraction of the gradient with itself over every other dimension (slot `Gbar_i`, d x d,
zeros at first; a diagonal vector instead when d > `max_matrix_size`), and the step is the
accumulated gradient (slot `gbar`, kept only with a `gbar_decay`) contracted on each dimension
with `(Gbar_i / d) ** (-alpha / n)` (by SVD, or the Schur-Newton iteration with
`use_iterative_root`). With `svd_interval > 1` that power is kept in slot `H_i` (identity at
first) between SVDs.

Slots are created per variable in TF 1.15's order, so their checkpoint names match:
`<var>/<name>` (gbar), then per dimension `<var>/<name>_k` (H_i if any, then Gbar_i).
Hyperparameters may be callables of the step (`global_step + 1`)."""
import tensorflow as tf

from estimator_compat.legacy.contrib.opt import matrix_functions


def _at(param, step):
    return param(step) if callable(param) else param


class ShampooOptimizer(tf.compat.v1.train.Optimizer):
    """Shampoo: a Kronecker-factored full-matrix Adagrad."""

    def __init__(self, global_step=0, max_matrix_size=768, gbar_decay=0.0, gbar_weight=1.0,
                 mat_gbar_decay=1.0, mat_gbar_weight=1.0, learning_rate=1.0, svd_interval=1,
                 precond_update_interval=1, epsilon=1e-4, alpha=0.5, use_iterative_root=False,
                 use_locking=False, name="Shampoo"):
        super().__init__(use_locking, name)
        self._global_step = global_step
        self._max_matrix_size = max_matrix_size
        self._gbar_decay, self._gbar_weight = gbar_decay, gbar_weight
        self._mat_gbar_decay, self._mat_gbar_weight = mat_gbar_decay, mat_gbar_weight
        self._learning_rate = learning_rate
        self._svd_interval = svd_interval
        self._precond_update_interval = precond_update_interval
        self._epsilon, self._alpha = epsilon, alpha
        self._use_iterative_root = use_iterative_root

    def _create_slots(self, var_list):
        for v in var_list:
            shape = v.shape
            if shape.rank is None or not shape.is_fully_defined():
                raise ValueError(f"ShampooOptimizer needs variables of a known shape; "
                                 f"{v.name} has {shape}")
            if shape.rank == 0:
                raise ValueError(f"ShampooOptimizer preconditions each dimension of a "
                                 f"variable, and {v.name} is a scalar (TF 1.15 failed with a "
                                 "ZeroDivisionError): reshape it to [1] or train it with "
                                 "another optimizer")
            dtype = v.dtype.base_dtype
            self._zeros_slot(v, "gbar", self._name)
            for i, d in enumerate(shape.as_list()):
                if d <= self._max_matrix_size and self._svd_interval != 1:
                    self._get_or_make_slot_with_initializer(
                        v, tf.compat.v1.initializers.identity(), tf.TensorShape([d, d]), dtype,
                        f"H_{i}", self._name)
                size = [d, d] if d <= self._max_matrix_size else [d]
                self._get_or_make_slot_with_initializer(
                    v, tf.compat.v1.zeros_initializer(), tf.TensorShape(size), dtype,
                    f"Gbar_{i}", self._name)

    def _apply_dense(self, grad, var):
        return self._apply_gradient(grad, var)

    def _resource_apply_dense(self, grad, var):
        return self._apply_gradient(grad, var)

    def _apply_sparse(self, grad, var):
        return self._sparse(grad.values, grad.indices, var)

    def _resource_apply_sparse(self, grad_values, var, grad_indices):
        return self._sparse(grad_values, grad_indices, var)

    def _sparse(self, values, indices, var):
        """Rows of a small first dimension (or with momentum) are scattered into a dense
        gradient; otherwise only the given rows and their diagonal statistics are updated."""
        if var.shape[0] <= self._max_matrix_size or self._gbar_decay != 0.0:
            dense = tf.scatter_nd(tf.expand_dims(indices, 1), values,
                                  tf.shape(var, out_type=indices.dtype))
            return self._apply_gradient(dense, var)
        return self._apply_gradient(values, var, indices)

    def _assign(self, var, value):
        return tf.compat.v1.assign(var, value, use_locking=self._use_locking)

    def _weighted_average(self, var, decay, decay_t, rest):
        """decay_t * var + rest, assigned to var; where the decay is 0, `rest` alone and var
        is left as it is (TF 1.15 kept no momentum then: the slot stays 0)."""
        if decay == 0.0:
            return rest
        return self._assign(var, decay_t * var + rest)

    def _power(self, mat_g, size, alpha):
        """mat_g ** alpha with `epsilon * I` added first."""
        eps = self._epsilon
        if self._use_iterative_root:
            return matrix_functions.matrix_inverse_pth_root(mat_g, size, alpha,
                                                            ridge_epsilon=eps)
        if size == 1:
            return tf.pow(mat_g + eps, alpha)
        damped = mat_g + eps * tf.eye(size, dtype=mat_g.dtype)
        diag_d, mat_u, mat_v = tf.linalg.svd(damped, full_matrices=True)
        return tf.matmul(mat_v * tf.pow(tf.maximum(diag_d, eps), alpha), mat_u,
                         transpose_b=True)

    def _apply_gradient(self, grad, var, indices=None):
        step = self._global_step + 1
        gbar = self.get_slot(var, "gbar")
        if indices is None:
            gbar_updated = self._weighted_average(
                gbar, self._gbar_decay, _at(self._gbar_decay, step),
                _at(self._gbar_weight, step) * grad)
        else:  # gbar_decay is 0 here: the rows' gradient is the momentum-free gbar
            gbar_updated = grad
        shape = var.shape.as_list()
        rank = len(shape)
        mat_decay_t = _at(self._mat_gbar_decay, step)
        mat_weight_t = _at(self._mat_gbar_weight, step)
        neg_alpha = -_at(self._alpha, step) / rank
        svd_interval = _at(self._svd_interval, step)
        update_interval = _at(self._precond_update_interval, step)
        preconditioned = gbar_updated
        for i, d in enumerate(shape):
            mat_g = self.get_slot(var, f"Gbar_{i}")
            others = [j for j in range(rank) if j != i]
            if d <= self._max_matrix_size:
                def update(mat_g=mat_g, others=others):
                    outer = tf.tensordot(grad, grad, axes=(others, others))
                    rest = mat_weight_t * update_interval * outer
                    if self._mat_gbar_decay == 0.0:
                        return rest
                    return mat_decay_t * mat_g + rest
                # TensorFlow 2's cond cannot assign a TF1 reference variable in a branch: the
                # branch computes the value, assigned after it (the same value where unchanged)
                mat_g_updated = tf.cond(tf.math.floormod(step, update_interval) < 1, update,
                                        lambda mat_g=mat_g: tf.identity(mat_g))
                if self._mat_gbar_decay != 0.0:
                    mat_g_updated = self._assign(mat_g, mat_g_updated)
                mat_g_updated = mat_g_updated / float(d)
                if self._svd_interval == 1:
                    mat_h = self._power(mat_g_updated, d, neg_alpha)
                else:
                    slot = self.get_slot(var, f"H_{i}")
                    mat_h = self._assign(slot, tf.cond(
                        tf.math.floormod(step, svd_interval) < 1,
                        lambda m=mat_g_updated, d=d: self._power(m, d, neg_alpha),
                        lambda slot=slot: tf.identity(slot)))
                preconditioned = tf.tensordot(preconditioned, mat_h, axes=([0], [0]))
            else:
                preconditioned = self._diagonal(preconditioned, grad, mat_g, i, d, others,
                                                indices, mat_decay_t, mat_weight_t, neg_alpha)
        lr = _at(self._learning_rate, step)
        if indices is not None:
            return tf.compat.v1.scatter_add(var, indices, -lr * preconditioned,
                                            use_locking=self._use_locking)
        return tf.compat.v1.assign_sub(var, lr * preconditioned, use_locking=self._use_locking)

    def _diagonal(self, preconditioned, grad, mat_g, i, d, others, indices, decay_t, weight_t,
                  neg_alpha):
        """Dimension i above max_matrix_size: a diagonal preconditioner (the gradient's squares
        summed over the other dimensions), applied elementwise after rotating dimension i
        to the end."""
        if others:
            normalizer = 1.0 if indices is not None else float(d)
            outer = tf.reduce_sum(grad * grad, axis=others) / normalizer
        else:
            outer = grad * grad
        if i == 0 and indices is not None:
            if self._mat_gbar_decay != 1.0:
                raise ValueError("ShampooOptimizer's sparse update of a dimension above "
                                 "max_matrix_size needs mat_gbar_decay=1.0, got "
                                 f"{self._mat_gbar_decay!r}")
            updated = tf.compat.v1.scatter_add(mat_g, indices, weight_t * outer,
                                               use_locking=self._use_locking)
            updated = tf.gather(tf.convert_to_tensor(updated), indices)  # read after it
        else:
            updated = self._weighted_average(mat_g, self._mat_gbar_decay, decay_t,
                                             weight_t * outer)
        mat_h = tf.where(updated > 0, tf.pow(updated, neg_alpha), tf.zeros_like(updated))
        rank = len(preconditioned.shape)
        return tf.transpose(preconditioned, perm=list(range(1, rank)) + [0]) * mat_h
