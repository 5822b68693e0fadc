"""`tpu.tpu_config._get_tpu_job_name_from_tf_config()` (tensorflow_estimator 2.15): the TPU
worker job named in the TF_CONFIG environment variable (`service.tpu_worker_job_name`), or
None."""
import json
import os


def _get_tpu_job_name_from_tf_config():
    """TF_CONFIG's `service.tpu_worker_job_name`; None when absent (TF_CONFIG must be JSON)."""
    tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    return tf_config.get("service", {}).get("tpu_worker_job_name", None)
