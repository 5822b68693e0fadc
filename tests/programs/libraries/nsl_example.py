"""Neural Structured Learning 1.4.0's estimator API, unchanged: nsl.estimator.
add_adversarial_regularization wraps a canned tf.estimator.DNNClassifier's model_fn (it calls the
base model_fn three times per train step: clean loss, the adversarial gradient, the neighbour's
loss) and trains the sum with a tf.compat.v1 optimizer. Prints RESULT {evaluate's metrics}."""
import json
import sys
import tempfile

import numpy as np
import neural_structured_learning as nsl
import tensorflow as tf

tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.WARN)


def data(n, seed):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x @ np.array([1.0, -1.0, 0.5, 0.0], np.float32) > 0).astype(np.int64)
    return {"x": x}, y


def input_fn(n, seed, train):
    def fn():
        ds = tf.data.Dataset.from_tensor_slices(data(n, seed))
        return (ds.shuffle(n, seed=0).repeat() if train else ds).batch(32)
    return fn


base = tf.estimator.DNNClassifier(
    hidden_units=[8], feature_columns=[tf.feature_column.numeric_column("x", shape=[4])],
    model_dir=sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(),
    config=tf.estimator.RunConfig(tf_random_seed=42))
estimator = nsl.estimator.add_adversarial_regularization(
    base, optimizer_fn=lambda: tf.compat.v1.train.AdagradOptimizer(0.2),
    adv_config=nsl.configs.make_adv_reg_config(multiplier=0.2, adv_step_size=0.05))
estimator.train(input_fn(512, 0, True), steps=200)
results = estimator.evaluate(input_fn(256, 1, False))
print("RESULT " + json.dumps({k: float(v) for k, v in results.items()}))
