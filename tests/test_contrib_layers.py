"""tf.contrib.layers against TF 1.15.5's record (tests/tf115_cases/contrib_layers.py): variable
names and scopes, MODEL_VARIABLES / UPDATE_OPS / REGULARIZATION_LOSSES, summaries, values."""
import pytest

from tf115_cases import harness


@pytest.fixture(scope="module")
def ours():
    return harness.run_here("contrib_layers")


@pytest.mark.parametrize("case", sorted(harness.cases("contrib_layers")))
def test_case_matches_tf115(ours, case):
    harness.compare(ours[case], harness.recorded("contrib_layers")[case],
                    harness.cases("contrib_layers")[case])
