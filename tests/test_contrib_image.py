"""tf.contrib.image against TF 1.15.5's record (tests/tf115_cases/contrib_image.py): rotations,
translations and projective transforms (nearest and bilinear), composed transforms, connected
components, dense and sparse warps (and the warp's gradient), splines and bipartite matching."""
import pytest

from tf115_cases import harness

MODULE = "contrib_image"


@pytest.fixture(scope="module")
def ours():
    return harness.run_here(MODULE)


@pytest.mark.parametrize("name", list(harness.cases(MODULE)))
def test_case_matches_tf115(ours, name):
    harness.compare(ours[name], harness.recorded(MODULE)[name], harness.cases(MODULE)[name])
