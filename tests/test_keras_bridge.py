"""The Keras side of estimator code: model_to_estimator, DenseFeatures, Keras optimizers and
object-based checkpoints in model_fn, legacy Keras optimizers in canned estimators.

The tutorials and guides run as whole programs (tests/programs/keras_bridge/), as their users
ran them; the same files ran on TensorFlow 2.15 + tf.estimator 2.15 (side venv), whose
numbers are recorded at each test where both start from the same weights.
"""
import json
import os
import re
import sys

import keras
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from helpers import PROGRAMS, Program

BRIDGE = os.path.join(PROGRAMS, "keras_bridge")
sys.path.insert(0, BRIDGE)
import titanic_data  # noqa: E402


def results(stdout):
    """{name: values} of the program's `RESULT <name> <json>` lines."""
    found = {}
    for line in stdout.splitlines():
        match = re.match(r"RESULT (?:(\S+) )?(\{.*\})$", line)
        if match:
            found[match.group(1)] = json.loads(match.group(2))
    assert found, stdout[-3000:]
    return found


@pytest.fixture(scope="module")
def titanic(tmp_path_factory):
    path = tmp_path_factory.mktemp("titanic")
    titanic_data.main(str(path))
    return str(path)


@pytest.fixture(scope="module")
def programs(tmp_path_factory, titanic):
    """The four programs, started together (they are small: two CPUs run them side by side
    in about the time of the longest); each test waits for its own."""
    work = {name: tmp_path_factory.mktemp(name) for name in ("tutorial", "models", "guide")}
    return {
        "tutorial": Program(os.path.join(BRIDGE, "keras_model_to_estimator.py"),
                            work["tutorial"] / "m"),
        "models": Program(os.path.join(BRIDGE, "keras_models_to_estimator.py"), work["models"]),
        "linear": Program(os.path.join(BRIDGE, "linear_tutorial.py"), titanic),
        "guide": Program(os.path.join(BRIDGE, "estimator_guide.py"), titanic,
                         work["guide"] / "m"),
        "work": work}


def test_tutorial_keras_model_to_estimator(programs):
    """The tutorial's code path: Sequential with `input_shape`, `{'dense_input': ...}` features,
    model_to_estimator, train 500 steps, evaluate. TF 2.15 reached loss 0.52-0.54 (other random
    weights); the given Keras model is left untouched, as tf.keras left it. The program seeds
    Keras (`set_random_seed(1)`): this seed gives loss 0.40, accuracy 0.97 on every run."""
    out, _ = programs["tutorial"].wait()
    result = results(out)[None]
    assert result["global_step"] == 500 and result["loss"] < 0.8, result
    assert result["accuracy"] > 0.9 and result["keys"] == ["dense_1"], result
    assert result["keras_model_unchanged"] is True
    names = dict(tf.train.list_variables(str(programs["work"]["tutorial"] / "m")))
    assert names["sequential/dense/kernel"] == [4, 16] and "global_step" in names


# TF 2.15 + tf.estimator 2.15, same program and data (tests/programs/keras_bridge).
TF215_MODELS = {
    "sequential": {"accuracy": 0.86, "global_step": 60.0, "loss": 0.3592,
                   "loss_before_training": 0.9201},
    "functional": {"acc": 0.86, "global_step": 60.0, "loss": 0.3592},
    "export": {"keys": ["logits"], "accuracy": 0.86},
    "resumed": {"accuracy": 0.9267, "global_step": 120.0, "loss": 0.24},
}


def test_keras_models_to_estimator_match_tf215(programs):
    """Sequential (warm-started from the model's weights), functional with two named inputs
    and a renamed metric, its SavedModel, a resumed model_dir: TF 2.15's numbers to 4 decimals.
    Subclassed and file-loaded models train as the Sequential one does (same weights and data;
    TF 2.15 did not warm-start the subclassed clone (0.3809) and mis-resolved 'accuracy' for an
    .h5 model (0.2))."""
    out, _ = programs["models"].wait()
    found = results(out)
    for name, expected in TF215_MODELS.items():
        assert found[name] == expected, (name, found[name])
    for name in ("subclassed", "file"):
        assert found[name] == {"accuracy": 0.86, "global_step": 60.0, "loss": 0.3592}, found


def test_tutorial_linear(programs):
    """The "linear" tutorial: DenseFeatures cells, LinearClassifier with and without a crossed
    column, predictions for the ROC curve. TF 2.15 on the same files: accuracy 0.890, AUC 0.964
    (0.963 crossed); the tutorial's unseeded shuffle moves ours between 0.88-0.90 and
    0.94-0.965 (chance: 0.69 accuracy, 0.5 AUC), with rare outliers (accuracy 0.83 at AUC 0.947
    once in a full suite run): accuracy is checked against 0.80."""
    out, _ = programs["linear"].wait()
    assert "DENSE_FEATURES ok" in out
    found = results(out)
    for name in ("linear", "crossed"):
        assert found[name]["accuracy"] > 0.80 and found[name]["auc"] > 0.92, found[name]
        assert found[name]["global_step"] == 200, found[name]
    assert found["roc"]["n"] == 264 and found["roc"]["auc"] > 0.92


# TF 2.15: LinearEstimator with the legacy Ftrl (TF1 exponential_decay of global_step).
TF215_LINEAR_FTRL = {"accuracy": 0.7575757503509521, "auc": 0.8309924602508545,
                     "loss": 0.5137096643447876, "global_step": 20.0}


def test_guides_estimator_and_migrate_canned(programs):
    """Guide "Estimators": premade estimators on make_csv_dataset; the SavedModel guide's
    export and `signatures["predict"]`; a Keras model and optimizer in model_fn, saved
    object-based through `Scaffold(saver=tf.train.Checkpoint(...))` and read back by the
    user's own Checkpoint.
    Guide "Migrate canned estimators": legacy Keras optimizers with a tensor learning rate."""
    out, _ = programs["guide"].wait()
    found = results(out)
    # Premade LinearClassifier on make_csv_dataset (TF 2.15: accuracy 0.63, shuffled input).
    assert found["premade"]["global_step"] == 100 and found["premade"]["accuracy"] > 0.5
    assert found["premade"]["predict_keys"] == [
        "all_class_ids", "all_classes", "class_ids", "classes", "logistic", "logits",
        "probabilities"]
    # The SavedModel's "predict" signature on tf.train.Example (TF 2.15: 0.59 and 0.23).
    assert found["saved_model"]["p1.5"] > 0.5 > found["saved_model"]["p3.5"], found
    ckpt = found["object_checkpoint"]
    assert ckpt["step_after_10"] == 10 and ckpt["global_step"] == 50, ckpt
    assert ckpt["object_graph"] and ckpt["step_key"], ckpt
    # It trains (TF 2.15 left this model at its initial weights, loss 23-26).
    assert ckpt["loss"] < 10, ckpt
    for name in ("linear_estimator", "linear_estimator_tf2_optimizer"):
        for key, value in TF215_LINEAR_FTRL.items():
            assert found[name][key] == pytest.approx(value, abs=1e-5), (name, key)
    for name in ("dnn_estimator", "dnn_linear_estimator"):
        assert found[name]["global_step"] == 20 and found[name]["loss"] < 0.75, found[name]


def test_keras_optimizer_in_model_fn_is_checkpointed_by_name(tmp_path):
    """No scaffold: the Keras optimizer's state is saved under its variable names and resumed."""
    def model_fn(features, labels, mode):
        dense = keras.layers.Dense(1)
        opt = keras.optimizers.Adam(0.1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(dense(features["x"]) - labels))
        grads = tape.gradient(loss, dense.trainable_variables)
        train_op = tf.group(opt.apply_gradients(zip(grads, dense.trainable_variables)),
                            tf.compat.v1.train.get_global_step().assign_add(1))
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        x = np.linspace(-1, 1, 64, dtype=np.float32)[:, None]
        return tf.data.Dataset.from_tensor_slices(({"x": x}, 3 * x + 1)).batch(16).repeat()

    ec.Estimator(model_fn, str(tmp_path)).train(input_fn, steps=30)
    est = ec.Estimator(model_fn, str(tmp_path))
    est.train(input_fn, steps=30)
    reader = tf.train.load_checkpoint(str(tmp_path))  # 2.15 (Keras 2) names
    assert reader.get_tensor("Adam/iter") == 60 and reader.get_tensor("global_step") == 60
    assert est.evaluate(input_fn, steps=4)["loss"] < 0.5


# -- DenseFeatures, in process ------------------------------------------------------------------
def _columns():
    fc = tf.feature_column
    thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
    age = fc.numeric_column("age")
    return [age, fc.bucketized_column(age, [30, 50]), fc.embedding_column(thal, 3),
            fc.indicator_column(thal)]


def _heart(n=240, seed=0):
    rng = np.random.RandomState(seed)
    age = rng.uniform(20, 70, n).astype("float32")
    thal = rng.choice(["fixed", "normal", "reversible"], n)
    return {"age": age, "thal": thal}, ((age > 50) ^ (thal == "normal")).astype("int64")


def test_dense_features_in_model_fn_keeps_tf_keras_names(tmp_path):
    ec.install()
    x, y = _heart()

    def model_fn(features, labels, mode):
        net = tf.keras.layers.DenseFeatures(_columns())(features)
        logits = tf.compat.v1.layers.dense(net, 1)
        loss = tf.compat.v1.losses.sigmoid_cross_entropy(labels[:, None], logits)
        train_op = tf.compat.v1.train.AdamOptimizer(0.05).minimize(
            loss, tf.compat.v1.train.get_global_step())
        return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)

    est = ec.Estimator(model_fn, str(tmp_path))
    est.train(lambda: tf.data.Dataset.from_tensor_slices((x, y)).batch(40).repeat(5))
    names = dict(tf.train.list_variables(str(tmp_path)))
    assert names["dense_features/thal_embedding/embedding_weights"] == [3, 3]
    assert names["dense/kernel"] == [1 + 3 + 3 + 3, 1]


def test_dense_features_in_a_keras3_model():
    """The structured-data tutorial's shape: DenseFeatures first in a Sequential, fit on a
    dict dataset."""
    ec.install()
    keras.utils.set_random_seed(1)
    x, y = _heart()
    model = keras.Sequential([tf.keras.layers.DenseFeatures(_columns()),
                              keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.05), metrics=["accuracy"],
                  loss=keras.losses.BinaryCrossentropy(from_logits=True))
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(40)
    model.fit(ds, epochs=20, verbose=0)
    assert model.evaluate(ds, verbose=0, return_dict=True)["accuracy"] > 0.8  # chance: 0.5
    assert any(w.path.endswith("dense_features/thal_embedding/embedding_weights")
               for w in model.weights)


def test_dense_features_errors():
    ec.install()
    thal = tf.feature_column.categorical_column_with_identity("thal", 3)
    with pytest.raises(ValueError, match="indicator_column or embedding_column"):
        tf.keras.layers.DenseFeatures([thal])
    with pytest.raises(ValueError, match="at least one feature column"):
        tf.keras.layers.DenseFeatures([])
    assert tf.compat.v1.keras.layers.DenseFeatures is tf.keras.layers.DenseFeatures


def test_model_to_estimator_errors(tmp_path):
    ec.install()
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="has not been compiled yet"):
        tf.keras.estimator.model_to_estimator(keras_model=model)
    with pytest.raises(ValueError, match="Exactly one of keras_model and keras_model_path"):
        tf.keras.estimator.model_to_estimator()
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="checkpoint_format must be one of"):
        tf.keras.estimator.model_to_estimator(keras_model=model, checkpoint_format="h5")
    est = ec.model_to_estimator(keras_model=model, model_dir=str(tmp_path))
    with pytest.raises(ValueError, match=r"missing \['a'\]|one input"):
        est.train(lambda: tf.data.Dataset.from_tensors(
            ({"b": [[1.0, 2.0]], "c": [[1.0, 2.0]]}, [[1.0]])), steps=1)


def test_removed_keras_linear_models_name_the_replacement():
    ec.install()
    with pytest.raises(NotImplementedError, match="LinearClassifier"):
        tf.keras.experimental.LinearModel()
    with pytest.raises(NotImplementedError, match="DNNLinearCombinedClassifier"):
        tf.compat.v1.keras.experimental.WideDeepModel(None, None)


def test_legacy_keras_optimizer_takes_a_tensor_learning_rate():
    ec.install()

    with tf.Graph().as_default():  # as in a canned estimator's optimizer lambda
        rate = tf.constant(0.1) * 2
        opt = tf.keras.optimizers.legacy.Ftrl(learning_rate=rate, l1_regularization_strength=0.1)
        assert opt._estimator_compat_tensor_rate is rate
    assert isinstance(opt, keras.optimizers.Ftrl)
    assert tf.keras.optimizers.legacy.SGD(0.5).learning_rate.numpy() == pytest.approx(0.5)
