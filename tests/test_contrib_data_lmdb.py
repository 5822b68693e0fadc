"""tf.contrib.data.LMDBDataset against TF 1.15.5: the cases of
tests/tf115_cases/contrib_data_lmdb.py run here (where the lmdb package is installed) and
compared with TF 1.15's record (tests/fixtures/tf115_cases/contrib_data_lmdb.json)."""
import pytest

from tf115_cases import harness

pytest.importorskip("lmdb")

MODULE = "contrib_data_lmdb"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)
