"""tf.contrib.estimator's heads and helpers in a TF1 graph: the heads' predictions, losses,
eval metrics and training summaries for fixed logits and labels."""
import numpy as np


def _spec_values(tf, head, logits, labels, features=None):
    """Predictions (PREDICT), loss + metrics (EVAL) and loss + train op (TRAIN) of `head`."""
    features = features or {"x": tf.constant(np.zeros([len(labels), 1], np.float32))}
    logits = tf.constant(np.asarray(logits, np.float32))
    labels = tf.constant(labels)
    predict = head.create_estimator_spec(features, tf.estimator.ModeKeys.PREDICT, logits)
    evaluate = head.create_estimator_spec(features, tf.estimator.ModeKeys.EVAL, logits, labels)
    step = tf.train.get_or_create_global_step()
    train = head.create_estimator_spec(
        features, tf.estimator.ModeKeys.TRAIN, logits, labels,
        train_op_fn=lambda loss: tf.assign_add(step, 1))
    updates = {k: v[1] for k, v in evaluate.eval_metric_ops.items()}
    values = {k: v[0] for k, v in evaluate.eval_metric_ops.items()}
    tensors = {k: v for k, v in predict.predictions.items() if v.dtype != tf.string}
    strings = {k: v for k, v in predict.predictions.items() if v.dtype == tf.string}

    def run(sess):
        sess.run(updates)
        out = sess.run({"predictions": tensors, "eval_loss": evaluate.loss,
                        "metrics": values, "train_loss": train.loss, "train_op": train.train_op})
        out["strings"] = {k: np.asarray(v).ravel().tolist()
                          for k, v in sess.run(strings).items()}
        out["export_outputs"] = sorted(predict.export_outputs)
        out["summaries"] = sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES))
        out["logits_dimension"] = head.logits_dimension
        out["name"] = head.name
        return out
    return run


def case_binary_classification_head(tf):
    head = tf.contrib.estimator.binary_classification_head()
    return _spec_values(tf, head, [[0.5], [-1.0], [2.0], [-0.2]],
                        np.array([[1], [0], [0], [1]], np.int64))


def case_binary_classification_head_named_weighted_vocabulary(tf):
    head = tf.contrib.estimator.binary_classification_head(
        weight_column="w", thresholds=[0.3], label_vocabulary=["no", "yes"], name="bin")
    features = {"w": tf.constant([[1.0], [2.0], [0.5]])}
    return _spec_values(tf, head, [[0.5], [-1.0], [2.0]],
                        np.array([["yes"], ["no"], ["no"]]), features)


def case_multi_class_head(tf):
    head = tf.contrib.estimator.multi_class_head(3)
    return _spec_values(tf, head, [[0.5, 1.0, -1.0], [2.0, 0.1, 0.0], [0.0, 0.0, 3.0]],
                        np.array([[1], [0], [1]], np.int64))


def case_multi_label_head(tf):
    head = tf.contrib.estimator.multi_label_head(3, classes_for_class_based_metrics=[1])
    return _spec_values(tf, head, [[0.5, 1.0, -1.0], [2.0, -0.1, 0.0]],
                        np.array([[1, 1, 0], [0, 0, 1]], np.int64))


def case_regression_head(tf):
    head = tf.contrib.estimator.regression_head(label_dimension=2)
    return _spec_values(tf, head, [[0.5, 1.0], [2.0, -0.1], [0.0, 1.5]],
                        np.array([[1.0, 1.0], [0.0, 0.5], [1.0, 1.0]], np.float32))


def case_poisson_regression_head(tf):
    head = tf.contrib.estimator.poisson_regression_head()
    return _spec_values(tf, head, [[0.5], [1.0], [-0.5]],
                        np.array([[1.0], [3.0], [0.0]], np.float32))


def case_logistic_regression_head(tf):
    head = tf.contrib.estimator.logistic_regression_head()
    return _spec_values(tf, head, [[0.5], [1.0], [-0.5]],
                        np.array([[0.2], [1.0], [0.0]], np.float32))


def case_multi_head(tf):
    head = tf.contrib.estimator.multi_head(
        [tf.contrib.estimator.binary_classification_head(name="a"),
         tf.contrib.estimator.regression_head(name="b")], head_weights=[1.0, 0.5])
    features = {"x": tf.constant(np.zeros([2, 1], np.float32))}
    logits = {"a": tf.constant([[0.5], [-1.0]]), "b": tf.constant([[2.0], [1.0]])}
    labels = {"a": tf.constant([[1], [0]], tf.int64), "b": tf.constant([[1.5], [0.0]])}
    predict = head.create_estimator_spec(features, tf.estimator.ModeKeys.PREDICT, logits)
    evaluate = head.create_estimator_spec(features, tf.estimator.ModeKeys.EVAL, logits, labels)
    step = tf.train.get_or_create_global_step()
    train = head.create_estimator_spec(features, tf.estimator.ModeKeys.TRAIN, logits, labels,
                                       train_op_fn=lambda loss: tf.assign_add(step, 1))

    def run(sess):
        sess.run({k: v[1] for k, v in evaluate.eval_metric_ops.items()})
        out = sess.run({"metrics": {k: v[0] for k, v in evaluate.eval_metric_ops.items()},
                        "eval_loss": evaluate.loss, "train_loss": train.loss,
                        "probabilities": predict.predictions[("a", "probabilities")]})
        out["prediction_keys"] = sorted("/".join(k) for k in predict.predictions)
        out["export_outputs"] = sorted(predict.export_outputs)
        out["logits_dimension"] = head.logits_dimension
        return out
    return run


def case_create_loss(tf):
    head = tf.contrib.estimator.regression_head(weight_column="w")
    spec = head.create_loss({"w": tf.constant([[2.0], [1.0]])}, tf.estimator.ModeKeys.TRAIN,
                            tf.constant([[1.0], [2.0]]), tf.constant([[0.0], [0.0]]))
    return {"training_loss": spec.training_loss, "unreduced_loss": spec.unreduced_loss,
            "weights": spec.weights, "processed_labels": spec.processed_labels}


def case_create_loss_unweighted_classes(tf):
    head = tf.contrib.estimator.multi_class_head(3)
    spec = head.create_loss({}, tf.estimator.ModeKeys.EVAL,
                            tf.constant([[1.0, 2.0, 0.0], [0.5, 0.0, 0.0]]),
                            tf.constant([[1], [0]], tf.int64))
    return {"training_loss": spec.training_loss, "unreduced_loss": spec.unreduced_loss,
            "weights": spec.weights, "processed_labels": spec.processed_labels}


def case_bad_loss_reduction_raises(tf):
    return tf.contrib.estimator.binary_classification_head(loss_reduction="none")


def case_logit_fns(tf):
    columns = [tf.feature_column.numeric_column("x", shape=[2])]
    features = {"x": tf.constant([[1.0, 2.0], [0.5, -1.0]])}
    dnn = tf.contrib.estimator.dnn_logit_fn_builder(
        units=2, hidden_units=[3], feature_columns=columns, activation_fn=tf.nn.relu,
        dropout=None, input_layer_partitioner=None, batch_norm=False)
    linear = tf.contrib.estimator.linear_logit_fn_builder(units=1, feature_columns=columns)
    with tf.variable_scope("dnn"):
        dnn_logits = tf.contrib.estimator.call_logit_fn(dnn, features, "train", None, None)
    with tf.variable_scope("linear"):
        linear_logits = tf.contrib.estimator.call_logit_fn(linear, features, "train", None, None)
    return {"dnn_shape": dnn_logits.shape.as_list(), "linear": linear_logits}


case_logit_fns.values_compared = False


def case_clip_gradients_by_norm(tf):
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([3.0, 4.0]))
    opt = tf.contrib.estimator.clip_gradients_by_norm(tf.train.GradientDescentOptimizer(1.0),
                                                      clip_norm=1.0)
    train = opt.minimize(tf.reduce_sum(w * w))

    def run(sess):
        sess.run(train)
        return {"w": sess.run(w), "name": opt.get_name()}
    return run
