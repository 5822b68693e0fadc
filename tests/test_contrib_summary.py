"""tf.contrib.summary against TF 1.15.5: the cases of tests/tf115_cases/contrib_summary.py run
here and compared with TF 1.15's record (tests/fixtures/tf115_cases/contrib_summary.json)."""
import pytest

from tf115_cases import harness

MODULE = "contrib_summary"


@pytest.fixture(scope="module")
def ours():
    return harness.run_here(MODULE)


@pytest.mark.parametrize("name", list(harness.cases(MODULE)))
def test_case_matches_tf115(ours, name):
    harness.compare(ours[name], harness.recorded(MODULE)[name], harness.cases(MODULE)[name])
