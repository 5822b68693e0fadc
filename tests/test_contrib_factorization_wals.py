"""tf.contrib.factorization.WALSMatrixFactorization against TF 1.15.5
(tests/tf115_cases/contrib_factorization_wals.py): the sweeps' factors, checkpointed sweep
state, evaluation losses and projections. The row evaluation right after a column sweep reads
a gramian older than the column factors; TF 1.15's kernel reported its loss 1e-4 apart
(relative) from the exact value computed here, hence the cases' rtol of 2e-4."""
import pytest
from tf115_cases import harness

MODULE = "contrib_factorization_wals"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_bad_input_is_named():
    import tensorflow as tf

    from estimator_compat.legacy.contrib.wals_estimator import WALSMatrixFactorization
    with pytest.raises(ValueError, match="max_sweeps"):
        WALSMatrixFactorization(3, 3, 2, max_sweeps=0)
    est = WALSMatrixFactorization(3, 3, 2)
    with pytest.raises(ValueError, match="input_rows"):
        est.fit(input_fn=lambda: ({"rows": tf.sparse.eye(3)}, None), steps=1)
