"""tf.contrib.estimator's RNNClassifier / RNNEstimator and the DNN estimators with layer
annotations, trained, evaluated and used to predict in TF 1.15 and here.

An estimator's weights start random (op-level seeds differ), so each estimator case trains one
step to learn the checkpoint's names and shapes, then overwrites that checkpoint with fixed
values (step 0) and continues from there: evaluations, predictions and the loss after training
are then comparable. Python 3.7 syntax: these also run in TF 1.15's venv."""
import os
import shutil
import tempfile

import numpy as np

SEQ_INDICES = [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1], [2, 2], [3, 0]]


def _sequence_input_fn(tf, labels):
    """input_fn(repeat): one batch of four sequences (repeated, for training)."""
    def input_fn(repeat=True):
        tok = tf.SparseTensor(indices=SEQ_INDICES, dense_shape=[4, 3],
                              values=tf.constant([1, 2, 3, 4, 1, 2, 0], tf.int64))
        num = tf.SparseTensor(indices=SEQ_INDICES, dense_shape=[4, 3],
                              values=[0.5, 0.2, 0.1, 0.9, 0.3, 0.3, 0.7])
        features = {"tok": tok, "num": num, "ctx": tf.constant([[1.0], [2.0], [3.0], [0.0]])}
        data = tf.data.Dataset.from_tensors((features, tf.constant(labels)))
        return data.repeat() if repeat else data
    return input_fn


def _sequence_columns(tf):
    sfc = tf.contrib.feature_column
    tok = sfc.sequence_categorical_column_with_identity("tok", num_buckets=5)
    return [tf.feature_column.embedding_column(tok, dimension=3),
            sfc.sequence_numeric_column("num")], [tf.feature_column.numeric_column("ctx")]


def _fixed_checkpoint(tf, model_dir):
    """Overwrites model_dir's latest checkpoint with fixed values of the same names and shapes
    (slots 0.1, global_step 0)."""
    names = tf.train.list_variables(model_dir)
    graph = tf.Graph()
    with graph.as_default():
        for i, (name, shape) in enumerate(names):
            if name == "global_step":
                tf.train.get_or_create_global_step()
                continue
            size = int(np.prod(shape))
            value = np.full(shape, 0.1, np.float32) if name.endswith("Adagrad") else \
                (0.5 * np.sin(np.arange(size) + i)).reshape(shape).astype(np.float32)
            tf.get_variable(name, initializer=value)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, os.path.join(model_dir, "model.ckpt"), global_step=0)
    return [[n, s] for n, s in names]


def _train_from_fixed(tf, make_estimator, input_fn, steps=3):
    model_dir = tempfile.mkdtemp()

    def run(sess):
        try:
            est = make_estimator(model_dir)
            est.train(input_fn, steps=1)
            names = _fixed_checkpoint(tf, model_dir)
            before = est.evaluate(input_fn, steps=1)
            est.train(input_fn, steps=steps)
            after = est.evaluate(input_fn, steps=1)
            predictions = list(est.predict(lambda: input_fn(repeat=False)))
            return {"checkpoint": names, "before": before, "after": after,
                    "predictions": {k: [p[k] for p in predictions] for k in predictions[0]}}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


def case_rnn_classifier_basic_rnn_with_context(tf):
    sequence, context = _sequence_columns(tf)
    return _train_from_fixed(tf, lambda d: tf.contrib.estimator.RNNClassifier(
        sequence, context, num_units=[4], model_dir=d),
        _sequence_input_fn(tf, [[0], [1], [1], [0]]))


def case_rnn_classifier_stacked_gru_three_classes(tf):
    sequence, _ = _sequence_columns(tf)
    return _train_from_fixed(tf, lambda d: tf.contrib.estimator.RNNClassifier(
        sequence, num_units=[3, 2], cell_type="gru", n_classes=3, model_dir=d,
        optimizer=tf.train.GradientDescentOptimizer(0.2)),
        _sequence_input_fn(tf, [[0], [2], [1], [2]]))


def case_rnn_estimator_regression_head_lstm_cell_fn(tf):
    sequence, context = _sequence_columns(tf)
    head = tf.contrib.estimator.regression_head(label_dimension=2)

    def rnn_cell_fn(mode):
        return tf.nn.rnn_cell.LSTMCell(3, use_peepholes=True)
    return _train_from_fixed(tf, lambda d: tf.contrib.estimator.RNNEstimator(
        head, sequence, context, rnn_cell_fn=rnn_cell_fn, model_dir=d, optimizer="SGD"),
        _sequence_input_fn(tf, [[0.5, 1.0], [1.0, 0.0], [0.2, 0.3], [0.0, -1.0]]))


def case_rnn_classifier_units_and_cell_fn_raises(tf):
    sequence, _ = _sequence_columns(tf)
    tf.contrib.estimator.RNNClassifier(sequence, num_units=[2],
                                       rnn_cell_fn=lambda mode: None)


def case_rnn_classifier_unknown_cell_type_raises(tf):
    sequence, _ = _sequence_columns(tf)
    tf.contrib.estimator.RNNClassifier(sequence, num_units=[2], cell_type="elman")


def case_rnn_estimator_return_sequences_needs_sequential_head_raises(tf):
    sequence, _ = _sequence_columns(tf)
    tf.contrib.estimator.RNNEstimator(tf.contrib.estimator.regression_head(), sequence,
                                      num_units=[2], return_sequences=True)


ANNOTATIONS = ("layer_annotations/unprocessed_features/keys",
               "layer_annotations/unprocessed_features/values",
               "layer_annotations/feature_columns",
               "layer_annotatons/processed_features/keys",
               "layer_annotatons/processed_features/values")


def _v1_only_columns():
    """TF1's `_FeatureColumn`s (not tf.feature_column's v2 ones): TF 1.15's DNN fed them
    through the TF1 input layer, which these estimators annotate."""
    from tensorflow.python.feature_column import feature_column as fc_old
    return [fc_old._numeric_column("x", shape=[2]), fc_old._indicator_column(
        fc_old._categorical_column_with_vocabulary_list("c", ["a", "b"]))]


def _dnn_input_fn(tf, labels):
    def input_fn(repeat=True):
        features = {"x": tf.constant([[1.0, 2.0], [3.0, -4.0], [0.5, 0.0]]),
                    "c": tf.constant([["a"], ["b"], ["a"]])}
        data = tf.data.Dataset.from_tensors((features, tf.constant(labels)))
        return data.repeat() if repeat else data
    return input_fn


def _annotations(tf, est, mode):
    """The annotation collections of est's model_fn built for `mode` in a graph of its own:
    keys as text, TensorInfos by tensor name, the pickled columns by class name."""
    import pickle

    from tensorflow.core.protobuf import meta_graph_pb2
    graph = tf.Graph()
    with graph.as_default():
        features = {"x": tf.constant([[1.0, 2.0], [3.0, 4.0]]), "c": tf.constant([["a"], ["b"]])}
        labels = tf.constant([[0], [1]]) if mode != "infer" else None
        est.model_fn(features, labels, mode, est.config)
        out = {}
        for key in ANNOTATIONS:
            items = graph.get_collection(key)
            if key.endswith("/values"):
                infos = []
                for item in items:
                    info = meta_graph_pb2.TensorInfo()
                    item.Unpack(info)
                    infos.append([info.name, info.dtype])
                items = infos
            elif key.endswith("feature_columns"):
                items = [type(pickle.loads(item)).__name__ for item in items]
            out[key] = items
        return out


def case_dnn_classifier_with_layer_annotations(tf):
    est = tf.contrib.estimator.DNNClassifierWithLayerAnnotations(
        [3], _v1_only_columns(), model_dir=tempfile.mkdtemp())
    found = {"infer": _annotations(tf, est, "infer"), "train": _annotations(tf, est, "train")}
    return lambda sess: found


def case_dnn_classifier_with_layer_annotations_v2_columns_record_none(tf):
    columns = [tf.feature_column.numeric_column("x", shape=[2]),
               tf.feature_column.indicator_column(
                   tf.feature_column.categorical_column_with_vocabulary_list("c", ["a", "b"]))]
    est = tf.contrib.estimator.DNNClassifierWithLayerAnnotations(
        [3], columns, model_dir=tempfile.mkdtemp())
    found = _annotations(tf, est, "infer")
    return lambda sess: found


def case_dnn_classifier_with_layer_annotations_trains(tf):
    return _train_from_fixed(tf, lambda d: tf.contrib.estimator.DNNClassifierWithLayerAnnotations(
        [4, 3], _v1_only_columns(), model_dir=d, n_classes=3),
        _dnn_input_fn(tf, [[0], [2], [1]]))


def case_dnn_regressor_with_layer_annotations_trains(tf):
    return _train_from_fixed(tf, lambda d: tf.contrib.estimator.DNNRegressorWithLayerAnnotations(
        [3], _v1_only_columns(), model_dir=d, label_dimension=2,
        optimizer=tf.train.GradientDescentOptimizer(0.05)),
        _dnn_input_fn(tf, [[0.5, 1.0], [1.0, 0.0], [0.2, 0.3]]))


def _sequence_features(tf):
    data = _sequence_input_fn(tf, [[0]])(repeat=False)
    return data.make_one_shot_iterator().get_next()[0]


def _graph_of(tf, est, features, labels):
    """est's TRAIN and PREDICT model_fns, each built in a graph of its own: the summaries,
    trainable variables (by checkpoint name: TF 1.15's graph held them as one-part partitioned
    variables, `.../kernel/part_0`), predictions and export outputs they make."""
    out = {}
    for mode in ("train", "infer"):
        graph = tf.Graph()
        with graph.as_default():
            tf.train.get_or_create_global_step()
            feats, labs = features(), labels()
            spec = est.model_fn(feats, labs if mode == "train" else None, mode, est.config)
            out[mode] = {
                "summaries": sorted(s.op.name for s in tf.get_collection(
                    tf.GraphKeys.SUMMARIES)),
                "trainable": [v.op.name.replace("/part_0", "")
                              for v in tf.trainable_variables()],
                "predictions": sorted(spec.predictions),
                "export_outputs": sorted(spec.export_outputs or {})}
    return lambda sess: out


def case_rnn_classifier_graphs(tf):
    sequence, context = _sequence_columns(tf)
    est = tf.contrib.estimator.RNNClassifier(sequence, context, num_units=[2, 2],
                                             cell_type="lstm", model_dir=tempfile.mkdtemp())
    return _graph_of(tf, est, lambda: _sequence_features(tf),
                     lambda: tf.constant([[0], [1], [1], [0]]))


def case_rnn_estimator_multi_class_head_graphs(tf):
    sequence, _ = _sequence_columns(tf)
    head = tf.contrib.estimator.multi_class_head(3, name="seq")
    est = tf.contrib.estimator.RNNEstimator(head, sequence, num_units=[3],
                                            model_dir=tempfile.mkdtemp())
    return _graph_of(tf, est, lambda: _sequence_features(tf),
                     lambda: tf.constant([[0], [1], [2], [0]]))
