"""TF 1.x linear models in the style of the "Large-scale linear models" and "Improving linear
models using explicit kernel methods" tutorials, on small synthetic data (numpy, fixed seeds):

- census-like income classification: tf.contrib.learn.LinearClassifier over contrib.layers
  columns (real-valued, bucketized, keyed and hashed sparse, crossed) trained by
  tf.contrib.linear_optimizer.SDCAOptimizer;
- a LinearRegressor trained by SDCAOptimizer, with a weight column and l1 regularization;
- MNIST-like digits (8x8 synthetic images, 10 classes): tf.contrib.kernel_methods'
  KernelLinearClassifier with a RandomFourierFeatureMapper, trained by FTRL.

    python linear_models.py [--steps 10]
Prints `RESULT {...}`: each model's evaluate() results and checkpoint variable names, and the
kernel classifier's first predictions.
"""
import json
import shutil
import tempfile

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_integer("steps", 10, "training steps of each model")
FLAGS = flags.FLAGS

layers = tf.contrib.layers
N = 200


def census(seed):
    rng = np.random.RandomState(seed)
    age = rng.randint(18, 70, N).astype(np.float32)
    hours = rng.uniform(10, 60, N).astype(np.float32)
    gender = np.array(["Female", "Male"])[rng.randint(0, 2, N)]
    occupation = np.array(["clerk", "sales", "tech", "farming", "exec"])[rng.randint(0, 5, N)]
    score = (0.04 * (age - 40) + 0.05 * (hours - 35) + 0.8 * (occupation == "exec")
             + 0.6 * (occupation == "tech") - 0.5 * (occupation == "farming")
             + 0.3 * (gender == "Male") + 0.4 * rng.randn(N))
    return age, hours, gender, occupation, score


def census_input_fn(seed, regression=False):
    age, hours, gender, occupation, score = census(seed)

    def sparse(values):
        return tf.SparseTensor([[i, 0] for i in range(N)], values, [N, 1])

    def input_fn():
        features = {"example_id": tf.constant([str(i) for i in range(N)]),
                    "age": tf.constant(age[:, None]),
                    "age_scaled": tf.constant((age[:, None] - 40.0) / 15.0),
                    "hours_scaled": tf.constant((hours[:, None] - 35.0) / 15.0),
                    "gender": sparse(gender), "occupation": sparse(occupation),
                    "weight": tf.constant(np.where(gender == "Male", 1.0, 2.0)
                                          .astype(np.float32)[:, None])}
        if regression:
            return features, tf.constant(score[:, None].astype(np.float32))
        return features, tf.constant((score > 0).astype(np.int64)[:, None])
    return input_fn


def census_columns():
    age = layers.real_valued_column("age")
    gender = layers.sparse_column_with_keys("gender", keys=["Female", "Male"])
    occupation = layers.sparse_column_with_hash_bucket("occupation", hash_bucket_size=20)
    age_buckets = layers.bucketized_column(age, boundaries=[25.0, 35.0, 45.0, 55.0])
    return [layers.real_valued_column("age_scaled"), layers.real_valued_column("hours_scaled"),
            gender, occupation, age_buckets,
            layers.crossed_column([age_buckets, occupation], hash_bucket_size=50)]


def digits(seed, n=300):
    """8x8 images of 10 classes: a class prototype plus noise."""
    prototypes = np.random.RandomState(7).uniform(0, 1, (10, 64))
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, n)
    images = np.clip(prototypes[labels] + 0.45 * rng.randn(n, 64), 0, 1).astype(np.float32)
    return images, labels


def digits_input_fn(seed):
    images, labels = digits(seed)
    return lambda: ({"images": tf.constant(images)}, tf.constant(labels[:, None]))


def summary(estimator, results):
    return {"results": {k: float(v) for k, v in results.items()},
            "variables": sorted(estimator.get_variable_names())}


def main(_):
    out = {}
    model_dir = tempfile.mkdtemp()
    try:
        classifier = tf.contrib.learn.LinearClassifier(
            feature_columns=census_columns(), model_dir=model_dir + "/classifier",
            optimizer=tf.contrib.linear_optimizer.SDCAOptimizer(
                example_id_column="example_id", num_loss_partitions=1,
                symmetric_l2_regularization=2.0))
        classifier.fit(input_fn=census_input_fn(0), steps=FLAGS.steps)
        out["classifier"] = summary(classifier, classifier.evaluate(
            input_fn=census_input_fn(1), steps=1))

        regressor = tf.contrib.learn.LinearRegressor(
            feature_columns=census_columns()[:4], model_dir=model_dir + "/regressor",
            weight_column_name="weight",
            optimizer=tf.contrib.linear_optimizer.SDCAOptimizer(
                example_id_column="example_id", symmetric_l1_regularization=0.1,
                symmetric_l2_regularization=1.0, num_table_shards=2))
        # (l1 and a weight column: SDCA needs more passes to settle here)
        regressor.fit(input_fn=census_input_fn(0, regression=True), steps=3 * FLAGS.steps)
        out["regressor"] = summary(regressor, regressor.evaluate(
            input_fn=census_input_fn(1, regression=True), steps=1))

        image_column = layers.real_valued_column("images", dimension=64)
        kernel_mapper = tf.contrib.kernel_methods.RandomFourierFeatureMapper(
            input_dim=64, output_dim=500, stddev=5.0, name="rffm")
        kernel = tf.contrib.kernel_methods.KernelLinearClassifier(
            n_classes=10, optimizer=tf.train.FtrlOptimizer(learning_rate=5.0,
                                                           l2_regularization_strength=0.001),
            kernel_mappers={image_column: [kernel_mapper]}, model_dir=model_dir + "/kernel")
        kernel.fit(input_fn=digits_input_fn(0), steps=FLAGS.steps)
        out["kernel"] = summary(kernel, kernel.evaluate(input_fn=digits_input_fn(1), steps=1))
        probabilities = kernel.predict_proba(input_fn=digits_input_fn(1))
        out["kernel"]["probabilities"] = [next(probabilities).tolist() for _ in range(3)]
        classes = list(kernel.predict_classes(input_fn=digits_input_fn(1)))
        out["kernel"]["classes"] = [int(c) for c in classes[:20]] + [len(classes)]
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    print("RESULT " + json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    tf.app.run()
