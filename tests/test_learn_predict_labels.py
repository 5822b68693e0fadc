"""tf.contrib.learn.Estimator.predict() hands a (features, target) model_fn stand-ins for the
labels shaped as those of the first fit / evaluate, as TF 1.15 did (unfed placeholders there):
TensorFlow's text_classification example builds `tf.one_hot(target, 15)` and its train_op in
every mode. Settled by running TF 1.15: after fit(x, y int64) the INFER call saw
`Placeholder shape=(?,) dtype=int64`; after evaluate(y float32) on a fresh estimator, float32;
a fresh estimator that only predicts saw None; predictions reading the labels failed."""
import numpy as np
import pytest
import tensorflow as tf

from estimator_compat.learn import estimator as contrib

v1 = tf.compat.v1
X = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]]
Y = np.array([0, 1, 2, 0, 1, 2], np.int64)


def _model_fn(seen, read_labels=False):
    def model_fn(features, target):
        seen.append(None if target is None else (target.dtype, target.shape.as_list()))
        logits = v1.layers.dense(features, 3, kernel_initializer=v1.zeros_initializer())
        if target is None:  # (TF 1.15 too: one_hot(None) fails)
            return {"class": tf.argmax(logits, 1)}, None, None
        onehot = tf.one_hot(target, 3, 1, 0)  # before any look at the mode, as TF 1.x examples
        loss = v1.losses.softmax_cross_entropy(onehot, logits)
        train_op = v1.train.GradientDescentOptimizer(1.0).minimize(
            loss, v1.train.get_global_step())
        classes = tf.argmax(logits, 1)
        if read_labels:
            classes = classes + tf.argmax(onehot, 1)
        return {"class": classes}, loss, train_op
    return model_fn


def test_predict_gets_labels_shaped_as_fit_and_evaluate(tmp_path):
    seen = []
    est = contrib.Estimator(_model_fn(seen), str(tmp_path))
    est.fit(X, Y, steps=20)
    classes = [p["class"] for p in est.predict(X, as_iterable=True)]
    assert classes == list(Y)
    assert seen[-1] == (tf.int64, [None])
    assert est.get_variable_value("global_step") == 20  # predict trained nothing

    fresh = contrib.Estimator(_model_fn(seen), str(tmp_path))
    assert [p["class"] for p in fresh.predict(X[:3], as_iterable=True)] == [0, 1, 2]
    assert seen[-1] is None  # no fit / evaluate yet: None, as TF 1.15

    evaluated = contrib.Estimator(_model_fn(seen), str(tmp_path))
    evaluated.evaluate(X, Y.astype(np.int32), steps=1)
    [p["class"] for p in evaluated.predict(X[:2], as_iterable=True)]
    assert seen[-1] == (tf.int32, [None])
    assert evaluated.get_variable_value("global_step") == 20


def test_predictions_reading_the_labels_are_refused(tmp_path):
    est = contrib.Estimator(_model_fn([], read_labels=True), str(tmp_path))
    est.fit(X, Y, steps=1)
    with pytest.raises(ValueError, match="predictions read its labels"):
        list(est.predict(X, as_iterable=True))
