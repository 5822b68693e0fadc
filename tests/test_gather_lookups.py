"""canned/gather_lookups.py: one-value-per-row categorical lookups as gathers give what
TensorFlow's sparse path gives — the same outputs, the same gradients reaching the same rows
(id 0 for a row without a valid id, as `safe_embedding_lookup_sparse` fills it) — on inputs
with missing values, out-of-vocabulary ids, crosses and buckets, with a smaller graph."""
import contextlib

import numpy as np
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.canned import gather_lookups as gather_module
from estimator_compat.canned.gather_lookups import gather_lookups, takes

fc = tf.feature_column
v1 = tf.compat.v1

A = fc.categorical_column_with_vocabulary_list("a", ["x", "y", "z"])  # OOV -> -1
B = fc.categorical_column_with_vocabulary_list("b", ["p", "q"], num_oov_buckets=2)
H = fc.categorical_column_with_hash_bucket("h", 7)
I = fc.categorical_column_with_identity("i", 5)
I2 = fc.categorical_column_with_identity("i2", 5, default_value=3)
N = fc.bucketized_column(fc.numeric_column("n"), [0.0, 1.0])
CROSS = fc.crossed_column([A, "s", B], 11)
CROSS_N = fc.crossed_column([N, "s"], 13)
LINEAR = [A, B, H, I, I2, N, CROSS, CROSS_N]
EMBEDDED = [fc.embedding_column(A, 3, combiner="mean"), fc.embedding_column(B, 3, combiner="sqrtn"),
            fc.embedding_column(H, 3, combiner="sum", max_norm=0.5),
            fc.embedding_column(I, 3), fc.embedding_column(CROSS, 3),
            fc.embedding_column(CROSS_N, 2)]
FEATURES = {  # rank 1 and [batch, 1]; '' and -1 are missing, 'w' / 9 out of vocabulary
    "a": ["x", "", "w", "z", "y"], "b": [["p"], ["r"], [""], ["q"], ["p"]],
    "h": ["u", "v", "", "u", "w"], "i": [0, -1, 4, 2, 2], "i2": [9, 1, -1, 4, -3],
    "s": ["s1", "", "s2", "s1", "s3"], "n": [-1.0, 0.5, 2.0, 0.5, 7.0]}


def _build(gather, features=FEATURES, linear=LINEAR, embedded=EMBEDDED, partitioner=None):
    """Outputs, each variable's gradient (dense, and the rows it reaches), node count."""
    graph = tf.Graph()
    with graph.as_default():
        tensors = {k: tf.constant(v) for k, v in features.items()}
        with gather_lookups() if gather else contextlib.nullcontext():
            with v1.variable_scope("dnn", partitioner=partitioner):
                deep = v1.feature_column.input_layer(tensors, embedded)
            with v1.variable_scope("linear", partitioner=partitioner):
                wide = v1.feature_column.linear_model(tensors, linear, units=2)
        loss = (tf.reduce_sum(deep * tf.range(1.0, 1 + deep.shape[1]))
                + tf.reduce_sum(wide * [1.0, -2.0]))
        variables = v1.global_variables()
        grads = tf.gradients(loss, variables)
        fills = [var.assign(np.arange(np.prod(var.shape), dtype=np.float32).reshape(var.shape)
                            / 10 + 1) for var in variables]
        with v1.Session() as session:
            session.run([v1.global_variables_initializer(), v1.tables_initializer()])
            session.run(fills)  # non-zero weights everywhere, so every lookup shows
            outputs, grad_values = session.run([[deep, wide], grads])
        nodes = len(graph.as_graph_def().node)
    gradients = {}
    for var, grad in zip(variables, grad_values):
        if hasattr(grad, "indices"):
            dense = np.zeros(var.shape, np.float32)
            np.add.at(dense, grad.indices, grad.values)
            gradients[var.name] = (dense, sorted(set(grad.indices.tolist())))
        else:
            gradients[var.name] = (grad, None)
    return outputs, gradients, nodes


def test_same_outputs_and_gradients_as_the_sparse_path_in_a_third_smaller_graph():
    (deep, wide), grads, nodes = _build(gather=False)
    (deep_g, wide_g), grads_g, nodes_g = _build(gather=True)
    np.testing.assert_allclose(deep_g, deep, rtol=1e-6)
    np.testing.assert_allclose(wide_g, wide, rtol=1e-6)
    assert set(grads_g) == set(grads) and len(grads) == 2 * len(LINEAR) - 2 + 1
    for name, (dense, rows) in grads.items():
        np.testing.assert_allclose(grads_g[name][0], dense, rtol=1e-5, atol=1e-6,
                                   err_msg=name)  # max_norm clips rows in another order
        assert grads_g[name][1] == rows, name  # the rows an optimizer's slots see updated
    assert grads["linear/linear_model/a/weights:0"][1] == [0, 1, 2]  # '' and 'w' fill id 0
    assert nodes_g < 0.65 * nodes, (nodes_g, nodes)


def test_partitioned_variables_give_the_same_as_the_sparse_path():
    """Variables split in shards (a ps job's partitioner): each shard's gradient as there."""
    partitioner = v1.fixed_size_partitioner(2)
    (deep, wide), grads, _ = _build(False, partitioner=partitioner)
    (deep_g, wide_g), grads_g, _ = _build(True, partitioner=partitioner)
    np.testing.assert_allclose(deep_g, deep, rtol=1e-6)
    np.testing.assert_allclose(wide_g, wide, rtol=1e-6)
    assert "linear/linear_model/a/weights/part_1:0" in grads
    for name, (dense, rows) in grads.items():
        np.testing.assert_allclose(grads_g[name][0], dense, rtol=1e-5, atol=1e-6, err_msg=name)
        assert grads_g[name][1] == rows, name


def test_sparse_and_multi_valued_inputs_keep_tensorflows_path():
    features = dict(FEATURES, a=[["x", "y"], ["", ""], ["w", "x"], ["z", ""], ["y", "y"]])
    (deep, wide), _, nodes = _build(False, features)
    (deep_g, wide_g), _, nodes_g = _build(True, features)
    np.testing.assert_allclose(deep_g, deep, rtol=1e-6)
    np.testing.assert_allclose(wide_g, wide, rtol=1e-6)
    tensors = {k: tf.constant(v) for k, v in features.items()}
    tensors["h"] = tf.sparse.from_dense(tf.constant([["u"], ["v"], [""], ["u"], ["w"]]))
    assert not takes(tensors, A) and not takes(tensors, H) and not takes(tensors, CROSS)
    assert takes(tensors, B) and takes(tensors, N) and takes(tensors, CROSS_N)


def test_wide_and_deep_trains_to_the_same_weights_either_way(tmp_path, monkeypatch):
    """The canned estimator end to end (Ftrl on the linear part, Adagrad on the DNN): the same
    variables after 20 steps whether the lookups gather or go sparse."""
    rng = np.random.RandomState(0)
    words = rng.choice(["x", "y", "z", "w", ""], 256)
    features = {"a": words, "s": rng.choice(["s1", "s2"], 256),
                "b": rng.choice(["p", "q", "r", ""], 256),
                "n": rng.normal(size=256).astype(np.float32)}
    labels = ((words == "x") | (features["n"] > 0.5)).astype(np.int64)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices((features, labels)).batch(32)

    def train(model_dir):
        est = ec.DNNLinearCombinedClassifier(
            model_dir=model_dir, linear_feature_columns=[A, B, N, CROSS, CROSS_N],
            dnn_feature_columns=[fc.embedding_column(A, 3), fc.embedding_column(CROSS, 2)],
            dnn_hidden_units=[4], config=ec.RunConfig(tf_random_seed=3))
        est.train(input_fn, steps=8)
        return est

    gathered = train(str(tmp_path / "gather"))
    monkeypatch.setattr(gather_module, "ENABLED", False)
    sparse = train(str(tmp_path / "sparse"))
    names = [n for n in sparse.get_variable_names() if "global_step" not in n]
    assert sorted(gathered.get_variable_names()) == sorted(sparse.get_variable_names())
    for name in names:
        np.testing.assert_allclose(gathered.get_variable_value(name),
                                   sparse.get_variable_value(name), rtol=1e-4, atol=1e-6,
                                   err_msg=name)
    def op_types(est):
        return {op.type for op in est._state(None).step("train").graph.get_operations()}
    assert "SparseFillEmptyRows" not in op_types(gathered)
    assert "SparseFillEmptyRows" in op_types(sparse)


def test_takes_only_dense_one_value_per_row():
    tensors = {k: tf.constant(v) for k, v in FEATURES.items()}
    assert all(takes(tensors, c) for c in LINEAR)
    assert not takes(tensors, fc.categorical_column_with_vocabulary_list("missing", ["x"]))
    assert not takes(None, A)
