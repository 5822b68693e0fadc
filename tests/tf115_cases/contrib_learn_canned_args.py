"""TF 1.x cases of tf.contrib.learn's canned estimators' training arguments
(`gradient_clip_norm`, `embedding_lr_multipliers`, `input_layer_min_slice_size`), recorded in
TF 1.15.5. Python 3.7 syntax.

The canned estimators here train tf.estimator's canned models (other variable and metric
names than TF 1.15's), so the cases return what both share: the loss and predictions and the
core columns' linear weights (`linear/linear_model/...` in both) of linear models, which start
at zero; for DNNs, whose random initial weights differ, the norm of one plain gradient
descent step over each part's variables, which clipping fixes at learning rate x clip norm
whatever the weights; and errors."""
import shutil
import tempfile

import numpy as np

_RNG = np.random.RandomState(0)
X = _RNG.randn(40, 2).astype(np.float32)
R = (2.0 * X[:, 0] + 1.0).reshape(-1, 1).astype(np.float32)
Y3 = ((X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0).astype(np.int64)).reshape(-1, 1)
WORDS = np.array([["a"], ["b"], ["c"], ["a"]] * 10)


def _tmp():
    return tempfile.mkdtemp(prefix="contrib_learn_canned_args_case_")


def _input_fn(tf, labels):
    def input_fn():
        return {"x": tf.constant(X), "w": tf.constant(WORDS)}, tf.constant(labels)
    return input_fn


def _x(tf):
    return [tf.feature_column.numeric_column("x", shape=[2])]


def _linear_run(tf, make, labels, steps=3, key="predictions"):
    """Loss, the first predictions and the weights after `steps` steps."""
    model_dir = _tmp()
    est = make(model_dir)
    input_fn = _input_fn(tf, labels)
    est.fit(input_fn=input_fn, steps=steps)
    loss = est.evaluate(input_fn=input_fn, steps=1)["loss"]
    predict = est.predict_proba if key == "probabilities" else est.predict
    predicted = [np.asarray(p).tolist() for p in list(predict(input_fn=input_fn))[:3]]
    out = {"loss": float(loss), "predicted": predicted,
           "weights": est.get_variable_value("linear/linear_model/x/weights").tolist(),
           "bias": est.get_variable_value("linear/linear_model/bias_weights").tolist()}
    shutil.rmtree(model_dir)
    return out


def _clipped_and_not(tf, make, labels, clip=0.5, **kwargs):
    clipped = _linear_run(tf, lambda d: make(d, clip), labels, **kwargs)
    plain = _linear_run(tf, lambda d: make(d, None), labels, **kwargs)
    differ = not np.allclose(clipped["weights"], plain["weights"], rtol=1e-3, atol=1e-4)
    return {"clipped": clipped, "unclipped": plain, "clipping_changed_weights": differ}


def case_linear_regressor_gradient_clip_norm(tf):
    L = tf.contrib.learn
    out = _clipped_and_not(tf, lambda d, clip: L.LinearRegressor(
        _x(tf), model_dir=d, optimizer=tf.train.GradientDescentOptimizer(0.1),
        gradient_clip_norm=clip), R)
    return lambda sess: out


def case_linear_classifier_gradient_clip_norm(tf):
    L = tf.contrib.learn
    out = _clipped_and_not(tf, lambda d, clip: L.LinearClassifier(
        _x(tf), model_dir=d, n_classes=3, optimizer=tf.train.GradientDescentOptimizer(1.0),
        gradient_clip_norm=clip), Y3, clip=0.1, key="probabilities")
    return lambda sess: out


def case_linear_regressor_default_ftrl_int_clip_norm(tf):
    """The linear model clipped for any true value, an int too."""
    L = tf.contrib.learn
    out = _linear_run(tf, lambda d: L.LinearRegressor(_x(tf), model_dir=d,
                                                      gradient_clip_norm=1), R)
    return lambda sess: out


def case_linear_only_combined_regressor_gradient_clip_norm(tf):
    L = tf.contrib.learn
    out = _clipped_and_not(tf, lambda d, clip: L.DNNLinearCombinedRegressor(
        model_dir=d, linear_feature_columns=_x(tf),
        linear_optimizer=tf.train.GradientDescentOptimizer(0.1), gradient_clip_norm=clip), R)
    return lambda sess: out


def _step_norms(tf, make, labels, prefixes):
    """The norm of the change of each part's variables (`prefixes`) over one step after the
    first (plain gradient descent: learning rate x the clipped gradients' norm)."""
    model_dir = _tmp()
    est = make(model_dir)
    input_fn = _input_fn(tf, labels)
    values = []
    for _ in range(2):
        est.fit(input_fn=input_fn, steps=1)
        values.append({n: est.get_variable_value(n) for n in est.get_variable_names()
                       if n.startswith(prefixes) and "learning_rate" not in n})
    shutil.rmtree(model_dir)
    return {prefix: float(np.sqrt(sum(np.sum((values[1][n] - values[0][n]) ** 2)
                                      for n in values[0] if n.startswith(prefix))))
            for prefix in prefixes}


def case_dnn_regressor_gradient_clip_norm_step(tf):
    L = tf.contrib.learn
    out = _step_norms(tf, lambda d: L.DNNRegressor(
        [4], _x(tf), model_dir=d, optimizer=tf.train.GradientDescentOptimizer(1.0),
        gradient_clip_norm=0.05), R, ("dnn/",))
    return lambda sess: out


def case_dnn_classifier_gradient_clip_norm_step(tf):
    L = tf.contrib.learn
    out = _step_norms(tf, lambda d: L.DNNClassifier(
        [4, 3], _x(tf), model_dir=d, n_classes=3,
        optimizer=tf.train.GradientDescentOptimizer(2.0), gradient_clip_norm=0.01), Y3,
        ("dnn/",))
    return lambda sess: out


def case_combined_classifier_clips_each_part(tf):
    """Each part's gradients clipped by their own global norm."""
    L = tf.contrib.learn
    out = _step_norms(tf, lambda d: L.DNNLinearCombinedClassifier(
        model_dir=d, n_classes=3, linear_feature_columns=_x(tf),
        linear_optimizer=tf.train.GradientDescentOptimizer(0.5), dnn_feature_columns=_x(tf),
        dnn_hidden_units=[4], dnn_optimizer=tf.train.GradientDescentOptimizer(2.0),
        gradient_clip_norm=0.01), Y3, ("dnn/", "linear/"))
    return lambda sess: out


for _case in (case_dnn_regressor_gradient_clip_norm_step,
              case_dnn_classifier_gradient_clip_norm_step,
              case_combined_classifier_clips_each_part):
    _case.tolerance = {"rtol": 1e-3}


def case_dnn_regressor_int_gradient_clip_norm(tf):
    """optimize_loss took a float or a callable: an int failed when fit built the train op."""
    L = tf.contrib.learn
    est = L.DNNRegressor([3], _x(tf), model_dir=_tmp(), gradient_clip_norm=1)
    est.fit(input_fn=_input_fn(tf, R), steps=1)
    return {}


def case_combined_regressor_int_gradient_clip_norm(tf):
    L = tf.contrib.learn
    est = L.DNNLinearCombinedRegressor(model_dir=_tmp(), linear_feature_columns=_x(tf),
                                       gradient_clip_norm=2)
    est.fit(input_fn=_input_fn(tf, R), steps=1)
    return {}


def _embedding(tf):
    words = tf.feature_column.categorical_column_with_vocabulary_list("w", ["a", "b", "c"])
    return tf.feature_column.embedding_column(words, dimension=2)


def case_dnn_embedding_lr_multipliers_core_column(tf):
    """TF 1.15 took multipliers only for tf.contrib.layers embedding columns."""
    L = tf.contrib.learn
    embedding = _embedding(tf)
    est = L.DNNRegressor([3], _x(tf) + [embedding], model_dir=_tmp(),
                         embedding_lr_multipliers={embedding: 2.0})
    est.fit(input_fn=_input_fn(tf, R), steps=1)
    return {}


def case_combined_embedding_lr_multipliers_numeric_column(tf):
    L = tf.contrib.learn
    x = _x(tf)
    est = L.DNNLinearCombinedClassifier(model_dir=_tmp(), dnn_feature_columns=x,
                                        dnn_hidden_units=[3],
                                        embedding_lr_multipliers={x[0]: 0.5})
    est.fit(input_fn=_input_fn(tf, Y3 > 0), steps=1)
    return {}


def case_dnn_empty_embedding_lr_multipliers(tf):
    L = tf.contrib.learn
    est = L.DNNRegressor([3], _x(tf), model_dir=_tmp(), embedding_lr_multipliers={})
    est.fit(input_fn=_input_fn(tf, R), steps=2)
    out = {"global_step": int(est.get_variable_value("global_step"))}
    return lambda sess: out


def _checkpoint(tf, make, labels):
    model_dir = _tmp()
    make(model_dir).fit(input_fn=_input_fn(tf, labels), steps=1)
    names = tf.train.list_variables(model_dir)
    shutil.rmtree(model_dir)
    return names


def case_input_layer_min_slice_size_one_part(tf):
    """Without parameter servers the input layer had one part, whatever the minimum slice:
    the checkpoint is the same as without the argument."""
    L = tf.contrib.learn
    columns = _x(tf) + [_embedding(tf)]
    out = {}
    for kind, make in (
            ("dnn", lambda d, size: L.DNNRegressor(
                [3], columns, model_dir=d, input_layer_min_slice_size=size)),
            ("combined", lambda d, size: L.DNNLinearCombinedRegressor(
                model_dir=d, linear_feature_columns=_x(tf), dnn_feature_columns=columns,
                dnn_hidden_units=[3], input_layer_min_slice_size=size))):
        sliced = _checkpoint(tf, lambda d: make(d, 1), R)
        plain = _checkpoint(tf, lambda d: make(d, None), R)
        shapes = [s for n, s in sliced if "embedding" in n and n.endswith("weights")]
        out[kind] = {"same_checkpoint": sliced == plain, "embedding_shapes": shapes}
    return lambda sess: out
