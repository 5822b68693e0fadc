"""One export timed in its own process: prints `RESULT {json}`.

    python benchmarks/export_one.py IMPL CASE [--features N]
IMPL: estimator_compat | tf_estimator (the real one, run under TF 2.15 + tensorflow-estimator)
CASE: gam  -- TF-Ranking 0.5.5's canned GAM ranking estimator (a small network per feature,
             the ranking head's signatures), as its tf_ranking_canned_gam.py example builds it
      wide -- a model_fn of our own with one small tower per feature and the canned
             multi-class head (classification / predict / serving_default signatures)
"""
import argparse
import json
import os
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

LIST_SIZE, BATCH = 8, 16


def features(n):
    return [f"f{i}" for i in range(n)]


def gam(n, model_dir):
    import tensorflow_ranking as tfr
    columns = {name: tf.feature_column.numeric_column(name, default_value=0.0)
               for name in features(n)}
    est = tfr.estimator.make_gam_ranking_estimator(
        example_feature_columns=columns, example_hidden_units=[16, 8],
        learning_rate=0.05, model_dir=model_dir)

    def input_fn():
        rng = np.random.RandomState(0)
        x = {name: rng.rand(64, LIST_SIZE, 1).astype(np.float32) for name in features(n)}
        y = rng.randint(0, 3, size=(64, LIST_SIZE)).astype(np.float32)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH).repeat()
    est.train(input_fn, steps=2)
    spec = tf.feature_column.make_parse_example_spec(list(columns.values()))
    receiver = tfr.data.build_ranking_serving_input_receiver_fn(
        tfr.data.ELWC, context_feature_spec={}, example_feature_spec=spec)
    return est, receiver


def wide(n, model_dir):
    def model_fn(features, labels, mode):
        towers = [tf.compat.v1.layers.dense(
            tf.compat.v1.layers.dense(features[name], 4, tf.nn.relu, name=f"{name}/hidden"),
            3, name=f"{name}/logits") for name in sorted(features)]
        logits = tf.add_n(towers)
        head = tf.estimator.MultiClassHead(3)
        return head.create_estimator_spec(
            features, mode, logits, labels,
            train_op_fn=lambda loss: tf.compat.v1.train.AdagradOptimizer(0.05).minimize(
                loss, global_step=tf.compat.v1.train.get_global_step()))
    est = tf.estimator.Estimator(model_fn, model_dir=model_dir)

    def input_fn():
        rng = np.random.RandomState(0)
        x = {name: rng.rand(64, 1).astype(np.float32) for name in features(n)}
        return tf.data.Dataset.from_tensor_slices(
            (x, rng.randint(0, 3, size=(64, 1)))).batch(BATCH).repeat()
    est.train(input_fn, steps=2)
    spec = {name: tf.io.FixedLenFeature([1], tf.float32) for name in features(n)}
    return est, tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("impl")
    parser.add_argument("case", choices=("gam", "wide"))
    parser.add_argument("--features", type=int, default=136)
    args = parser.parse_args()
    if args.impl == "estimator_compat":
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        import estimator_compat
        estimator_compat.install()
    tf.get_logger().setLevel("ERROR")
    model_dir = tempfile.mkdtemp()
    est, receiver = (gam if args.case == "gam" else wide)(args.features, model_dir)
    start = time.perf_counter()
    path = est.export_saved_model(os.path.join(model_dir, "export"), receiver)
    seconds = time.perf_counter() - start
    path = path.decode() if isinstance(path, bytes) else path
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path)
               if "variables" not in d for f in fs)
    print("RESULT " + json.dumps({"export_s": seconds, "graph_bytes": size}), flush=True)


if __name__ == "__main__":
    main()
