"""tf.contrib.quantize cases: the graph rewrites for quantization-aware training and eval on
slim conv + batch norm + relu, tf.layers conv / dense with a residual add, delays and the
experimental options; what is compared is the FakeQuant ops and min / max variables made, the
folded ops, the outputs and a few training steps of the rewritten graph."""
import numpy as np

_IMAGE = (np.arange(2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3) % 7 - 3) / 3


def _rewritten(tf, ops_before):
    """The ops the rewrite added that matter: FakeQuant ops and the folded layers."""
    graph = tf.get_default_graph()
    kinds = ("FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel")
    return sorted(op.name for op in graph.get_operations() if op.name not in ops_before and (
        op.type in kinds or op.name.endswith(("_Fold", "/mul_fold", "/add_fold"))))


def _slim_net(tf, is_training):
    layers = tf.contrib.layers
    image = tf.constant(_IMAGE)
    with tf.contrib.framework.arg_scope(
            [layers.conv2d, layers.fully_connected],
            weights_initializer=tf.constant_initializer(0.05)):
        net = layers.conv2d(image, 4, [3, 3], normalizer_fn=layers.batch_norm,
                            normalizer_params={"is_training": is_training}, scope="conv1")
        net = layers.flatten(net)
        net = layers.fully_connected(net, 3, activation_fn=tf.nn.relu6, scope="fc")
    return net


def _train_steps(tf, output, steps):
    loss = tf.reduce_sum(tf.square(output - 1.0))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    update = tf.group(*tf.get_collection(tf.GraphKeys.UPDATE_OPS))

    def run(sess):
        losses = []
        for _ in range(steps):
            losses.append(sess.run([loss, train, update])[0])
        ranges = {v.op.name: v for v in tf.global_variables()
                  if v.op.name.endswith(("/min", "/max"))}
        return {"losses": losses, "output": sess.run(output), "ranges": sess.run(ranges)}
    return run


def case_training_graph(tf):
    output = _slim_net(tf, True)
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.create_training_graph(quant_delay=0)
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, output, 3)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_training_graph.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_eval_graph(tf):
    output = _slim_net(tf, False)
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.create_eval_graph()
    return {"output": output, "rewritten": _rewritten(tf, before)}


def case_layers_residual(tf):
    image = tf.constant(_IMAGE)
    init = tf.constant_initializer(0.1)
    with tf.variable_scope("block"):
        conv = tf.layers.conv2d(image, 3, 3, padding="same", kernel_initializer=init,
                                name="conv")
        net = tf.nn.relu(conv + image)
        net = tf.layers.conv2d(net, 3, 1, kernel_initializer=init, activation=tf.nn.relu6,
                               name="conv2")
        net = net + image
        out = tf.layers.dense(tf.reshape(net, [2, -1]), 2, kernel_initializer=init, name="fc")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.experimental_create_training_graph(
        weight_bits=4, activation_bits=6, symmetric=True, quant_delay=2)
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, out, 3)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_layers_residual.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_experimental_eval_in_scope(tf):
    with tf.variable_scope("keep"):
        a = tf.layers.dense(tf.constant(_IMAGE.reshape(2, -1)[:, :6]), 4,
                            kernel_initializer=tf.constant_initializer(0.2),
                            activation=tf.nn.relu, name="fc")
    with tf.variable_scope("skip"):
        b = tf.layers.dense(a, 2, kernel_initializer=tf.constant_initializer(0.3),
                            activation=tf.nn.relu, name="fc")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.experimental_create_eval_graph(weight_bits=8, activation_bits=8,
                                                       scope="keep")
    return {"a": a, "b": b, "rewritten": _rewritten(tf, before)}


def case_freeze_batch_norm(tf):
    output = _slim_net(tf, True)
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.experimental_create_training_graph(quant_delay=1, freeze_bn_delay=2)
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, output, 4)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_freeze_batch_norm.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_refuses_training_ops(tf):
    w = tf.get_variable("w", [2], initializer=tf.ones_initializer())
    tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w))
    tf.contrib.quantize.create_training_graph()


def case_unfused_and_fc_batch_norms(tf):
    """slim's unfused batch norm (folded by name) on a conv, and a batch norm after an fc
    layer (reshaped to 4-D and fused)."""
    layers = tf.contrib.layers
    image = tf.constant(_IMAGE)
    with tf.contrib.framework.arg_scope(
            [layers.conv2d, layers.fully_connected],
            weights_initializer=tf.constant_initializer(0.05)):
        net = layers.conv2d(image, 4, [3, 3], normalizer_fn=layers.batch_norm,
                            normalizer_params={"is_training": True, "fused": False},
                            scope="conv1")
        net = layers.fully_connected(layers.flatten(net), 3, normalizer_fn=layers.batch_norm,
                                     normalizer_params={"is_training": True}, scope="fc")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.create_training_graph()
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, net, 2)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_unfused_and_fc_batch_norms.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_depthwise_batch_norm(tf):
    """A depthwise conv (slim separable_conv2d without pointwise) with a fused batch norm:
    its folded scale reshaped to [in_channels, multiplier]; eval, then training."""
    layers = tf.contrib.layers
    net = layers.separable_conv2d(tf.constant(_IMAGE), None, [3, 3], depth_multiplier=2,
                                  weights_initializer=tf.constant_initializer(0.1),
                                  normalizer_fn=layers.batch_norm,
                                  normalizer_params={"is_training": True}, scope="dw")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.create_training_graph()
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, net, 2)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_depthwise_batch_norm.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_layers_conv_fused_batch_norm(tf):
    """tf.layers' conv + batch_normalization (FusedBatchNormV3 for 4-D input, as TF 1.15
    built it) + relu: the batch norm folded into the conv, then quantized."""
    image = tf.constant(_IMAGE)
    net = tf.layers.conv2d(image, 4, 3, use_bias=False,
                           kernel_initializer=tf.constant_initializer(0.05), name="conv")
    net = tf.nn.relu(tf.layers.batch_normalization(net, training=True, name="bn"))
    out = tf.layers.dense(tf.reshape(net, [2, -1]), 2,
                          kernel_initializer=tf.constant_initializer(0.1), name="fc")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    tf.contrib.quantize.create_training_graph(quant_delay=0)
    rewritten = _rewritten(tf, before)
    run = _train_steps(tf, out, 3)
    return lambda sess: dict(run(sess), rewritten=rewritten)


case_layers_conv_fused_batch_norm.tolerance = {"rtol": 1e-4, "atol": 1e-5}
