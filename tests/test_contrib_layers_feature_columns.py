"""tf.contrib.layers' feature columns against TF 1.15.5's record
(tests/tf115_cases/contrib_layers_fc.py): input_from_feature_columns /
weighted_sum_from_feature_columns values, variable names and collections, crossed_column's
hashed ids (both SparseFeatureCross kernels), parse specs and parsing."""
import pytest
from tf115_cases import harness


@pytest.fixture(scope="module")
def ours():
    return harness.run_here("contrib_layers_fc")


@pytest.mark.parametrize("case", sorted(harness.cases("contrib_layers_fc")))
def test_case_matches_tf115(ours, case):
    harness.compare(ours[case], harness.recorded("contrib_layers_fc")[case],
                    harness.cases("contrib_layers_fc")[case])
