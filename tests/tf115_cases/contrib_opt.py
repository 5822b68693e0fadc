"""tf.contrib.opt cases: each optimizer trains a small fixed regression for three steps; the
record holds every variable (slots and non-slot accumulators with TF 1.15's names) and its
values after each step."""
import numpy as np

X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.8], [1.2, 1.1, -0.4]],
             np.float32)
Y = np.array([[1.0, -1.0], [0.0, 2.0], [1.5, 0.5], [-0.5, 1.0]], np.float32)
W0 = np.array([[0.1, -0.2], [0.3, 0.05], [-0.15, 0.2]], np.float32)
IDS = np.array([0, 2, 2], np.int64)


def _model(tf):
    step = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", initializer=tf.constant(W0))
    b = tf.get_variable("b", initializer=tf.constant([0.1, -0.1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), w) + b - tf.constant(Y)))
    return step, loss


def _train(tf, make_train_op, steps=3):
    step, loss = _model(tf)
    train_op = make_train_op(loss, step)

    def run(sess):
        out = {}
        for i in range(steps):
            sess.run(train_op)
            out["step%d" % i] = sess.run({v.op.name: v for v in tf.global_variables()})
        out["loss"] = sess.run(loss)
        return out
    return run


def _minimize(opt):
    return lambda loss, step: opt.minimize(loss, global_step=step)


def _gated(opt, **kwargs):
    """Gradients first, then the update: a decoupled weight decay reads no gradient, so in
    TF 1.15 only a control dependency kept it from racing the gradients' reads."""
    def make(loss, step):
        grads = opt.compute_gradients(loss)
        with tf_of(loss).control_dependencies([g for g, _ in grads]):
            return opt.apply_gradients(grads, global_step=step, **kwargs)
    return make


def tf_of(tensor):
    return tensor.graph


def case_adamw(tf):
    return _train(tf, _gated(tf.contrib.opt.AdamWOptimizer(0.01, learning_rate=0.1)))


def case_adamw_decay_var_list(tf):
    def make(loss, step):
        opt = tf.contrib.opt.AdamWOptimizer(0.05, learning_rate=0.1)
        decayed = [v for v in tf.trainable_variables() if "w" in v.name]
        return _gated(opt, decay_var_list=decayed)(loss, step)
    return _train(tf, make)


def case_momentumw(tf):
    return _train(tf, _gated(tf.contrib.opt.MomentumWOptimizer(0.01, 0.1, 0.9,
                                                               use_nesterov=True)))


def case_extend_with_decoupled_weight_decay(tf):
    cls = tf.contrib.opt.extend_with_decoupled_weight_decay(tf.train.RMSPropOptimizer)
    return _train(tf, _gated(cls(weight_decay=0.02, learning_rate=0.05)))


def case_lazy_adam(tf):
    return _train(tf, _minimize(tf.contrib.opt.LazyAdamOptimizer(0.1)))


def case_lazy_adam_sparse(tf):
    step = tf.train.get_or_create_global_step()
    emb = tf.get_variable("emb", initializer=tf.constant(W0))
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, tf.constant(IDS)) - 1.0))
    train_op = tf.contrib.opt.LazyAdamOptimizer(0.1).minimize(loss, global_step=step)

    def run(sess):
        out = {}
        for i in range(3):
            sess.run(train_op)
            out["step%d" % i] = sess.run({v.op.name: v for v in tf.global_variables()})
        return out
    return run


def case_adam_gs(tf):
    return _train(tf, lambda loss, step: tf.contrib.opt.AdamGSOptimizer(
        global_step=step, learning_rate=0.1).minimize(loss, global_step=step))


def case_lazy_adam_gs_sparse(tf):
    step = tf.train.get_or_create_global_step()
    emb = tf.get_variable("emb", initializer=tf.constant(W0))
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, tf.constant(IDS)) - 1.0))
    train_op = tf.contrib.opt.LazyAdamGSOptimizer(global_step=step, learning_rate=0.1).minimize(
        loss, global_step=step)

    def run(sess):
        out = {}
        for i in range(3):
            sess.run(train_op)
            out["step%d" % i] = sess.run({v.op.name: v for v in tf.global_variables()})
        return out
    return run


def case_adamax(tf):
    return _train(tf, _minimize(tf.contrib.opt.AdaMaxOptimizer(0.1)))


def case_adamax_sparse(tf):
    step = tf.train.get_or_create_global_step()
    emb = tf.get_variable("emb", initializer=tf.constant(W0))
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, tf.constant(IDS)) - 1.0))
    train_op = tf.contrib.opt.AdaMaxOptimizer(0.1).minimize(loss, global_step=step)

    def run(sess):
        sess.run(train_op)
        sess.run(train_op)
        return sess.run({v.op.name: v for v in tf.global_variables()})
    return run


def case_nadam(tf):
    return _train(tf, _minimize(tf.contrib.opt.NadamOptimizer(0.1)))


def case_addsign(tf):
    return _train(tf, _minimize(tf.contrib.opt.AddSignOptimizer(0.1)))


def case_powersign_decay(tf):
    def make(loss, step):
        decay = lambda s: 1.0 - tf.cast(s, tf.float32) / 10.0  # noqa: E731
        return tf.contrib.opt.PowerSignOptimizer(0.1, sign_decay_fn=decay).minimize(
            loss, global_step=step)
    return _train(tf, make)


def case_lars(tf):
    return _train(tf, _minimize(tf.contrib.opt.LARSOptimizer(0.5, weight_decay=0.01, eeta=0.1,
                                                             skip_list=["b"])))


def case_lars_nesterov(tf):
    return _train(tf, _minimize(tf.contrib.opt.LARSOptimizer(0.5, use_nesterov=True,
                                                             epsilon=1e-3)))


def case_reg_adagrad(tf):
    def make(loss, step):
        opt = tf.contrib.opt.RegAdagradOptimizer(0.1)
        first = opt.minimize(loss)
        with tf.control_dependencies([first]):
            with opt.avoid_updating_slots():
                return opt.minimize(loss, global_step=step)
    return _train(tf, make)


def case_moving_average(tf):
    def make(loss, step):
        opt = tf.contrib.opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                                    average_decay=0.5)
        train_op = opt.minimize(loss, global_step=step)
        saver = opt.swapping_saver()
        tf.add_to_collection("saver_keys", tf.constant(sorted(saver._var_list)))
        return train_op
    return _train(tf, make)


def case_moving_average_saver_keys(tf):
    _model(tf)
    opt = tf.contrib.opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                                num_updates=tf.train.get_global_step())
    opt.minimize(tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES)[0][0, 0])
    var_list = opt.swapping_saver()._var_list
    return {"keys": sorted(var_list), "values": [var_list[k].op.name for k in sorted(var_list)]}


def case_drop_stale_gradient(tf):
    return _train(tf, _minimize(tf.contrib.opt.DropStaleGradientOptimizer(
        tf.train.GradientDescentOptimizer(0.1), staleness=2)))


def case_multitask_wrapper(tf):
    def make(loss, step):
        opt = tf.contrib.opt.MultitaskOptimizerWrapper(tf.train.MomentumOptimizer(0.1, 0.9))
        grads = opt.compute_gradients(loss)
        grads = [(g * 0.0 if "b" in v.op.name else g, v) for g, v in grads]
        clipped, norm = tf.contrib.opt.clip_gradients_by_global_norm(grads, clip_norm=0.5)
        tf.add_to_collection("norms", norm)
        return opt.apply_gradients(clipped, global_step=step)
    return _train(tf, make)


def case_variable_clipping(tf):
    def make(loss, step):
        w = [v for v in tf.trainable_variables() if v.op.name == "w"][0]
        opt = tf.contrib.opt.VariableClippingOptimizer(tf.train.GradientDescentOptimizer(1.0),
                                                       {w: [1]}, max_norm=0.3)
        return opt.minimize(loss, global_step=step)
    return _train(tf, make)
