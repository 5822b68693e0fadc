"""tf.contrib.linear_optimizer cases (Python 3.7 syntax: they also run in TF 1.15's venv):
SdcaModel trained a few steps on fixed data with each loss type, its losses, predictions and
duality gap, partitioned weights, its checkpointed state tables; SDCAOptimizer's train step
over contrib.layers columns; SparseFeatureColumn; misuse."""
import os
import shutil
import tempfile

import numpy as np

IDS = ["e%d" % i for i in range(6)]
LABELS = np.array([1, 0, 1, 1, 0, 0], np.float32)
DENSE = np.array([[1.0, -0.5], [-1.0, 0.3], [0.8, 0.9], [0.2, -1.2], [-0.7, -0.1],
                  [-0.3, 0.6]], np.float32)
# (example, feature id, value): sparse ids < 5, example 4 has none, example 1 has two
STEPS = 30
SPARSE = ([0, 1, 1, 2, 3, 5], [0, 1, 3, 0, 4, 2], [1.0, 0.5, 2.0, 1.0, 1.5, 1.0])


def _examples(tf, labels=LABELS, weights=None, sparse_values=True, dense=True):
    lo = tf.contrib.linear_optimizer
    values = SPARSE[2] if sparse_values else None
    return {"sparse_features": [lo.SparseFeatureColumn(SPARSE[0], SPARSE[1], values)],
            "dense_features": [tf.constant(DENSE)] if dense else [],
            "example_labels": tf.constant(labels),
            "example_weights": tf.constant(np.ones(6, np.float32) if weights is None
                                           else weights),
            "example_ids": tf.constant(IDS)}


def _train(sess, model, examples, train, steps, variables):
    """The weights, losses and duality gap after `steps` steps (near the optimum: the kernel
    visits the examples in a random order, so only converged values are compared)."""
    losses = {"unregularized": model.unregularized_loss(examples),
              "regularized": model.regularized_loss(examples),
              "gap": model.approximate_duality_gap()}
    first = sess.run(losses)
    for _ in range(steps):
        sess.run(train)
    weights = {v.op.name: v for v in variables}
    return {"first_losses": first, "last": sess.run(dict(losses, weights=weights))}


def _saved_names(tf, sess):
    directory = tempfile.mkdtemp()
    try:
        path = tf.train.Saver().save(sess, os.path.join(directory, "model"))
        return sorted(name for name, _ in tf.train.list_variables(path))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def case_logistic_sparse_and_dense(tf):
    lo = tf.contrib.linear_optimizer
    examples = _examples(tf)
    sparse_w = tf.Variable(tf.zeros([5]), name="sparse_w")
    dense_w = tf.Variable(tf.zeros([2]), name="dense_w")
    model = lo.SdcaModel(examples, {"sparse_features_weights": [sparse_w],
                                    "dense_features_weights": [dense_w]},
                         {"symmetric_l1_regularization": 0.0,
                          "symmetric_l2_regularization": 1.0,
                          "loss_type": "logistic_loss"})
    train = model.update_weights(model.minimize())
    predictions = model.predictions(examples)

    def run(sess):
        steps = _train(sess, model, examples, train, STEPS, [sparse_w, dense_w])
        column = examples["sparse_features"][0]
        return {"steps": steps, "predictions": sess.run(predictions),
                "column": sess.run([column.example_indices, column.feature_indices,
                                    column.feature_values]),
                "dtypes": [column.example_indices.dtype.name, column.feature_indices.dtype.name,
                           column.feature_values.dtype.name],
                "saved": _saved_names(tf, sess)}
    return run


def case_squared_l1_sharded_weighted(tf):
    lo = tf.contrib.linear_optimizer
    targets = np.array([1.5, -0.5, 2.0, 0.7, -1.0, 0.1], np.float32)
    weights = np.array([1.0, 2.0, 0.5, 1.0, 1.5, 1.0], np.float32)
    examples = _examples(tf, labels=targets, weights=weights)
    sparse_w = tf.Variable(tf.zeros([5]), name="sparse_w")
    dense_w = tf.Variable(tf.zeros([2]), name="dense_w")
    step = tf.train.get_or_create_global_step()
    model = lo.SdcaModel(examples, {"sparse_features_weights": [sparse_w],
                                    "dense_features_weights": [dense_w]},
                         {"symmetric_l1_regularization": 0.3,
                          "symmetric_l2_regularization": 2.0,
                          "loss_type": "squared_loss", "num_table_shards": 3,
                          "adaptive": False})
    train = model.update_weights(model.minimize(global_step=step))
    predictions = model.predictions(examples)

    def run(sess):
        steps = _train(sess, model, examples, train, STEPS, [sparse_w, dense_w])
        return {"steps": steps, "predictions": sess.run(predictions),
                "global_step": sess.run(step), "saved": _saved_names(tf, sess)}
    return run


def case_hinge_smooth_hinge_poisson(tf):
    lo = tf.contrib.linear_optimizer
    models = {}
    for loss in ("hinge_loss", "smooth_hinge_loss", "poisson_loss"):
        labels = np.array([2, 0, 3, 1, 0, 1], np.float32) if loss == "poisson_loss" else LABELS
        examples = _examples(tf, labels=labels, sparse_values=loss != "hinge_loss")
        if loss == "hinge_loss":  # values given to the losses (TF 1.15's need them)
            examples, trained = _examples(tf, labels=labels), examples
        else:
            trained = examples
        sparse_w = tf.Variable(tf.zeros([5]), name=loss + "_sparse")
        dense_w = tf.Variable(tf.zeros([2]), name=loss + "_dense")
        model = lo.SdcaModel(trained, {"sparse_features_weights": [sparse_w],
                                       "dense_features_weights": [dense_w]},
                             {"symmetric_l1_regularization": 0.0, "adaptive": False,
                              "symmetric_l2_regularization": 0.5, "loss_type": loss})
        models[loss] = (model, examples, model.update_weights(model.minimize()),
                        [sparse_w, dense_w], model.predictions(examples))

    def run(sess):
        out = {}
        for loss, (model, examples, train, variables, predictions) in models.items():
            out[loss] = {"steps": _train(sess, model, examples, train, STEPS, variables),
                         "predictions": sess.run(predictions)}
        return out
    return run


def case_partitioned_sparse_weights(tf):
    lo = tf.contrib.linear_optimizer
    examples = _examples(tf)
    parts = [tf.Variable(tf.zeros([3]), name="part_0"), tf.Variable(tf.zeros([2]), name="part_1")]
    dense_w = tf.Variable(tf.zeros([2]), name="dense_w")
    model = lo.SdcaModel(examples, {"sparse_features_weights": [parts],
                                    "dense_features_weights": [dense_w]},
                         {"symmetric_l1_regularization": 0.0,
                          "symmetric_l2_regularization": 1.0,
                          "loss_type": "logistic_loss"})
    train = model.update_weights(model.minimize())

    def run(sess):
        return {"steps": _train(sess, model, examples, train, STEPS, parts + [dense_w])}
    return run


def case_sdca_optimizer_train_step(tf):
    layers = tf.contrib.layers
    optimizer = tf.contrib.linear_optimizer.SDCAOptimizer(
        "example_id", symmetric_l2_regularization=2.0, symmetric_l1_regularization=0.1,
        adaptive=False)
    features = {"example_id": tf.constant(IDS), "x": tf.constant(DENSE),
                "age": tf.constant([[25.0], [40.0], [33.0], [61.0], [18.0], [47.0]]),
                "cat": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 0], [3, 0], [5, 0]],
                                       ["a", "b", "c", "a", "z", "b"], [6, 2])}
    columns = [layers.real_valued_column("x", 2), layers.sparse_column_with_keys(
        "cat", ["a", "b", "c"]), layers.bucketized_column(layers.real_valued_column("age"),
                                                          [30.0, 50.0])]
    with tf.variable_scope("linear") as scope:
        transformed = dict(features)
        transformed.update(layers.transform_features(features, columns))
        logits, column_variables, bias = layers.weighted_sum_from_feature_columns(
            transformed, columns, 1, scope=scope)
    bias_column = layers.real_valued_column("tf_virtual_bias_column")
    transformed[bias_column] = tf.ones([6, 1])
    column_variables[bias_column] = [bias]
    step = tf.train.get_or_create_global_step()
    model, train = optimizer.get_train_step(column_variables, None, "logistic_loss",
                                            transformed, tf.constant(LABELS[:, None]), step)
    update = model.update_weights(train)
    variables = {c.name: v[0] for c, v in column_variables.items()}

    def run(sess):
        for _ in range(STEPS):
            sess.run(update)
        return {"last": sess.run({"weights": variables, "logits": logits}),
                "global_step": sess.run(step), "name": optimizer.get_name(),
                "settings": [optimizer.example_id_column, optimizer.num_loss_partitions,
                             optimizer.num_table_shards, optimizer.symmetric_l1_regularization,
                             optimizer.symmetric_l2_regularization, optimizer.adaptive,
                             optimizer.partitioner]}
    return run


def case_misuse(tf):
    lo = tf.contrib.linear_optimizer
    examples = _examples(tf)
    w = {"sparse_features_weights": [tf.Variable(tf.zeros([5]))],
         "dense_features_weights": [tf.Variable(tf.zeros([2]))]}
    good = {"symmetric_l1_regularization": 0.0, "symmetric_l2_regularization": 1.0,
            "loss_type": "logistic_loss"}
    tries = {
        "bad_loss": lambda: lo.SdcaModel(examples, w, dict(good, loss_type="log_loss")),
        "negative_l2": lambda: lo.SdcaModel(examples, w,
                                            dict(good, symmetric_l2_regularization=-1.0)),
        "no_options": lambda: lo.SdcaModel(examples, w, {}),
        "not_a_list": lambda: lo.SdcaModel(dict(examples, dense_features=examples[
            "dense_features"][0]), w, good),
        "missing_ids": lambda: lo.SdcaModel({k: v for k, v in examples.items()
                                             if k != "example_ids"}, w, good),
        "missing_l1": lambda: lo.SdcaModel(examples, w, {"loss_type": "squared_loss",
                                                         "symmetric_l2_regularization": 1.0}),
    }
    out = {}
    for name, attempt in tries.items():
        try:
            attempt()
            out[name] = None
        except Exception as error:  # noqa: BLE001 - the error's type is the record
            out[name] = type(error).__name__
    return out



for _case in (case_logistic_sparse_and_dense, case_squared_l1_sharded_weighted,
              case_hinge_smooth_hinge_poisson, case_partitioned_sparse_weights,
              case_sdca_optimizer_train_step):
    _case.tolerance = {"rtol": 2e-3, "atol": 2e-3}
