"""Run a module's TF 1.x cases: in TensorFlow 1.15 to record them, here to compare with that.

A case is `case_<name>(tf)`: it builds its ops in a fresh graph (graph seed 0) and returns
either a dict of fetches, evaluated once after the variables, local variables and tables are
initialized, or a function `run(sess) -> dict` for cases that train, feed or run several times.
What is recorded per case: the fetched values, the global variables (names and shapes), the
names in the collections TF1 code reads, and the error type where the case raises.

Random initial values differ between TF 1.15 and here (op-level seeds come from the op count),
so values are compared only where a case makes them deterministic (constant initializers, numpy
inputs); names, shapes and collections are compared always. A case may set
`case.tolerance = {"rtol": ..., "atol": ...}` or `case.values_compared = False`.

Recording, in the TF 1.15 side venv (Python 3.7, tensorflow==1.15.5), from the project root:

    python tests/tf115_cases/harness.py <module> > tests/fixtures/tf115_cases/<module>.json
"""
import importlib
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures", "tf115_cases")
COLLECTIONS = ("trainable_variables", "model_variables", "local_variables", "update_ops",
               "regularization_losses", "summaries", "losses", "moving_average_variables")


def cases(module):
    """{name: case function} of `tests/tf115_cases/<module>.py`, in file order."""
    mod = importlib.import_module("tf115_cases." + module)
    found = [(getattr(f, "__code__").co_firstlineno, n[len("case_"):], f)
             for n, f in vars(mod).items() if n.startswith("case_") and callable(f)]
    return {name: f for _, name, f in sorted(found)}


def _plain(value):
    """A fetched value as JSON: arrays as nested lists, bytes as text, structures kept."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "dense_shape") and hasattr(value, "indices"):  # SparseTensorValue
        return {"indices": _plain(value.indices), "values": _plain(value.values),
                "dense_shape": _plain(value.dense_shape)}
    if value is None or isinstance(value, (bool, str)):
        return value
    array = np.asarray(value)
    if array.dtype.kind in "SUO":
        return _plain(array.tolist())
    if array.dtype.kind == "b":
        return array.tolist()
    return array.astype(np.float64).tolist()


def _names(items):
    out = []
    for item in items:
        name = getattr(item, "name", None)
        out.append(name if isinstance(name, str) else type(item).__name__)
    return out


def _is_plain(value):
    items = value if isinstance(value, (list, tuple)) else [value]
    return all(isinstance(v, (bool, int, float, str, bytes)) or v is None for v in items)


def _run(sess, fetches):
    """sess.run of a dict whose entries may also be plain Python values (kept as they are)."""
    if not isinstance(fetches, dict):
        return sess.run(fetches)
    plain = {k: v for k, v in fetches.items() if _is_plain(v)}
    values = sess.run({k: v for k, v in fetches.items() if k not in plain})
    values.update(plain)
    return values


def run_case(tf, case):
    """Record one case with the TF 1.x module `tf` (TF 1.15's, or estimator_compat's view)."""
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(0)
        try:
            built = case(tf)
            with tf.Session() as sess:
                sess.run([tf.global_variables_initializer(), tf.local_variables_initializer(),
                          tf.tables_initializer()])
                values = built(sess) if callable(built) else _run(sess, built)
        except Exception as error:  # noqa: BLE001 - misuse cases record the error's type
            return {"error": type(error).__name__}
        return {
            "values": _plain(values),
            "variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
            "collections": {key: _names(tf.get_collection(key)) for key in COLLECTIONS
                            if tf.get_collection(key)},
        }


def record(module, tf):
    return {name: run_case(tf, case) for name, case in cases(module).items()}


def recorded(module):
    with open(os.path.join(FIXTURES, module + ".json")) as f:
        return json.load(f)


def _has_text(value):
    """Whether a recorded list holds strings or dicts anywhere (compared item by item), rather
    than only numbers (compared as an array)."""
    if isinstance(value, (str, dict)):
        return True
    return isinstance(value, list) and any(_has_text(v) for v in value)


def _close(ours, theirs, path, tolerance):
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs), (path, ours, theirs)
        for key in theirs:
            _close(ours[key], theirs[key], path + "." + key, tolerance)
    elif isinstance(theirs, list) and _has_text(theirs):
        assert isinstance(ours, list) and len(ours) == len(theirs), (path, ours, theirs)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, "%s[%d]" % (path, i), tolerance)
    elif isinstance(theirs, (str, bool)) or theirs is None:
        assert ours == theirs, (path, ours, theirs)
    else:
        a, b = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
        assert a.shape == b.shape, (path, a.shape, b.shape)
        np.testing.assert_allclose(a, b, err_msg=path, equal_nan=True, **tolerance)


def compare(ours, theirs, case):
    """Assert that our record of `case` matches TF 1.15's."""
    if "error" in theirs:
        assert ours.get("error") == theirs["error"], ours
        return
    assert "error" not in ours, ours
    assert ours["variables"] == theirs["variables"]
    assert ours["collections"] == theirs["collections"]
    if getattr(case, "values_compared", True):
        tolerance = dict({"rtol": 1e-5, "atol": 1e-6}, **getattr(case, "tolerance", {}))
        _close(ours["values"], theirs["values"], "values", tolerance)


def run_here(module):
    """{case: record} of `module`'s cases with estimator_compat's TF 1.x view, on a thread in
    TF 1.x's graph mode (as `estimator-compat run` runs a program's thread)."""
    import threading

    from estimator_compat.legacy import graph_mode, tf1_view
    tf = tf1_view.build()
    out, failure = {}, []

    def work():
        graph_mode.tf1_thread()
        try:
            for name, case in cases(module).items():
                out[name] = run_case(tf, case)
        except BaseException as error:  # noqa: BLE001 - re-raised on the caller's thread
            failure.append(error)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return out


def case_tests_both_variable_kinds(module):
    """As `case_tests`, each case also run on a plain thread (TensorFlow 2's resource
    variables in a TF1 graph) and compared with the same record: `ours, ours_resource,
    test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)`."""
    import pytest
    ours, _ = case_tests(module)

    @pytest.fixture(scope="module", name="ours_resource")
    def ours_resource():
        from estimator_compat.legacy import tf1_view
        tf = tf1_view.build()
        return {name: run_case(tf, case) for name, case in cases(module).items()}

    @pytest.mark.parametrize("name", list(cases(module)))
    def test_case_matches_tf115(ours, ours_resource, name):
        theirs, case = recorded(module)[name], cases(module)[name]
        compare(ours[name], theirs, case)
        compare(ours_resource[name], theirs, case)
    return ours, ours_resource, test_case_matches_tf115


def case_tests(module):
    """The two pieces each `tests/test_contrib_<module>.py` binds, `ours, test_case_matches_tf115
    = harness.case_tests(MODULE)`: a module-scoped fixture running the cases here once, and a
    test per case comparing it with TF 1.15's record."""
    import pytest

    @pytest.fixture(scope="module", name="ours")
    def ours():
        return run_here(module)

    @pytest.mark.parametrize("name", list(cases(module)))
    def test_case_matches_tf115(ours, name):
        compare(ours[name], recorded(module)[name], cases(module)[name])
    return ours, test_case_matches_tf115


def main():
    sys.path.insert(0, os.path.dirname(HERE))
    import tensorflow as tf
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    json.dump(record(sys.argv[1], tf), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
