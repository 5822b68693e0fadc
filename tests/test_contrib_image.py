"""tf.contrib.image against TF 1.15.5's record (tests/tf115_cases/contrib_image.py): rotations,
translations and projective transforms (nearest and bilinear), composed transforms, connected
components, dense and sparse warps (and the warp's gradient), splines and bipartite matching."""

from tf115_cases import harness

MODULE = "contrib_image"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
