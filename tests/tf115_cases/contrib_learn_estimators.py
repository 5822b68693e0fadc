"""TF 1.x cases of tf.contrib.learn's estimators taking a head (LinearEstimator, DNNEstimator,
DNNLinearCombinedEstimator), multi_head and DynamicRnnEstimator, recorded in TF 1.15.5.
Python 3.7 syntax.

The linear models start at zero, so their metrics and predictions are compared; the DNN's and
RNN's random initial weights differ from TF 1.15's, so their cases compare names, keys and
steps (tests/test_contrib_learn_estimators.py compares their values on TF 1.15's checkpoints). The
checkpoint's keys are compared, optimizer slots included (TF 1.15 named them after its
one-part partitioned variables, `<var>/<part of the name>/part_0/Adagrad`)."""
import shutil
import tempfile

import numpy as np

_RNG = np.random.RandomState(0)
X = _RNG.randn(40, 2).astype(np.float32)
Y3 = ((X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0).astype(np.int64)).reshape(-1, 1)
R = (2.0 * X[:, 0] + 1.0).reshape(-1, 1).astype(np.float32)


def _tmp():
    return tempfile.mkdtemp(prefix="contrib_learn_estimators_case_")


def _model_variables(tf, model_dir):
    return [[name, shape] for name, shape in tf.train.list_variables(model_dir)]


def _input_fn(tf, labels):
    def input_fn():
        return {"x": tf.constant(X)}, labels(tf)
    return input_fn


def _classes(tf):
    return tf.constant(Y3)


def _both(tf):
    return {"a": tf.constant(Y3), "b": tf.constant(R)}


def _plain_key(key):
    return "/".join(key) if isinstance(key, tuple) else key


def _fit_evaluate_predict(tf, make, labels=_classes, steps=5, predictions=2):
    model_dir = _tmp()
    est = make(model_dir)
    input_fn = _input_fn(tf, labels)
    est.fit(input_fn=input_fn, steps=steps)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    predicted = list(est.predict(input_fn=input_fn))[:predictions]
    names = _model_variables(tf, model_dir)
    shutil.rmtree(model_dir)
    out = {"metrics": {k: float(v) for k, v in metrics.items()},
           "predicted": [{_plain_key(k): np.asarray(v).tolist() for k, v in p.items()}
                         for p in predicted],
           "checkpoint": names}
    return out


def case_linear_estimator_contrib_columns(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _fit_evaluate_predict(tf, lambda d: L.LinearEstimator(
        feature_columns=cols, head=L.multi_class_head(3), model_dir=d))
    return lambda sess: out


def case_linear_estimator_core_columns_regression(tf):
    L = tf.contrib.learn
    cols = [tf.feature_column.numeric_column("x", shape=[2])]
    out = _fit_evaluate_predict(tf, lambda d: L.LinearEstimator(
        feature_columns=cols, head=L.regression_head(), model_dir=d,
        optimizer=tf.train.GradientDescentOptimizer(0.1)), labels=lambda tf: tf.constant(R))
    return lambda sess: out


def case_linear_estimator_binary_head(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _fit_evaluate_predict(tf, lambda d: L.LinearEstimator(
        feature_columns=cols, head=L.multi_class_head(2), model_dir=d),
        labels=lambda tf: tf.constant((X[:, :1] > 0).astype(np.int64)))
    return lambda sess: out


def _names_only(out):
    return {"metric_keys": sorted(out["metrics"]), "global_step": out["metrics"]["global_step"],
            "prediction_keys": sorted(out["predicted"][0]),
            "prediction_shapes": [str(np.shape(out["predicted"][0][k]))
                                  for k in sorted(out["predicted"][0])],
            "checkpoint": out["checkpoint"],
            "finite_loss": bool(np.isfinite(out["metrics"]["loss"]))}


def case_dnn_estimator(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _names_only(_fit_evaluate_predict(tf, lambda d: L.DNNEstimator(
        head=L.multi_class_head(3), hidden_units=[4, 3], feature_columns=cols, model_dir=d)))
    return lambda sess: out


def case_dnn_estimator_core_columns_multi_label(tf):
    L = tf.contrib.learn
    cols = [tf.feature_column.numeric_column("x", shape=[2])]
    labels = lambda tf: tf.constant((X > 0).astype(np.int64))
    out = _names_only(_fit_evaluate_predict(tf, lambda d: L.DNNEstimator(
        head=L.multi_label_head(2), hidden_units=[4], feature_columns=cols, model_dir=d,
        dropout=0.1, optimizer="SGD"), labels=labels))
    return lambda sess: out


def case_dnn_linear_combined_estimator(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _names_only(_fit_evaluate_predict(tf, lambda d: L.DNNLinearCombinedEstimator(
        head=L.multi_class_head(3), linear_feature_columns=cols, dnn_feature_columns=cols,
        dnn_hidden_units=[4], model_dir=d)))
    return lambda sess: out


def case_dnn_linear_combined_fixed_step_increment(tf):
    L = tf.contrib.learn
    cols = [tf.feature_column.numeric_column("x", shape=[2])]
    out = _names_only(_fit_evaluate_predict(tf, lambda d: L.DNNLinearCombinedEstimator(
        head=L.regression_head(), linear_feature_columns=cols, dnn_feature_columns=cols,
        dnn_hidden_units=[3], model_dir=d, fix_global_step_increment_bug=True),
        labels=lambda tf: tf.constant(R)))
    return lambda sess: out


def case_linear_only_combined_estimator(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _fit_evaluate_predict(tf, lambda d: L.DNNLinearCombinedEstimator(
        head=L.multi_class_head(3), linear_feature_columns=cols, model_dir=d))
    return lambda sess: out


def case_combined_needs_columns(tf):
    tf.contrib.learn.DNNLinearCombinedEstimator(head=tf.contrib.learn.regression_head())


def case_multi_head(tf):
    L = tf.contrib.learn
    head = L.multi_head([L.multi_class_head(3, head_name="a", label_name="a"),
                         L.regression_head(head_name="b", label_name="b")],
                        loss_weights=[1.0, 0.5])
    labels = {"a": tf.constant([[1], [2]]), "b": tf.constant([[1.0], [2.0]])}
    logits = tf.constant([[0.5, 1.0, 0.0, 0.3], [0.1, 0.2, 2.0, 1.0]])
    ops = head.create_model_fn_ops({}, L.ModeKeys.EVAL, labels=labels, logits=logits,
                                   train_op_fn=L.no_op_train_fn)
    train = head.create_model_fn_ops({}, L.ModeKeys.TRAIN, labels=labels, logits={
        "a": logits[:, :3], "b": logits[:, 3:]}, train_op_fn=L.no_op_train_fn)
    infer = head.create_model_fn_ops({}, L.ModeKeys.INFER, logits=logits)
    names = {"dimension": head.logits_dimension, "loss_name": ops.loss.name,
             "train_op": train.train_op.name, "train_metrics": sorted(train.eval_metric_ops),
             "metric_names": sorted(ops.eval_metric_ops),
             "eval_predictions": sorted(_plain_key(k) for k in ops.predictions),
             "predictions": sorted(_plain_key(k) for k in infer.predictions),
             "alternatives": [f"{k} {v[0]} {sorted(v[1])}"
                              for k, v in sorted(infer.output_alternatives.items())]}

    def run(sess):
        sess.run({k: v[1] for k, v in ops.eval_metric_ops.items()})
        values = sess.run({"metrics": {k: v[0] for k, v in ops.eval_metric_ops.items()},
                           "loss": ops.loss, "train_loss": train.loss,
                           "scores": infer.predictions[("b", "scores")]})
        values.update(names)
        return values
    return run


def case_multi_head_needs_names(tf):
    tf.contrib.learn.multi_head([tf.contrib.learn.regression_head()])


def case_multi_head_weights_per_head(tf):
    L = tf.contrib.learn
    L.multi_head([L.regression_head(head_name="x")], loss_weights=[1.0, 2.0])


def case_multi_head_estimator(tf):
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    out = _fit_evaluate_predict(tf, lambda d: L.LinearEstimator(
        feature_columns=cols, model_dir=d, head=L.multi_head(
            [L.multi_class_head(3, head_name="a", label_name="a"),
             L.regression_head(head_name="b", label_name="b")], loss_weights=[1.0, 0.5])),
        labels=_both)
    return lambda sess: out


def _rnn_common(tf):
    import importlib
    tf.contrib.learn.DynamicRnnEstimator  # noqa: B018 - builds the module paths
    return importlib.import_module(
        "tensorflow.contrib.learn.python.learn.estimators.rnn_common")


_SEQ = _RNG.randn(12, 4, 2).astype(np.float32)
_LENGTHS = np.array([4, 3, 2, 4] * 3, np.int32)


def _rnn_case(tf, make, labels, shape=(12, 4, 2)):
    def input_fn():
        return ({"x": tf.constant(_SEQ.reshape(shape)),
                 "sequence_length": tf.constant(_LENGTHS)}, tf.constant(labels))
    model_dir = _tmp()
    est = make(model_dir)
    est.fit(input_fn=input_fn, steps=2)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    first = list(est.predict(input_fn=input_fn))[0]
    out = {"metric_keys": sorted(metrics), "global_step": float(metrics["global_step"]),
           "finite_loss": bool(np.isfinite(metrics["loss"])),
           "prediction_shapes": {k: str(np.shape(v)) for k, v in first.items()},
           "checkpoint": _model_variables(tf, model_dir)}
    shutil.rmtree(model_dir)
    return lambda sess: out


def case_dynamic_rnn_single_value_classifier(tf):
    L = tf.contrib.learn
    kinds = _rnn_common(tf).PredictionType
    return _rnn_case(tf, lambda d: L.DynamicRnnEstimator(
        L.ProblemType.CLASSIFICATION, kinds.SINGLE_VALUE,
        [tf.contrib.layers.real_valued_column("x", dimension=2)], num_classes=3, num_units=5,
        model_dir=d), (_SEQ[:, 0, 0] > 0).astype(np.int64))


def case_dynamic_rnn_multi_value_probabilities_dropout(tf):
    L = tf.contrib.learn
    kinds = _rnn_common(tf).PredictionType
    return _rnn_case(tf, lambda d: L.DynamicRnnEstimator(
        L.ProblemType.CLASSIFICATION, kinds.MULTIPLE_VALUE,
        [tf.contrib.layers.real_valued_column("x", dimension=2)], num_classes=2, num_units=3,
        predict_probabilities=True, dropout_keep_probabilities=[0.9, 0.9], model_dir=d),
        (_SEQ[:, :, 0] > 0).astype(np.int64))


def case_dynamic_rnn_momentum_one_value_per_step(tf):
    L = tf.contrib.learn
    kinds = _rnn_common(tf).PredictionType
    return _rnn_case(tf, lambda d: L.DynamicRnnEstimator(
        L.ProblemType.LINEAR_REGRESSION, kinds.SINGLE_VALUE,
        [tf.contrib.layers.real_valued_column("x")], num_units=3, optimizer="Momentum",
        momentum=0.9, model_dir=d), _SEQ[:, 0, 1], shape=(12, 8))


def case_dynamic_rnn_needs_num_classes(tf):
    L = tf.contrib.learn
    L.DynamicRnnEstimator(L.ProblemType.CLASSIFICATION, _rnn_common(tf).PredictionType.
                          SINGLE_VALUE, [tf.contrib.layers.real_valued_column("x")],
                          num_units=3)


def case_dynamic_rnn_unknown_prediction_type(tf):
    L = tf.contrib.learn
    L.DynamicRnnEstimator(L.ProblemType.CLASSIFICATION, 7,
                          [tf.contrib.layers.real_valued_column("x")], num_units=3)


def case_dynamic_rnn_probabilities_of_a_regression(tf):
    L = tf.contrib.learn
    L.DynamicRnnEstimator(L.ProblemType.LINEAR_REGRESSION, _rnn_common(tf).PredictionType.
                          SINGLE_VALUE, [tf.contrib.layers.real_valued_column("x")],
                          num_units=3, predict_probabilities=True)


def case_multi_head_export(tf):
    """A multi_head's SavedModel: without default_output_alternative_key TF 1.15 refused the
    export; with one, each head's signature and the default's."""
    import os
    L = tf.contrib.learn
    cols = [tf.contrib.layers.real_valued_column("x", dimension=2)]
    model_dir = _tmp()
    est = L.LinearEstimator(feature_columns=cols, model_dir=model_dir, head=L.multi_head(
        [L.multi_class_head(3, head_name="a", label_name="a"),
         L.regression_head(head_name="b", label_name="b")]))
    est.fit(input_fn=_input_fn(tf, _both), steps=1)
    serving = L.utils.build_parsing_serving_input_fn(
        tf.contrib.layers.create_feature_spec_for_parsing(cols))
    out = {}
    try:
        est.export_savedmodel(os.path.join(model_dir, "none"), serving)
    except ValueError as e:
        out["no_default"] = str(e).split(" (")[0]  # (ours adds how: the argument's name)
    path = est.export_savedmodel(os.path.join(model_dir, "b"), serving,
                                 default_output_alternative_key="b")
    with tf.Graph().as_default():
        with tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], path)
            out["signatures"] = {
                key: [sig.method_name, sorted(sig.inputs), sorted(sig.outputs)]
                for key, sig in meta.signature_def.items()}
    shutil.rmtree(model_dir)
    return lambda sess: out
