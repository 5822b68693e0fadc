"""RunConfig(session_config=ConfigProto(...)): applied to TF 2's runtime where it can be."""
import subprocess
import sys
import textwrap

import pytest
import tensorflow as tf

import estimator_compat as ec

SCRIPT = textwrap.dedent("""
    import tensorflow as tf
    import estimator_compat as ec
    model_fn = lambda features, labels, mode: None
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
                                      inter_op_parallelism_threads=2, device_count={"GPU": 0},
                                      gpu_options=tf.compat.v1.GPUOptions(allow_growth=True))
    ec.Estimator(model_fn, config=ec.RunConfig(session_config=config))
    print("THREADS", tf.config.threading.get_intra_op_parallelism_threads(),
          tf.config.threading.get_inter_op_parallelism_threads(),
          len(tf.config.get_visible_devices("GPU")))
    tf.constant(1.0)  # the runtime starts: later thread settings cannot apply
    late = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=3)
    ec.Estimator(model_fn, config=ec.RunConfig(session_config=late))
    """)


def test_session_config_applies_before_the_runtime_starts_and_warns_after():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "THREADS 1 2 0" in proc.stdout
    assert ("session_config: intra/inter_op_parallelism_threads could not be applied" in
            proc.stderr)


def test_session_config_must_be_a_config_proto(tmp_path):
    with pytest.raises(TypeError, match="session_config must be a tf.compat.v1.ConfigProto"):
        ec.Estimator(lambda features, labels, mode: None, model_dir=str(tmp_path),
                     config=ec.RunConfig(session_config={"allow_growth": True}))
    ec.Estimator(lambda features, labels, mode: None, model_dir=str(tmp_path),
                 config=ec.RunConfig(session_config=tf.compat.v1.ConfigProto(
                     allow_soft_placement=True)))
