"""Canned estimators on feature columns: predict keys, export signatures, feature-column kinds,
checkpoint names, heads, bad input; every class trains, evaluates, predicts and exports.
(Metrics against tf.estimator 2.15: test_canned_fidelity.py.)"""
import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.legacy import estimator_v1 as compat_v1

sklearn = pytest.importorskip("sklearn.datasets")
X, Y = sklearn.load_iris(return_X_y=True)
X = X.astype(np.float32)
COLS = [tf.feature_column.numeric_column(k) for k in "abcd"]


def input_fn(labels, repeat=True, columns="abcd"):
    def fn():
        d = tf.data.Dataset.from_tensor_slices(({k: X[:, "abcd".index(k)] for k in columns},
                                                labels))
        return (d.repeat().shuffle(150, seed=0) if repeat else d).batch(32)
    return fn


def config(tmp_path, name):
    return ec.RunConfig(model_dir=str(tmp_path / name), tf_random_seed=0)


def test_predict_keys_and_export_signatures(tmp_path):
    est = ec.DNNClassifier([8], COLS, n_classes=3, label_vocabulary=["setosa", "versicolor",
                                                                     "virginica"],
                           config=config(tmp_path, "m"))
    names = np.array(["setosa", "versicolor", "virginica"])[Y]
    est.train(input_fn(names), steps=100)
    pred = next(iter(est.predict(input_fn(names, repeat=False))))
    assert set(pred) == {"logits", "probabilities", "class_ids", "classes", "all_class_ids",
                         "all_classes"}
    assert pred["classes"][0] in (b"setosa", b"versicolor", b"virginica")
    spec = tf.feature_column.make_parse_example_spec(COLS)
    path = est.export_saved_model(str(tmp_path / "e"),
                                  ec.export.build_parsing_serving_input_receiver_fn(spec))
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        sigs = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path.decode()).signature_def
    assert set(sigs) - {"__saved_model_init_op"} == {"serving_default", "classification", "predict"}
    assert sigs["classification"].method_name == "tensorflow/serving/classify"
    reg = ec.LinearRegressor(COLS, config=config(tmp_path, "r"))
    reg.train(input_fn(X[:, 3] * 1.0), steps=10)
    path = reg.export_saved_model(str(tmp_path / "re"),
                                  ec.export.build_parsing_serving_input_receiver_fn(spec))
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:
        sigs = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path.decode()).signature_def
    assert sigs["regression"].method_name == "tensorflow/serving/regress"


def test_feature_column_kinds_and_checkpoint_names(tmp_path):
    rng = np.random.RandomState(0)
    n = 64
    features = {"x": rng.normal(size=n).astype(np.float32),
                "color": rng.choice(["red", "green", "blue"], n),
                "size": rng.randint(0, 4, n).astype(np.int64),
                "city": rng.choice(["a", "b", "c", "d", "e"], n),
                "w": rng.uniform(size=n).astype(np.float32)}
    labels = (features["x"] > 0).astype(np.int64)
    fc = tf.feature_column
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])
    size = fc.categorical_column_with_identity("size", 4)
    city = fc.categorical_column_with_hash_bucket("city", 10)
    weighted = fc.weighted_categorical_column(size, "w")
    vocab_file = tmp_path / "colors.txt"
    vocab_file.write_text("red\ngreen\nblue\n")
    color_file = fc.categorical_column_with_vocabulary_file("color", str(vocab_file))
    columns = [fc.numeric_column("x"), fc.bucketized_column(fc.numeric_column("x"), [-1, 0, 1]),
               fc.indicator_column(color), fc.embedding_column(city, 3),
               fc.embedding_column(color_file, 2),
               fc.indicator_column(fc.crossed_column([color, size], 20)),
               fc.indicator_column(weighted)]
    fn = lambda: tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(16)  # noqa: E731
    est = ec.DNNClassifier([8], columns, config=config(tmp_path, "dnn"))
    est.train(fn, steps=20)
    names = set(est.get_variable_names())
    # the model variables tf.estimator 2.15 wrote for the same DNN/linear models
    assert {"dnn/hiddenlayer_0/kernel", "dnn/hiddenlayer_0/bias", "dnn/logits/kernel",
            "dnn/logits/bias",
            "dnn/input_from_feature_columns/input_layer/city_embedding/embedding_weights",
            "dnn/input_from_feature_columns/input_layer/color_embedding/embedding_weights"} <= names
    predict_fn = lambda: tf.data.Dataset.from_tensor_slices(features).batch(16)  # noqa: E731
    predictions = [p["probabilities"] for p in est.predict(predict_fn)]
    assert len(predictions) == n
    # the export carries the vocabulary file (an asset): it serves after the file is gone
    spec = tf.feature_column.make_parse_example_spec(columns)
    exported = est.export_saved_model(str(tmp_path / "export"),
                                      ec.export.build_parsing_serving_input_receiver_fn(spec))
    vocab_file.unlink()
    examples = [tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[features["x"][i]])),
        "color": tf.train.Feature(bytes_list=tf.train.BytesList(
            value=[features["color"][i].encode()])),
        "size": tf.train.Feature(int64_list=tf.train.Int64List(value=[features["size"][i]])),
        "city": tf.train.Feature(bytes_list=tf.train.BytesList(
            value=[features["city"][i].encode()])),
        "w": tf.train.Feature(float_list=tf.train.FloatList(value=[features["w"][i]])),
    })).SerializeToString() for i in range(4)]
    served = tf.saved_model.load(exported.decode()).signatures["predict"](
        examples=tf.constant(examples))["probabilities"].numpy()
    np.testing.assert_allclose(served, np.stack(predictions[:4]), atol=1e-5)
    lin = ec.LinearClassifier([columns[0], city], config=config(tmp_path, "lin"))
    lin.train(fn, steps=20)
    assert {"linear/linear_model/x/weights", "linear/linear_model/city/weights",
            "linear/linear_model/bias_weights"} <= set(lin.get_variable_names())
    spec = ec.classifier_parse_example_spec(columns[:1], label_key="y")
    assert set(spec) == {"x", "y"}


def test_bad_input(tmp_path):
    with pytest.raises(ValueError, match="Unsupported optimizer name: Fancy"):
        ec.DNNClassifier([8], COLS, optimizer="Fancy")
    with pytest.raises(ValueError, match="hidden_units"):
        ec.DNNClassifier([], COLS)
    with pytest.raises(ValueError, match="n_classes must be > 1"):
        ec.LinearClassifier(COLS, n_classes=1)
    est = ec.DNNClassifier([4], COLS, n_classes=3, label_vocabulary=["x", "y", "z"],
                           config=config(tmp_path, "v"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="label_vocabulary"):
        est.train(input_fn(np.array(["x", "y", "w"])[Y]), steps=2)
    missing = ec.LinearRegressor(COLS, config=config(tmp_path, "f"))
    with pytest.raises(ValueError, match=r"lack \['d'\]"):
        missing.train(input_fn(X[:, 3] * 1.0, columns="abc"), steps=1)
    assert os.path.isdir(tmp_path)


def test_dnn_linear_combined_and_add_metrics(tmp_path):
    est = ec.DNNLinearCombinedClassifier(linear_feature_columns=COLS[:2], dnn_feature_columns=COLS,
                                         dnn_hidden_units=[8], n_classes=3,
                                         config=config(tmp_path, "c"))
    est.train(input_fn(Y), steps=300)
    result = est.evaluate(input_fn(Y, repeat=False))
    # tf.estimator's combined defaults (dnn lr 0.001, linear lr <= 0.005) learn slowly; from
    # the same weights, 2.15 gives the same metrics (test_canned_fidelity.py)
    assert result["accuracy"] > 0.3
    names = set(est.get_variable_names())
    assert {"dnn/hiddenlayer_0/kernel", "linear/linear_model/a/weights"} <= names
    # 2.15's V2 checkpoint names (its Keras optimizers'): the linear one's `iter` is its own
    assert {"training/Adagrad/dnn/hiddenlayer_0/kernel/accumulator",
            "training/Ftrl/linear/linear_model/a/weights/accumulator",
            "training/Ftrl/iter"} <= names

    def metric_fn(labels, predictions):
        return {"mean_class": tf.compat.v1.metrics.mean(
            tf.cast(predictions["class_ids"], tf.float32))}
    extended = ec.add_metrics(est, metric_fn)
    more = extended.evaluate(input_fn(Y, repeat=False))
    assert more["accuracy"] == result["accuracy"] and 0.5 < more["mean_class"] < 1.5
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns"):
        ec.DNNLinearCombinedRegressor()
    with pytest.raises(ValueError, match="must take predictions"):
        ec.add_metrics(est, lambda x: {})


def test_estimators_with_a_head(tmp_path):
    head = ec.RegressionHead(weight_column="w")
    weights = np.where(X[:, 0] > 5.5, 2.0, 1.0).astype(np.float32)

    def fn():
        feats = {k: X[:, "abcd".index(k)] for k in "abcd"}
        feats["w"] = weights
        return tf.data.Dataset.from_tensor_slices((feats, X[:, 3] * 1.0)).batch(32)
    est = ec.DNNEstimator(head, [8], COLS, config=config(tmp_path, "h"),
                          optimizer=tf.keras.optimizers.Adagrad(0.05))
    est.train(lambda: fn().repeat(), steps=100)
    assert est.evaluate(fn)["average_loss"] < 0.5
    with pytest.raises(ValueError, match="n_classes must be > 2"):
        ec.MultiClassHead(2)


def test_other_heads(tmp_path):
    rng = np.random.RandomState(0)
    feats = {k: X[:, "abcd".index(k)] for k in "abcd"}
    counts = rng.poisson(X[:, 3] + 0.5).astype(np.float32)
    multi_hot = np.stack([(Y == 0), (Y == 2), (X[:, 0] > 5.8)], axis=1).astype(np.float32)
    share = (X[:, 3] / X[:, 3].max()).astype(np.float32)
    cases = [(ec.PoissonRegressionHead(), counts), (ec.LogisticRegressionHead(), share),
             (ec.MultiLabelHead(3), multi_hot)]
    for i, (head, labels) in enumerate(cases):
        fn = lambda rep=True: (lambda: (lambda d: d.repeat() if rep else d)(  # noqa: E731
            tf.data.Dataset.from_tensor_slices((feats, labels))).batch(30))
        est = ec.DNNEstimator(head, [8], COLS, config=config(tmp_path, f"h{i}"),
                              optimizer=lambda: tf.keras.optimizers.Adagrad(0.05))
        est.train(fn(), steps=150)
        result = est.evaluate(fn(False))
        assert np.isfinite(result["average_loss"]), result
        pred = next(iter(est.predict(fn(False))))
        assert ("predictions" in pred) or ("probabilities" in pred)
    assert result["auc"] > 0.8  # the multi-label head learned
    multi = ec.MultiHead([ec.MultiClassHead(3, name="species"),
                          ec.RegressionHead(name="width")])
    est = ec.DNNEstimator(multi, [8], COLS, config=config(tmp_path, "multi"), optimizer="Adam")
    both = lambda rep=True: (lambda: (lambda d: d.repeat() if rep else d)(  # noqa: E731
        tf.data.Dataset.from_tensor_slices((feats, {"species": Y, "width": X[:, 3]}))).batch(30))
    est.train(both(), steps=150)
    result = est.evaluate(both(False))
    assert {"accuracy/species", "average_loss/width"} <= set(result)
    # tf.estimator's MultiHead keys predictions by (head name, key)
    assert ("species", "probabilities") in next(iter(est.predict(both(False))))


ALL = {
    "LinearClassifier": lambda c: ec.LinearClassifier(COLS, config=c),
    "LinearRegressor": lambda c: ec.LinearRegressor(COLS, config=c),
    "DNNClassifier": lambda c: ec.DNNClassifier([4], COLS, config=c, batch_norm=True, dropout=0.1,
                                                optimizer=lambda: tf.compat.v1.train.AdamOptimizer(0.01)),
    "DNNRegressor": lambda c: ec.DNNRegressor([4], COLS, config=c),
    "DNNLinearCombinedClassifier": lambda c: ec.DNNLinearCombinedClassifier(
        linear_feature_columns=COLS, dnn_feature_columns=COLS, dnn_hidden_units=[4], config=c),
    "DNNLinearCombinedRegressor": lambda c: ec.DNNLinearCombinedRegressor(
        linear_feature_columns=COLS, dnn_feature_columns=COLS, dnn_hidden_units=[4], config=c),
    "BaselineClassifier": lambda c: ec.BaselineClassifier(config=c),
    "BaselineRegressor": lambda c: ec.BaselineRegressor(config=c),
    "BaselineEstimator": lambda c: ec.BaselineEstimator(ec.RegressionHead(), config=c),
    "LinearEstimator": lambda c: ec.LinearEstimator(ec.BinaryClassHead(), COLS, config=c),
    "DNNLinearCombinedEstimator": lambda c: ec.DNNLinearCombinedEstimator(
        ec.RegressionHead(), dnn_feature_columns=COLS, dnn_hidden_units=[4], config=c),
    # tf.compat.v1.estimator's classes (TF1 signatures, summed loss)
    "v1.DNNClassifier": lambda c: compat_v1.DNNClassifier([4], COLS, config=c,
                                                          input_layer_partitioner=None),
    "v1.LinearRegressor": lambda c: compat_v1.LinearRegressor(COLS, config=c, partitioner=None),
    "v1.BaselineClassifier": lambda c: compat_v1.BaselineClassifier(config=c),
    "v1.DNNLinearCombinedRegressor": lambda c: compat_v1.DNNLinearCombinedRegressor(
        linear_feature_columns=COLS, dnn_feature_columns=COLS, dnn_hidden_units=[4], config=c),
}


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_canned_estimator_trains_evaluates_predicts_exports(name, tmp_path):
    est = ALL[name](config(tmp_path, "m"))
    labels = (Y == 1).astype(np.int64) if "Classifier" in name or name == "LinearEstimator" \
        else X[:, 3] * 1.0
    est.train(input_fn(labels), steps=5)
    assert est.evaluate(input_fn(labels, repeat=False))["global_step"] == 5
    assert len(list(est.predict(input_fn(labels, repeat=False)))) == 150
    spec = tf.feature_column.make_parse_example_spec(COLS)
    path = est.export_saved_model(str(tmp_path / "e"),
                                  ec.export.build_parsing_serving_input_receiver_fn(spec))
    assert "serving_default" in tf.saved_model.load(path.decode()).signatures


def test_tfrecords_with_varlen_tags_export_and_serve(tmp_path):
    """The classic TF1 flow: TFRecords parsed with the columns' parse spec (a VarLen string
    feature), a vocabulary column (a lookup table), export, and serving tf.Examples."""
    rng = np.random.RandomState(0)
    words = ["red", "green", "blue", "big", "small"]
    path = str(tmp_path / "train.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for _ in range(160):
            tags = list(rng.choice(words, rng.randint(0, 4)))
            x = float(rng.normal())
            feature = {"tags": tf.train.Feature(bytes_list=tf.train.BytesList(
                           value=[t.encode() for t in tags])),
                       "x": tf.train.Feature(float_list=tf.train.FloatList(value=[x])),
                       "label": tf.train.Feature(int64_list=tf.train.Int64List(
                           value=[int("red" in tags or x > 1)]))}
            writer.write(tf.train.Example(features=tf.train.Features(
                feature=feature)).SerializeToString())
    fc = tf.feature_column
    tags = fc.categorical_column_with_vocabulary_list("tags", words)
    columns = [fc.numeric_column("x"), fc.embedding_column(tags, 3)]
    spec = ec.classifier_parse_example_spec(columns, label_key="label")

    def records(repeat=True):
        data = tf.data.TFRecordDataset(path).batch(32).map(lambda s: tf.io.parse_example(s, spec))
        data = data.map(lambda f: (f, f.pop("label")))
        return data.repeat() if repeat else data
    est = ec.DNNLinearCombinedClassifier(str(tmp_path / "m"), linear_feature_columns=[tags],
                                         dnn_feature_columns=columns, dnn_hidden_units=[8],
                                         dnn_optimizer="Adam")
    est.train(records, steps=150)
    assert est.evaluate(lambda: records(False))["accuracy"] > 0.8
    want = [p["probabilities"] for p in est.predict(lambda: records(False))][:5]
    path_out = est.export_saved_model(str(tmp_path / "export"),
                                      ec.export.build_parsing_serving_input_receiver_fn(
                                          fc.make_parse_example_spec(columns)))
    serve = tf.saved_model.load(path_out.decode()).signatures["predict"]
    examples = [r.numpy() for r in tf.data.TFRecordDataset(path).take(5)]
    got = serve(examples=tf.constant(examples))["probabilities"].numpy()
    np.testing.assert_allclose(got, np.stack(want), atol=1e-5)
