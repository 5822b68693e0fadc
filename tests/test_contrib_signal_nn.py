"""tf.contrib.signal, .stateless, .sparsemax and .nn against TF 1.15.5's record
(tests/tf115_cases/contrib_signal_nn.py): values on fixed inputs and seeds, sparsemax's
gradients, op names and the errors of bad seeds."""
import pytest

from tf115_cases import harness

MODULE = "contrib_signal_nn"


@pytest.fixture(scope="module")
def ours():
    return harness.run_here(MODULE)


@pytest.mark.parametrize("name", list(harness.cases(MODULE)))
def test_case_matches_tf115(ours, name):
    harness.compare(ours[name], harness.recorded(MODULE)[name], harness.cases(MODULE)[name])
