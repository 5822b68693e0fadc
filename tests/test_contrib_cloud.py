"""tf.contrib.cloud: BlockCacheParams against TF 1.15.5 (tests/tf115_cases/contrib_cloud.py);
the names whose ops TensorFlow 2 removed raise the error naming what to use, in every import
form."""
import pytest

from tf115_cases import harness

MODULE = "contrib_cloud"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


@pytest.mark.parametrize("name, words", [
    ("configure_gcs", "GOOGLE_APPLICATION_CREDENTIALS"),
    ("ConfigureGcsHook", "GCS_READ_CACHE_MAX_SIZE_MB"),
    ("configure_colab_session", "authenticate_user"),
    ("BigQueryReader", "google-cloud-bigquery"),
    ("BigtableClient", "google-cloud-bigtable"),
    ("BigtableTable", "google-cloud-bigtable")])
def test_removed_ops_name_their_replacement(name, words):
    from estimator_compat.legacy import tf1_view, user_code
    cloud = tf1_view.build().contrib.cloud
    with pytest.raises(AttributeError, match=words):
        getattr(cloud, name)
    with pytest.raises(ImportError, match=words):  # a program's `from ... import` statement
        exec(f"from tensorflow.contrib.cloud import {name}",
             {"__builtins__": user_code.user_builtins()})
