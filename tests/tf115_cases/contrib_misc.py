"""tf.contrib.feature_column and tf.contrib.mixed_precision cases: sequence input layers (values,
lengths, variable names) and loss-scaled training (skipped steps, the scale's variables), as
TF 1.15 computed them."""
import numpy as np

SEQ_A = (np.array([[0, 0], [0, 1], [1, 0]], np.int64), np.array([1, 2, 3], np.int64), [2, 2])
SEQ_B = (np.array([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]], np.int64),
         np.arange(6, dtype=np.float32), [2, 4])
SEQ_W = (np.array([[0, 0], [0, 1], [1, 0]], np.int64), np.array([b"x", b"z", b"y"]), [2, 2])


def _sparse(tf, parts):
    return tf.SparseTensor(*parts)


def case_sequence_input_layer(tf):
    cf = tf.contrib.feature_column
    a = cf.sequence_categorical_column_with_identity("a", num_buckets=5)
    b = cf.sequence_numeric_column("b", shape=(2,), normalizer_fn=lambda x: x * 2.0)
    w = cf.sequence_categorical_column_with_vocabulary_list("w", ["x", "y"], num_oov_buckets=1)
    features = {"a": _sparse(tf, SEQ_A), "b": _sparse(tf, SEQ_B), "w": _sparse(tf, SEQ_W)}
    columns = [tf.feature_column.indicator_column(w), b,
               tf.feature_column.embedding_column(
                   a, 3, initializer=tf.constant_initializer(0.5))]
    layer, length = cf.sequence_input_layer(features, columns)
    again, _ = cf.sequence_input_layer(features, columns[1:], trainable=False)
    return {"layer": layer, "length": length, "again": again}


def case_sequence_hash_and_file(tf):
    import os
    import tempfile
    cf = tf.contrib.feature_column
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("x\ny\nz\n")
    h = cf.sequence_categorical_column_with_hash_bucket("w", 7)
    v = cf.sequence_categorical_column_with_vocabulary_file("w", path, vocabulary_size=3)
    features = {"w": _sparse(tf, SEQ_W)}
    layer, length = cf.sequence_input_layer(features, [
        tf.feature_column.indicator_column(h),
        tf.feature_column.embedding_column(v, 2, initializer=tf.constant_initializer(1.0))])
    return {"layer": layer, "length": length,
            "spec": sorted(tf.feature_column.make_parse_example_spec([h, v]).keys())}


def case_sequence_input_layer_rejects_dense(tf):
    cf = tf.contrib.feature_column
    cf.sequence_input_layer({"n": tf.constant([[1.0]])}, [tf.feature_column.numeric_column("n")])


def case_sequence_numeric_errors(tf):
    tf.contrib.feature_column.sequence_numeric_column("b", dtype=tf.string)


def _train(tf, manager, optimizer, steps):
    w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))
    x = tf.placeholder(tf.float32, [2])
    loss = tf.reduce_sum(w * x * x)
    opt = tf.contrib.mixed_precision.LossScaleOptimizer(optimizer, manager)
    step = tf.train.get_or_create_global_step()
    train = opt.minimize(loss, global_step=step)
    grads = opt.compute_gradients(loss)

    def run(sess):
        out = {}
        for i, feed in enumerate(steps):
            sess.run(train, {x: feed})
            out[f"step{i:02d}"] = sess.run({
                "w": w, "scale": manager.get_loss_scale(), "global_step": step,
                "counts": [v for v in tf.global_variables() if "steps" in v.name]})
        out["grads"] = sess.run([g for g, _ in grads], {x: [1.0, 3.0]})
        return out
    return run


def case_exponential_loss_scale(tf):
    mp = tf.contrib.mixed_precision
    with tf.variable_scope("scaler"):
        manager = mp.ExponentialUpdateLossScaleManager(
            8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=2, incr_ratio=4, decr_ratio=0.25)
    inf, nan = np.inf, np.nan
    return _train(tf, manager, tf.train.MomentumOptimizer(0.1, 0.9),
                  [[1.0, 1.0], [inf, 1.0], [1.0, 2.0], [inf, 1.0], [nan, 0.0], [nan, 1.0],
                   [1.0, 1.0], [1.0, 1.0], [inf, 1.0], [inf, 1.0], [inf, 1.0], [inf, 1.0],
                   [1.0, 1.0]])


def case_fixed_loss_scale(tf):
    mp = tf.contrib.mixed_precision
    return _train(tf, mp.FixedLossScaleManager(128.0), tf.train.GradientDescentOptimizer(0.1),
                  [[1.0, 1.0], [np.inf, 1.0], [1.0, 2.0]])


def case_fixed_loss_scale_below_one(tf):
    tf.contrib.mixed_precision.FixedLossScaleManager(0.5)


def case_loss_scale_manager_names(tf):
    mp = tf.contrib.mixed_precision
    mp.ExponentialUpdateLossScaleManager(2.0, 3)
    mp.ExponentialUpdateLossScaleManager(2.0, 3)
    return {"scale": mp.FixedLossScaleManager(3.0).get_loss_scale()}


def case_distribute_strategies(tf):
    d = tf.contrib.distribute
    out = {}
    for name, strategy in [("mirrored", d.MirroredStrategy(num_gpus=0)),
                           ("mirrored_devices", d.MirroredStrategy(["/cpu:0"])),
                           ("one_device", d.OneDeviceStrategy("/cpu:0")),
                           ("parameter_server", d.ParameterServerStrategy()),
                           ("collective", d.CollectiveAllReduceStrategy())]:
        out[name] = [strategy.num_replicas_in_sync] + list(strategy.extended.worker_devices)
        with strategy.scope():
            out[name + "_in_scope"] = [d.has_strategy(), d.in_cross_replica_context(),
                                       d.get_strategy() is strategy,
                                       d.get_cross_replica_context() is strategy]
    out["default"] = [d.has_strategy(), d.has_distribution_strategy(),
                      d.in_cross_replica_context(), str(d.get_loss_reduction()),
                      d.get_replica_context() is not None,
                      d.get_distribution_strategy() is d.get_strategy()]
    config = d.DistributeConfig(train_distribute=d.OneDeviceStrategy("/cpu:0"))
    out["config"] = [config.eval_distribute is None, config.remote_cluster is None]
    return out


def case_distribute_mirrored_variables(tf):
    d = tf.contrib.distribute
    strategy = d.MirroredStrategy(num_gpus=0, cross_device_ops=d.AllReduceCrossDeviceOps())
    with strategy.scope():
        w = tf.get_variable("w", initializer=tf.constant([1.0, 2.0]))

        def replica_fn():
            ctx = d.get_replica_context()
            return ctx.replica_id_in_sync_group, w * 3.0
        replica_id, tripled = strategy.extended.call_for_each_replica(replica_fn)
    return {"w": w, "replica": replica_id, "tripled": strategy.unwrap(tripled)[0]}


def case_distribute_mirrored_bad_args(tf):
    tf.contrib.distribute.MirroredStrategy(devices=["/cpu:0"], num_gpus=0)


def case_distribute_monitor_step(tf):
    d = tf.contrib.distribute
    strategy = d.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        w = tf.get_variable("w", initializer=[0.5])

    def dataset_fn():
        return tf.data.Dataset.from_tensors(([1.0], [2.0])).repeat(5)

    def loss_fn(ctx, inputs):
        x, y = inputs
        return tf.reduce_sum((w * x - y) ** 2)

    step = d.StandardSingleLossStep(dataset_fn, loss_fn, tf.train.GradientDescentOptimizer(0.1),
                                    strategy, iterations_per_step=2)

    def run(sess):
        monitor = d.Monitor(step, sess)
        monitor.run_steps(2)
        first = sess.run(w)
        monitor.run_steps()  # to the input's end (one more full step of two iterations)
        return {"after_two": first, "at_end": sess.run(w)}
    return run


def case_distribute_monitor_needs_session(tf):
    d = tf.contrib.distribute
    d.Monitor(d.Step(d.OneDeviceStrategy("/cpu:0")))


def case_checkpoint_capture_dependencies(tf):
    c = tf.contrib.checkpoint

    def scale(x):
        with c.capture_dependencies(template=template):
            y = tf.get_variable("y", initializer=2.0)
        return x * y
    template = tf.make_template("scale", scale)
    first, second = template(tf.constant(3.0)), template(tf.constant(4.0))
    root = tf.train.Checkpoint(t=template)

    def run(sess):
        import tempfile
        path = root.save(tempfile.mkdtemp() + "/ckpt", session=sess)
        keys = sorted(name for name, _ in tf.train.list_variables(path))
        return {"first": sess.run(first), "second": sess.run(second), "keys": keys}
    return run
