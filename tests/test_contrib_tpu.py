"""tf.contrib.tpu and tf.contrib.cluster_resolver off a TPU, against TF 1.15.5: the cases of
tests/tf115_cases/contrib_tpu.py, and the tensorflow/tpu ResNet-style program
(tests/programs/tpu_resnet_style/resnet_main.py --use_tpu=False).

The program under TF 1.15.5: top_1_accuracy 0.9900 / top_2 1.0000 at step 60 (run twice, the
same); the host_call wrote `loss`, `learning_rate` and `current_epoch` as simple_value scalars,
60 of each, to `<model_dir>/events.out.tfevents.*.v2`, at steps 0..59; the export had a
`serving_default` of `images` [-1, 16, 16, 3] -> `classes`, `probabilities` (tag sets 'serve' and
'serve, tpu'). Ours: 0.995 / 1.0, the same tags, kinds and counts, at steps 0..59 (the
host_call's global step, read after `minimize` in the program, is the step's own, as TF 1.15's
session read it: engine/step_reads.py); the same signature, tag set 'serve' only."""
import glob
import os

import pytest
import tensorflow as tf

from helpers import run_program
from tf115_cases import harness

MODULE = "contrib_tpu"
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_what_needs_a_tpu_says_so():
    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    for name in ("rewrite", "shard", "cross_replica_sum", "infeed_dequeue", "Topology"):
        with pytest.raises(AttributeError, match="TPU|Topology"):
            getattr(contrib.tpu, name)
    resolver = contrib.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec({"worker": ["localhost:2222"]}), task_type="worker", task_id=0)
    union = contrib.cluster_resolver.UnionClusterResolver(resolver)
    assert union.cluster_spec().as_dict() == {"worker": ["localhost:2222"]}
    with pytest.raises(ValueError, match="jobs"):
        contrib.cluster_resolver.SlurmClusterResolver({})


def _host_call_events(model_dir):
    """{tag: (kind, [steps])} of the host_call's event file (<model_dir>/*.v2, not the
    Estimator's own)."""
    out = {}
    for path in glob.glob(os.path.join(model_dir, "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag in ("loss", "learning_rate", "current_epoch"):
                    kind, steps = out.setdefault(value.tag, (value.WhichOneof("value"), []))
                    steps.append(event.step)
    return out


def test_resnet_style_program(tmp_path):
    out, _ = run_program(os.path.join(PROGRAMS, "tpu_resnet_style", "resnet_main.py"),
                         "--use_tpu=False", "--model_dir", tmp_path / "model",
                         "--export_dir", tmp_path / "export")
    serving = tf.saved_model.load(out.split("exported to ")[1].split()[0])
    outputs = serving.signatures["serving_default"](images=tf.zeros([2, 16, 16, 3]))
    assert outputs["probabilities"].shape == (2, 4) and outputs["classes"].shape == (2,)
    tmp_path = tmp_path / "model"
    accuracy = float(out.split("top_1_accuracy = ")[1].split(",")[0])
    assert accuracy > 0.95, out
    assert "Evaluation finished after training step 60" in out and "global_step = 60" in out
    events = _host_call_events(str(tmp_path))
    assert sorted(events) == ["current_epoch", "learning_rate", "loss"]
    for kind, steps in events.values():
        assert kind == "simple_value" and len(steps) == 60
        assert sorted(steps) == list(range(60))
    assert os.path.exists(tmp_path / "model.ckpt-60.index")
