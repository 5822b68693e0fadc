"""A TF1 Hub text classifier (tensorflow_hub 0.15's `hub.Module`, the TF1 Hub format).

A small text-embedding module (a vocabulary asset, a lookup table, an `embeddings` variable
that its checkpoint sets: the initializer gives zeros) is made with `hub.create_module_spec`
and exported with `module.export(path, session)`; then
  1. a `DNNClassifier` over `hub.text_embedding_column("sentence", module_spec=path,
     trainable=True)` is trained, evaluated and exported (`export_saved_model`, read back in
     a TF1 session);
  2. a model_fn applying `hub.Module(path, trainable=True)` and registering it with
     `hub.register_module_for_export` runs `train_and_evaluate` with
     `hub.LatestModuleExporter`; the exported module is applied in a TF1 session.
`--module DIR` uses that module in 2 instead (`tf115_module/`: the same module exported by
TensorFlow 1.15.5 with reference variables, `python hub_text.py --make_module DIR`).

    python hub_text.py --work_dir DIR [--module DIR] [--steps 200]
Prints `RESULT {...}`.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf
import tensorflow_hub as hub

POSITIVE = ["good", "great", "fine", "love"]
NEGATIVE = ["bad", "awful", "poor", "hate"]
NEUTRAL = ["the", "a", "movie", "film", "plot", "actor", "was", "is"]
WORDS = POSITIVE + NEGATIVE + NEUTRAL
DIM = 8
VALUES = np.random.RandomState(0).normal(scale=0.5, size=(len(WORDS) + 1, DIM)).astype(
    np.float32)


def make_module(path, vocab_file, use_resource=True):
    with open(vocab_file, "w") as f:
        f.write("\n".join(WORDS) + "\n")

    def module_fn():
        sentences = tf.placeholder(tf.string, [None])
        table = tf.contrib.lookup.index_table_from_file(vocab_file, num_oov_buckets=1)
        ids = table.lookup(tf.string_split(sentences))
        with tf.variable_scope("", use_resource=use_resource):
            embeddings = tf.get_variable("embeddings", [len(WORDS) + 1, DIM],
                                         initializer=tf.zeros_initializer())
        vectors = tf.nn.embedding_lookup_sparse(embeddings, ids, None, combiner="sqrtn")
        hub.add_signature(inputs={"default": sentences}, outputs={"default": vectors})

    spec = hub.create_module_spec(module_fn)
    with tf.Graph().as_default():
        module = hub.Module(spec)
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.tables_initializer()])
            session.run(tf.assign(module.variable_map["embeddings"], VALUES))
            module.export(path, session)


def sentences(n, seed):
    """Sentences of 3-6 words; the label is whether they hold more positive than negative
    words (a tie: a coin), 10% of labels flipped."""
    rng = np.random.RandomState(seed)
    texts, labels = [], []
    for _ in range(n):
        words = list(rng.choice(NEUTRAL + ["zzz"], rng.randint(2, 5)))
        score = 0
        for _ in range(rng.randint(1, 3)):
            positive = rng.rand() < 0.5
            words.append(rng.choice(POSITIVE if positive else NEGATIVE))
            score += 1 if positive else -1
        rng.shuffle(words)
        label = int(score > 0 or (score == 0 and rng.rand() < 0.5))
        texts.append(" ".join(words))
        labels.append(1 - label if rng.rand() < 0.1 else label)
    return np.array(texts), np.array(labels, np.int64)


def input_fn(n, seed, train):
    def fn():
        texts, labels = sentences(n, seed)
        ds = tf.data.Dataset.from_tensor_slices(({"sentence": texts}, labels))
        if train:
            ds = ds.shuffle(n, seed=1).repeat()
        return ds.batch(32)
    return fn


def serving_input_fn():
    text = tf.placeholder(tf.string, [None], name="sentence")
    return tf.estimator.export.ServingInputReceiver({"sentence": text}, {"sentence": text})


def model_fn(features, labels, mode, params):
    module = hub.Module(params["module"], trainable=True, name="text_module")
    hub.register_module_for_export(module, "text_module")
    vectors = module(features["sentence"])
    logits = tf.layers.dense(vectors, 2, name="logits")
    predictions = {"class": tf.argmax(logits, 1)}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.AdagradOptimizer(0.3).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops={
        "accuracy": tf.metrics.accuracy(labels, predictions["class"])})


def served_probabilities(export_dir, texts):
    """The SavedModel's `predict` signature on tf.Examples, in a TF1 session."""
    examples = [tf.train.Example(features=tf.train.Features(feature={"sentence": tf.train.Feature(
        bytes_list=tf.train.BytesList(value=[t.encode()]))})).SerializeToString() for t in texts]
    with tf.Graph().as_default(), tf.Session() as session:
        meta = tf.saved_model.loader.load(session, ["serve"], export_dir)
        signature = meta.signature_def["predict"]
        return session.run(signature.outputs["probabilities"].name,
                           {signature.inputs["examples"].name: examples})


def checkpoint_names(model_dir):
    return sorted(n for n, _ in tf.train.list_variables(model_dir) if "Adagrad" not in n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work_dir")
    parser.add_argument("--module", help="the module of part 2 (default: the one made here)")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--make_module", help="only export the module (reference variables)")
    args = parser.parse_args()
    tf.logging.set_verbosity(tf.logging.WARN)
    if args.make_module:
        make_module(args.make_module, args.make_module + ".vocab.txt",
                    use_resource=False)
        os.remove(args.make_module + ".vocab.txt")
        return
    made = os.path.join(args.work_dir, "module")
    make_module(made, os.path.join(args.work_dir, "vocab.txt"))
    config = tf.estimator.RunConfig(tf_random_seed=7, save_checkpoints_steps=100)

    column = hub.text_embedding_column("sentence", module_spec=made, trainable=True)
    dnn = tf.estimator.DNNClassifier(
        hidden_units=[16], feature_columns=[column], n_classes=2, config=config,
        model_dir=os.path.join(args.work_dir, "dnn"),
        optimizer=tf.train.AdagradOptimizer(0.3))
    dnn.train(input_fn(800, 0, True), steps=args.steps)
    dnn_metrics = dnn.evaluate(input_fn(400, 1, False))
    dnn_names = checkpoint_names(dnn.model_dir)
    dnn_embeddings = dnn.get_variable_value(next(n for n in dnn_names if "embeddings" in n))
    texts, _ = sentences(8, 2)
    export_dir = dnn.export_saved_model(
        os.path.join(args.work_dir, "dnn_export"),
        tf.estimator.export.build_parsing_serving_input_receiver_fn(
            tf.feature_column.make_parse_example_spec([column])))
    dnn_served = served_probabilities(export_dir, texts)
    dnn_predicted = np.array([p["probabilities"] for p in dnn.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"sentence": texts}).batch(8))])

    estimator = tf.estimator.Estimator(model_fn, os.path.join(args.work_dir, "custom"),
                                       config=config, params={"module": args.module or made})
    exporter = hub.LatestModuleExporter("tf_hub", serving_input_fn)
    tf.estimator.train_and_evaluate(
        estimator, tf.estimator.TrainSpec(input_fn(800, 0, True), max_steps=args.steps),
        tf.estimator.EvalSpec(input_fn(400, 1, False), steps=None, exporters=[exporter],
                              throttle_secs=0))
    metrics = estimator.evaluate(input_fn(400, 1, False))
    predicted = [int(p["class"]) for p in estimator.predict(input_fn(8, 2, False))]
    trained = estimator.get_variable_value("text_module/embeddings")
    export_root = os.path.join(estimator.model_dir, "export", "tf_hub")
    exported = os.path.join(export_root, max(os.listdir(export_root)), "text_module")
    with tf.Graph().as_default():
        vectors = hub.Module(exported)(["good film", "awful plot"])
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.tables_initializer()])
            served = session.run(vectors)
    expected = (trained[WORDS.index("good")] + trained[WORDS.index("film")]) / np.sqrt(2)
    print("RESULT " + json.dumps({
        "dnn_accuracy": float(dnn_metrics["accuracy"]),
        "dnn_global_step": int(dnn_metrics["global_step"]),
        "dnn_checkpoint": dnn_names,
        "dnn_embeddings_moved": float(np.abs(dnn_embeddings - VALUES).max()),
        "dnn_served_error": float(np.abs(dnn_served - dnn_predicted).max()),
        "accuracy": float(metrics["accuracy"]),
        "global_step": int(metrics["global_step"]),
        "checkpoint": checkpoint_names(estimator.model_dir),
        "embeddings_moved": float(np.abs(trained - VALUES).max()),
        "predicted": predicted,
        "exported_files": sorted(os.listdir(exported)),
        "served_error": float(np.abs(served[0] - expected).max()),
    }))


if __name__ == "__main__":
    main()
