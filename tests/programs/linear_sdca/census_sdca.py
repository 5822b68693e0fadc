"""Income classification and hours regression with LinearSDCA, as the tf.estimator SDCA guide
set it up: census-style columns (bucketized age, a vocabulary, a hashed column and a cross), a
string example id per row, an example weight, train to max_steps, evaluate, export for serving.

Data: a seeded synthetic census (no download). Prints one `RESULT {json}` line.
"""
import argparse
import json
import os

import numpy as np
import tensorflow as tf

EDUCATION = ["Bachelors", "HS-grad", "Masters", "Some-college", "Doctorate", "11th"]
OCCUPATIONS = [f"occupation-{i}" for i in range(12)]


def census(n, seed):
    rng = np.random.RandomState(seed)
    age = rng.randint(17, 80, n).astype(np.float32)
    education = rng.choice(EDUCATION, n)
    occupation = rng.choice(OCCUPATIONS, n)
    usual_hours = np.array([34 + 2.5 * (OCCUPATIONS.index(o) % 5) for o in occupation])
    hours = np.clip(rng.normal(usual_hours, 4), 5, 90).astype(np.float32)
    skill = np.array([EDUCATION.index(e) % 3 for e in education]) + \
        np.array([OCCUPATIONS.index(o) % 4 for o in occupation]) * 0.5
    score = 0.06 * (age - 40) - 0.0015 * (age - 45) ** 2 + 0.05 * (hours - 40) + skill - 1.5
    income = (score + rng.logistic(scale=0.5, size=n) > 0).astype(np.int64)
    features = {"example_id": np.array([f"{seed}-{i}" for i in range(n)]), "age": age,
                "education": education, "occupation": occupation, "hours_per_week": hours,
                "weight": rng.uniform(0.5, 1.5, n).astype(np.float32)}
    return features, income


def input_fn(data, labels, epochs=None, shuffle=True):
    def fn():
        ds = tf.data.Dataset.from_tensor_slices((data, labels))
        if shuffle:
            ds = ds.shuffle(1000, seed=1)
        return ds.repeat(epochs).batch(64)
    return fn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()

    age = tf.feature_column.numeric_column("age")
    age_buckets = tf.feature_column.bucketized_column(age, [25, 30, 35, 40, 45, 50, 55, 60, 65])
    education = tf.feature_column.categorical_column_with_vocabulary_list("education", EDUCATION)
    occupation = tf.feature_column.categorical_column_with_hash_bucket("occupation", 50)
    hours = tf.feature_column.numeric_column("hours_per_week",  # scaled: SDCA needs small x
                                             normalizer_fn=lambda x: (x - 40.0) / 10.0)
    columns = [age_buckets, education, occupation, hours,
               tf.feature_column.crossed_column([education, "occupation"], 100)]

    train, train_labels = census(2000, seed=0)
    test, test_labels = census(500, seed=1)
    optimizer = tf.estimator.experimental.LinearSDCA(
        example_id_column="example_id", num_loss_partitions=1,
        symmetric_l2_regularization=1.0, symmetric_l1_regularization=0.01)
    classifier = tf.estimator.LinearClassifier(
        feature_columns=columns, weight_column="weight", optimizer=optimizer,
        model_dir=os.path.join(args.model_dir, "income"))
    classifier.train(input_fn(train, train_labels), max_steps=args.steps)
    metrics = classifier.evaluate(input_fn(test, test_labels, epochs=1, shuffle=False))

    regressor = tf.estimator.LinearRegressor(
        feature_columns=[age_buckets, education, occupation],
        optimizer=tf.estimator.experimental.LinearSDCA(
            example_id_column="example_id", symmetric_l2_regularization=2.0,
            num_table_shards=2),
        model_dir=os.path.join(args.model_dir, "hours"))
    regressor.train(input_fn(train, train["hours_per_week"]), max_steps=args.steps)
    hours_metrics = regressor.evaluate(input_fn(test, test["hours_per_week"], epochs=1,
                                                shuffle=False))

    spec = tf.feature_column.make_parse_example_spec(columns)
    export = classifier.export_saved_model(
        os.path.join(args.model_dir, "export"),
        tf.estimator.export.build_parsing_serving_input_receiver_fn(spec))
    probabilities = [p["probabilities"][1] for p in classifier.predict(
        input_fn({k: v[:4] for k, v in test.items()}, test_labels[:4], 1, False))]
    print("RESULT", json.dumps({
        "accuracy": float(metrics["accuracy"]), "auc": float(metrics["auc"]),
        "global_step": int(metrics["global_step"]),
        "hours_average_loss": float(hours_metrics["average_loss"]),
        "hours_label_variance": float(np.var(test["hours_per_week"])),
        "export": export.decode() if isinstance(export, bytes) else export,
        "probabilities": [float(p) for p in probabilities],
        "baseline": float(max(test_labels.mean(), 1 - test_labels.mean()))}))


if __name__ == "__main__":
    main()
