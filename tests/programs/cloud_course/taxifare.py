"""A Google Cloud training-course trainer (the 2018 taxifare / babyweight style): a canned
DNNLinearCombinedRegressor on CSV columns, `tf.contrib.estimator.add_metrics` for RMSE,
`tf.contrib.estimator.forward_features` for the key column, `train_and_evaluate` with a
LatestExporter, the served model read back with `tf.contrib.predictor`.

    python taxifare.py --data_dir DIR --output_dir DIR [--train_steps 300]
Prints `RESULT {"rmse": ..., "keys": [...], "served": [...]}`.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

CSV_COLUMNS = ["fare_amount", "dayofweek", "hourofday", "pickuplon", "pickuplat", "dropofflon",
               "dropofflat", "key"]
DEFAULTS = [[0.0], ["Sun"], [0], [-74.0], [40.0], [-74.0], [40.7], ["nokey"]]
DAYS = ["Sun", "Mon", "Tues", "Wed", "Thu", "Fri", "Sat"]


def write_csv(path, n, seed):
    rng = np.random.RandomState(seed)
    with open(path, "w") as f:
        for i in range(n):
            day, hour = DAYS[rng.randint(7)], rng.randint(24)
            plon, plat = -74.0 + rng.rand() * 0.2, 40.6 + rng.rand() * 0.2
            dlon, dlat = -74.0 + rng.rand() * 0.2, 40.6 + rng.rand() * 0.2
            dist = np.hypot(plon - dlon, plat - dlat) * 100
            fare = 2.5 + 1.5 * dist + (3.0 if hour in (7, 8, 17, 18) else 0.0) + rng.normal(0, 0.5)
            f.write(f"{fare:.2f},{day},{hour},{plon:.5f},{plat:.5f},{dlon:.5f},{dlat:.5f},"
                    f"k{seed}_{i}\n")


def read_dataset(filename, mode, batch_size=64):
    def input_fn():
        def decode_csv(line):
            columns = tf.decode_csv(line, record_defaults=DEFAULTS)
            features = dict(zip(CSV_COLUMNS, columns))
            label = features.pop("fare_amount")
            return features, label
        dataset = tf.data.TextLineDataset(filename).map(decode_csv)
        if mode == tf.estimator.ModeKeys.TRAIN:
            dataset = dataset.shuffle(1000, seed=1).repeat()
        return dataset.batch(batch_size)
    return input_fn


def feature_columns():
    day = tf.feature_column.categorical_column_with_vocabulary_list("dayofweek", DAYS)
    hour = tf.feature_column.categorical_column_with_identity("hourofday", 24)
    numeric = [tf.feature_column.numeric_column(k) for k in
               ("pickuplon", "pickuplat", "dropofflon", "dropofflat")]
    wide = [day, hour]
    deep = numeric + [tf.feature_column.embedding_column(
        tf.feature_column.crossed_column([day, hour], 24 * 7), 3)]
    return wide, deep


def add_eval_metrics(labels, predictions):
    pred_values = predictions["predictions"]
    return {"rmse": tf.metrics.root_mean_squared_error(labels, pred_values)}


def serving_input_fn():
    placeholders = {
        "dayofweek": tf.placeholder(tf.string, [None]),
        "hourofday": tf.placeholder(tf.int32, [None]),
        "pickuplon": tf.placeholder(tf.float32, [None]),
        "pickuplat": tf.placeholder(tf.float32, [None]),
        "dropofflon": tf.placeholder(tf.float32, [None]),
        "dropofflat": tf.placeholder(tf.float32, [None]),
        "key": tf.placeholder(tf.string, [None]),
    }
    return tf.estimator.export.ServingInputReceiver(placeholders, placeholders)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    parser.add_argument("--output_dir", required=True)
    parser.add_argument("--train_steps", type=int, default=300)
    args = parser.parse_args()
    os.makedirs(args.data_dir, exist_ok=True)
    train_csv = os.path.join(args.data_dir, "taxi-train.csv")
    valid_csv = os.path.join(args.data_dir, "taxi-valid.csv")
    write_csv(train_csv, 2000, 0)
    write_csv(valid_csv, 500, 1)
    tf.logging.set_verbosity(tf.logging.WARN)
    wide, deep = feature_columns()
    config = tf.estimator.RunConfig(tf_random_seed=1, save_checkpoints_steps=args.train_steps)
    estimator = tf.estimator.DNNLinearCombinedRegressor(
        model_dir=args.output_dir, linear_feature_columns=wide, dnn_feature_columns=deep,
        dnn_hidden_units=[32, 8], config=config)
    estimator = tf.contrib.estimator.add_metrics(estimator, add_eval_metrics)
    estimator = tf.contrib.estimator.forward_features(estimator, "key")
    train_spec = tf.estimator.TrainSpec(read_dataset(train_csv, tf.estimator.ModeKeys.TRAIN),
                                        max_steps=args.train_steps)
    exporter = tf.estimator.LatestExporter("exporter", serving_input_fn)
    eval_spec = tf.estimator.EvalSpec(read_dataset(valid_csv, tf.estimator.ModeKeys.EVAL),
                                      steps=None, exporters=exporter, throttle_secs=0)
    metrics, _ = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    predictions = list(estimator.predict(read_dataset(valid_csv, tf.estimator.ModeKeys.PREDICT)))
    export_base = os.path.join(args.output_dir, "export", "exporter")
    export_dir = os.path.join(export_base, sorted(os.listdir(export_base))[-1])
    predict_fn = tf.contrib.predictor.from_saved_model(export_dir, signature_def_key="predict")
    served = predict_fn({"dayofweek": ["Thu"], "hourofday": [17], "pickuplon": [-73.95],
                         "pickuplat": [40.75], "dropofflon": [-73.9], "dropofflat": [40.7],
                         "key": ["served_1"]})
    print("RESULT " + json.dumps({
        "rmse": float(metrics["rmse"]), "average_loss": float(metrics["average_loss"]),
        "keys": [text(p["key"]) for p in predictions[:2]],
        "served_keys": sorted(served), "served_key": text(served["key"][0])}))


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


if __name__ == "__main__":
    main()
