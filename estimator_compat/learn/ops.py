"""`tf.contrib.learn.ops`: the graph building blocks of TF 1.x's skflow models.

`softmax_classifier`, `mean_squared_error_regressor` (the losses of `learn.models`),
`embedding_lookup` (ids of any rank) and `categorical_variable` are served on
`tf.compat.v1`; the seq2seq helpers (`sequence_classifier`, `rnn_decoder`, `rnn_seq2seq`,
`seq2seq_inputs`) are not: their error names the replacement.
"""
import tensorflow as tf

v1 = tf.compat.v1

__all__ = ["softmax_classifier", "mean_squared_error_regressor", "embedding_lookup",
           "categorical_variable", "sequence_classifier", "rnn_decoder", "rnn_seq2seq",
           "seq2seq_inputs"]


def mean_squared_error_regressor(tensor_in, labels, weights, biases, name=None):
    """(predictions, mean squared error) of the linear layer `tensor_in @ weights + biases`."""
    with tf.name_scope(name or "mean_squared_error_regressor"):
        predictions = v1.nn.xw_plus_b(tensor_in, weights, biases)
        if labels.shape.rank == 1 and predictions.shape.rank == 2:
            predictions = tf.squeeze(predictions, axis=[1])
        return predictions, v1.losses.mean_squared_error(labels, predictions)


def softmax_classifier(tensor_in, labels, weights, biases, class_weight=None, name=None):
    """(softmax probabilities, softmax cross entropy) of the linear layer's logits (scaled by
    `class_weight` when given); `labels` one-hot."""
    with tf.name_scope(name or "softmax_classifier"):
        logits = v1.nn.xw_plus_b(tensor_in, weights, biases)
        if class_weight is not None:
            logits = tf.multiply(logits, class_weight)
        return tf.nn.softmax(logits), v1.losses.softmax_cross_entropy(labels, logits)


def embedding_lookup(params, ids, name="embedding_lookup"):
    """Rows of `params` for `ids` of any shape: [ids shape..., embedding size]."""
    with tf.name_scope(name or "embedding_lookup"):
        params = tf.convert_to_tensor(params)
        ids = tf.convert_to_tensor(ids)
        shape = tf.shape(ids)
        ids_flat = tf.reshape(ids, tf.reduce_prod(shape, keepdims=True))
        embeds_flat = v1.nn.embedding_lookup(params, ids_flat, name=name)
        embeds = tf.reshape(embeds_flat, tf.concat([shape, [-1]], 0))
        embeds.set_shape(ids.shape.concatenate(params.shape[1:]))
        return embeds


def categorical_variable(tensor_in, n_classes, embedding_size, name):
    """Embeddings of the class ids `tensor_in` from a new `<name>/<name>_embeddings`
    variable [n_classes, embedding_size]."""
    with v1.variable_scope(name):
        embeddings = v1.get_variable(name + "_embeddings", [n_classes, embedding_size])
        return embedding_lookup(embeddings, tensor_in)


def _declined(name, replacement):
    def declined(*args, **kwargs):
        raise NotImplementedError(
            f"tf.contrib.learn.ops.{name} (TF 1.x's skflow seq2seq helpers) is not provided by "
            f"estimator_compat; in TensorFlow 2 use {replacement}.")
    declined.__name__ = name
    return declined


sequence_classifier = _declined(
    "sequence_classifier", "tf.compat.v1.losses.softmax_cross_entropy on each decoding step "
    "(tf.nn.softmax for the predictions)")
rnn_decoder = _declined("rnn_decoder", "a tf.keras.layers.RNN decoder over your cell")
rnn_seq2seq = _declined("rnn_seq2seq", "a Keras encoder-decoder (keras_hub)")
seq2seq_inputs = _declined("seq2seq_inputs", "tf.unstack / tf.split of your tensors")
