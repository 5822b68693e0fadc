"""tensorflow_hub 0.15's TF1 `hub.Module` in estimator programs (issue 41).

`hub.Module` imports its module's MetaGraph into the caller's graph; inside our traced steps
its variables are adopted by the Estimator's variable store (`engine/imported_variables.py`)
and its Saver is left unbuilt (`engine/trace_savers.py`). tensorflow-hub is installed with
`pip install --no-deps tensorflow-hub==0.15.0` (0.16 removed `hub.Module`); these tests are
skipped where it is absent. The variable adoption itself is tested without hub in
`tests/test_imported_variables.py`.
"""
import importlib.util
import json
import os

import numpy as np
import pytest
import tensorflow as tf
from helpers import PROGRAMS, run_program

HUB_PROGRAM = os.path.join(PROGRAMS, "hub_module", "hub_text.py")
TF115_MODULE = os.path.join(PROGRAMS, "hub_module", "tf115_module")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("tensorflow_hub") is None,
    reason="pip install --no-deps tensorflow-hub==0.15.0")

# TF 1.15.5's checkpoint names for the program's two estimators (Adagrad slots left out)
EMBEDDINGS = ("dnn/input_from_feature_columns/input_layer/sentence_hub_module_embedding/"
              "module/embeddings")
DNN_NAMES = ["dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_0/kernel", EMBEDDINGS,
             "dnn/logits/bias", "dnn/logits/kernel", "global_step"]
CUSTOM_NAMES = ["global_step", "logits/bias", "logits/kernel", "text_module/embeddings"]


def test_hub_text_classifier_program(tmp_path):
    """tests/programs/hub_module/hub_text.py under `estimator-compat run`: a module made with
    `hub.create_module_spec` and exported here, used by `hub.text_embedding_column` in a
    DNNClassifier (trained, evaluated, exported and served in a TF1 session); TF 1.15.5's export of the module (reference variables) in a model_fn's
    `hub.Module`, train_and_evaluate with `hub.LatestModuleExporter`, the exported module
    applied in a TF1 session. On the same program, TF 1.15.5 + hub 0.15.0 reached DNN accuracy
    0.8100, model_fn accuracy 0.8075, predicted [1, 1, 1, 0, 1, 0, 0, 1]; TF 2.15.1 +
    tensorflow-estimator 2.15 (compat.v1) 0.8125 and 0.8100, the same predictions; here
    0.7975 and 0.8150 (400 examples: 0.0025 each)."""
    out, _ = run_program(HUB_PROGRAM, "--work_dir", tmp_path,
                         "--module", TF115_MODULE)
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert result["dnn_accuracy"] > 0.77 and result["accuracy"] > 0.77
    assert result["dnn_global_step"] == 200 and result["global_step"] == 200
    assert result["dnn_checkpoint"] == DNN_NAMES
    assert result["checkpoint"] == CUSTOM_NAMES
    assert result["dnn_embeddings_moved"] > 0.1 and result["embeddings_moved"] > 0.1  # trained
    assert result["dnn_served_error"] < 1e-5  # export_saved_model restored the module's values
    agree = sum(a == b for a, b in zip(result["predicted"], [1, 1, 1, 0, 1, 0, 0, 1]))
    assert agree >= 7
    assert result["exported_files"] == ["assets", "saved_model.pb", "tfhub_module.pb",
                                        "variables"]
    assert result["served_error"] < 1e-5  # the exported module holds the trained values


def test_text_embedding_columns_start_from_the_module_checkpoint(tmp_path):
    """TF 2 style (`install()`): two frozen `text_embedding_column`s over TF 1.15's module
    (its initializer gives zeros, its checkpoint the values) in a DNNClassifier. As in TF1,
    each column's module variable starts from the module's checkpoint, stays out of
    TRAINABLE_VARIABLES (no optimizer slot) and is saved in model_dir's checkpoint, under the
    names TF 1.15.5 gave them (`.../title_hub_module_embedding/module/embeddings`)."""
    import estimator_compat as ec
    ec.install()
    import tensorflow_hub as hub

    values = tf.train.load_variable(os.path.join(TF115_MODULE, "variables", "variables"),
                                    "embeddings")
    assert np.abs(values).max() > 0.1

    def input_fn():
        texts = np.array(["good film", "awful plot", "the actor was great", "poor movie"])
        return tf.data.Dataset.from_tensor_slices(
            ({"title": texts, "body": texts[::-1]}, np.array([1, 0, 1, 0]))).repeat(2).batch(4)

    columns = [hub.text_embedding_column(key, module_spec=TF115_MODULE)
               for key in ("title", "body")]
    est = tf.estimator.DNNClassifier(hidden_units=[4], feature_columns=columns,
                                     model_dir=str(tmp_path))
    est.train(input_fn, steps=2)
    names = dict(tf.train.list_variables(str(tmp_path)))
    for key in ("title", "body"):
        name = EMBEDDINGS.replace("sentence", key)
        assert names[name] == [17, 8] and name + "/Adagrad" not in names
        np.testing.assert_array_equal(est.get_variable_value(name), values)
    metrics = est.evaluate(input_fn)
    assert metrics["global_step"] == 2
    probabilities = [p["probabilities"] for p in est.predict(input_fn)]
    assert len(probabilities) == 8 and np.allclose(np.sum(probabilities, axis=1), 1.0)
