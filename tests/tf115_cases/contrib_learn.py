"""TF 1.x cases of tf.contrib.learn (preprocessing, datasets, io, monitors, graph actions,
numpy fit) and tf.contrib.lookup's older names, recorded in TF 1.15.5. Python 3.7 syntax."""
import os
import shutil
import tempfile

import numpy as np

DOCS = ["I like cats and dogs.", "Dogs like CATS, don't they?",
        "A well-known fact: USA isn't UKNews", "cats cats cats"]


def _tmp():
    return tempfile.mkdtemp(prefix="contrib_learn_case_")


def _ids(rows):
    return np.array(list(rows)).tolist()


def case_vocabulary_processor(tf):
    P = tf.contrib.learn.preprocessing
    vp = P.VocabularyProcessor(6)
    ids = _ids(vp.fit_transform(DOCS))
    mapping = sorted(vp.vocabulary_._mapping.items(), key=lambda kv: kv[1])
    trimmed = P.VocabularyProcessor(4, min_frequency=1)
    trimmed_ids = _ids(trimmed.fit_transform(DOCS))
    split = P.VocabularyProcessor(5, tokenizer_fn=lambda it: (x.split(",") for x in it))
    path = os.path.join(_tmp(), "vocab")
    vp.save(path)
    restored = P.VocabularyProcessor.restore(path)
    return lambda sess: {
        "ids": ids, "words": [w for w, _ in mapping], "size": len(vp.vocabulary_),
        "reverse": list(vp.reverse(np.array(ids))),
        "unknown": _ids(vp.transform(["unknown cats like", "dogs"])),
        "trimmed": trimmed_ids, "trimmed_words": sorted(trimmed.vocabulary_._mapping),
        "split": _ids(split.fit_transform(["a,b,c", "c,d"])),
        "restored": _ids(restored.transform(DOCS[:2])),
        "tokens": ["|".join(t) for t in P.tokenizer(DOCS + [u"h\u00e9llo w\u00f6rld 3.5 x_y"])],
        "spent_iterator": _ids(P.VocabularyProcessor(3).fit_transform(iter(["a b"])))}


def case_byte_processor(tf):
    P = tf.contrib.learn.preprocessing
    bp = P.ByteProcessor(10)
    rows = list(bp.transform(["abc", u"h\u00e9llo w\u00f6rld!!", "", b"xy"]))
    return lambda sess: {
        "rows": np.array(rows).tolist(), "dtype": str(rows[0].dtype),
        "reverse": list(bp.reverse(rows)),
        "bad_utf8": list(P.ByteProcessor(4).reverse([np.array([104, 195, 169, 195],
                                                              np.uint8)]))}


def case_categorical(tf):
    P = tf.contrib.learn.preprocessing
    v = P.CategoricalVocabulary()
    for word, count in [("b", 2), ("a", 2), ("d", 5), ("c", 1), ("e", 9)]:
        v.add(word, count)
    first = [v.get("a"), v.get("zz"), len(v), v.reverse(2)]
    v.trim(1)
    trimmed = sorted(v._mapping.items(), key=lambda kv: kv[1])
    w = P.CategoricalVocabulary()
    for word, count in [("b", 2), ("a", 2), ("d", 5), ("c", 1), ("e", 9)]:
        w.add(word, count)
    w.trim(0, 5)
    w.freeze()
    cp = P.CategoricalProcessor()
    ids = _ids(cp.fit_transform([["a", "b"], ["b", "c"], ["a", np.nan]]))
    shared = P.CategoricalProcessor(share=True)
    shared_ids = _ids(shared.fit_transform([["a", "b"], ["b", "c"]]))
    frequent = P.CategoricalProcessor(min_frequency=1)
    frequent_ids = _ids(frequent.fit_transform([["a", "b"], ["b", "c"], ["a", "c"]]))
    return lambda sess: {
        "first": [str(x) for x in first], "trimmed": [k for k, _ in trimmed],
        "max_frequency": dict(w._mapping), "max_frequency_counts": dict(w._freq),
        "frozen_get": w.get("new"),
        "ids": ids, "unknown": _ids(cp.transform([["z", "a"]])), "shared": shared_ids,
        "frequent": frequent_ids,
        "one_column": _ids(P.CategoricalProcessor().fit_transform(["a", "b", "a"]))}


def case_restores_a_tf115_vocabulary(tf):
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(os.path.dirname(here), "fixtures", "contrib_learn",
                        "vocabulary_processor_tf115.pkl")
    vp = tf.contrib.learn.preprocessing.VocabularyProcessor.restore(path)
    return lambda sess: {"ids": _ids(vp.transform(["the dog sat", "a cat"])),
                         "length": vp.max_document_length}


def case_datasets(tf):
    D = tf.contrib.learn.datasets
    iris, boston = D.load_dataset("iris"), D.load_dataset("boston")
    fake = D.load_dataset("dbpedia", test_with_fake_data=True)
    return lambda sess: {
        "iris": {"shape": list(iris.data.shape), "sum": float(iris.data.sum()),
                 "target": iris.target.tolist(), "dtypes": [str(iris.data.dtype),
                                                            str(iris.target.dtype)]},
        "boston": {"shape": list(boston.data.shape), "sum": float(boston.data.sum()),
                   "target": float(boston.target.sum()), "dtype": str(boston.target.dtype)},
        "fake": {"train": ["|".join(r) for r in fake.train.data],
                 "train_target": fake.train.target.tolist(),
                 "test": ["|".join(r) for r in fake.test.data],
                 "test_target": fake.test.target.tolist(),
                 "dtype": str(fake.train.target.dtype),
                 "validation": fake.validation is None}}


def case_dbpedia_and_csv_files(tf):
    D = tf.contrib.learn.datasets
    directory = _tmp()
    cwd = os.getcwd()
    os.makedirs(os.path.join(directory, "dbpedia_data", "dbpedia_csv"))
    for name in ("train", "test"):
        with open(os.path.join(directory, "dbpedia_data", "dbpedia_csv", name + ".csv"),
                  "w") as f:
            for i in range(2500):
                f.write('%d,Title %d,"Text, number %d ""q"""\n' % (1 + i % 14, i, i))
    with open(os.path.join(directory, "h.csv"), "w") as f:
        f.write("3,2,a,b\n1,2,0\n3,4,1\n5,6,2\n")
    with open(os.path.join(directory, "n.csv"), "w") as f:
        f.write("1,2,0\n3,4,1\n5,6,2\n")
    os.chdir(directory)
    try:
        small = D.load_dataset("dbpedia")
        large = D.load_dataset("dbpedia", size="large")
        small_files = sorted(os.listdir(os.path.join("dbpedia_data", "dbpedia_csv")))
    finally:
        os.chdir(cwd)
    base = D.base
    header = base.load_csv_with_header(os.path.join(directory, "h.csv"), target_dtype=int,
                                       features_dtype=float)
    plain = base.load_csv_without_header(os.path.join(directory, "n.csv"), target_dtype=int,
                                         features_dtype=float, target_column=0)
    shutil.rmtree(directory)
    return lambda sess: {
        "small": {"data": ["|".join(r) for r in small.train.data],
                  "target": small.train.target.tolist(),
                  "test_shape": list(small.test.data.shape)},
        "large": {"shape": list(large.train.data.shape),
                  "target": large.train.target[:20].tolist(),
                  "row": "|".join(large.train.data[7])},
        "files": small_files,
        "header": {"data": header.data.tolist(), "target": header.target.tolist(),
                   "dtype": str(header.data.dtype)},
        "plain": {"data": plain.data.tolist(), "target": plain.target.tolist()},
        "names": [type(small).__name__, type(header).__name__]}


def case_missing_dataset_name(tf):
    tf.contrib.learn.datasets.load_dataset("imagenet")


def case_pandas_extractors_and_inferred_columns(tf):
    import pandas as pd
    L = tf.contrib.learn
    frame = pd.DataFrame({"a": [1, 2, 3], "b": [1.5, 2.5, 3.5]})
    columns = L.infer_real_valued_columns_from_input(np.zeros((4, 3), np.float32))
    dict_columns = L.infer_real_valued_columns_from_input_fn(
        lambda: ({"x": tf.zeros([4, 2]), "k": tf.zeros([4], tf.int32)}, None))
    return lambda sess: {
        "data": L.extract_pandas_data(frame).tolist(),
        "labels": L.extract_pandas_labels(pd.DataFrame({"y": [0, 1, 1]})).tolist(),
        "passthrough": L.extract_pandas_data(np.array([1, 2])).tolist(),
        "columns": ["%s:%s" % (c.name, c.dtype.name) for c in columns],
        "dict_columns": sorted("%s:%s" % (c.name, c.dtype.name) for c in dict_columns)}


def case_pandas_labels_two_columns(tf):
    import pandas as pd
    tf.contrib.learn.extract_pandas_labels(pd.DataFrame({"y": [0, 1], "z": [1, 2]}))


def _linear_model_fn(tf):
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        predictions = tf.matmul(features, w)
        if labels is None:
            return predictions, None, None
        loss = tf.losses.mean_squared_error(tf.reshape(labels, [-1, 1]), predictions)
        train_op = tf.train.GradientDescentOptimizer(0.01).minimize(
            loss, tf.train.get_global_step())
        return predictions, loss, train_op
    return model_fn


def case_monitors_in_fit(tf):
    L = tf.contrib.learn
    M = L.monitors
    log = []

    class Recorder(M.EveryN):
        def every_n_step_begin(self, step):
            log.append("begin %d" % step)
            return ["w:0"]

        def every_n_step_end(self, step, outputs):
            log.append("end %d %s" % (step, sorted(outputs)))
            return False

        def every_n_post_step(self, step, session):
            log.append("post %d" % step)

    x = np.ones((10, 3), np.float32)
    y = np.ones(10, np.float32)

    def input_fn():
        return tf.constant(x), tf.constant(y)

    model_dir = _tmp()
    est = L.Estimator(_linear_model_fn(tf), model_dir=model_dir)
    capture = M.CaptureVariable("w", every_n=2, first_n=1)
    est.fit(input_fn=input_fn, steps=7,
            monitors=[Recorder(every_n_steps=3, first_n_steps=2), capture])
    first = list(log)
    del log[:]
    est.fit(input_fn=input_fn, monitors=[M.StopAtStep(num_steps=3)], max_steps=100)
    step = est.get_variable_value("global_step")
    hooks = M.replace_monitors_with_hooks([M.StopAtStep(num_steps=1),
                                           tf.train.StopAtStepHook(num_steps=1)], est)
    shutil.rmtree(model_dir)
    return lambda sess: {
        # the values: TF 1.15's session.run read `w` after the step's update, a hook here
        # reads it before (tests/test_contrib_learn.py checks them)
        "log": first, "captured_steps": sorted(capture.values),
        "step": int(step), "hooks": [type(h).__name__ for h in hooks]}


def case_fit_with_numpy_and_skcompat(tf):
    L = tf.contrib.learn
    x = np.arange(30, dtype=np.float32).reshape(10, 3)
    y = np.arange(10, dtype=np.float32)
    model_dir = _tmp()
    est = L.Estimator(_linear_model_fn(tf), model_dir=model_dir)
    est.fit(x=x, y=y, steps=2)
    evaluated = est.evaluate(x=x, y=y)
    predicted = np.array(list(est.predict(x=x)))
    sk = L.SKCompat(L.Estimator(_linear_model_fn(tf), model_dir=model_dir + "_sk"))
    same = sk.fit(x, y, steps=2) is sk
    score = sk.score(x, y)
    sk_predicted = sk.predict(x)
    shutil.rmtree(model_dir)
    shutil.rmtree(model_dir + "_sk")
    return lambda sess: {
        "evaluated": [float(evaluated["loss"]), int(evaluated["global_step"])],
        "predicted": predicted.ravel().tolist(), "same": same,
        "score": [float(score["loss"]), int(score["global_step"])],
        "sk_predicted": {"shape": list(sk_predicted.shape),
                         "values": sk_predicted.ravel().tolist()}}


def _graph_model(tf):
    gs = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([1.0, 2.0]))
    loss = tf.reduce_sum(tf.square(w))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, gs)
    return gs, w, loss, train_op


def case_graph_actions(tf):
    L = tf.contrib.learn
    model_dir = _tmp()
    with tf.Graph().as_default() as graph:
        _, _, loss, train_op = _graph_model(tf)
        first = L.train(graph, model_dir, train_op, loss, steps=5, log_every_steps=2)
    files = sorted(f for f in os.listdir(model_dir) if f.startswith("model.ckpt-"))
    with tf.Graph().as_default() as graph:
        _, w, loss, _ = _graph_model(tf)
        checkpoint = tf.train.latest_checkpoint(model_dir)
        runs = L.run_n({"w": w, "l": loss}, n=2, restore_checkpoint_path=checkpoint)
        inferred = L.infer(checkpoint, {"w": w})
        p = tf.placeholder(tf.float32, [])
        fed = L.run_feeds({"y": p * 2.0, "w": w}, [{p: 1.0}, {p: 3.0}])
        fresh = L.run_n({"w": w})
        mean, update = tf.metrics.mean(loss)
        evaluated = L.evaluate(graph, os.path.join(model_dir, "eval"), checkpoint,
                               {"mean": mean, "w": w}, update_op=update, max_steps=3)
    with tf.Graph().as_default() as graph:
        _, _, loss, train_op = _graph_model(tf)
        second = L.train(graph, model_dir, train_op, loss, max_steps=7)
    shutil.rmtree(model_dir)
    return lambda sess: {
        # TF 1.15's session.run([train_op, loss]) read the loss before or after the update
        # (racy: both seen); here before
        "first": round(float(first), 4) in (0.8389, 0.5369),
        "second": round(float(second), 4) in (0.3436, 0.2199), "runs": runs,
        "inferred": inferred,
        "fed": fed, "fresh": fresh, "evaluated": [evaluated[0], evaluated[1]],
        "checkpoints": [f for f in files if f.endswith(".index")]}


def case_read_batch_features(tf):
    L = tf.contrib.learn
    directory = _tmp()
    path = os.path.join(directory, "data.tfrecord")
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(7):
            example = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i * 2.0])),
                "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}))
            writer.write(example.SerializeToString())
    features = L.read_batch_features(
        path, 3, {"x": tf.FixedLenFeature([2], tf.float32),
                  "k": tf.FixedLenFeature([], tf.int64)},
        tf.TFRecordReader, randomize_input=False, num_epochs=1, queue_capacity=10,
        num_enqueue_threads=1)
    keys, records = L.read_keyed_batch_examples(
        path, 4, tf.TFRecordReader, randomize_input=False, num_epochs=1, queue_capacity=10)

    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        batches = []
        try:
            while True:
                batches.append(sess.run(features))
        except tf.errors.OutOfRangeError:
            pass
        keyed = sess.run(keys)
        coord.request_stop()
        coord.join(threads)
        shutil.rmtree(directory)
        return {"batches": [{k: v.tolist() for k, v in b.items()} for b in batches],
                "keys": [k.decode().split(":")[-1] for k in keyed.tolist()],
                "record_shape": records.shape.as_list()}
    return run


def case_lookup_older_names(tf):
    lookup = tf.contrib.lookup
    directory = _tmp()
    path = os.path.join(directory, "vocab.txt")
    with open(path, "w") as f:
        f.write("a\nb\nc\n")
    from_tensor = lookup.string_to_index_table_from_tensor(["a", "b"], num_oov_buckets=1)
    from_file = lookup.string_to_index_table_from_file(path, default_value=-5)
    words = tf.constant(["b", "z", "a", "c"])
    return {"tensor": from_tensor.lookup(words), "file": from_file.lookup(words),
            "base": issubclass(lookup.KeyValueTensorInitializer, lookup.TableInitializerBase)}


def case_models_linear_regression(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    y = tf.constant([[1.0], [2.0], [3.0]])
    zero = tf.contrib.learn.models.linear_regression_zero_init(x, y)
    return {"predictions": zero[0], "loss": zero[1]}


def case_models_linear_regression_flat_labels(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    predictions, loss = tf.contrib.learn.models.linear_regression(
        x, tf.constant([1.0, 2.0, 3.0]), init_mean=0.5, init_stddev=0.0)
    return {"predictions": predictions, "loss": loss}


def case_models_logistic_regression(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    y = tf.constant([[1., 0.], [0., 1.], [1., 0.]])
    weighted = tf.contrib.learn.models.logistic_regression(
        x, y, class_weight=[1.0, 2.0], init_mean=0.1, init_stddev=0.0)
    return {"predictions": weighted[0], "loss": weighted[1]}


def case_models_logistic_regression_zero_init(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    y = tf.constant([[1., 0.], [0., 1.], [1., 0.]])
    zero = tf.contrib.learn.models.logistic_regression_zero_init(x, y)
    return {"predictions": zero[0], "loss": zero[1]}


def case_ops(tf):
    ops = tf.contrib.learn.ops
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    y = tf.constant([[1., 0.], [0., 1.], [1., 0.]])
    probabilities, loss = ops.softmax_classifier(x, y, tf.constant([[1., 0.], [0., 1.]]),
                                                 tf.constant([0.5, -0.5]))
    regressed, squared = ops.mean_squared_error_regressor(
        x, tf.constant([1.0, 2.0, 3.0]), tf.constant([[0.5], [1.0]]), tf.constant([0.1]))
    table = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    looked = ops.embedding_lookup(table, tf.constant([[0, 3], [2, 1]]))
    embedded = ops.categorical_variable(tf.constant([[0, 1], [2, 2]]), 3, 2, name="cat")
    return {"probabilities": probabilities, "loss": loss, "regressed": regressed,
            "squared": squared, "looked": looked, "embedded_shape": tf.shape(embedded),
            "static": str(looked.shape.as_list())}


def case_logistic_regressor(tf):
    L = tf.contrib.learn
    rng = np.random.RandomState(0)
    x = rng.randn(200, 2).astype(np.float32)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(np.int64)

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        logits = tf.matmul(features, w) + b
        if labels is None:
            return tf.sigmoid(logits), None, None
        loss = tf.losses.sigmoid_cross_entropy(
            tf.reshape(tf.cast(labels, tf.float32), [-1, 1]), logits)
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(
            loss, tf.train.get_global_step())
        return tf.sigmoid(logits), loss, train_op

    def input_fn():
        return tf.constant(x), tf.constant(y)
    model_dir = _tmp()
    est = L.LogisticRegressor(model_fn, model_dir=model_dir, thresholds=[0.3, 0.5])
    est.fit(input_fn=input_fn, steps=20)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    predicted = np.array(list(est.predict(input_fn=input_fn)))[:3]
    shutil.rmtree(model_dir)
    return lambda sess: {"metrics": {k: float(v) for k, v in metrics.items()},
                         "predicted": predicted.tolist()}


def case_kmeans_clustering(tf):
    L = tf.contrib.learn
    x = np.array([[0, 0], [0.1, 0], [5, 5], [5.1, 5], [0, 0.2], [5, 5.3]], np.float32)

    def input_fn():
        return tf.constant(x), None
    model_dir = _tmp()
    est = L.KMeansClustering(num_clusters=2, model_dir=model_dir,
                             initial_clusters=np.array([[0, 0], [5, 5]], np.float32),
                             use_mini_batch=False)
    est.fit(input_fn=input_fn, steps=3)
    clusters = est.clusters()
    evaluated = est.evaluate(input_fn=input_fn, steps=1)
    score = est.score(input_fn=input_fn, steps=1)
    index = list(est.predict_cluster_idx(input_fn=input_fn))
    transformed = est.transform(input_fn=input_fn)
    predicted = list(est.predict(input_fn=input_fn))
    shutil.rmtree(model_dir)
    return lambda sess: {
        "clusters": clusters.tolist(), "evaluated": {k: float(v) for k, v in evaluated.items()},
        "score": float(score), "index": [int(i) for i in index],
        "transformed": np.array(transformed).tolist(),
        "predicted_keys": sorted(predicted[0]),
        "predicted": np.array([p["all_scores"] for p in predicted]).tolist()}


def case_validation_monitor_early_stopping(tf):
    L = tf.contrib.learn
    M = L.monitors
    x = np.arange(30, dtype=np.float32).reshape(10, 3) / 30.0
    y = np.arange(10, dtype=np.float32) / 10.0
    model_dir = _tmp()
    config = L.RunConfig(save_checkpoints_steps=2, save_checkpoints_secs=None)
    est = L.Estimator(_linear_model_fn(tf), model_dir=model_dir, config=config)
    # the loss falls: "maximize" it, so the best stays the first evaluation and training
    # stops `early_stopping_rounds` steps later
    validation = M.ValidationMonitor(x=x, y=y, every_n_steps=2, early_stopping_rounds=4,
                                     early_stopping_metric_minimize=False,
                                     check_interval_secs=0)
    printed = M.PrintTensor({"loss": "mean_squared_error/value:0"}, every_n=3)
    est.fit(input_fn=lambda: (tf.constant(x), tf.constant(y)), steps=20,
            monitors=[validation, printed])
    step = est.get_variable_value("global_step")
    shutil.rmtree(model_dir)
    return lambda sess: {"step": int(step), "best_step": int(validation.best_step),
                         "early_stopped": validation.early_stopped,
                         "best_metrics": sorted(validation.best_metrics)}


def _head_case(tf, make_head, labels, logits):
    L = tf.contrib.learn
    head = make_head(L)
    labels, logits = tf.constant(labels), tf.constant(logits)
    ops = head.create_model_fn_ops({}, L.ModeKeys.EVAL, labels=labels, logits=logits,
                                   train_op_fn=L.no_op_train_fn)
    train = head.create_model_fn_ops({}, L.ModeKeys.TRAIN, labels=labels, logits=logits,
                                     train_op_fn=L.no_op_train_fn)
    infer = head.create_model_fn_ops({}, L.ModeKeys.INFER, logits=logits)
    names = {"loss_name": ops.loss.name, "train_op": train.train_op.name,
             "metric_names": sorted(ops.eval_metric_ops),
             "prediction_names": sorted(ops.predictions),
             "dimension": head.logits_dimension,
             "alternatives": ["%s %s %s" % (k, v[0], sorted(v[1]))
                              for k, v in infer.output_alternatives.items()]}

    def run(sess):
        sess.run({k: v[1] for k, v in ops.eval_metric_ops.items()})
        values = sess.run({"metrics": {k: v[0] for k, v in ops.eval_metric_ops.items()},
                           "loss": ops.loss, "predictions": ops.predictions})
        values.update(names)
        return values
    return run


def case_regression_head(tf):
    return _head_case(tf, lambda L: L.regression_head(), [[1.0], [2.0]], [[0.5], [1.5]])


def case_binary_head(tf):
    return _head_case(tf, lambda L: L.multi_class_head(2), [[1], [0]], [[0.5], [-1.0]])


def case_multi_class_head(tf):
    return _head_case(tf, lambda L: L.multi_class_head(3), [[1], [2]],
                      [[0.5, 1.0, 0.0], [0.1, 0.2, 2.0]])


def case_estimator_with_a_head(tf):
    L = tf.contrib.learn
    rng = np.random.RandomState(1)
    x = rng.randn(60, 2).astype(np.float32)
    y = (x[:, 0] - x[:, 1] > 0).astype(np.int64).reshape(-1, 1)

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
        logits = tf.matmul(features, w)
        head = L.multi_class_head(2)

        def train_op_fn(loss):
            return tf.train.GradientDescentOptimizer(0.5).minimize(
                loss, tf.train.get_global_step())
        return head.create_model_fn_ops({}, mode, labels=labels, train_op_fn=train_op_fn,
                                        logits=logits)

    def input_fn():
        return tf.constant(x), tf.constant(y)
    model_dir = _tmp()
    est = L.Estimator(model_fn, model_dir=model_dir)
    est.fit(input_fn=input_fn, steps=10)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    predicted = list(est.predict(input_fn=input_fn))[:4]
    shutil.rmtree(model_dir)
    return lambda sess: {"metrics": {k: float(v) for k, v in metrics.items()},
                         "classes": [int(p["classes"]) for p in predicted],
                         "logistic": [float(p["logistic"][0]) for p in predicted]}


def case_poisson_regression_head(tf):
    return _head_case(tf, lambda L: L.poisson_regression_head(), [[1.0], [2.0]],
                      [[0.5], [1.5]])


def case_multi_label_head(tf):
    return _head_case(tf, lambda L: L.multi_label_head(3), [[1, 0, 1], [0, 1, 0]],
                      [[0.5, -1.0, 2.0], [0.1, 0.2, -2.0]])
