"""tf.contrib.distributions.bijectors against TF 1.15.5: every public name TF 1.15 had there
(tests/fixtures/tf115_contrib_distributions_bijectors.json) is served by a real class or
function, and the recorded cases (tests/tf115_cases/contrib_distributions_bijectors.py) give
TF 1.15's values, shapes, names, variables and errors."""
import inspect
import json
import os

from tf115_cases import harness

MODULE = "contrib_distributions_bijectors"
NAMES = os.path.join(os.path.dirname(__file__), "fixtures",
                     "tf115_contrib_distributions_bijectors.json")

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_every_tf115_bijectors_name_is_served():
    from tensorflow.python.ops.distributions import bijector_impl

    from estimator_compat.legacy.contrib.distributions_parts import bijectors
    with open(NAMES) as f:
        names = json.load(f)
    module = bijectors.build()
    assert len(names) == 34 and module.__served_whole__
    assert sorted(n for n in vars(module) if not n.startswith("_")) == names
    for name in names:
        value = getattr(module, name)
        if inspect.isclass(value):
            assert issubclass(value, bijector_impl.Bijector), name
            assert inspect.getsource(value.__init__) or value is bijector_impl.Bijector
        else:
            assert inspect.isfunction(value) and name[0].islower(), name


def test_tf115_module_paths_import():
    """`from tensorflow.contrib.distributions.python.ops.bijectors.affine import Affine` and
    the bijectors package path give the same classes."""
    import importlib

    from estimator_compat.legacy import tf1_view
    bijectors = tf1_view.build().contrib.distributions.bijectors
    deep = importlib.import_module("tensorflow.contrib.distributions.python.ops.bijectors")
    maf = importlib.import_module(
        "tensorflow.contrib.distributions.python.ops.bijectors.masked_autoregressive")
    assert deep.Affine is bijectors.Affine and deep.Identity is bijectors.Identity
    assert maf.masked_dense is bijectors.masked_dense
    assert importlib.import_module("tensorflow.contrib.distributions.bijectors") is bijectors
