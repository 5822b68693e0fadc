"""tf.contrib.eager cases (TF 1.15 style, Python 3.7). Graph-mode cases build in the case's
graph; eager ones run their body under TF's eager mode (`_eagerly`) and return the values as
constants. Checked: implicit / function gradients (values, the variables they pair with),
an eager linear regression by implicit_value_and_gradients and a v1 optimizer, the metrics in
both modes (values, names, collections, init_variables), defun / function / make_template /
py_func / custom_gradient, Iterator and GradientTape, Saver / Checkpoint /
restore_variables_on_create / EagerVariableStore, the execution callbacks (op types, inf / nan
errors and their messages, seterr's old settings), Network / Sequential (names, variables,
values, save and restore, deferred restore) and the constants."""
import functools
import os
import tempfile

import numpy as np

X = (np.sin(np.arange(24) * 0.7) * 1.5).reshape(8, 3).astype(np.float32)
Y = (X.dot(np.array([[1.0], [-2.0], [0.5]], np.float32)) + 0.3).astype(np.float32)


def _eagerly(tf, body):
    """`body()` run eagerly; its results (numbers, strings, arrays) as fetchable values."""
    from tensorflow.python.eager import context
    with context.eager_mode():
        out = body()
    fetched = {}
    for key, value in out.items():
        if isinstance(value, (str, bool, int, float)) or value is None or (
                isinstance(value, list) and all(isinstance(v, str) for v in value)):
            fetched[key] = value
        elif isinstance(value, list) and len(set(np.shape(v) for v in value)) > 1:
            fetched[key] = {str(i): tf.constant(np.asarray(v)) for i, v in enumerate(value)}
        else:
            fetched[key] = tf.constant(np.asarray(value))
    return fetched


def _linear(tf, tfe):
    w = tfe.Variable(np.array([[0.5], [0.5], [0.5]], np.float32), name="w")
    b = tfe.Variable(0.0, name="b")

    def loss(x, y):
        return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    return w, b, loss


def case_implicit_gradients_graph(tf):
    tfe = tf.contrib.eager
    _, _, loss = _linear(tf, tfe)
    x, y = tf.constant(X), tf.constant(Y)
    pairs = tfe.implicit_gradients(loss)(x, y)
    value, pairs2 = tfe.implicit_value_and_gradients(loss)(x, y)
    return {"grads": {v.name: g for g, v in pairs}, "names": [v.name for _, v in pairs],
            "value": value, "grads2": {v.name: g for g, v in pairs2}}


def case_gradients_functions(tf):
    tfe = tf.contrib.eager

    def f(x, y):
        return x * x * x * y - x * y * y

    def body():
        grad = tfe.gradients_function(f)
        out = {"grads": [g.numpy() for g in grad(2.0, 3.0)],
               "y_grad": [g.numpy() for g in tfe.gradients_function(f, params=[1])(2.0, 3.0)],
               "second": tfe.gradients_function(lambda x, y: grad(x, y)[0])(2.0, 3.0)[0].numpy()}
        value, grads = tfe.value_and_gradients_function(f)(2.0, 3.0)
        out["value"], out["value_grads"] = value.numpy(), [g.numpy() for g in grads]
        one = tf.constant(1.0)
        out["same_tensor"] = [g.numpy() for g in tfe.gradients_function(
            lambda a, b: a * b)(one, one)]
        _, _, loss = _linear(tf, tfe)
        value, pairs = tfe.implicit_value_and_gradients(loss)(X, Y)
        out["implicit_value"], out["implicit"] = value.numpy(), [g.numpy() for g, _ in pairs]
        out["implicit_names"] = [v.name for _, v in pairs]
        try:
            tfe.implicit_gradients(lambda: tf.constant(1.0))()
        except ValueError as error:
            out["no_variables"] = str(error)
        return out
    return _eagerly(tf, body)


def case_eager_linear_regression(tf):
    tfe = tf.contrib.eager

    def body():
        w, b, loss = _linear(tf, tfe)
        step = tfe.Variable(0, dtype=tf.int64, name="step")
        optimizer = tf.train.GradientDescentOptimizer(0.1)
        value_and_grads = tfe.implicit_value_and_gradients(loss)
        losses = []
        for _ in range(25):
            value, pairs = value_and_grads(X, Y)
            optimizer.apply_gradients(pairs, global_step=step)
            losses.append(value.numpy())
        tape_loss = []
        for _ in range(5):
            with tfe.GradientTape() as tape:
                value = loss(X, Y)
            grads = tape.gradient(value, [w, b])
            optimizer.apply_gradients(zip(grads, [w, b]), global_step=step)
            tape_loss.append(value.numpy())
        return {"losses": losses, "tape_losses": tape_loss, "w": w.numpy(), "b": b.numpy(),
                "step": step.numpy(), "optimizer_variables": len(
                    tfe.get_optimizer_variables(optimizer))}
    return _eagerly(tf, body)


LABELS = np.array([1, 2, 0, 1, 1, 0], np.int64)
PREDICTIONS = np.array([1, 0, 0, 2, 1, 0], np.int64)
LOGITS = np.array([[0.1, 0.8, 0.1], [0.7, 0.2, 0.1], [0.5, 0.3, 0.2], [0.1, 0.1, 0.8],
                   [0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], np.float32)
WEIGHTS = np.array([1.0, 0.5, 2.0, 1.0, 0.0, 1.0], np.float32)


def _metric_updates(tf, m):
    return [
        m["mean"]([1.0, 3.0, 5.0, 7.0]),
        m["weighted"](tf.constant([1.0, 3.0, 5.0, 7.0]), weights=[1.0, 1.0, 0.0, 0.0]),
        m["accuracy"](tf.constant(LABELS), tf.constant(PREDICTIONS)),
        m["weighted_accuracy"](tf.constant(LABELS), tf.constant(PREDICTIONS), WEIGHTS),
        m["categorical"](tf.one_hot(LABELS, 3), tf.constant(LOGITS)),
        m["binary"](tf.constant([1, 0, 1, 1], tf.int32), tf.constant([0.7, 0.6, 0.2, 0.9])),
        m["sparse"](tf.constant(LABELS), tf.constant(LOGITS)),
    ]


def _metrics(tfe):
    M = tfe.metrics
    return {"mean": M.Mean(), "weighted": M.Mean("weighted mean", dtype="float32"),
            "accuracy": M.Accuracy(), "weighted_accuracy": M.Accuracy(name="w_acc"),
            "categorical": M.CategoricalAccuracy(), "binary": M.BinaryAccuracy(0.5),
            "sparse": M.SparseAccuracy()}


def case_metrics_eager(tf):
    tfe = tf.contrib.eager

    def body():
        m = _metrics(tfe)
        returned = _metric_updates(tf, m)
        _metric_updates(tf, m)
        out = {k + "_result": m[k].result().numpy() for k in m}
        out.update({k + "_name": m[k].name for k in m})
        out.update({k + "_vars": [v.name for v in m[k].variables] for k in m})
        out["value_is_callable"] = callable(m["mean"].value())
        out["mean_value"] = m["mean"].value()().numpy()
        out["mean_returned"] = returned[0].numpy()
        out["accuracy_returned"] = [t.numpy() for t in returned[2]]
        out["init_returns"] = str(m["accuracy"].init_variables())
        m["accuracy"](tf.constant([1, 1]), tf.constant([1, 0]))
        out["after_init"] = m["accuracy"].result().numpy()
        total = tfe.metrics.Mean("total")
        total([1.0, 2.0])
        other = tfe.metrics.Mean("total")
        other([10.0])
        total.aggregate([other])
        out["aggregated"] = total.result().numpy()
        out["second_total_name"] = other.name
        return out
    return _eagerly(tf, body)


def case_metrics_graph(tf):
    tfe = tf.contrib.eager
    m = _metrics(tfe)
    updates = _metric_updates(tf, m)
    results = {k: m[k].result() for k in m}
    init = m["accuracy"].init_variables()
    value = m["mean"].value()

    def run(sess):
        sess.run(updates)
        sess.run(updates)
        out = {k: v for k, v in sess.run(results).items()}
        out["value"] = sess.run(value)
        out["names"] = [m[k].name for k in sorted(m)]
        out["metric_variables"] = [v.name for v in tf.get_collection(
            tf.GraphKeys.METRIC_VARIABLES)]
        sess.run(init)
        out["after_init"] = sess.run(m["mean"].result())
        out["accuracy_after_init_denom"] = sess.run(m["accuracy"].denom)
        return out
    return run


def case_metrics_global_variables_graph(tf):
    tfe = tf.contrib.eager
    mean = tfe.metrics.Mean(name="g", use_global_variables=True)
    update = mean(tf.constant([2.0, 4.0]))
    result = mean.result(write_summary=False)

    def run(sess):
        return {"update": sess.run(update), "result": sess.run(result)}
    return run


def case_two_metrics_same_name_graph(tf):
    tfe = tf.contrib.eager
    first = tfe.metrics.Mean()
    first([1.0])
    second = tfe.metrics.Mean()
    second([2.0])
    return {"first": first.result(), "second": second.result()}


def case_functions_and_templates_graph(tf):
    tfe = tf.contrib.eager
    x = tf.constant(X)

    @tfe.defun
    def squares(t):
        return tf.reduce_sum(t * t) + 1.0

    triple = tfe.function(lambda t: t * 3.0)
    scale = tfe.make_template("scale", lambda t: t * tf.get_variable(
        "s", [], initializer=tf.constant_initializer(2.0)))

    @tfe.custom_gradient
    def clipped(t):
        def grad(dy):
            return tf.clip_by_norm(dy, 0.5)
        return tf.identity(t), grad
    doubled = tfe.py_func(lambda t: t * 2.0, [x], tf.float32)
    spec = tfe.TensorSpec([None, 3], tf.float32, name="spec")
    return {"squares": squares(x), "relaxed": tfe.defun(
        lambda t: t + 1.0, experimental_relax_shapes=True)(x), "triple": triple(x),
        "scale_1": scale(x), "scale_2": scale(x), "py_func": doubled,
        "clipped_grad": tf.gradients(tf.reduce_sum(clipped(x) * 3.0), x)[0],
        "spec_shape": spec.shape.as_list(), "spec_name": spec.name,
        "eager_in_graph": tfe.executing_eagerly(), "in_eager_mode": tfe.in_eager_mode()}


def case_iterator_and_modes_eager(tf):
    tfe = tf.contrib.eager

    def body():
        dataset = tf.data.Dataset.range(5).map(lambda v: v * 2)
        out = {"items": [t.numpy() for t in tfe.Iterator(dataset)]}
        it = tfe.Iterator(tf.data.Dataset.from_tensor_slices((X[:3], Y[:3])).batch(2))
        first = it.next()
        out["first_x"], out["first_y"] = first[0].numpy(), first[1].numpy()
        out["second_rows"] = it.get_next()[0].numpy().shape[0]
        try:
            it.next()
        except Exception as error:  # noqa: BLE001 - the end of the data
            out["end"] = type(error).__name__
        out["eager"] = tfe.executing_eagerly()
        out["in_eager_mode"] = tfe.in_eager_mode()
        with tfe.execution_mode(tfe.SYNC):
            out["in_sync"] = (tf.constant(2.0) * 4.0).numpy()
        tfe.async_wait()
        tfe.async_clear_error()
        out["first_device"] = tfe.list_devices()[0]
        out["num_gpus"] = tfe.num_gpus()
        out["constants"] = [int(tfe.SYNC), int(tfe.ASYNC), int(tfe.DEVICE_PLACEMENT_EXPLICIT),
                            int(tfe.DEVICE_PLACEMENT_WARN), int(tfe.DEVICE_PLACEMENT_SILENT)]
        return out
    return _eagerly(tf, body)


def case_iterator_made_in_graph(tf):
    # TF 1.15 made it (though a session could not read it: its resource was never created)
    it = tf.contrib.eager.Iterator(tf.data.Dataset.range(3))
    return {"made": it is not None}


def case_saver_needs_eager_graph(tf):
    tf.contrib.eager.Saver([tf.contrib.eager.Variable(1.0)])
    return {}


def case_checkpoints_eager(tf):
    tfe = tf.contrib.eager
    directory = tempfile.mkdtemp()

    def body():
        w = tfe.Variable(np.array([1.0, 2.0], np.float32), name="w")
        step = tfe.Variable(7, dtype=tf.int64, name="global_step")
        saver = tfe.Saver([w, step])
        path = saver.save(os.path.join(directory, "ckpt"), global_step=step)
        out = {"path": os.path.basename(path),
               "names": [n for n, _ in tf.train.list_variables(path)]}
        w.assign([5.0, 6.0])
        saver.restore(path)
        out["restored"] = w.numpy()
        named = tfe.Saver({"renamed": w})
        renamed = named.save(os.path.join(directory, "named"))
        out["renamed_names"] = [n for n, _ in tf.train.list_variables(renamed)]
        with tfe.restore_variables_on_create(path):
            again = tfe.Variable(np.zeros(2, np.float32), name="w")
            again_step = tf.Variable(0, dtype=tf.int64, name="global_step")
        out["on_create"] = again.numpy()
        out["on_create_step"] = again_step.numpy()
        with tfe.restore_variables_on_create(renamed, map_func=lambda n: "renamed"):
            mapped = tfe.Variable(np.zeros(2, np.float32), name="anything")
        out["mapped"] = mapped.numpy()
        try:
            with tfe.restore_variables_on_create(path):
                tfe.Variable(1.0, name="absent")
        except Exception as error:  # noqa: BLE001 - the name the checkpoint lacks
            out["absent"] = type(error).__name__
        with tfe.restore_variables_on_create(None):
            out["no_path"] = tfe.Variable(3.0, name="w").numpy()
        root = tfe.Checkpointable()
        root.v = tfe.Variable(np.array([4.0], np.float32), name="v")
        checkpoint = tfe.Checkpoint(root=root, w=w)
        saved = checkpoint.save(os.path.join(directory, "objects"))
        out["checkpoint_path"] = os.path.basename(saved)
        out["checkpoint_names"] = sorted(n for n, _ in tf.train.list_variables(saved))
        root.v.assign([0.0])
        checkpoint.restore(saved)
        out["checkpoint_restored"] = root.v.numpy()
        store = tfe.EagerVariableStore()
        with store.as_default():
            a = tf.get_variable("ev", [2], initializer=tf.constant_initializer(1.5))
            b = tf.get_variable("ev", [2])
            tf.get_variable("frozen", [], trainable=False)
        # TF 1.15 also listed the store's eager variables in the case graph's collections
        # (which its initializer cannot run): taken out again, to record the rest
        for key in (tf.GraphKeys.GLOBAL_VARIABLES, tf.GraphKeys.TRAINABLE_VARIABLES):
            listed = tf.get_default_graph().get_collection_ref(key)
            listed[:] = [v for v in listed if v.name not in ("ev:0", "frozen:0")]
        out["store_shared"] = a is b
        out["store_names"] = [v.name for v in store.variables()]
        out["store_trainable"] = [v.name for v in store.trainable_variables()]
        out["store_non_trainable"] = [v.name for v in store.non_trainable_variables()]
        return out
    return _eagerly(tf, body)


def case_execution_callbacks_eager(tf):
    tfe = tf.contrib.eager

    def body():
        seen = []
        tfe.add_execution_callback(
            lambda op_type, inputs, attrs, outputs, op_name: seen.append(op_type))
        a, b = tf.constant(2.0), tf.constant(3.0)
        c = tf.multiply(a, b)
        tf.subtract(c, b)
        tfe.clear_execution_callbacks()
        tf.multiply(a, b)
        out = {"seen": seen}
        out["old_default"] = str(tfe.seterr(inf_or_nan="raise")["inf_or_nan"])
        try:
            tf.math.log(tf.constant([0.0, 1.0]))
        except Exception as error:  # noqa: BLE001 - the inf found
            out["log_error"], out["log_message"] = type(error).__name__, str(error)
        out["old_raise"] = str(tfe.seterr(inf_or_nan=tfe.ExecutionCallback.IGNORE)
                               ["inf_or_nan"])
        out["ignored"] = tf.math.log(tf.constant(0.0)).numpy()
        with tfe.errstate(inf_or_nan=tfe.ExecutionCallback.RAISE):
            try:
                tf.sqrt(tf.constant([-1.0, 4.0, -2.0]))
            except Exception as error:  # noqa: BLE001 - the NaNs found
                out["errstate_message"] = str(error)
        out["after_errstate"] = str(tfe.seterr()["inf_or_nan"])
        tfe.add_execution_callback(functools.partial(tfe.nan_callback, action="raise"))
        out["inf_not_nan"] = tf.math.log(tf.constant(0.0)).numpy()
        try:
            tf.sqrt(tf.constant(-1.0))
        except Exception as error:  # noqa: BLE001
            out["nan_error"] = type(error).__name__
        tfe.clear_execution_callbacks()
        tfe.add_execution_callback(tfe.inf_callback)
        out["nan_not_inf"] = tf.sqrt(tf.constant(-1.0)).numpy()
        try:
            tf.divide(tf.constant(1.0), tf.constant(0.0))
        except Exception as error:  # noqa: BLE001
            out["inf_error"] = type(error).__name__
        out["seterr_sees_plain"] = str(tfe.seterr()["inf_or_nan"])
        tfe.clear_execution_callbacks()
        try:
            tfe.inf_nan_callback("Op", [], (), [tf.constant(np.inf)], "n", action="bogus")
        except ValueError as error:
            out["bad_action"] = type(error).__name__
        return out
    return _eagerly(tf, body)


def _two_layer(tf, tfe):
    class TwoLayer(tfe.Network):
        def __init__(self, name=None):
            super(TwoLayer, self).__init__(name=name)
            self.first = self.track_layer(tf.layers.Dense(
                3, kernel_initializer=tf.constant_initializer(0.1)))
            self.second = self.track_layer(tf.layers.Dense(
                1, kernel_initializer=tf.constant_initializer(-0.2),
                bias_initializer=tf.constant_initializer(0.3)))

        def call(self, inputs):
            return self.second(self.first(inputs))
    return TwoLayer


def case_network_graph(tf):
    tfe = tf.contrib.eager
    TwoLayer = _two_layer(tf, tfe)
    x = tf.constant(X)
    net = TwoLayer()
    out = net(x)
    again = net(x)
    net2 = TwoLayer()
    out2 = net2(x)
    named = TwoLayer(name="named")
    named(x)
    seq = tfe.Sequential([tf.layers.Dense(2, kernel_initializer=tf.constant_initializer(0.5)),
                          tf.nn.relu, tf.layers.Dropout(0.5)])
    out3 = seq(x, training=False)
    seq.add(lambda t: t * 2.0)
    out4 = seq(x)

    class Outer(tfe.Network):
        def __init__(self):
            super(Outer, self).__init__()
            self.inner = self.track_layer(TwoLayer())
            self.last = self.track_layer(tf.layers.Dense(
                1, kernel_initializer=tf.constant_initializer(1.0)))

        def call(self, inputs):
            return self.last(self.inner(inputs))
    outer = Outer()
    out5 = outer(x)
    return {"out": out, "again": again, "out2": out2, "out3": out3, "out4": out4,
            "out5": out5, "names": [net.name, net2.name, named.name, seq.name, outer.name,
                                    outer.inner.name],
            "variables": [v.name for v in outer.variables],
            "trainable": [v.name for v in net.trainable_variables],
            "layers": [layer.name for layer in net.layers],
            "by_index": net.get_layer(index=1).name, "by_name": net.get_layer("dense").name,
            "scope_name": outer.inner.scope_name, "losses": len(net.losses)}


def case_network_misuse_graph(tf):
    tfe = tf.contrib.eager
    out = {}
    for label, make in [("slash", lambda: tfe.Network(name="a/b")),
                        ("not_a_layer", lambda: tfe.Network().track_layer(object())),
                        ("add_variable", lambda: tfe.Network().add_variable("v", [1])),
                        ("add_loss", lambda: tfe.Network().add_loss(1.0)),
                        ("unnamed", lambda: tfe.Network().name),
                        ("not_trainable", lambda: setattr(tfe.Network(), "trainable", False)),
                        ("sequential_bad", lambda: tfe.Sequential([3])),
                        ("save_unbuilt", lambda: tfe.save_network_checkpoint(
                            tfe.Network(name="n"), "/tmp/x"))]:
        try:
            make()
            out[label] = "ok"
        except Exception as error:  # noqa: BLE001
            out[label] = type(error).__name__
    return out


def case_network_checkpoints_graph(tf):
    tfe = tf.contrib.eager
    TwoLayer = _two_layer(tf, tfe)
    x = tf.constant(X)
    net = TwoLayer(name="source")
    out = net(x)
    directory = tempfile.mkdtemp()

    def run(sess):
        sess.run(net.first.kernel.assign(tf.fill([3, 3], 0.7)))
        path = tfe.save_network_checkpoint(net, directory)
        result = {"path": os.path.basename(path),
                  "names": sorted(n for n, _ in tf.train.list_variables(path)),
                  "saved_out": sess.run(out)}
        sess.run(net.first.kernel.assign(tf.zeros([3, 3])))
        tfe.restore_network_checkpoint(net, path)
        result["restored_out"] = sess.run(out)
        later = TwoLayer(name="later")
        tfe.restore_network_checkpoint(later, path)
        later_out = later(x)
        result["deferred_out"] = sess.run(later_out)
        full = tfe.save_network_checkpoint(net, os.path.join(directory, "full"),
                                           map_func=lambda n: n)
        result["full_names"] = sorted(n for n, _ in tf.train.list_variables(full))
        return result
    return run


def case_network_eager(tf):
    tfe = tf.contrib.eager
    TwoLayer = _two_layer(tf, tfe)
    directory = tempfile.mkdtemp()

    def body():
        net = TwoLayer()
        out = {"first": net(X).numpy()}
        optimizer = tf.train.GradientDescentOptimizer(0.05)
        losses = []
        for _ in range(4):
            value, pairs = tfe.implicit_value_and_gradients(
                lambda: tf.reduce_mean(tf.square(net(X) - Y)))()
            optimizer.apply_gradients(pairs)
            losses.append(value.numpy())
        out["losses"] = losses
        out["pairs"] = [v.name for _, v in pairs]
        out["variables"] = [v.name for v in net.variables]
        out["trainable"] = [v.name for v in net.trainable_variables]
        out["name"] = net.name
        path = tfe.save_network_checkpoint(net, directory)
        out["path"] = os.path.basename(path)
        out["names"] = sorted(n for n, _ in tf.train.list_variables(path))
        other = TwoLayer()
        tfe.restore_network_checkpoint(other, path)
        out["restored"] = other(X).numpy()
        out["trained"] = net(X).numpy()
        out["other_name"] = other.name
        return out
    return _eagerly(tf, body)


def case_tf_layers_objects_keep_their_variables_eagerly(tf):
    """tf.layers objects called eagerly (TF 1.x eager programs): each keeps the variables its
    first call made, in the order made, and later calls and an optimizer use them."""
    def body():
        x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)
        dense = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer())
        opt = tf.train.GradientDescentOptimizer(0.1)
        losses = []
        for _ in range(3):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(dense(x))
            variables = dense.trainable_variables
            opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
            losses.append(loss.numpy())
        conv = tf.layers.Conv2D(2, 3, kernel_initializer=tf.ones_initializer())
        conv_out = conv(tf.ones([1, 5, 5, 1]))
        bn = tf.layers.BatchNormalization()
        bn_out = bn(x, training=True)
        second = tf.layers.Dense(1)
        second(x)
        return {"losses": losses, "dense": [v.name for v in dense.variables],
                "kernel": dense.kernel.numpy(), "conv": [v.name for v in conv.variables],
                "conv_out": conv_out.numpy(), "bn": [v.name for v in bn.variables],
                "bn_values": [v.numpy() for v in bn.variables], "bn_out": bn_out.numpy(),
                "second": [v.name for v in second.variables]}
    return _eagerly(tf, body)


def case_enable_eager_execution_bad_config(tf):
    tf.contrib.eager.enable_eager_execution(config={"allow_soft_placement": True})


def case_enable_eager_execution_bad_device_policy(tf):
    tf.enable_eager_execution(device_policy=7)


def case_enable_eager_execution_bad_execution_mode(tf):
    tf.enable_eager_execution(execution_mode="async")
