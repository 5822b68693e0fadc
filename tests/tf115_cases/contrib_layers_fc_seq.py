"""tf.contrib.layers / slim cases: scattered (parameter-hashed) embeddings, sequence inputs
from feature columns, SequenceExample parsing for feature columns, and the target columns
(predictions, losses, eval metric ops). Values are made
deterministic (constant parameters, numpy inputs); outputs keyed by column are keyed by the
column's name."""
import numpy as np

PARAMS = (np.arange(10, dtype=np.float32) - 4.5) / 10.0
WORDS = np.array([["omar", "stringer", "marlo"], ["barksdale", "", "omar"]])


def _named(tf, columns_to_values):
    """Keyed by name; a SparseTensor as its three parts (compared one by one)."""
    def parts(v):
        if isinstance(v, tf.SparseTensor):
            return {"indices": v.indices, "values": v.values, "dense_shape": v.dense_shape}
        return v
    return {getattr(k, "name", k): parts(v) for k, v in columns_to_values.items()}


def case_lookup_strings(tf):
    out = tf.contrib.slim.scattered_embedding_lookup(tf.constant(PARAMS),
                                                     tf.constant(WORDS), 3)
    return {"out": out, "shape": tf.shape(out)}


def case_lookup_ints(tf):
    values = tf.constant(np.array([[1, 7], [-3, 123456789]], np.int64))
    return {"out": tf.contrib.slim.scattered_embedding_lookup(tf.constant(PARAMS), values, 4)}


def case_lookup_hash_key(tf):
    return {"out": tf.contrib.slim.scattered_embedding_lookup(
        tf.constant(PARAMS), tf.constant(WORDS), 5,
        hash_key=tf.contrib.layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)}


def case_lookup_partitioned(tf):
    parts = [tf.constant(PARAMS[:3]), tf.constant(PARAMS[3:6]), tf.constant(PARAMS[6:8]),
             tf.constant(PARAMS[8:])]
    return {"out": tf.contrib.slim.scattered_embedding_lookup(parts, tf.constant(WORDS), 3)}


def case_lookup_partitioned_variable(tf):
    def init(shape, dtype=None, partition_info=None):
        offset = partition_info.single_offset(shape) if partition_info else 0
        return tf.constant(PARAMS[offset:offset + shape[0]])
    params = tf.get_variable("params", shape=[10], initializer=init,
                             partitioner=tf.fixed_size_partitioner(3))
    return {"out": tf.contrib.slim.scattered_embedding_lookup(params, tf.constant(WORDS), 3)}


def case_lookup_bad_partition(tf):
    parts = [tf.constant(PARAMS[:2]), tf.constant(PARAMS[2:])]
    return {"out": tf.contrib.slim.scattered_embedding_lookup(parts, tf.constant(WORDS), 3)}


def case_lookup_bad_dimension(tf):
    return {"out": tf.contrib.slim.scattered_embedding_lookup(tf.constant(PARAMS),
                                                              tf.constant(WORDS), 0)}


def _sparse_words(tf):
    return tf.SparseTensor(indices=[[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]],
                           values=["omar", "stringer", "marlo", "omar", "omar"],
                           dense_shape=[3, 3])


def case_lookup_sparse_combiners(tf):
    params = tf.constant(PARAMS)
    lookup = tf.contrib.slim.scattered_embedding_lookup_sparse
    return {combiner: lookup(params, _sparse_words(tf), 3, combiner=combiner)
            for combiner in ("mean", "sum", "sqrtn")}


def case_lookup_sparse_default(tf):
    return {"out": tf.contrib.slim.scattered_embedding_lookup_sparse(
        tf.constant(PARAMS), _sparse_words(tf), 4, default_value="marlo",
        hash_key=tf.contrib.layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)}


def case_lookup_sparse_ints(tf):
    ids = tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1]], values=tf.constant([3, 4, 3],
                                                                               tf.int64),
                          dense_shape=[3, 2])  # row 2 empty
    return {"out": tf.contrib.slim.scattered_embedding_lookup_sparse(
        tf.constant(PARAMS), ids, 2),
            "default": tf.contrib.slim.scattered_embedding_lookup_sparse(
        tf.constant(PARAMS), ids, 2, default_value=5)}


def case_lookup_sparse_not_sparse(tf):
    return {"out": tf.contrib.slim.scattered_embedding_lookup_sparse(
        tf.constant(PARAMS), tf.constant(WORDS), 3)}


def case_lookup_sparse_bad_combiner(tf):
    return {"out": tf.contrib.slim.scattered_embedding_lookup_sparse(
        tf.constant(PARAMS), _sparse_words(tf), 3, combiner="max")}


def _scattered(tf, **kwargs):
    return tf.contrib.layers.scattered_embedding_column(
        "words", size=10, dimension=3, hash_key=tf.contrib.layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY,
        initializer=tf.constant_initializer(PARAMS), **kwargs)


def case_scattered_column_input_layer(tf):
    words = _scattered(tf)
    price = tf.contrib.layers.real_valued_column("price")
    features = {"words": _sparse_words(tf), "price": tf.constant([[1.0], [2.0], [3.0]])}
    out = tf.contrib.layers.input_from_feature_columns(features, [words, price])
    spec = tf.contrib.layers.create_feature_spec_for_parsing([words])
    return {"out": out, "name": words.name, "spec": sorted(spec),
            "spec_dtype": spec["words"].dtype.name, "spec_kind": type(spec["words"]).__name__}


def case_scattered_column_combiner_sum_dense_input(tf):
    words = _scattered(tf, combiner="sum")
    out = tf.contrib.layers.input_from_feature_columns({"words": tf.constant(WORDS)}, [words],
                                                       scope="dnn")
    return {"out": out}


def case_scattered_column_default_initializer(tf):
    words = tf.contrib.layers.scattered_embedding_column("words", size=12, dimension=4,
                                                         hash_key=7)
    out = tf.contrib.layers.input_from_feature_columns({"words": _sparse_words(tf)}, [words],
                                                       weight_collections=["mine"])
    return {"shape": tf.shape(out), "mine": [v.op.name for v in tf.get_collection("mine")]}


case_scattered_column_default_initializer.values_compared = True


def case_scattered_column_bad_combiner(tf):
    return {"c": _scattered(tf, combiner="max").name}


def case_scattered_column_linear(tf):
    words = _scattered(tf)
    out, _, _ = tf.contrib.layers.weighted_sum_from_feature_columns(
        {"words": _sparse_words(tf)}, [words], 1)
    return {"out": out}


def _seq_features(tf):
    ids = tf.SparseTensor(indices=[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 2, 0]],
                          values=tf.constant([1, 3, 0, 2, 2], tf.int64), dense_shape=[2, 3, 2])
    measure = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 4.0)
    return {"ids": ids, "measure": measure,
            "words": tf.SparseTensor(indices=[[0, 0, 0], [0, 2, 0], [1, 1, 0]],
                                     values=["omar", "marlo", "omar"], dense_shape=[2, 3, 1])}


def case_sequence_input(tf):
    layers = tf.contrib.layers
    ids = layers.sparse_column_with_integerized_feature("ids", bucket_size=4)
    emb = layers.embedding_column(ids, dimension=2,
                                  initializer=tf.constant_initializer(np.arange(8) / 8.0))
    measure = layers.real_valued_column("measure", dimension=2)
    out = layers.sequence_input_from_feature_columns(_seq_features(tf), [emb, measure])
    return {"out": out, "shape": tf.shape(out)}


def case_sequence_input_one_hot(tf):
    layers = tf.contrib.layers
    ids = layers.sparse_column_with_integerized_feature("ids", bucket_size=4)
    words = layers.sparse_column_with_hash_bucket("words", 5)
    emb = layers.embedding_column(words, dimension=3, combiner="sum",
                                  initializer=tf.constant_initializer(np.arange(15) / 15.0))
    out = layers.sequence_input_from_feature_columns(
        _seq_features(tf), [layers.one_hot_column(ids), emb], scope="seq",
        weight_collections=["seq_weights"], trainable=False)
    return {"out": out, "shape": tf.shape(out),
            "seq_weights": [v.op.name for v in tf.get_collection("seq_weights")]}


def case_sequence_input_scattered_refused(tf):
    return {"out": tf.contrib.layers.sequence_input_from_feature_columns(_seq_features(tf),
                                                                         [_scattered(tf)])}


def case_sequence_input_bucketized_refused(tf):
    layers = tf.contrib.layers
    b = layers.bucketized_column(layers.real_valued_column("measure", dimension=2), [0.5, 1.0])
    return {"out": layers.sequence_input_from_feature_columns(_seq_features(tf), [b])}


def case_sequence_input_sparse_refused(tf):
    layers = tf.contrib.layers
    ids = layers.sparse_column_with_integerized_feature("ids", bucket_size=4)
    return {"out": layers.sequence_input_from_feature_columns(_seq_features(tf), [ids])}


def _sequence_example(tf):
    feature_lists = {
        "tokens": tf.train.FeatureList(feature=[
            tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a", b"b"])),
            tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"c"]))]),
        "scores": tf.train.FeatureList(feature=[
            tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 1.5])),
            tf.train.Feature(float_list=tf.train.FloatList(value=[2.5, 3.5]))]),
    }
    context = {"user": tf.train.Feature(int64_list=tf.train.Int64List(value=[7])),
               "age": tf.train.Feature(float_list=tf.train.FloatList(value=[31.0]))}
    return tf.train.SequenceExample(
        context=tf.train.Features(feature=context),
        feature_lists=tf.train.FeatureLists(feature_list=feature_lists)).SerializeToString()


def case_parse_sequence_examples(tf):
    layers = tf.contrib.layers
    context_columns = [layers.sparse_column_with_integerized_feature("user", bucket_size=10),
                       layers.real_valued_column("age")]
    sequence_columns = [layers.sparse_column_with_hash_bucket("tokens", 100),
                        layers.real_valued_column("scores", dimension=2)]
    context, sequence = layers.parse_feature_columns_from_sequence_examples(
        tf.constant(_sequence_example(tf)), context_columns, sequence_columns)
    return {"context": _named(tf, context), "sequence": _named(tf, sequence),
            "key_types": sorted({type(k).__name__ for k in list(context) + list(sequence)})}


def case_parse_sequence_examples_only_sequence(tf):
    layers = tf.contrib.layers
    context, sequence = layers.parse_feature_columns_from_sequence_examples(
        tf.constant(_sequence_example(tf)), None,
        [layers.real_valued_column("scores", dimension=2)], name="parse")
    return {"n_context": len(context), "sequence": _named(tf, sequence)}


LOGITS3 = np.array([[1.0, 2.0, 0.5], [0.2, -1.0, 3.0], [0.0, 0.0, 0.0], [2.0, 1.0, -1.0]],
                   np.float32)
LABELS = np.array([[1], [2], [0], [1]], np.int64)
WEIGHTS = np.array([[1.0], [2.0], [0.5], [0.0]], np.float32)
BATCHES = [([[1.0], [-2.0], [0.3]], [[1], [0], [0]], [[1.0], [3.0], [0.5]]),
           ([[0.5], [2.0]], [[1], [1]], [[2.0], [1.0]])]


def _target_outputs(tf, target, logits, labels, features, metrics=None):
    """The target column's predictions and losses, and its eval metrics after one update."""
    fetches = {"pred": target.logits_to_predictions(logits, proba=False),
               "loss": target.loss(logits, labels, features),
               "training_loss": target.training_loss(logits, labels, features)}
    plain = {"num_label_columns": target.num_label_columns,
             "problem_type": target.problem_type}
    if target.get_weight_tensor(features) is not None:
        fetches["weight"] = target.get_weight_tensor(features)
    eval_ops = target.get_eval_ops(features, logits, labels, metrics)

    def run(sess):
        sess.run({k: v[1] for k, v in eval_ops.items()})
        out = sess.run(fetches)
        out.update(plain)
        out["eval"] = sess.run({k: v[0] for k, v in eval_ops.items()})
        return out
    return run


def case_target_multi_class(tf):
    target = tf.contrib.layers.multi_class_target(3, label_name="y", weight_column_name="w")
    logits = tf.constant(LOGITS3)
    run = _target_outputs(tf, target, logits, tf.constant(LABELS), {"w": tf.constant(WEIGHTS)})

    def with_proba(sess):
        out = run(sess)
        out["proba"] = sess.run(target.logits_to_predictions(logits, proba=True))
        out["names"] = [target.label_name, target.weight_column_name]
        return out
    return with_proba


def case_target_multi_class_unweighted_rank1_labels(tf):
    return _target_outputs(tf, tf.contrib.layers.multi_class_target(3), tf.constant(LOGITS3),
                           tf.constant(LABELS[:, 0]), {})


def case_target_binary_two_batches(tf):
    logits = tf.placeholder(tf.float32, [None, 1])
    labels = tf.placeholder(tf.int64, [None, 1])
    weights = tf.placeholder(tf.float32, [None, 1])
    target = tf.contrib.layers.multi_class_target(2, weight_column_name="w")
    eval_ops = target.get_eval_ops({"w": weights}, logits, labels)
    proba = target.logits_to_predictions(logits, proba=True)

    def run(sess):
        for batch_logits, batch_labels, batch_weights in BATCHES:
            feed = {logits: batch_logits, labels: batch_labels, weights: batch_weights}
            sess.run({k: v[1] for k, v in eval_ops.items()}, feed)
        return {"eval": sess.run({k: v[0] for k, v in eval_ops.items()}),
                "proba": sess.run(proba, {logits: BATCHES[0][0]})}
    return run


def case_target_regression(tf):
    target = tf.contrib.layers.regression_target(weight_column_name="w")
    return _target_outputs(tf, target, tf.constant(LOGITS3[:, :1]),
                           tf.constant(LABELS.astype(np.float32)), {"w": tf.constant(WEIGHTS)})


def case_target_regression_two_dimensions(tf):
    target = tf.contrib.layers.regression_target(label_dimension=2)
    return _target_outputs(tf, target, tf.constant(LOGITS3[:, :2]),
                           tf.constant(np.hstack([LABELS, 2 * LABELS]).astype(np.float32)), {})


def case_target_metrics_by_kind(tf):
    def mean_of_predictions(predictions, labels, weights=None):
        return tf.metrics.mean(predictions, weights=weights)

    def accuracy(predictions, labels, weights=None):
        return tf.metrics.accuracy(labels, predictions, weights=weights)
    target = tf.contrib.layers.multi_class_target(3, weight_column_name="w")
    return _target_outputs(tf, target, tf.constant(LOGITS3), tf.constant(LABELS),
                           {"w": tf.constant(WEIGHTS)},
                           metrics={"acc": accuracy,
                                    ("p_mean", "probabilities"): mean_of_predictions})


def case_target_binary_svm(tf):
    target = tf.contrib.slim.binary_svm_target()
    return _target_outputs(tf, target, tf.constant([[1.0], [-2.0], [0.3], [0.0]]),
                           tf.constant([[1], [0], [0], [1]], tf.int64), {})


def case_target_binary_svm_proba_refused(tf):
    target = tf.contrib.slim.binary_svm_target()
    return {"p": target.logits_to_predictions(tf.constant([[1.0]]), proba=True)}


def case_target_one_class_refused(tf):
    return {"n": tf.contrib.layers.multi_class_target(1).num_label_columns}


def case_target_default_binary_metrics(tf):
    slim = tf.contrib.slim
    metrics = slim.get_default_binary_metrics_for_eval([0.3, 0.5])
    problem = slim.ProblemType
    return {"names": sorted(metrics),
            "problem_types": [problem.UNSPECIFIED, problem.CLASSIFICATION,
                              problem.LINEAR_REGRESSION, problem.LOGISTIC_REGRESSION]}
