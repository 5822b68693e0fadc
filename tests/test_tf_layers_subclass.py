"""TF 1.x `tf.layers`: Layer subclasses (build once in the layer's scope, add_weight, losses,
updates, names), keras-style scopes, InputSpec, Conv3DTranspose and SeparableConv1D, against
TF 1.15.5's record of the same cases (tests/tf115_cases/tf_layers.py)."""
import numpy as np
import pytest
import tensorflow as tf

from estimator_compat.legacy import layers as tf1_layers
from tf115_cases import harness

v1 = tf.compat.v1
CASES = harness.cases("tf_layers")


@pytest.fixture(scope="module")
def ours():
    return harness.run_here("tf_layers")


@pytest.mark.parametrize("name", list(CASES))
def test_case_matches_tf115(ours, name):
    harness.compare(ours[name], harness.recorded("tf_layers")[name], CASES[name])


@pytest.mark.parametrize("function, shape, args", [
    (tf1_layers.conv3d_transpose, [2, 3, 4, 2, 3], dict(filters=2, kernel_size=2, strides=2)),
    (tf1_layers.separable_conv1d, [2, 3, 7], dict(filters=2, kernel_size=3, depth_multiplier=2)),
    (tf1_layers.conv1d, [2, 3, 7], dict(filters=2, kernel_size=3)),
])
def test_channels_first_is_channels_last_transposed(function, shape, args):
    """TF 1.15's CPU kernels refused channels_first for these; ours run them, equal to the
    channels_last result transposed (bias along the channel axis)."""
    rank = len(shape) - 2
    x = np.random.RandomState(0).rand(*shape).astype(np.float32)
    last = np.transpose(x, [0] + list(range(2, rank + 2)) + [1])
    with tf.Graph().as_default(), v1.Session() as sess:
        init = dict(bias_initializer=v1.constant_initializer(np.arange(2.0)))
        first = function(tf.constant(x), data_format="channels_first", name="a", **args, **init)
        with v1.variable_scope("", reuse=True):
            plain = function(tf.constant(last), name="a", **args, **init)
        sess.run(v1.global_variables_initializer())
        got, want = sess.run([first, plain])
    np.testing.assert_allclose(got, np.transpose(want, [0, rank + 1] + list(range(1, rank + 1))),
                               rtol=1e-5, atol=1e-6)


def test_layer_subclass_in_a_tf2_graph_function_and_bad_input():
    """The same Layer works in a tf.function (TensorFlow 2's compat.v1 code) and names what is
    wrong with a bad call."""
    class Scale(tf1_layers.use().Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [int(input_shape[-1])], initializer=v1.ones_initializer())

        def call(self, inputs):
            return inputs * self.w

    with tf.Graph().as_default():
        layer = Scale()
        layer(tf.ones([2, 3]))
        assert [v.name for v in layer.weights] == ["scale/w:0"]
        with pytest.raises(TypeError, match="Keyword argument not understood: 'units'"):
            Scale(units=3)
        with pytest.raises(ValueError, match="set_weights.*length 2.*expecting 1"):
            layer.set_weights([np.ones(3), np.ones(3)])


def test_layer_subclass_trains_in_an_estimator_with_tf1_names(tmp_path):
    """A BERT-style tf.layers.Layer subclass (variables made in build, one table shared by
    the lookup and the output projection, a regularizer) inside a model_fn: checkpoint names
    `<layer scope>/<name>`, its regularization loss trained, its variables shared."""
    import estimator_compat as ec
    tf1 = tf1_layers.use()

    class TiedEmbedding(tf1.Layer):
        def build(self, input_shape):
            self.table = self.add_weight(
                "weights", [8, 4], regularizer=lambda w: 1e-3 * tf.reduce_sum(tf.square(w)))
            self.bias = self.add_weight("output_bias", [8], initializer=v1.zeros_initializer())

        def call(self, ids, project=False):
            if project:
                return tf.matmul(ids, self.table, transpose_b=True) + self.bias
            return tf.gather(self.table, ids)

    def model_fn(features, labels, mode):
        layer = TiedEmbedding(dtype=tf.float32)
        hidden = tf.reduce_mean(layer(features["ids"]), 1)
        logits = layer(hidden, project=True)
        assert [v.name for v in layer.weights] == ["tied_embedding/weights:0",
                                                   "tied_embedding/output_bias:0"]
        loss = v1.losses.sparse_softmax_cross_entropy(labels, logits) + \
            v1.losses.get_regularization_loss()
        train_op = v1.train.GradientDescentOptimizer(0.5).minimize(
            loss, global_step=v1.train.get_or_create_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    ids = np.random.RandomState(0).randint(0, 8, size=(64, 3)).astype(np.int32)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"ids": ids}, ids[:, 0])).repeat().batch(16)
    est = ec.Estimator(model_fn, model_dir=str(tmp_path), config=ec.RunConfig(tf_random_seed=0))
    est.train(input_fn, max_steps=30)
    names = set(est.get_variable_names())
    assert {"tied_embedding/weights", "tied_embedding/output_bias"} <= names, names
    assert not any(n.startswith("tied_embedding_1") for n in names), names
    assert est.evaluate(input_fn, steps=2)["loss"] < 2.0
