"""tf.contrib counted against TF 1.15's own public names (tests/fixtures/tf115_api.json, made
by tools/tf115_census.py in the TF 1.15 side venv): a module served whole resolves every name
TF 1.15 had there, or raises the error naming its TensorFlow 2 replacement, deliberately
(listed in legacy/contrib/missing.py)."""
import pytest

from estimator_compat.legacy import tf1_view
from estimator_compat.legacy.contrib import missing
from tools import contrib_coverage

ROWS = contrib_coverage.census()


@pytest.mark.parametrize("row", [r for r in ROWS if r[1]], ids=lambda r: r[0])
def test_module_served_whole_has_every_tf115_name(row):
    module, _, served, declined, absent = row
    assert not absent, f"tf.contrib.{module} lacks {absent}"
    undeclared = [n for n in declined if f"{module}.{n}" not in missing.REPLACEMENTS]
    assert not undeclared, f"declined without a named replacement: {undeclared}"


def test_declined_name_error_names_its_replacement():
    contrib = tf1_view.build().contrib
    with pytest.raises(AttributeError, match="tf.contrib.tensor_forest.*in TensorFlow 2 use"):
        contrib.tensor_forest  # noqa: B018


def test_every_module_not_served_names_its_replacement():
    """A tf.contrib module of TF 1.15 we do not serve says what replaced it, not only that
    tf.contrib is gone."""
    served = {row[0] for row in ROWS if row[1]}
    unserved = sorted(set(contrib_coverage.tf115_api()["contrib"]) - served)
    assert unserved and all(module in missing.REPLACEMENTS for module in unserved), [
        m for m in unserved if m not in missing.REPLACEMENTS]


def test_census_lists_what_tf115_had():
    api = contrib_coverage.tf115_api()
    assert api["tensorflow"] == "1.15.5"
    assert len(api["contrib"]) == 73 and len(api["contrib"]["layers"]) == 98
    assert sum(len(names) for names in api["contrib"].values()) == 2355


def test_tf_modules_outside_contrib_have_every_tf115_name():
    """tf.<module>.<name> for every module TF 1.15 had outside contrib (raw_ops' TPU-embedding
    debug ops and tf.flags' `__future__` imports aside)."""
    tf = tf1_view.build()
    api = contrib_coverage.tf115_api()["tf"]
    absent = []
    for module, names in api.items():
        if module == "raw_ops":
            continue
        served = getattr(tf, module)
        absent += [f"{module}.{n}" for n in names if n not in (
            "absolute_import", "division", "print_function") and not hasattr(served, n)]
    assert absent == [], absent
