"""TF 1.15 cases for tf.contrib.layers: the layers' variables, scopes, collections and values,
batch_norm's updates, the norms, encoders, regularizers, summaries and optimize_loss."""
import numpy as np


def _images(shape=(2, 6, 6, 3)):
    return np.linspace(-1.0, 1.0, int(np.prod(shape)), dtype=np.float32).reshape(shape)


def case_conv_pool_fc_arg_scope(tf):
    layers = tf.contrib.layers
    x = tf.constant(_images())
    with tf.contrib.framework.arg_scope(
            [layers.conv2d, layers.fully_connected],
            weights_initializer=tf.constant_initializer(0.05),
            biases_initializer=tf.constant_initializer(0.1),
            weights_regularizer=layers.l2_regularizer(0.01)):
        net = layers.conv2d(x, 4, [3, 3], scope="conv1")
        net = layers.max_pool2d(net, [2, 2], scope="pool1")
        net = layers.conv2d(net, 5, 2, stride=2, padding="VALID", activation_fn=tf.nn.tanh)
        pooled = layers.avg_pool2d(net, 1)
        flat = layers.flatten(pooled)
        dense = layers.fully_connected(flat, 3, scope="fc")
        dense2 = layers.fully_connected(dense, 2, activation_fn=None)
        dropped = layers.dropout(dense2, 0.5, is_training=False)
    return {"conv1": tf.get_default_graph().get_tensor_by_name("conv1/Relu:0"),
            "flat": flat, "dense": dense, "out": dropped,
            "reg": tf.add_n(tf.losses.get_regularization_losses())}


def case_conv_variants(tf):
    layers = tf.contrib.layers
    init = dict(weights_initializer=tf.constant_initializer(0.1))
    x = tf.constant(_images())
    x1 = tf.constant(_images((2, 5, 3)))
    x3 = tf.constant(_images((1, 4, 4, 4, 2)))
    return {
        "transpose": layers.conv2d_transpose(x, 2, 3, stride=2, **init),
        "separable": layers.separable_conv2d(x, 4, 3, depth_multiplier=2,
                                             pointwise_initializer=tf.constant_initializer(0.2),
                                             **init),
        "depthwise_only": layers.separable_conv2d(x, None, 3, 1, **init),
        "conv1d": layers.conv1d(x1, 2, 3, **init),
        "conv3d": layers.conv3d(x3, 2, 2, **init),
        "dilated": layers.convolution2d(x, 2, 3, rate=2, **init),
        "in_plane": layers.conv2d_in_plane(x, 2, **init),
        "pool3d": layers.max_pool3d(x3, 2), "avg3d": layers.avg_pool3d(x3, 2),
    }


def case_batch_norm_training_updates(tf):
    layers = tf.contrib.layers
    x = tf.constant(_images((4, 3, 3, 2)) * 3.0 + 1.0)
    train = layers.batch_norm(x, is_training=True, scale=True, decay=0.9)
    flat = layers.batch_norm(tf.reshape(x, [4, 18]), is_training=True, scope="flat")
    infer = layers.batch_norm(x, is_training=False, scope="infer")
    switch = tf.placeholder_with_default(False, [])
    cond = layers.batch_norm(x, is_training=switch, scope="cond", center=False)
    rank3 = layers.batch_norm(tf.reshape(x, [4, 9, 2]), is_training=True, scope="rank3")
    nofuse = layers.batch_norm(x, is_training=True, fused=False, scope="nofuse")
    collected = layers.batch_norm(x, is_training=True, updates_collections=None,
                                  scope="inplace")
    moving = [v for v in tf.global_variables() if "moving" in v.op.name]

    def run(sess):
        outputs = sess.run({"train": train, "flat": flat, "infer": infer, "cond": cond,
                            "rank3": rank3, "nofuse": nofuse, "inplace": collected})
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
        outputs["moving"] = sess.run({v.op.name: v for v in moving})
        return outputs
    return run


def case_norms(tf):
    layers = tf.contrib.layers
    x = tf.constant(_images((2, 4, 4, 4)) * 2.0 + 0.5)
    return {"layer": layers.layer_norm(x),
            "layer_last": layers.layer_norm(x, begin_norm_axis=-1, begin_params_axis=-1,
                                            scope="ln_last"),
            "group": layers.group_norm(x, groups=2),
            "instance": layers.instance_norm(x),
            "unit": layers.unit_norm(x, 3)}


def case_encoders_and_embeddings(tf):
    layers = tf.contrib.layers
    ids = tf.constant([[1, 2, 0], [3, 3, 1]], tf.int64)
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([1, 4, 2], tf.int64), [2, 2])
    init = tf.constant_initializer(np.arange(30, dtype=np.float32).reshape(6, 5) / 10.0)
    params = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2))
    return {
        "bow_sparse": layers.bow_encoder(ids, 6, 5, initializer=init, scope="bow"),
        "bow_dense": layers.bow_encoder(ids, 6, 5, sparse_lookup=False, initializer=init,
                                        scope="bow", reuse=True),
        "embed": layers.embed_sequence(ids, 6, 5, initializer=init),
        "embed_unique": layers.embed_sequence(ids, 6, 5, unique=True, initializer=init,
                                              scope="EmbedSequence", reuse=True),
        "lookup_unique": layers.embedding_lookup_unique(params, ids),
        "safe_sparse": layers.safe_embedding_lookup_sparse(params, sparse, combiner="sum"),
        "safe_default": layers.safe_embedding_lookup_sparse(params, sparse, default_id=5),
    }


def case_small_ops(tf):
    layers = tf.contrib.layers
    x = tf.constant(_images((2, 3, 4)))
    logits = tf.constant(_images((2, 4)))
    image = tf.constant(_images((1, 3, 3, 2)))
    return {
        "one_hot": layers.one_hot_encoding(tf.constant([0, 2]), 3),
        "bias_add": layers.bias_add(x, initializer=tf.constant_initializer(0.5)),
        "softmax": layers.softmax(x),
        "maxout": layers.maxout(logits, 2),
        "spatial_softmax": layers.spatial_softmax(image),
        "repeat": layers.repeat(logits, 2, layers.fully_connected, 4,
                                weights_initializer=tf.constant_initializer(0.1), scope="rep"),
        "stack": layers.stack(logits, layers.fully_connected, [3, 2],
                              weights_initializer=tf.constant_initializer(0.1), scope="stk"),
        "scaled": layers.scale_gradient(logits, 0.5),
        "elu": layers.elu(logits, 3, weights_initializer=tf.constant_initializer(0.2)),
        "legacy": layers.legacy_fully_connected(
            logits, 2, weight_init=tf.constant_initializer(0.3)),
        "img_seq": layers.images_to_sequence(image),
        "seq_img": layers.sequence_to_images(layers.images_to_sequence(image), 3),
        "dense_to_sparse": tf.sparse.to_dense(layers.dense_to_sparse(
            tf.constant([[0, 3], [2, 0]]))),
    }


def case_regularizers_and_initializers(tf):
    layers = tf.contrib.layers
    w = tf.constant([[1.0, -2.0], [3.0, 0.5]])
    total = layers.apply_regularization(layers.l1_l2_regularizer(0.1, 0.2), [w, 2.0 * w])
    summed = layers.sum_regularizer([layers.l1_regularizer(0.5), layers.l2_regularizer(0.5)])(w)
    xavier = tf.get_variable("xavier", [40, 60], initializer=layers.xavier_initializer())
    he = tf.get_variable("he", [3, 3, 8, 16], initializer=layers.variance_scaling_initializer())

    def run(sess):
        values = sess.run({"total": total, "summed": summed})
        xv, hv = sess.run([xavier, he])
        values["xavier_in_range"] = bool(np.abs(xv).max() <= np.sqrt(6.0 / 100))
        values["he_std_ok"] = bool(abs(hv.std() - np.sqrt(2.0 / 72) * 0.88) < 0.03)
        return values
    return run


def case_summaries(tf):
    layers = tf.contrib.layers
    x = tf.constant(_images((2, 3)), name="acts")
    y = tf.nn.relu(x, name="relu_acts")
    layers.summarize_activation(y)
    layers.summarize_tensor(tf.reduce_mean(x), tag="mean_x")
    layers.summarize_tensors([x])
    tf.add_to_collection("mine", x)
    layers.summarize_collection("mine")
    merged = tf.summary.merge_all()

    def run(sess):
        summary = tf.Summary.FromString(sess.run(merged))
        return {"tags": sorted(v.tag for v in summary.value)}
    return run


def _optimize_loss_model(tf):
    x = tf.constant(_images((4, 3)))
    y = tf.constant([[1.0], [0.0], [1.0], [0.0]])
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.5))
    b = tf.get_variable("b", [1], initializer=tf.constant_initializer(0.1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y) * 10.0)
    return loss, w, b


def case_optimize_loss_summaries_and_clipping(tf):
    loss, w, b = _optimize_loss_model(tf)
    step = tf.train.get_or_create_global_step()
    train = tf.contrib.layers.optimize_loss(
        loss, step, 0.1, "SGD", clip_gradients=0.5,
        summaries=["loss", "learning_rate", "gradients", "gradient_norm",
                   "global_gradient_norm"])
    merged = tf.summary.merge_all()

    def run(sess):
        summary = tf.Summary.FromString(sess.run(merged))
        values = {v.tag: v.simple_value for v in summary.value if v.HasField("simple_value")}
        values["histograms"] = sorted(v.tag for v in summary.value if v.HasField("histo"))
        values["train"] = sess.run(train)
        values["w"], values["b"], values["step"] = sess.run([w, b, step])
        return values
    return run


def case_optimize_loss_defaults_decay_and_multipliers(tf):
    loss, w, b = _optimize_loss_model(tf)
    step = tf.train.get_or_create_global_step()
    train = tf.contrib.layers.optimize_loss(
        loss, step, 0.1, "Adam", gradient_multipliers={w: 0.5},
        learning_rate_decay_fn=lambda lr, gs: tf.train.exponential_decay(lr, gs, 10, 0.5),
        name="opt", update_ops=[])
    merged = tf.summary.merge_all()

    def run(sess):
        tags = sorted(v.tag for v in tf.Summary.FromString(sess.run(merged)).value)
        for _ in range(3):
            sess.run(train)
        return {"tags": tags, "w": sess.run(w), "b": sess.run(b)}
    return run


def case_optimize_loss_bad_optimizer(tf):
    loss, _, _ = _optimize_loss_model(tf)
    return {"op": tf.contrib.layers.optimize_loss(loss, tf.train.get_or_create_global_step(),
                                                  0.1, "NoSuchOptimizer")}


def case_conv2d_needs_rank(tf):
    return {"out": tf.contrib.layers.conv2d(tf.constant([1.0, 2.0]), 2, 3)}


case_norms.tolerance = {"rtol": 1e-4, "atol": 2e-5}
