"""tf.contrib.specs against TF 1.15.5 (tests/tf115_cases/contrib_specs.py): nets built from
spec strings (values, slim's variable names and shapes), the summaries' strings, parameter
counts and printed trees, Shared / Var scopes, the parameter language's seeded draws,
LocalImport, debug mode and the errors' messages, with reference and resource variables; plus
the TF 1.15 import paths."""
from tf115_cases import harness

MODULE = "contrib_specs"


# also on a plain thread: TensorFlow 2's resource variables, which the summaries read as TF 1.15's
ours, ours_resource, test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)


def test_tf115_paths_and_exec_environments():
    import importlib

    from estimator_compat.legacy.contrib import specs
    namespace = specs.build()
    for part in ("params_ops", "specs", "specs_lib", "specs_ops", "summaries"):
        module = importlib.import_module("tensorflow.contrib.specs.python." + part)
        assert getattr(namespace, part) is module
    assert namespace.ops.__name__ == "tensorflow.python.framework.ops"
    assert namespace.specs.ops.names is vars(namespace.specs_ops)
    assert namespace.layers.__name__ == "tensorflow.contrib.layers.python.layers.layers"
    assert namespace.Cr.f is namespace.layers.conv2d and namespace.pi == namespace.math.pi
