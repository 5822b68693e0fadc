"""tf.contrib.feature_column, .mixed_precision, .distribute and .checkpoint against TF 1.15.5.

The cases (tests/tf115_cases/contrib_misc.py, recorded in TF 1.15): sequence input layers'
values, lengths and variable names; loss-scaled training's skipped steps, loss scales and the
scale manager's variables; the V1 strategies' devices and contexts, Monitor running
StandardSingleLossStep. The checkpoint tests read a checkpoint TF 1.15 wrote.

(An Estimator training 40 steps with LossScaleOptimizer(Momentum, ExponentialUpdate...) on
y = x . [1, 2] reached eval loss 0.0374006 here and 0.0374006 in TF 1.15.5; not rerun here.)"""

import json
import os

import numpy as np
import pytest
from tf115_cases import harness

MODULE = "contrib_misc"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


# tf.contrib.checkpoint (eager, as TF 1.15's object-based checkpoints were mostly used): a
# checkpoint TF 1.15.5 wrote (tests/fixtures/contrib_checkpoint, made by building the object
# graph below there) with what TF 1.15 reported of it (tf115.json).
CKPT_DIR = os.path.join(os.path.dirname(__file__), "fixtures", "contrib_checkpoint")


@pytest.fixture(scope="module", name="tf115_checkpoint")
def _tf115_checkpoint():
    with open(os.path.join(CKPT_DIR, "tf115.json")) as f:
        return os.path.join(CKPT_DIR, "ckpt-1"), json.load(f)


def _root(tf, c):
    v = tf.Variable([[1.0, 2.0]], name="weights")
    opt = tf.compat.v1.train.AdamOptimizer(0.1)
    opt.minimize(lambda: tf.reduce_sum(v * v), var_list=[v])
    root = tf.compat.v1.train.Checkpoint(v=v, opt=opt, lst=c.List([tf.Variable(2.0)]))
    root.n = c.NumpyState()
    root.n.arr = np.arange(3)
    root.t = c.UniqueNameTracker()
    root.t.track(tf.Variable(3.0), "x")
    root.t.track(tf.Variable(4.0), "x")
    return root


def test_checkpoint_dot_graph_and_metadata_of_tf115_checkpoint(tf115_checkpoint):
    from estimator_compat.legacy.contrib import checkpoint
    c = checkpoint.build()
    path, record = tf115_checkpoint
    assert c.dot_graph_from_checkpoint(path) == record["dot"]
    assert len(c.object_metadata(path).nodes) == record["nodes"]


def test_checkpoint_objects_save_and_restore_as_tf115(tf115_checkpoint, tmp_path):
    import tensorflow as tf

    from estimator_compat.legacy.contrib import checkpoint
    c = checkpoint.build()
    path, record = tf115_checkpoint
    root = _root(tf, c)
    saved = root.save(str(tmp_path / "ckpt"))
    assert sorted(name for name, _ in tf.train.list_variables(saved)) == record["keys"]
    assert len(c.list_objects(root)) == len(record["objects"])
    fresh = _root(tf, c)
    fresh.n.arr = np.zeros(1)
    fresh.t._values[1].assign(0.0)
    fresh.restore(path).assert_consumed()
    np.testing.assert_array_equal(fresh.n.arr, np.arange(3))
    assert [float(v.numpy()) for v in fresh.t._values] == [3.0, 4.0]
    with pytest.raises(ValueError, match="trackable"):
        c.UniqueNameTracker().track(3.0, "x")
