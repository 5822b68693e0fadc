"""A legacy module path estimator_compat does not serve fails to import with an error that says
so and names the replacement, in every import form (legacy/unserved_paths.py); served paths
keep importing."""
import importlib
import subprocess
import sys
import textwrap

import pytest

import estimator_compat

estimator_compat.install()

FORMS = {
    "import a.b.c": "import {path}",
    "from a.b import c": "from {parent} import {child}",
    "from a.b.c import name": "from {path} import something",
    "importlib": "importlib.import_module({path!r})",
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("path,text", [
    ("tensorflow.python.estimator.canned.not_a_module",
     "does not serve this module of tensorflow_estimator"),
    ("tensorflow_estimator.python.estimator.tools.not_a_module",
     "served as tf.estimator and tf.compat.v1.estimator"),
    ("tensorflow.contrib.tensor_forest", "in TensorFlow 2 use TensorFlow Decision Forests"),
    ("tensorflow.contrib.not_a_module", "tf.contrib was removed in TensorFlow 2.0"),
])
def test_unserved_path_names_what_to_use(form, path, text):
    parent, _, child = path.rpartition(".")
    code = FORMS[form].format(path=path, parent=parent, child=child)
    with pytest.raises(ImportError, match=text) as raised:
        exec(code, {"importlib": importlib})
    assert "unknown location" not in str(raised.value)
    assert "is not a package" not in str(raised.value)


def test_served_paths_still_import():
    from tensorflow.python.estimator.model_fn import EstimatorSpec
    from tensorflow_estimator.python.estimator import run_config
    import tensorflow.contrib.training.python.training.hparam as hparam
    assert EstimatorSpec is estimator_compat.EstimatorSpec
    assert run_config.RunConfig is estimator_compat.RunConfig
    assert hparam.HParams is estimator_compat.learn.HParams


def test_a_library_probing_for_a_contrib_module_takes_its_fallback():
    """`try: from tensorflow.contrib import X / except ImportError:` (libraries choosing a
    TF1 code path) still lands in the except branch, with the hint in the message."""
    code = textwrap.dedent("""
        import estimator_compat; estimator_compat.install()
        try:
            from tensorflow.contrib import tensor_forest
        except ImportError as e:
            print("FALLBACK", e)
        """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert "FALLBACK tf.contrib.tensor_forest is not provided" in out.stdout, out.stderr[-2000:]
