"""BoostedTreesClassifier / Regressor / Estimator against tf.estimator 2.8, the last release
that had them: tests/fixtures/tf28_boosted_trees/expected.json holds what 2.8 made of each
case of boosted_trees_cases.py (written by make_tf28_boosted_trees.py in a TF 2.8 venv).

The trees must be the same trees: every node's split (feature, bucket, kind, default
direction), children, gains and layer bookkeeping; leaf values, predictions, metrics,
importances and explanations equal up to float32 rounding (TensorFlow 2.21's `exp` differs
from 2.8's in the last bit). Multi-class leaves solve a singular (softmax) hessian: any
solution differs from 2.8's by a constant per leaf, so logits are compared up to that shift
and probabilities exactly.
"""
import base64
import json
import os
import shutil

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from boosted_trees_cases import CASES, data, estimator, eval_input_fn, predict_input_fn
from estimator_compat.canned.boosted_trees import ensemble as ensemble_lib, quantiles

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "tf28_boosted_trees")
with open(os.path.join(FIXTURE, "expected.json")) as _f:
    EXPECTED = json.load(_f)


def structure(ensemble):
    """Everything about the trees but the float values."""
    nodes = []
    for tree in ensemble.trees:
        for node in tree.nodes:
            kind = node.WhichOneof("node")
            split = getattr(node, kind)
            nodes.append((kind, tuple(sorted((f.name, v) for f, v in split.ListFields()))
                          if kind != "leaf" else None, node.HasField("metadata"),
                          node.metadata.HasField("original_leaf")))
    meta = [(m.num_layers_grown, m.is_finalized, [e.new_node_id for e in
                                                   m.post_pruned_nodes_meta])
            for m in ensemble.tree_metadata]
    return nodes, meta, str(ensemble.growing_metadata), list(ensemble.tree_weights)


def values(ensemble):
    return np.array([ensemble_lib.node_value(ensemble, t, n) or [0.0] for t, tree in
                     enumerate(ensemble.trees) for n in range(len(tree.nodes))])


def gains(ensemble):
    return np.array([n.metadata.gain for t in ensemble.trees for n in t.nodes])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Each case trained once here (the tests below read the results)."""
    out = {}
    for name, case in CASES.items():
        model_dir = str(tmp_path_factory.mktemp(name))
        est, train_input_fn = estimator(tf, ec, case, model_dir)
        est.train(train_input_fn, max_steps=case.get("steps", 200))
        out[name] = est
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_trees_as_tf28(trained, name):
    expected = EXPECTED[name]
    theirs = ensemble_lib.parse(base64.b64decode(expected["ensemble"]))
    reader = tf.train.load_checkpoint(trained[name].model_dir)
    ours = ensemble_lib.parse(reader.get_tensor("boosted_trees:0_serialized"))
    assert structure(ours) == structure(theirs)
    assert int(reader.get_tensor("boosted_trees:0_stamp")) == expected["stamp"]
    np.testing.assert_allclose(gains(ours), gains(theirs), rtol=1e-4, atol=1e-7)
    ours_v, theirs_v = values(ours), values(theirs)
    if CASES[name]["task"] == "multi":  # defined up to a constant per leaf
        ours_v = ours_v - ours_v.mean(1, keepdims=True)
        theirs_v = theirs_v - theirs_v.mean(1, keepdims=True)
    np.testing.assert_allclose(ours_v, theirs_v, atol=2e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_metrics_and_predictions_as_tf28(trained, name):
    case, expected, est = CASES[name], EXPECTED[name], trained[name]
    metrics = est.evaluate(eval_input_fn(tf, case))
    assert sorted(metrics) == sorted(expected["metrics"])
    for key, value in expected["metrics"].items():
        assert metrics[key] == pytest.approx(value, rel=2e-5, abs=1e-6), key
    key = "predictions" if case["task"] == "regress" else "logits"
    predictions = np.array([p[key] for p in est.predict(predict_input_fn(tf, case))][:20])
    theirs = np.array(expected["predictions"])
    if case["task"] == "multi":
        predictions, theirs = tf.nn.softmax(predictions).numpy(), tf.nn.softmax(theirs).numpy()
    np.testing.assert_allclose(predictions, theirs, atol=2e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_feature_importances_and_explanations_as_tf28(trained, name):
    case, expected, est = CASES[name], EXPECTED[name], trained[name]
    importances = est.experimental_feature_importances(normalize=False)
    if "importances" in expected:
        assert list(importances) == [k for k, _ in expected["importances"]]
        np.testing.assert_allclose(list(importances.values()),
                                   [v for _, v in expected["importances"]], rtol=1e-5)
    else:  # 2.8 refused categorical splits here; they count as any other split
        assert "categorical_split" in expected["importances_error"]
        assert "id" in importances and all(v >= 0 for v in importances.values())
    if min(importances.values()) >= 0:
        normalized = est.experimental_feature_importances(normalize=True)
        assert sum(normalized.values()) == pytest.approx(1.0)
    else:  # splits of negative gain (kept before post-pruning), as 2.8 refused
        with pytest.raises(ValueError, match="must be non-negative"):
            est.experimental_feature_importances(normalize=True)
    if "explanations" not in expected:
        return
    explained = list(est.experimental_predict_with_explanations(
        predict_input_fn(tf, case, batch=5)))[:3]
    for ours, (bias, dfc) in zip(explained, expected["explanations"]):
        assert ours["bias"] == pytest.approx(bias, abs=1e-6)
        assert sorted(ours["dfc"]) == sorted(dfc)  # (the fixture's json sorts keys)
        np.testing.assert_allclose([ours["dfc"][k] for k in dfc], list(dfc.values()), atol=1e-6)
        magnitudes = [abs(v) for v in ours["dfc"].values()]
        assert magnitudes == sorted(magnitudes, reverse=True)
        prediction = ours["probabilities"][1] if case["task"] == "binary" else \
            ours["predictions"][0]
        assert ours["bias"] + sum(ours["dfc"].values()) == pytest.approx(prediction, abs=1e-5)


@pytest.mark.parametrize("case", EXPECTED["quantiles"],
                         ids=lambda c: f"{c['rows']}rows-eps{c['epsilon']}")
def test_quantile_boundaries_as_tf28(case):
    rng = np.random.RandomState(EXPECTED["quantiles"].index(case))
    values = rng.randn(case["rows"]).astype(np.float32)
    if case["rounded"]:
        values = np.round(values * 4).astype(np.float32)
    weights = (rng.rand(case["rows"]) + 0.5).astype(np.float32) if case["weighted"] else \
        np.ones([1], np.float32)
    accumulator = quantiles.Accumulator(case["epsilon"], 1)
    for part in np.array_split(np.arange(case["rows"]), case["batches"]):
        w = weights[part] if case["weighted"] else weights
        accumulator.add([quantiles.batch_summary(values[part], w, case["epsilon"])])
    (boundaries,) = accumulator.flush(int(1 / case["epsilon"]))
    assert boundaries.tolist() == case["boundaries"]


def _fixture_model_dir(tmp_path):
    model_dir = tmp_path / "tf28"
    shutil.copytree(os.path.join(FIXTURE, "binary_in_memory_model_dir"), model_dir)
    return str(model_dir)


def test_resumes_a_tf28_model_dir(tmp_path):
    """A model_dir tf.estimator 2.8 trained: evaluated and explained as 2.8 did, then trained
    further (two more trees); the new checkpoint keeps 2.8's keys."""
    case, expected = CASES["binary_in_memory"], EXPECTED["binary_in_memory"]
    model_dir = _fixture_model_dir(tmp_path)
    est, train_input_fn = estimator(tf, ec, case, model_dir)
    metrics = est.evaluate(eval_input_fn(tf, case))
    assert metrics["accuracy"] == pytest.approx(expected["metrics"]["accuracy"])
    assert metrics["global_step"] == 12
    logits = np.array([p["logits"] for p in est.predict(predict_input_fn(tf, case))][:20])
    np.testing.assert_allclose(logits, expected["predictions"], atol=1e-6)
    (first, *_) = est.experimental_predict_with_explanations(predict_input_fn(tf, case, 5))
    assert first["bias"] == pytest.approx(expected["explanations"][0][0], abs=1e-6)

    more, _ = estimator(tf, ec, dict(case, trees=5), model_dir)
    more.train(train_input_fn)
    reader = tf.train.load_checkpoint(model_dir)
    grown = ensemble_lib.parse(reader.get_tensor("boosted_trees:0_serialized"))
    assert sum(m.is_finalized for m in grown.tree_metadata) == 5
    names = {n for n, _ in tf.train.list_variables(model_dir)}
    assert {"boosted_trees:0_serialized", "boosted_trees:0_stamp", "global_step",
            "boosted_trees/are_boundaries_ready", "boosted_trees/center_bias_needed",
            "boosted_trees/QuantileAccumulator:0_bucket_boundaries_0",
            "boosted_trees/logits_cache", "boosted_trees/ensemble/kind"} <= names
    assert more.evaluate(eval_input_fn(tf, case))["average_loss"] < \
        expected["metrics"]["average_loss"]


def _example(x1, x2, c):
    feature = {"x1": tf.train.Feature(float_list=tf.train.FloatList(value=[x1])),
               "x2": tf.train.Feature(float_list=tf.train.FloatList(value=[x2])),
               "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=[c]))}
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


@pytest.mark.parametrize("names", [["x1", "x2b", "ind"], ["x1", "x2b"]],
                         ids=["vocabulary", "numeric"])
def test_export_serves_the_same_predictions(tmp_path, names):
    """export_saved_model: read by tf.saved_model.load and TensorFlow 1's loader (the
    vocabulary column makes it a TF1 SavedModel, as tf.estimator wrote it)."""
    case = dict(CASES["binary_in_memory"], cols=names)
    est, train_input_fn = estimator(tf, ec, case, str(tmp_path / "model"))
    est.train(train_input_fn)
    columns = [c for c in est._bt.layout.columns]
    spec = tf.feature_column.make_parse_example_spec(columns)
    path = est.export_saved_model(
        str(tmp_path / "export"),
        ec.export.build_parsing_serving_input_receiver_fn(spec)).decode()
    features, _ = data()
    rows = [_example(float(features["x1"][i]), float(features["x2"][i]),
                     features["c"][i].encode()) for i in range(8)]
    expected = np.array([p["probabilities"] for p in est.predict(
        lambda: tf.data.Dataset.from_tensor_slices({k: v[:8] for k, v in features.items()})
        .batch(8))])
    served = tf.saved_model.load(path).signatures["predict"](examples=tf.constant(rows))
    np.testing.assert_allclose(served["probabilities"].numpy(), expected, atol=1e-6)
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path)
        signature = meta.signature_def["predict"]
        loaded = sess.run(signature.outputs["probabilities"].name,
                          {signature.inputs["examples"].name: rows})
    np.testing.assert_allclose(loaded, expected, atol=1e-6)


def test_training_stops_after_n_trees_and_quantile_steps_do_not_count(tmp_path):
    """Numeric columns: the first n_batches_per_layer batches only sketch quantiles (global
    step stays); then one layer per n batches until n_trees trees are finalized."""
    case = dict(CASES["regression_batches"], center_bias=False, trees=2, depth=2)
    est, train_input_fn = estimator(tf, ec, case, str(tmp_path))
    est.train(train_input_fn)  # no step limit: the trees end it
    # 2 trees x 2 layers x 3 batches each; the 3 sketch batches are not steps
    assert est.get_variable_value("global_step") == 12
    states = est.get_variable_value("boosted_trees/ensemble/states")
    assert states[1] == 2 and states[2] == 4  # finalized trees, attempted layers


@pytest.mark.parametrize("kwargs, message", [
    (dict(n_trees=0), "Expected n_trees > 0"),
    (dict(learning_rate=-0.1), "Expected learning_rate > 0"),
    (dict(l2_regularization=-1.0), "Expected l2 >= 0"),
    (dict(tree_complexity=0.1), "Tree complexity have no effect unless pruning mode"),
    (dict(pruning_mode="pre"), "For pruning, tree_complexity must be positive"),
    (dict(pruning_mode="both", tree_complexity=0.1), "pruning_mode mode must be one of"),
    (dict(n_classes=3, center_bias=True), "center_bias not yet support with n_classes > 2"),
])
def test_refused_arguments(kwargs, message):
    columns = [tf.feature_column.numeric_column("x1")]
    with pytest.raises(ValueError, match=message):
        ec.BoostedTreesClassifier(columns, n_batches_per_layer=1, **kwargs)


def test_refused_columns_and_uses(tmp_path):
    fc = tf.feature_column
    embedded = fc.embedding_column(fc.categorical_column_with_identity("id", 5), 2)
    with pytest.raises(ValueError, match="Boosted trees take bucketized, indicator, numeric"):
        ec.BoostedTreesRegressor([embedded], n_batches_per_layer=1)
    est, train_input_fn = estimator(tf, ec, dict(CASES["binary_in_memory"], nb=2),
                                    str(tmp_path / "a"))
    with pytest.raises(ValueError, match="n_batches_per_layer should be set as 1"):
        est.train(train_input_fn, max_steps=1)
    est, _ = estimator(tf, ec, dict(CASES["multiclass"]), str(tmp_path / "b"))
    with pytest.raises(ValueError, match="center_bias must be enabled"):
        next(est.experimental_predict_with_explanations(predict_input_fn(tf, CASES["multiclass"])))
    with pytest.raises(ValueError, match="only call this method after training"):
        est.experimental_feature_importances()


def test_v1_and_contrib_names():
    from estimator_compat.legacy import contrib, estimator_v1
    assert estimator_v1.BoostedTreesClassifier is ec.BoostedTreesClassifier
    built = contrib.build()
    assert callable(built.estimator.boosted_trees_classifier_train_in_memory)
    assert callable(built.estimator.boosted_trees_regressor_train_in_memory)


def test_where_tf28_failed_post_pruned_categorical_splits_from_a_dataset(tmp_path):
    """Post-pruning with equality splits (2.8's kernel recursed on node 0 until the process
    crashed), trained in memory from a Dataset input_fn (2.8: an uninitialized iterator).
    Training from cached nodes (remapped after pruning) grows the same trees as walking
    every tree at every step does."""
    case = dict(task="regress", cols=["cat", "x1", "x2b"], pruning_mode="post",
                tree_complexity=0.01, trees=3, depth=3)
    features, labels = data(task="regress")

    def whole_data():
        return tf.data.Dataset.from_tensor_slices((features, labels)).batch(600).repeat()
    grown = []
    for name, in_memory in (("cached", True), ("walked", False)):
        est, _ = estimator(tf, ec, dict(case, mem=in_memory), str(tmp_path / name))
        est.train(whole_data)
        reader = tf.train.load_checkpoint(str(tmp_path / name))
        grown.append(ensemble_lib.parse(reader.get_tensor("boosted_trees:0_serialized")))
    kinds = {n.WhichOneof("node") for t in grown[0].trees for n in t.nodes}
    assert "categorical_split" in kinds
    assert sum(len(m.post_pruned_nodes_meta) > 0 for m in grown[0].tree_metadata) >= 2
    assert structure(grown[0]) == structure(grown[1])
    np.testing.assert_allclose(values(grown[0]), values(grown[1]), atol=1e-6)
