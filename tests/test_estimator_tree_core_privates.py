"""tensorflow_estimator 2.15's core privates served under its module paths (issue 45):
`model_fn`'s spec validators, `run_config`'s cluster and property checks, `estimator`'s and
`training`'s privates (`_TrainingExecutor` training a tiny model with run_local), the
`extenders` / `exporter` / `export.export` checks, `head.*` and `early_stopping` privates and
`keras_lib`'s helpers give what 2.15 gave on the same calls: tests/estimator_tree_core_cases.py,
recorded in TF 2.15.1 + tensorflow-estimator 2.15 by tests/fixtures/make_tf215_core_privates.py
(tests/fixtures/tf215_core_privates.json)."""
import importlib
import json
import pathlib

import estimator_tree_core_cases as cases
import pytest

import estimator_compat

RECORDED = json.loads((pathlib.Path(__file__).parent / "fixtures" /
                       "tf215_core_privates.json").read_text())


@pytest.fixture(scope="module", autouse=True)
def installed():
    estimator_compat.install()


def _import(path):
    return importlib.import_module("tensorflow_estimator.python.estimator." + path)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_tf215(name):
    assert cases.run_all(_import, [name])[name] == RECORDED[name]
