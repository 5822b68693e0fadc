"""tf.contrib.optimizer_v2 cases: three steps of each optimizer on a dense variable and on an
embedding (sparse gradients, a repeated id), with hyperparameters given as numbers, tensors and
callables: the values, the slot and non-slot variables' names, the slot names."""
import numpy as np

IDS = np.array([0, 2, 0], np.int32)


def _train(tf, make, steps=3, resource=False):
    w = tf.get_variable("w", initializer=tf.constant([[1.0, -2.0], [0.5, 3.0]]),
                        use_resource=resource)
    emb = tf.get_variable("emb", initializer=tf.constant([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]),
                          use_resource=resource)
    x = tf.constant([[1.0, 2.0], [-1.0, 0.5]])
    loss = (tf.reduce_sum(tf.square(tf.matmul(x, w) - 1.0))
            + tf.reduce_sum(tf.nn.embedding_lookup(emb, IDS) * tf.constant([1.0, -1.0])))
    opt = make(tf)
    step = tf.train.get_or_create_global_step()
    train = opt.minimize(loss, global_step=step)

    def run(sess):
        for _ in range(steps):
            sess.run(train)
        names = sorted(v.op.name for v in opt.variables())
        slots = {n: opt.get_slot(w, n).op.name for n in opt.get_slot_names()}
        return {"w": sess.run(w), "emb": sess.run(emb), "step": sess.run(step),
                "optimizer_variables": names, "slots": slots, "name": opt.get_name(),
                "train_op_in_collection": train in tf.get_collection(tf.GraphKeys.TRAIN_OP)}
    return run


def case_gradient_descent(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.GradientDescentOptimizer(0.1))


def case_gradient_descent_callable_rate_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.GradientDescentOptimizer(
        lambda: tf.constant(0.05) * 2.0), resource=True)


def case_momentum(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.MomentumOptimizer(0.1, 0.9))


def case_momentum_nesterov_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.MomentumOptimizer(
        tf.constant(0.1), lambda: 0.5, use_nesterov=True), resource=True)


def case_adagrad(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdagradOptimizer(0.2))


def case_adagrad_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdagradOptimizer(
        0.2, initial_accumulator_value=0.5), resource=True)


def case_adagrad_needs_positive_accumulator(tf):
    tf.contrib.optimizer_v2.AdagradOptimizer(0.1, initial_accumulator_value=0.0)


def case_adadelta(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdadeltaOptimizer(1.0, rho=0.9,
                                                                           epsilon=1e-3))


def case_adadelta_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdadeltaOptimizer(1.0), resource=True)


def case_rmsprop(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.RMSPropOptimizer(
        0.01, decay=0.9, momentum=0.5, epsilon=0.1))


def case_rmsprop_centered_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.RMSPropOptimizer(
        0.01, momentum=0.2, epsilon=0.1, centered=True), resource=True)


def case_adam(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdamOptimizer(0.1))


def case_adam_callables_resource(tf):
    return _train(tf, lambda tf: tf.contrib.optimizer_v2.AdamOptimizer(
        lambda: 0.1, beta1=lambda: tf.constant(0.8), epsilon=0.01), resource=True)


def case_apply_gradients_and_subclass(tf):
    v2 = tf.contrib.optimizer_v2

    class Halving(v2.OptimizerV2):
        def __init__(self):
            super(Halving, self).__init__(False, "Halving")
            self._set_hyper("factor", 0.5)

        def _create_vars(self, var_list, state):
            for v in var_list:
                state.zeros_slot(v, "seen")

        def _apply_dense(self, grad, var, state):
            seen = state.get_slot(var, "seen")
            return tf.group(tf.assign_add(seen, grad),
                            tf.assign_sub(var, state.get_hyper("factor") * grad))

    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    unused = tf.get_variable("unused", initializer=tf.constant(0.0))
    opt = Halving()
    grads = opt.compute_gradients(tf.reduce_sum(w * w), var_list=[w, unused])
    train = opt.apply_gradients(grads, name="apply")

    def run(sess):
        sess.run(train)
        sess.run(train)
        return {"w": sess.run(w), "seen": sess.run(opt.get_slot(w, "seen")),
                "grads_none": [g is None for g, _ in grads], "op": train.name,
                "slot_names": opt.get_slot_names()}
    return run


def case_no_gradients(tf):
    w = tf.get_variable("w", initializer=tf.constant(1.0))
    tf.contrib.optimizer_v2.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0),
                                                                    var_list=[w])


def case_override_create_slots(tf):
    class Bad(tf.contrib.optimizer_v2.OptimizerV2):
        def _create_slots(self, var_list):
            pass
    Bad(False, "Bad")
