"""The small BERT of the benchmarks: examples/bert's TF1 model_fn, and the same architecture in
Keras (for Keras fit and the raw loop). Sizes: vocab 1000, hidden 128, 2 layers, 2 heads,
intermediate 512, sequence 64."""
import os
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
SEQ, VOCAB = 64, 1000
CONFIG = dict(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
              intermediate_size=512, max_position_embeddings=SEQ)


def data(n, seed=0):
    rng = np.random.RandomState(seed)
    ids = rng.randint(5, VOCAB, size=(n, SEQ)).astype(np.int32)
    labels = (ids[:, 1] % 2).astype(np.int32)
    return {"input_ids": ids, "input_mask": np.ones_like(ids), "segment_ids": np.zeros_like(ids),
            "label_ids": labels}


def input_fn(batch, n=4096, repeat=True, with_labels=True):
    def fn(params=None):
        d = data(n)
        ds = tf.data.Dataset.from_tensor_slices(d)
        return (ds.repeat() if repeat else ds).batch(batch, drop_remainder=True)
    return fn


def model_fn(features, labels, mode, params):
    sys.path.insert(0, os.path.join(HERE, "..", "examples", "bert"))
    import modeling
    import optimization
    import run_classifier
    config = modeling.BertConfig(**CONFIG)
    loss, _, logits, probs = run_classifier.create_model(
        config, mode == "train", features["input_ids"], features["input_mask"],
        features["segment_ids"], features["label_ids"], 2)
    v1 = tf.compat.v1
    if mode == "infer":
        return tf.estimator.EstimatorSpec(mode, predictions={"probabilities": probs})
    if mode == "train":
        op = optimization.create_optimizer(loss, 1e-4, 10000, 100, use_tpu=False)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=op)
    return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "accuracy": v1.metrics.accuracy(features["label_ids"], tf.argmax(logits, 1))})


def keras_model():
    import keras
    from keras import layers
    h, heads = CONFIG["hidden_size"], CONFIG["num_attention_heads"]
    ids = keras.Input((SEQ,), dtype="int32", name="input_ids")
    x = layers.Embedding(VOCAB, h)(ids)
    x = x + layers.Embedding(SEQ, h)(keras.ops.arange(SEQ))[None]
    x = layers.LayerNormalization(epsilon=1e-12)(x)
    for _ in range(CONFIG["num_hidden_layers"]):
        a = layers.MultiHeadAttention(heads, h // heads)(x, x)
        x = layers.LayerNormalization(epsilon=1e-12)(x + layers.Dropout(0.1)(a))
        f = layers.Dense(CONFIG["intermediate_size"], activation="gelu")(x)
        x = layers.LayerNormalization(epsilon=1e-12)(x + layers.Dropout(0.1)(layers.Dense(h)(f)))
    pooled = layers.Dense(h, activation="tanh")(x[:, 0])
    return keras.Model(ids, layers.Dense(2)(layers.Dropout(0.1)(pooled)))


def keras_dataset(batch, n=4096, repeat=True, with_labels=True):
    d = data(n)
    ds = tf.data.Dataset.from_tensor_slices((d["input_ids"], d["label_ids"]) if with_labels
                                            else d["input_ids"])
    return (ds.repeat() if repeat else ds).batch(batch, drop_remainder=True)
