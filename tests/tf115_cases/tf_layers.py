"""TF 1.x `tf.layers`: Layer subclasses in the styles of that era (a shared embedding, an
attention layer, a feed-forward block calling tf.layers.dense), naming, keras-style scopes, and
the classes/functions added here (Conv3DTranspose, SeparableConv1D), recorded in TF 1.15.5.

Python 3.7 syntax: these cases also run in the TF 1.15 side venv.
"""
import numpy as np


def _ramp(shape, scale=0.1):
    values = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return (np.sin(values) * scale).astype(np.float32)


def _embedding_class(tf):
    class SharedEmbedding(tf.layers.Layer):
        """t2t / BERT style: one table for the lookup and the output projection."""

        def __init__(self, vocab, width, **kwargs):
            super(SharedEmbedding, self).__init__(**kwargs)
            self.vocab, self.width = vocab, width

        def build(self, input_shape):
            self.shape_seen = input_shape.as_list()
            self.table = self.add_weight(
                "weights", [self.vocab, self.width], dtype=tf.float32,
                initializer=tf.constant_initializer(_ramp([self.vocab, self.width])))
            super(SharedEmbedding, self).build(input_shape)

        def call(self, inputs, mode="embedding"):
            if mode == "embedding":
                return tf.gather(self.table, inputs) * (self.width ** 0.5)
            return tf.matmul(inputs, self.table, transpose_b=True)
    return SharedEmbedding


def case_shared_embedding(tf):
    layer = _embedding_class(tf)(6, 4)
    ids = tf.constant([[1, 2, 5], [0, 3, 3]])
    embedded = layer(ids)
    logits = layer(tf.reshape(embedded, [-1, 4]), mode="softmax")
    return {"embedded": embedded, "logits": logits, "name": layer.name,
            "scope": layer.scope_name, "built": layer.built, "dtype": layer.dtype,
            "shape_seen": [str(d) for d in layer.shape_seen],
            "weights": [v.name for v in layer.weights], "op": logits.op.name,
            "trainable": [v.name for v in layer.trainable_weights]}


def case_layer_dtype_from_int_inputs(tf):
    class Table(tf.layers.Layer):
        def build(self, input_shape):
            self.table = self.add_weight("table", [4, 2])

        def call(self, inputs):
            return tf.gather(self.table, inputs)
    layer = Table()
    out = layer(tf.constant([1, 2]))
    return {"dtype": layer.dtype, "table": str(layer.table.dtype.base_dtype.name), "out": out}


def _attention_class(tf):
    class Attention(tf.layers.Layer):
        """Several add_weight calls, a regularizer, a non-trainable counter updated per
        training call, and a `training` argument."""

        def __init__(self, width, **kwargs):
            super(Attention, self).__init__(**kwargs)
            self.width = width

        def build(self, input_shape):
            depth = input_shape[-1].value if hasattr(input_shape[-1], "value") else \
                input_shape[-1]
            self.kernels = [
                self.add_weight(part, [depth, self.width],
                                initializer=tf.constant_initializer(_ramp([depth, self.width],
                                                                          0.2 + 0.1 * i)),
                                regularizer=(lambda w: 0.01 * tf.reduce_sum(tf.square(w)))
                                if part == "query" else None)
                for i, part in enumerate(("query", "key", "value"))]
            self.bias = self.add_variable("output_bias", [self.width],
                                          initializer=tf.constant_initializer(0.5))
            self.calls = self.add_weight("calls", [], trainable=False,
                                         initializer=tf.zeros_initializer())

        def call(self, inputs, memory=None, training=False):
            memory = inputs if memory is None else memory
            q, k, v = [tf.tensordot(t, w, 1) for t, w in
                       zip((inputs, memory, memory), self.kernels)]
            weights = tf.nn.softmax(tf.matmul(q, k, transpose_b=True))
            out = tf.matmul(weights, v) + self.bias
            if training:
                self.add_update(tf.assign_add(self.calls, 1.0))
                out = out * 0.5
            return out
    return Attention


def case_attention_layer(tf):
    layer = _attention_class(tf)(3, name="attention")
    x = tf.constant(_ramp([2, 4, 5], 1.0))
    train = layer(x, training=True)
    infer = layer(x, memory=x * 2.0)
    again = _attention_class(tf)(3, name="attention")(x)
    collected = {"weights": [v.name for v in layer.weights],
                 "trainable": [v.name for v in layer.trainable_weights],
                 "non_trainable": [v.name for v in layer.non_trainable_weights],
                 "losses": len(layer.losses), "updates": len(layer.updates),
                 "scope": layer.scope_name, "name": layer.name, "count": layer.count_params()}

    def run(sess):
        out = sess.run({"train": train, "infer": infer, "again": again,
                        "losses": tf.add_n(layer.losses)})
        sess.run(layer.updates)
        out["calls"] = sess.run(layer.calls)
        out.update(collected)
        return out
    return run


def _feed_forward_class(tf):
    class FeedForward(tf.layers.Layer):
        """A block that calls tf.layers functions inside call() and normalizes with its own
        add_weight variables."""

        def __init__(self, hidden, **kwargs):
            super(FeedForward, self).__init__(**kwargs)
            self.hidden = hidden

        def build(self, input_shape):
            width = int(input_shape[-1])
            self.gamma = self.add_weight("layer_norm/gamma", [width],
                                         initializer=tf.ones_initializer())
            self.beta = self.add_weight("layer_norm/beta", [width],
                                        initializer=tf.zeros_initializer())
            super(FeedForward, self).build(input_shape)

        def call(self, inputs, training=False):
            width = int(inputs.shape[-1])
            hidden = tf.layers.dense(
                inputs, self.hidden, activation=tf.nn.relu, name="intermediate",
                kernel_initializer=tf.constant_initializer(_ramp([width, self.hidden])))
            hidden = tf.layers.dropout(hidden, 0.1, training=training)
            out = tf.layers.dense(
                hidden, width, name="output",
                kernel_initializer=tf.constant_initializer(_ramp([self.hidden, width], 0.3)),
                kernel_regularizer=lambda w: tf.reduce_sum(tf.abs(w)))
            mean, variance = tf.nn.moments(out + inputs, [-1], keep_dims=True)
            normed = (out + inputs - mean) * tf.rsqrt(variance + 1e-6)
            return normed * self.gamma + self.beta
    return FeedForward


def case_feed_forward_block(tf):
    block = _feed_forward_class(tf)(6)
    x = tf.constant(_ramp([3, 4], 1.0))
    with tf.variable_scope("encoder"):
        first = block(x)
        second = block(first)
    other = _feed_forward_class(tf)(6)(x)
    return {"first": first, "second": second, "other": other, "name": block.name,
            "scope": block.scope_name, "weights": [v.name for v in block.weights],
            "ops": [first.op.name, second.op.name]}


def case_unnamed_dense_in_call_twice(tf):
    class Block(tf.layers.Layer):
        def call(self, inputs):
            return tf.layers.dense(inputs, 2, kernel_initializer=tf.ones_initializer())
    block = Block()
    x = tf.ones([1, 3])
    return {"first": block(x), "second": block(x)}


def case_default_names_and_scopes(tf):
    class MyLayer(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [int(input_shape[-1])],
                                     initializer=tf.ones_initializer())

        def call(self, inputs):
            return inputs * self.w
    x = tf.ones([2, 3])
    layers = [MyLayer(), MyLayer(), MyLayer(name="my_layer"), MyLayer(name="custom")]
    names_before = [l.name for l in layers]
    for layer in layers:
        layer(x)
    layers[1](x)  # shares its variables
    shared = MyLayer(name="custom", _scope="custom", _reuse=True)
    shared(x)
    scoped = MyLayer()
    scoped.apply(x, scope="explicit")
    with tf.variable_scope("outer"):
        nested = MyLayer()
        nested(x)
    dense = tf.layers.Dense(2)
    dense(x)
    return {"before": names_before, "after": [l.name for l in layers + [shared, scoped]],
            "scopes": [l.scope_name for l in layers + [shared, scoped, nested]],
            "shared": [v.name for v in shared.weights], "reuse": str(layers[0]._reuse),
            "dense": [dense.name, dense.scope_name], "built": [l.built for l in layers]}


def case_non_trainable_layer_and_constraint(tf):
    class Scaled(tf.layers.Layer):
        def build(self, input_shape):
            self.scale = self.add_weight("scale", [2], initializer=tf.constant_initializer(3.0),
                                         constraint=lambda v: tf.clip_by_value(v, 0.0, 1.0))
            self.offset = self.add_weight("offset", [2], trainable=False,
                                          initializer=tf.constant_initializer(0.5))

        def call(self, inputs):
            return inputs * self.scale + self.offset
    frozen = Scaled(trainable=False)
    y = frozen(tf.ones([1, 2]))
    live = Scaled()
    z = live(tf.ones([1, 2]))
    constrained = live.scale.constraint(live.scale)
    return {"y": y, "z": z, "constrained": constrained,
            "frozen_trainable": [v.name for v in frozen.trainable_weights],
            "frozen_non_trainable": [v.name for v in frozen.non_trainable_weights],
            "live_trainable": [v.name for v in live.trainable_weights],
            "live_weights": [v.name for v in live.weights]}


def case_add_loss_activity_regularizer_and_weights(tf):
    class Lossy(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [2], initializer=tf.constant_initializer(2.0))

        def call(self, inputs):
            self.add_loss(tf.reduce_sum(self.w))
            return inputs * self.w
    layer = Lossy(activity_regularizer=lambda t: tf.reduce_sum(t))
    y = layer(tf.ones([4, 2]))
    dense = tf.layers.dense(tf.ones([4, 3]), 2, kernel_initializer=tf.ones_initializer(),
                            activity_regularizer=lambda t: tf.reduce_sum(t))

    def run(sess):
        before = layer.get_weights()
        layer.set_weights([np.array([0.5, 1.5], np.float32)])
        return {"before": before, "after": layer.get_weights(), "y": sess.run(y),
                "dense": sess.run(dense), "losses": sess.run(layer.losses),
                "regularization": sess.run(tf.get_collection(
                    tf.GraphKeys.REGULARIZATION_LOSSES))}
    return run


def case_build_gets_list_shapes_and_numpy_inputs(tf):
    class Pair(tf.layers.Layer):
        def build(self, input_shape):
            self.seen = [s.as_list() for s in input_shape]
            self.w = self.add_weight("w", [input_shape[1].as_list()[-1]],
                                     initializer=tf.ones_initializer())

        def call(self, inputs):
            return inputs[0] + inputs[1] * self.w
    layer = Pair()
    out = layer([np.ones([2, 3], np.float32), tf.zeros([2, 3]) + 2.0])
    return {"out": out, "seen": str(layer.seen)}


def case_training_only_where_call_takes_it(tf):
    class NoTraining(tf.layers.Layer):
        def call(self, inputs):
            return inputs + 1.0

    class Kwargs(tf.layers.Layer):
        def call(self, inputs, **kwargs):
            return inputs * (2.0 if kwargs.get("training") else 3.0)
    x = tf.ones([1])
    return {"plain": NoTraining()(x, training=True), "kwargs": Kwargs()(x, training=True)}


def case_input_spec_rejects_wrong_rank(tf):
    dense = tf.layers.Dense(2)
    dense(tf.ones([3, 4]))
    dense(tf.ones([3, 5]))
    return {}


def case_input_spec_on_subclass(tf):
    class Needs3D(tf.layers.Layer):
        def __init__(self, **kwargs):
            super(Needs3D, self).__init__(**kwargs)
            self.input_spec = tf.layers.InputSpec(ndim=3)

        def call(self, inputs):
            return inputs
    spec = tf.layers.InputSpec(shape=(None, 3), dtype="float32")
    out = Needs3D()(tf.ones([1, 2, 3]))
    return {"out": out, "repr": repr(tf.layers.InputSpec(ndim=2, axes={-1: 3})),
            "spec": [str(spec.shape), spec.ndim, spec.dtype, str(spec.axes)]}


def case_input_spec_error_message(tf):
    class Needs3D(tf.layers.Layer):
        def __init__(self, **kwargs):
            super(Needs3D, self).__init__(**kwargs)
            self.input_spec = tf.layers.InputSpec(ndim=3)
    Needs3D()(tf.ones([2, 2]))
    return {}


def case_unknown_keyword_argument(tf):
    tf.layers.Layer(foo=1)
    return {}


def case_scope_name_before_call(tf):
    return {"scope": tf.layers.Layer().scope_name}


def case_keras_style_scope(tf):
    class M(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [2], initializer=tf.constant_initializer(2.0))

        def call(self, inputs):
            return inputs * self.w
    x = tf.ones([3, 2])
    with tf.layers.experimental.keras_style_scope():
        first, second = M(), M(name="second")
        dense = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer())
    plain = M()
    with tf.variable_scope("outer"):
        outs = [first(x), first(x), second(x), dense(x), plain(x)]
    return {"outs": outs, "ops": [o.op.name for o in outs],
            "weights": [v.name for v in first.weights + dense.weights],
            "names": [first.name, second.name, dense.name]}


def case_keras_style_refuses_reuse(tf):
    with tf.layers.experimental.keras_style_scope():
        tf.layers.Dense(2, _reuse=True)
    return {}


def case_conv3d_transpose(tf):
    x = tf.constant(_ramp([2, 3, 3, 2, 2], 1.0))
    same = tf.layers.conv3d_transpose(
        x, 3, 2, strides=2, padding="same",
        kernel_initializer=tf.constant_initializer(_ramp([2, 2, 2, 3, 2])),
        bias_initializer=tf.constant_initializer(0.1))
    layer = tf.layers.Conv3DTranspose(
        2, (3, 2, 2), strides=(1, 2, 1), padding="valid", activation=tf.nn.relu,
        kernel_initializer=tf.constant_initializer(_ramp([3, 2, 2, 2, 2], 0.5)))
    valid = layer(x)
    return {"same": same, "valid": valid, "shapes": [str(same.shape), str(valid.shape)],
            "kernel": layer.kernel.name, "ops": [same.op.name, valid.op.name]}


def case_separable_conv1d(tf):
    x = tf.constant(_ramp([2, 9, 3], 1.0))
    out = tf.layers.separable_conv1d(
        x, 4, 3, depth_multiplier=2, padding="same",
        depthwise_initializer=tf.constant_initializer(_ramp([3, 3, 2])),
        pointwise_initializer=tf.constant_initializer(_ramp([1, 6, 4], 0.3)),
        bias_initializer=tf.constant_initializer(0.2),
        pointwise_regularizer=lambda w: tf.reduce_sum(tf.square(w)))
    layer = tf.layers.SeparableConv1D(
        2, 2, strides=2, activation=tf.nn.tanh,
        depthwise_initializer=tf.constant_initializer(_ramp([2, 3, 1], 0.7)),
        pointwise_initializer=tf.constant_initializer(_ramp([1, 3, 2], 0.4)))
    strided = layer(x)
    dilated = tf.layers.separable_conv1d(
        x, 2, 2, dilation_rate=3, name="dilated",
        depthwise_initializer=tf.constant_initializer(_ramp([2, 3, 1], 0.7)),
        pointwise_initializer=tf.constant_initializer(_ramp([1, 3, 2], 0.4)))
    return {"out": out, "strided": strided, "dilated": dilated,
            "weights": [v.name for v in layer.weights],
            "shapes": [str(t.shape) for t in (out, strided, dilated)]}


def case_dense_class_attributes(tf):
    dense = tf.layers.Dense(3, use_bias=False, kernel_initializer=tf.ones_initializer())
    before = dense.built
    y = dense(tf.ones([2, 4]))
    return {"y": y, "before": before, "after": dense.built, "units": dense.units,
            "use_bias": dense.use_bias, "kernel": dense.kernel.name,
            "weights": [v.name for v in dense.weights], "name": dense.name,
            "scope": dense.scope_name, "spec": repr(dense.input_spec)}


def case_list_devices(tf):
    devices = tf.config.experimental_list_devices()
    return {"cpu": [d for d in devices if d.endswith("/device:CPU:0")]}


def case_classic_functions_network(tf):
    x = tf.constant(_ramp([2, 6, 6, 2], 1.0))
    net = tf.layers.conv2d(x, 3, 3, padding="same", activation=tf.nn.relu,
                           kernel_initializer=tf.constant_initializer(_ramp([3, 3, 2, 3])),
                           kernel_regularizer=lambda w: tf.reduce_sum(tf.square(w)))
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.average_pooling2d(net, 1, 1)
    net = tf.layers.dropout(net, 0.5, training=False)
    flat = tf.layers.flatten(net)
    logits = tf.layers.dense(flat, 2, kernel_initializer=tf.constant_initializer(_ramp([27, 2])),
                             bias_initializer=tf.constant_initializer(0.25))
    return {"logits": logits, "ops": [t.op.name for t in (net, flat, logits)]}


def case_classic_classes_network(tf):
    x = tf.constant(_ramp([2, 5, 5, 2], 1.0))
    conv = tf.layers.Conv2D(2, 2, activation=tf.nn.tanh,
                            kernel_initializer=tf.constant_initializer(_ramp([2, 2, 2, 2])))
    pool = tf.layers.MaxPooling2D(2, 1)
    flatten = tf.layers.Flatten()
    dense = tf.layers.Dense(3, kernel_initializer=tf.constant_initializer(_ramp([18, 3])))
    net = dense(flatten(pool(conv(x))))
    again = dense(flatten(pool(conv(x))))
    return {"net": net, "again": again,
            "ops": [t.op.name for t in (net, again)],
            "names": [l.name for l in (conv, pool, flatten, dense)],
            "scopes": [l.scope_name for l in (conv, pool, flatten, dense)],
            "weights": [v.name for v in conv.weights + dense.weights + pool.weights]}


def case_batch_normalization_training(tf):
    x = tf.constant(_ramp([4, 3, 3, 2], 1.0) + 0.5)
    y = tf.layers.batch_normalization(x, training=True, momentum=0.9)
    flat = tf.layers.batch_normalization(tf.reshape(x, [4, 18]), training=True)
    layer = tf.layers.BatchNormalization(momentum=0.5)
    z = layer(x, training=False)

    def run(sess):
        out = sess.run({"y": y, "flat": flat, "z": z})
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
        out["moving"] = sess.run({v.op.name: v for v in tf.global_variables()
                                  if "moving" in v.op.name})
        out["weights"] = [v.name for v in layer.weights]
        out["updates"] = len(layer.updates)
        return out
    return run


def case_batch_normalization_training_tensor(tf):
    x = tf.constant(_ramp([4, 2, 2, 3], 1.0))
    training = tf.placeholder_with_default(False, [])
    y = tf.layers.batch_normalization(x, training=training, momentum=0.5)

    def run(sess):
        out = {"infer": sess.run(y)}
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
        out["after_infer"] = sess.run({v.op.name: v for v in tf.global_variables()
                                       if "moving" in v.op.name})
        out["train"] = sess.run(y, {training: True})
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS), {training: True})
        out["after_train"] = sess.run({v.op.name: v for v in tf.global_variables()
                                       if "moving" in v.op.name})
        return out
    return run


def case_subclass_of_dense_overriding_call(tf):
    class MaskedDense(tf.layers.Dense):
        def call(self, inputs):
            return super(MaskedDense, self).call(inputs) * tf.constant([1.0, 0.0, 1.0])
    layer = MaskedDense(3, kernel_initializer=tf.constant_initializer(_ramp([4, 3], 1.0)))
    x = tf.constant(_ramp([2, 4], 1.0))
    first, second = layer(x), layer(x * 2.0)
    return {"first": first, "second": second, "scope": layer.scope_name, "name": layer.name,
            "weights": [v.name for v in layer.weights]}


def case_add_weight_initializer_names_and_classes(tf):
    class Named(tf.layers.Layer):
        def build(self, input_shape):
            self.a = self.add_weight("a", [2], initializer="ones")
            self.b = self.add_weight("b", [2], initializer=tf.zeros_initializer)
            self.c = self.add_weight("c", [2, 2], initializer="identity")

        def call(self, inputs):
            return tf.matmul(inputs * self.a + self.b, self.c)
    return {"out": Named()(tf.ones([1, 2]) * 3.0)}


def case_layer_names_count_the_functions_layers(tf):
    x = tf.ones([2, 4, 4, 1])
    pooled = tf.layers.average_pooling2d(x, 2, 2)
    maxed = tf.layers.max_pooling2d(x, 2, 2, name="named_pool")
    flat = tf.layers.flatten(pooled)
    first = tf.layers.dense(flat, 2, kernel_initializer=tf.ones_initializer())
    dropped = tf.layers.dropout(first, training=False)
    layers = [tf.layers.Dense(2), tf.layers.AveragePooling2D(2, 2), tf.layers.Flatten(),
              tf.layers.Dropout(), tf.layers.MaxPooling2D(2, 2)]
    outs = [layers[1](x), layers[4](x)]
    return {"names": [l.name for l in layers], "first": first,
            "ops": [t.op.name for t in [pooled, maxed, flat, first, dropped] + outs]}
