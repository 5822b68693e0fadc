"""The TF 1.15 case harness (tests/tf115_cases/harness.py) compares what it should: the cases
of harness_selfcheck.py against TF 1.15.5's record, and a changed record fails."""
import copy

import pytest

from tf115_cases import harness


@pytest.fixture(scope="module")
def ours():
    return harness.run_here("harness_selfcheck")


def test_selfcheck_cases_match_tf115(ours):
    theirs = harness.recorded("harness_selfcheck")
    assert sorted(ours) == sorted(theirs)
    for name, case in harness.cases("harness_selfcheck").items():
        harness.compare(ours[name], theirs[name], case)


def test_a_different_value_name_or_error_fails(ours):
    theirs = harness.recorded("harness_selfcheck")["variables_and_global_step"]
    case = harness.cases("harness_selfcheck")["variables_and_global_step"]
    for change in (lambda r: r["values"].update(w=[[1.0] * 3, [1.0, 1.0, 1.5]]),
                   lambda r: r["variables"][0].__setitem__(0, "block/v"),
                   lambda r: r.update(error="TypeError")):
        changed = copy.deepcopy(theirs)
        change(changed)
        with pytest.raises(AssertionError):
            harness.compare(ours["variables_and_global_step"], changed, case)
