"""tf.contrib.framework against TF 1.15.5's record (tests/tf115_cases/contrib_framework.py):
arg_scope, the variable helpers and their collections, checkpoint restoring, tensor helpers."""
import pytest

from tf115_cases import harness


@pytest.fixture(scope="module")
def ours():
    return harness.run_here("contrib_framework")


@pytest.mark.parametrize("case", sorted(harness.cases("contrib_framework")))
def test_case_matches_tf115(ours, case):
    harness.compare(ours[case], harness.recorded("contrib_framework")[case],
                    harness.cases("contrib_framework")[case])
