"""The TF1 side of tensorflow.org's "Migrate to TF2" guides, cell by cell (TF 2.x programs that
keep tf.compat.v1's Estimator code), in the shape the guides wrote them:

- "Logging and StopAtStepHook": LoggingTensorHook given a *list* of tensors fetched with
  `get_default_graph().get_tensor_by_name('dense/kernel:0')`, StopAtStepHook in training_hooks;
- "Single-worker multiple-GPU training": `tf1.distribute.MirroredStrategy()` in
  RunConfig(train_distribute=, eval_distribute=), train_and_evaluate;
- "Early stopping": `tf1.layers.Flatten()` and `tf1.layers.Dense(128, 'relu')` (positional,
  string activation) on MNIST-shaped data;
- "Feature columns": `tf1.keras.layers.DenseFeatures(one_column)` called eagerly.
Prints one `RESULT <json>` line.
"""
import json

import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as tf1

tf1.logging.set_verbosity(tf1.logging.INFO)
results = {}

# -- Logging and StopAtStepHook --------------------------------------------------------------
features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]


def _input_fn():
  return tf1.data.Dataset.from_tensor_slices((features, labels)).batch(1)


def _model_fn(features, labels, mode):
  logits = tf1.layers.Dense(1)(features)
  loss = tf1.losses.mean_squared_error(labels=labels, predictions=logits)
  optimizer = tf1.train.AdagradOptimizer(0.05)
  train_op = optimizer.minimize(loss, global_step=tf1.train.get_global_step())
  stop_hook = tf1.train.StopAtStepHook(num_steps=2)
  kernel = tf1.get_default_graph().get_tensor_by_name('dense/kernel:0')
  bias = tf1.get_default_graph().get_tensor_by_name('dense/bias:0')
  logging_hook = tf1.train.LoggingTensorHook(tensors=[kernel, bias], every_n_iter=1)
  return tf1.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                     training_hooks=[stop_hook, logging_hook])


estimator = tf1.estimator.Estimator(model_fn=_model_fn)
estimator.train(_input_fn)
results["logging_hook_steps"] = int(estimator.get_variable_value("global_step"))

# -- Single-worker multiple-GPU training -----------------------------------------------------
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]


def _eval_input_fn():
  return tf1.data.Dataset.from_tensor_slices((eval_features, eval_labels)).batch(1)


def _mirrored_model_fn(features, labels, mode):
  logits = tf1.layers.Dense(1)(features)
  loss = tf1.losses.mean_squared_error(labels=labels, predictions=logits)
  optimizer = tf1.train.AdagradOptimizer(0.05)
  train_op = optimizer.minimize(loss, global_step=tf1.train.get_global_step())
  return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


strategy = tf1.distribute.MirroredStrategy()
config = tf1.estimator.RunConfig(train_distribute=strategy, eval_distribute=strategy)
estimator = tf1.estimator.Estimator(model_fn=_mirrored_model_fn, config=config)
train_spec = tf1.estimator.TrainSpec(input_fn=_input_fn)
eval_spec = tf1.estimator.EvalSpec(input_fn=_eval_input_fn)
result, _ = tf1.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
results["mirrored_global_step"] = int(result["global_step"])
results["mirrored_loss"] = float(result["loss"])

# -- Early stopping: tf1.layers classes with positional arguments -----------------------------
rng = np.random.RandomState(0)
images = rng.rand(256, 28, 28).astype(np.float32)
digits = (images[:, 0, 0] > 0.5).astype(np.int64)  # one pixel decides


def _mnist_input_fn():
  return tf1.data.Dataset.from_tensor_slices((images, digits)).batch(32).repeat()


def _mnist_model_fn(features, labels, mode):
  flatten = tf1.layers.Flatten()(features)
  features = tf1.layers.Dense(128, 'relu')(flatten)
  logits = tf1.layers.Dense(10)(features)
  loss = tf1.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  optimizer = tf1.train.AdagradOptimizer(0.1)
  train_op = optimizer.minimize(loss, global_step=tf1.train.get_global_step())
  accuracy = tf1.metrics.accuracy(labels, tf.argmax(logits, axis=1))
  return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                     eval_metric_ops={"accuracy": accuracy})


estimator = tf1.estimator.Estimator(model_fn=_mnist_model_fn)
estimator.train(_mnist_input_fn, steps=100)
results["dense_relu_accuracy"] = float(estimator.evaluate(_mnist_input_fn, steps=8)["accuracy"])

# -- Feature columns: DenseFeatures of one column --------------------------------------------


def call_feature_columns(feature_columns, inputs):
  feature_layer = tf1.keras.layers.DenseFeatures(feature_columns)
  return feature_layer(inputs)


categorical_col = tf1.feature_column.categorical_column_with_identity('type', num_buckets=3)
indicator_col = tf1.feature_column.indicator_column(categorical_col)
results["one_column"] = call_feature_columns(indicator_col, {'type': [0, 1, 2]}).numpy().tolist()
print("RESULT " + json.dumps(results))
