"""TF 1.x batch normalization's extras and op names, recorded in TF 1.15.5: batch
renormalization (`renorm`, `renorm_clipping`, `renorm_momentum` / slim's `renorm_decay`), ghost
batches (`virtual_batch_size`), `adjustment`, in `tf.layers.batch_normalization`,
`tf.layers.BatchNormalization` and `tf.contrib.layers.batch_norm`; the ops they build (names,
update ops, the moving averages' `decay`); dilated `tf.layers.conv1d/2d/3d`'s op names.

Values: outputs, gradients and every variable after a few training steps (update ops run),
then inference. Python 3.7 syntax: these cases also run in the TF 1.15 side venv.
"""
import numpy as np


def _batch(shape, step=0):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37 + step) * 1.5 + 0.4 * step).reshape(shape).astype(
        np.float32)


def _scope_ops(tf, scope):
    """The op names under `scope/` but the variables' own initializers and reads."""
    return [op.name for op in tf.get_default_graph().get_operations()
            if op.name.startswith(scope + "/") and "/Initializer/" not in op.name
            and not op.name.endswith(("/Assign", "/read"))]


def _steps(tf, x, fetches, shape, infer=None, steps=3):
    """run(sess): `steps` training steps on fresh batches (update ops run with each; then the
    `infer` fetches), then the variables' values."""
    update = tf.get_collection(tf.GraphKeys.UPDATE_OPS)

    def run(sess):
        out = {}
        for step in range(steps):
            feed = {x: _batch(shape, step)}
            out["step%d" % step] = sess.run([fetches, update], feed)[0]
            if infer is not None:
                out["infer%d" % step] = sess.run(infer, feed)
        out["variables"] = sess.run({v.op.name: v for v in tf.global_variables()})
        return out
    return run


def case_renorm_training_steps(tf):
    """tf.layers renorm with all three clips, its moving averages over three steps, the
    gradients (r and d stopped), and the same variables in inference."""
    x = tf.placeholder(tf.float32, [8, 3])
    y = tf.layers.batch_normalization(
        x, training=True, momentum=0.6, renorm=True, renorm_momentum=0.5,
        renorm_clipping={"rmax": 1.2, "rmin": 0.8, "dmax": 0.25}, name="bn",
        gamma_initializer=tf.constant_initializer(1.5),
        beta_initializer=tf.constant_initializer(0.2),
        moving_variance_initializer=tf.constant_initializer(2.0))
    infer = tf.layers.batch_normalization(x, training=False, renorm=True, name="bn", reuse=True)
    gamma, beta = tf.trainable_variables()
    loss = tf.reduce_sum(y * tf.constant(_batch([8, 3], 5)))
    grads = dict(zip(["x", "gamma", "beta"], tf.gradients(loss, [x, gamma, beta])))
    ops = _scope_ops(tf, "bn")
    run = _steps(tf, x, {"y": y, "grads": grads}, [8, 3], infer)
    return lambda sess: dict(run(sess), ops=ops)


def case_renorm_unclipped_4d_and_class(tf):
    """4-D input (fused=None and fused=True give way to renorm, as TF 1.15's V1 layer did), no
    clipping, no gamma; the class form."""
    x = tf.placeholder(tf.float32, [4, 2, 2, 3])
    y = tf.layers.batch_normalization(x, training=True, renorm=True, fused=True, scale=False,
                                      momentum=0.5, renorm_momentum=0.7)
    layer = tf.layers.BatchNormalization(renorm=True, renorm_momentum=0.3, axis=1, momentum=0.4)
    z = layer(x, training=True)
    kinds = sorted(set(op.type for op in tf.get_default_graph().get_operations()
                       if "FusedBatchNorm" in op.type))
    run = _steps(tf, x, {"y": y, "z": z}, [4, 2, 2, 3])
    return lambda sess: dict(run(sess), fused_ops=kinds,
                             weights=[v.name for v in layer.weights])


def case_renorm_training_tensor(tf):
    """A `training` placeholder (renorm, ghost batches, adjustment): training steps, then
    inference steps that change nothing.
    TF 1.15 built these updates inside v1 conds (UPDATE_OPS held `cond_N/Merge`); TensorFlow
    2's conds build none, so here the updates' momentum is 1.0 when not training. Built in a
    graph of its own so that only the values are compared."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf.placeholder(tf.float32, [6, 2])
        training = tf.placeholder_with_default(False, [])
        y = tf.layers.batch_normalization(
            x, training=training, renorm=True, momentum=0.5, renorm_momentum=0.6,
            renorm_clipping={"rmax": 1.1, "dmax": 0.1},
            moving_variance_initializer=tf.constant_initializer(0.5))
        ghost = tf.layers.batch_normalization(x, training=training, virtual_batch_size=3,
                                              momentum=0.5)
        adjusted = tf.layers.batch_normalization(
            x, training=training, momentum=0.5,
            adjustment=lambda s: (tf.fill(s[-1:], 2.0), tf.fill(s[-1:], 0.5)))
        update = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        variables = {v.op.name: v for v in tf.global_variables()}
        init = tf.global_variables_initializer()

    def run(_):
        out = {}
        with tf.Session(graph=graph) as sess:
            sess.run(init)
            for step in range(4):
                feed = {x: _batch([6, 2], step), training: step < 2}
                out["step%d" % step] = sess.run([[y, ghost, adjusted], update], feed)[0]
                out["variables%d" % step] = sess.run(variables)
        return out
    return run


def case_virtual_batch_size(tf):
    """Ghost batches of 4 in a batch of 8 (3-D input): the [1, 1, 1, channels] variables, the
    reshapes, the moving averages of the ghost batches' mean moments, inference; with renorm;
    and the class form."""
    x = tf.placeholder(tf.float32, [8, 2, 3])
    y = tf.layers.batch_normalization(x, training=True, virtual_batch_size=4, momentum=0.5,
                                      gamma_initializer=tf.constant_initializer(0.7),
                                      name="ghost")
    infer = tf.layers.batch_normalization(x, virtual_batch_size=4, name="ghost", reuse=True)
    both = tf.layers.batch_normalization(x, training=True, virtual_batch_size=2, renorm=True,
                                         renorm_clipping={"rmax": 1.3}, momentum=0.5,
                                         renorm_momentum=0.5, name="ghost_renorm")
    layer = tf.layers.BatchNormalization(virtual_batch_size=2, axis=[1, 2], momentum=0.3)
    z = layer(x, training=True)
    ops = _scope_ops(tf, "ghost")
    run = _steps(tf, x, {"y": y, "both": both, "z": z}, [8, 2, 3], infer)
    return lambda sess: dict(run(sess), ops=ops)


def case_adjustment(tf):
    """`adjustment` rescales and shifts the normalized batch in training only; a 4-D input
    then leaves the fused kernel."""
    def adjustment(shape):
        return tf.fill(shape[-1:], 1.25), tf.fill(shape[-1:], -0.3)
    x = tf.placeholder(tf.float32, [4, 2, 2, 3])
    y = tf.layers.batch_normalization(x, training=True, adjustment=adjustment, momentum=0.5,
                                      beta_initializer=tf.constant_initializer(0.5),
                                      name="adjusted")
    infer = tf.layers.batch_normalization(x, adjustment=adjustment, name="adjusted",
                                          reuse=True)
    flat = tf.layers.batch_normalization(tf.reshape(x, [4, 12]), training=True, center=False,
                                         adjustment=lambda s: (tf.ones([12]) * 0.5,
                                                               tf.zeros([12])))
    kinds = sorted(set(op.type for op in tf.get_default_graph().get_operations()
                       if "FusedBatchNorm" in op.type))
    ops = _scope_ops(tf, "adjusted")
    run = _steps(tf, x, {"y": y, "flat": flat}, [4, 2, 2, 3], infer)
    return lambda sess: dict(run(sess), ops=ops, fused_ops=kinds)


def case_misuse_errors(tf):
    """The errors TF 1.15 raised for the extras' misuse, by type."""
    x = tf.constant(_batch([6, 4]))
    attempts = {
        "clipping_key": lambda: tf.layers.batch_normalization(
            x, renorm=True, renorm_clipping={"rmax": 2.0, "r_max": 1.0}),
        "ghost_not_dividing": lambda: tf.layers.batch_normalization(
            x, training=True, virtual_batch_size=4),
        "ghost_zero": lambda: tf.layers.batch_normalization(x, virtual_batch_size=0),
        "ghost_axis_0": lambda: tf.layers.batch_normalization(
            x, axis=[0, 1], virtual_batch_size=2),
        "ghost_and_adjustment": lambda: tf.layers.batch_normalization(
            x, virtual_batch_size=2, adjustment=lambda s: (1.0, 0.0)),
        "axis_tuple": lambda: tf.layers.batch_normalization(x, axis=(1,)),
        "slim_renorm_updates_collections": lambda: tf.contrib.layers.batch_norm(
            x, renorm=True, updates_collections=None),
    }
    out = {}
    for name, attempt in sorted(attempts.items()):
        try:
            attempt()
            out[name] = "no error"
        except Exception as error:  # noqa: BLE001 - the type is what is recorded
            out[name] = type(error).__name__
    return out


def case_slim_renorm_and_adjustment(tf):
    """slim's batch_norm with renorm (renorm_decay, renorm_clipping; every variable a model
    variable), with adjustment, and its unfused update ops' `decay` constants."""
    x = tf.placeholder(tf.float32, [4, 2, 2, 3])
    layers = tf.contrib.layers
    y = layers.batch_norm(x, is_training=True, renorm=True, decay=0.5, renorm_decay=0.4,
                          renorm_clipping={"rmin": 0.9, "dmax": 0.2}, scale=True,
                          param_initializers={"gamma": tf.constant_initializer(1.1)})
    infer = layers.batch_norm(x, is_training=False, renorm=True, scope="BatchNorm", reuse=True)
    adjusted = layers.batch_norm(
        x, is_training=True, decay=0.5, scope="adjusted", data_format="NCHW",
        adjustment=lambda s: (tf.fill([1, 2, 1, 1], 0.9), tf.fill([1, 2, 1, 1], 0.1)))
    unfused = layers.batch_norm(tf.reshape(x, [4, 12]), is_training=True, fused=False,
                                decay=0.5, center=False, scope="unfused")
    ops = {scope: _scope_ops(tf, scope) for scope in ("BatchNorm", "adjusted", "unfused")}
    run = _steps(tf, x, {"y": y, "adjusted": adjusted, "unfused": unfused}, [4, 2, 2, 3],
                 infer)
    return lambda sess: dict(run(sess), ops=ops)


def case_dilated_conv_op_names(tf):
    """Dilated tf.layers convolutions: SpaceToBatchND, the convolution and BatchToSpaceND
    straight under the layer's scope, as TF 1.15 named them (sorted: the bias is made after
    them here, before them in TF 1.15); their values (but channels first's, which TF 1.15's
    CPU kernel did not run)."""
    init = tf.constant_initializer(0.1)
    x1, x2, x3 = (tf.constant(_batch(s)) for s in ([2, 9, 2], [2, 6, 6, 2], [1, 5, 5, 5, 2]))
    outs = [
        tf.layers.conv1d(x1, 2, 3, dilation_rate=2, kernel_initializer=init),
        tf.layers.conv2d(x2, 3, 2, dilation_rate=2, padding="same", kernel_initializer=init),
        tf.layers.conv3d(x3, 2, 2, dilation_rate=(1, 2, 2), kernel_initializer=init),
        tf.layers.Conv2D(2, 3, dilation_rate=3, padding="same", kernel_initializer=init)(x2),
    ]
    first = tf.layers.conv2d(x2, 2, [2, 1], dilation_rate=(2, 1), kernel_initializer=init,
                             data_format="channels_first")
    graph = tf.get_default_graph()
    ops = sorted(op.name for op in graph.get_operations() if op.name.startswith("conv"))
    return {"outs": {t.op.name: t for t in outs}, "ops": ops,
            "names": [t.op.name for t in outs + [first]]}


def case_dilated_conv_quantized(tf):
    """tf.contrib.quantize on a dilated tf.layers conv + bias + relu: its patterns see through
    TF 1.15's SpaceToBatchND / BatchToSpaceND pair to quantize the weights and activations.
    (TF 1.15's own fold of a fused batch norm after a dilated tf.layers conv failed, with
    InvalidArgumentError, so no batch norm here.)"""
    x = tf.constant(_batch([2, 6, 6, 3]) / 2)
    net = tf.layers.conv2d(x, 4, 3, dilation_rate=2, padding="same", activation=tf.nn.relu,
                           kernel_initializer=tf.constant_initializer(0.05), name="conv")
    out = tf.reduce_mean(net, [1, 2])
    before = set(op.name for op in tf.get_default_graph().get_operations())
    tf.contrib.quantize.create_training_graph(quant_delay=0)
    graph = tf.get_default_graph()
    rewritten = sorted(op.name for op in graph.get_operations()
                       if op.name not in before and op.type.startswith("FakeQuant"))
    loss = tf.reduce_sum(tf.square(out - 1.0))
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

    def run(sess):
        losses = [sess.run([loss, train])[0] for _ in range(3)]
        return {"losses": losses, "out": sess.run(out), "rewritten": rewritten}
    return run


case_dilated_conv_quantized.tolerance = {"rtol": 1e-4, "atol": 1e-5}
