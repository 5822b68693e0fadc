"""tf.contrib.keras: every name TF 1.15.5 had in its 16 submodules (tests/fixtures/
tf115_contrib_keras_names.json) resolves in Keras 3 or raises an error naming what to use; the
functions the aliases pointed at give TF 1.15's values (tests/tf115_cases/contrib_keras.py)."""
import json
import os

import pytest

from tf115_cases import harness

MODULE = "contrib_keras"
NAMES = os.path.join(os.path.dirname(__file__), "fixtures", "tf115_contrib_keras_names.json")


def test_functions_match_tf115():
    ours = harness.run_here(MODULE)
    harness.compare(ours["functions"], harness.recorded(MODULE)["functions"],
                    harness.cases(MODULE)["functions"])


def test_every_tf115_name_resolves_or_names_its_replacement():
    from estimator_compat.legacy import tf1_view
    keras = tf1_view.build().contrib.keras
    with open(NAMES) as f:
        names = json.load(f)
    declined = []
    for module, members in names.items():
        for name in members:
            for served in (getattr(keras, module), getattr(keras.api.keras, module)):
                try:
                    getattr(served, name)
                except AttributeError as error:
                    assert "in TensorFlow 2 use" in str(error), (module, name, error)
                    declined.append(f"{module}.{name}")
    assert len(declined) < 60, declined


def test_deep_import_paths():
    from estimator_compat.legacy import tf1_view
    tf1_view.build()
    import tensorflow.contrib.keras.api.keras.layers as layers  # noqa: F401 - registered path
    from tensorflow.contrib.keras import backend
    assert backend.floatx() == "float32" and layers.Dense is not None
    with pytest.raises(AttributeError, match="tf.keras.Input"):
        backend.placeholder  # noqa: B018
