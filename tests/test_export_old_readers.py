"""Exports write one graph that every signature shares (as tf.estimator did), and the files
written for other programs load in TensorFlow 1.15 wherever the model's ops existed there
(export/old_readers.py); what cannot is named in one log line."""
import glob
import os
import subprocess
import textwrap

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.core.protobuf import meta_graph_pb2, saved_model_pb2

import estimator_compat as ec
from estimator_compat.export import old_readers
from helpers import linear_input_fn

v1 = tf.compat.v1
TF115_PYTHON = os.environ.get("TF115_PYTHON", "/work/side/tf115/bin/python")


def _model_fn(features, labels, mode, params):
    hidden = v1.layers.dense(features["x"], 8, activation=tf.nn.relu)
    y = v1.layers.dense(hidden, 1)
    if mode == ec.ModeKeys.PREDICT:
        outputs = {"serving_default": ec.export.PredictOutput({"y": y})}
        for i in range(params["extra_signatures"]):
            outputs[f"extra_{i}"] = ec.export.PredictOutput({"y": y, "hidden": hidden})
        return ec.EstimatorSpec(mode, predictions={"y": y}, export_outputs=outputs)
    loss = tf.reduce_mean(tf.square(y - labels))
    return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.AdamOptimizer(0.01).minimize(
        loss, v1.train.get_or_create_global_step()))


def _saved_model(path):
    proto = saved_model_pb2.SavedModel()
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        proto.ParseFromString(f.read())
    return proto


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """{extra signature count: export path} of one trained model."""
    model_dir = str(tmp_path_factory.mktemp("model"))
    ec.Estimator(_model_fn, model_dir, params={"extra_signatures": 0}).train(
        linear_input_fn(), steps=5)
    receiver = ec.export.build_raw_serving_input_receiver_fn({"x": tf.zeros([1, 3])})
    return {n: ec.Estimator(_model_fn, model_dir, params={"extra_signatures": n})
            .export_saved_model(os.path.join(model_dir, f"export{n}"), receiver).decode()
            for n in (0, 3)}


def test_signatures_share_one_graph(exported):
    """Four signatures add no node to the graph one signature has."""
    one, four = (_saved_model(exported[n]).meta_graphs for n in (0, 3))
    assert len(one) == len(four) == 1
    assert sorted(four[0].signature_def) == ["extra_0", "extra_1", "extra_2", "serving_default"]
    assert len(four[0].graph_def.node) == len(one[0].graph_def.node)
    assert not four[0].graph_def.library.function  # no per-signature copies


def test_export_serves_in_tensorflow_2(exported):
    loaded = tf.saved_model.load(exported[3])
    x = np.ones([2, 3], np.float32)
    y = loaded.signatures["serving_default"](x=tf.constant(x))["y"]
    np.testing.assert_allclose(loaded.signatures["extra_1"](x=tf.constant(x))["y"], y)


def _unknown_to_tf115(graph_def):
    known = old_readers.tf115_ops()
    return sorted({f"{n.op}.{a}" if n.op in known else n.op for n in graph_def.node
                   for a in (list(n.attr) or [""]) if n.op not in known or
                   (a and not a.startswith("_") and a not in known[n.op])})


def test_written_graphs_use_only_what_tf115_had(exported):
    """Recorded expectation (CI has no TF 1.15): every op and attribute of the SavedModel and
    of the .meta files is in TF 1.15.5's op registry (estimator_compat/export/tf115_ops.json)."""
    assert _unknown_to_tf115(_saved_model(exported[3]).meta_graphs[0].graph_def) == []
    metas = glob.glob(os.path.join(os.path.dirname(exported[3]), "..", "model.ckpt-*.meta"))
    assert metas
    meta = meta_graph_pb2.MetaGraphDef()
    with open(metas[0], "rb") as f:
        meta.ParseFromString(f.read())
    assert _unknown_to_tf115(meta.graph_def) == []


def test_an_op_tf115_lacked_is_named_in_one_log_line(tmp_path, caplog):
    column = tf.feature_column.numeric_column("x", shape=[3])
    est = ec.DNNRegressor([4], [column], model_dir=str(tmp_path))
    est.train(lambda: tf.data.Dataset.from_tensors(({"x": [[1.0, 2.0, 3.0]]}, [[1.0]])), steps=1)
    receiver = ec.export.build_parsing_serving_input_receiver_fn(
        tf.feature_column.make_parse_example_spec([column]))
    with caplog.at_level("INFO", logger="tensorflow"):
        est.export_saved_model(str(tmp_path / "export"), receiver)
    lines = [r.getMessage() for r in caplog.records if "TensorFlow 1.15 cannot load" in
             r.getMessage()]
    assert len(lines) == 1 and "ops TF 1.15 did not have: ParseExampleV2" in lines[0], lines


@pytest.mark.skipif(not os.path.exists(TF115_PYTHON), reason="no TF 1.15 side venv")
def test_tensorflow_115_loads_export_meta_and_checkpoint(exported):
    """TF 1.15.5 itself (the side venv): the SavedModel in a TF1 session, the .meta with
    import_meta_graph and its Saver, the checkpoint with NewCheckpointReader, the training
    event files with summary_iterator."""
    export = exported[3]
    model_dir = os.path.dirname(os.path.dirname(export))
    code = textwrap.dedent(f"""
        import tensorflow as tf
        with tf.Session(graph=tf.Graph()) as sess:
            meta = tf.saved_model.loader.load(sess, ["serve"], {export!r})
            sig = meta.signature_def["serving_default"]
            y = sess.run(sig.outputs["y"].name, {{sig.inputs["x"].name: [[1.0, 1.0, 1.0]]}})
            print("SERVED", float(y[0][0]))
        ckpt = tf.train.latest_checkpoint({model_dir!r})
        with tf.Session(graph=tf.Graph()) as sess:
            saver = tf.train.import_meta_graph(ckpt + ".meta")
            saver.restore(sess, ckpt)
            print("META", len(tf.trainable_variables()))
        print("READER", sorted(tf.train.NewCheckpointReader(ckpt).get_variable_to_shape_map()))
        import glob
        tags = set()
        for path in glob.glob({model_dir!r} + "/events.out.tfevents.*"):
            for event in tf.train.summary_iterator(path):
                tags.update(v.tag for v in event.summary.value)
        print("EVENTS", sorted(tags))
        """)
    out = subprocess.run([TF115_PYTHON, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert "META 4" in out.stdout, out.stderr[-3000:]
    served = float(out.stdout.split("SERVED ")[1].split()[0])
    ours = tf.saved_model.load(export).signatures["serving_default"](
        x=tf.ones([1, 3]))["y"].numpy()[0][0]
    assert abs(served - ours) < 1e-5
    assert "'dense/kernel'" in out.stdout and "'global_step'" in out.stdout
    assert "'loss'" in out.stdout.split("EVENTS ")[1]  # TF 1.15 reads our event files
