"""The last tf.contrib names served (issue 40), as TF 1.15 computed them: slim's
sparse_feature_cross (string crosses, the old and the keyed hashing, dense inputs, the op
modules) and `slim.loader`."""


def _sparse(tf):
    a = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant(["x", "y", "z"]), [2, 2])
    b = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([3, 4, 5], tf.int64), [2, 2])
    c = tf.constant([["p"], ["q"]])
    return a, b, c


def _exact(tf, sp):
    """A crossed SparseTensor with int64 values as text (the record keeps numbers as float64)."""
    if sp.values.dtype == tf.int64:
        return {"indices": sp.indices, "values": tf.as_string(sp.values),
                "dense_shape": sp.dense_shape}
    return sp


def case_sparse_feature_cross(tf):
    slim = tf.contrib.slim
    cross = slim.sparse_feature_cross
    a, b, c = _sparse(tf)
    d = tf.constant([[7, 8], [9, 10]], tf.int64)
    out = {
        "strings": cross([a, b, c]),
        "ints": cross([b, b]),
        "dense_only": cross([c, d]),
        "v1_raw": cross([a, b], hashed_output=True),
        "v1_buckets": cross([a, b, c], hashed_output=True, num_buckets=100),
        "v1_dense": cross([d, c], hashed_output=True, num_buckets=1000),
        "v2_buckets": cross([a, b], hashed_output=True, num_buckets=100, hash_key=123),
        "v2_raw": cross([a, b, d], hashed_output=True, hash_key=123),
        "v2_default_key": cross([a, c], hashed_output=True, num_buckets=50,
                                hash_key=slim.sparse_feature_cross_op
                                .SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY),
    }
    return {k: _exact(tf, v) for k, v in out.items()}


def case_sparse_feature_cross_gen_ops(tf):
    gen = tf.contrib.slim.gen_sparse_feature_cross_op
    a, b, c = _sparse(tf)
    v1 = gen.sparse_feature_cross([a.indices, b.indices], [a.values, b.values],
                                  [a.dense_shape, b.dense_shape], [c], True, 10, tf.int64,
                                  tf.string)
    v2 = gen.sparse_feature_cross_v2([b.indices], [b.values], [b.dense_shape], [], True, 0,
                                     7, tf.int64, tf.int64)
    op = tf.contrib.slim.sparse_feature_cross_op
    return {"v1_indices": v1[0], "v1_values": tf.as_string(v1[1]), "v1_shape": v1[2],
            "v2_indices": v2.output_indices, "v2_values": tf.as_string(v2.output_values),
            "v2_shape": v2.output_shape,
            "same_fn": op.sparse_feature_cross is tf.contrib.slim.sparse_feature_cross,
            "same_gen": op.gen_sparse_feature_cross_op is gen}


def case_sparse_feature_cross_int32(tf):
    a = tf.SparseTensor([[0, 0]], tf.constant([1], tf.int32), [1, 1])
    b = tf.constant([[2, 3]], tf.int32)
    return {"x": tf.contrib.slim.sparse_feature_cross([a, b]),
            "h": _exact(tf, tf.contrib.slim.sparse_feature_cross([a, b], True, 10))}


def case_sparse_feature_cross_float(tf):
    a = tf.SparseTensor([[0, 0]], tf.constant([1.7]), [1, 1])
    return {"x": tf.contrib.slim.sparse_feature_cross([a, a])}


def case_slim_loader(tf):
    return {"same": tf.contrib.slim.loader is tf.contrib.util.loader,
            "has": hasattr(tf.contrib.slim.loader, "load_op_library")}


def _checkpoint(tf, variables):
    """A checkpoint of `variables` ({name: numpy value}) and vocab files, in a fresh temp dir:
    (checkpoint prefix, {vocab name: path})."""
    import atexit
    import os
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="leftovers_ckpt_")
    atexit.register(shutil.rmtree, folder, True)  # read after the case returns
    with tf.Graph().as_default():
        made = [tf.Variable(value, name=name) for name, value in variables.items()]
        saver = tf.train.Saver(made)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, os.path.join(folder, "model.ckpt"))
    vocabs = {"old_classes": ["a", "b", "c"], "new_classes": ["c", "x", "a", "b"],
              "old_rows": ["r0", "r1", "r2", "r3"], "new_rows": ["r3", "r9", "r1"],
              "old_cols": ["a", "b", "c"], "new_cols": ["c", "x", "a", "b"]}
    paths = {}
    for name, words in vocabs.items():
        paths[name] = os.path.join(folder, name + ".txt")
        with open(paths[name], "w") as f:
            f.write("\n".join(words) + "\n")
    return prefix, paths


def case_load_linear_multiclass_bias_initializer(tf):
    import numpy as np
    fw = tf.contrib.framework
    prefix, vocab = _checkpoint(tf, {
        "bias": np.array([[1.0], [2.0], [3.0]], np.float32)})
    init = fw.load_linear_multiclass_bias_initializer(
        prefix, "bias", 4, vocab["old_classes"], vocab["new_classes"], num_class_oov_buckets=1,
        initializer=lambda shape: tf.fill(shape, -0.5))
    v = tf.get_variable("new_bias", shape=[5, 1], initializer=init)
    plain = fw.load_linear_multiclass_bias_initializer(
        prefix, "bias", 4, vocab["old_classes"], vocab["new_classes"])
    w = tf.get_variable("plain_bias", shape=[4, 1], initializer=plain)
    return {"v": v, "w": w}


def case_load_variable_slot_initializer(tf):
    import numpy as np
    fw = tf.contrib.framework
    old = np.arange(12, dtype=np.float32).reshape(4, 3) + 1.0
    prefix, vocab = _checkpoint(tf, {"accum": old})
    whole = fw.load_variable_slot_initializer(
        prefix, "accum", None, 3, 4, vocab["old_rows"], vocab["new_rows"],
        vocab["old_cols"], vocab["new_cols"], num_row_oov_buckets=1, num_col_oov_buckets=1,
        initializer=lambda shape: tf.fill(shape, 0.25))
    v = tf.get_variable("slot", shape=[4, 5], initializer=whole)
    # a slot of the second of two row partitions (rows 2..3 of the whole [4, 5] primary)
    from tensorflow.python.ops import variable_scope
    info = variable_scope._PartitionInfo(full_shape=[4, 5], var_offset=[2, 0])
    second = fw.load_variable_slot_initializer(
        prefix, "accum", info, 3, 4, vocab["old_rows"], vocab["new_rows"],
        vocab["old_cols"], vocab["new_cols"], num_row_oov_buckets=1, num_col_oov_buckets=1,
        initializer=lambda shape: tf.fill(shape, 0.25))
    s = tf.get_variable("slot_part1", shape=[2, 5], initializer=second)
    rows_only = fw.load_variable_slot_initializer(
        prefix, "accum", None, 3, 3, vocab["old_rows"], vocab["new_rows"])
    r = tf.get_variable("slot_rows", shape=[3, 3], initializer=rows_only)
    return {"v": v, "s": s, "r": r}


def case_load_variable_slot_initializer_no_vocab(tf):
    init = tf.contrib.framework.load_variable_slot_initializer("/nonexistent", "accum", None, 2, 3)
    return {"x": tf.get_variable("slot", shape=[2, 3], initializer=init)}


def case_load_variable_slot_initializer_not_callable(tf):
    return {"x": tf.contrib.framework.load_variable_slot_initializer(
        "/nonexistent", "accum", None, 2, 3, initializer=3.0)}


def _fusable_graph(tf):
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.float32, [2], name="p")
        p2 = tf.placeholder(tf.float32, [2], name="p2")
        a = tf.identity(p, name="a")
        a2 = tf.identity(p2, name="a2")
        k = tf.constant(3.0, name="k")
        b = tf.multiply(a, k, name="b")
        c = tf.add(b, a2, name="c")
        d = tf.subtract(b, a2, name="d")
        out = tf.identity(c, name="out")
        out2 = tf.identity(d, name="out2")
        tf.identity(out, name="after")
        tf.identity(out2, name="after2")
        tf.constant(1.0, name="unrelated")
    return g.as_graph_def()


def _node_lines(graph_def):
    lines = []
    for n in graph_def.node:
        attrs = sorted(k for k in n.attr)
        extra = ""
        if "_output_types" in n.attr:
            extra = " types=%s quantized=%s" % (list(n.attr["_output_types"].list.type),
                                                n.attr["_output_quantized"].b)
        lines.append("%s %s %s %s%s" % (n.name, n.op, list(n.input), attrs, extra))
    return lines


def case_fuse_op(tf):
    fuse = tf.contrib.framework.fuse_op
    gd = _fusable_graph(tf)
    one = fuse(gd, ["a", "a2"], ["out"], [tf.float32.as_datatype_enum], True, "fused", "MyOp")
    two = fuse(gd, ["a", "a2"], ["out", "out2"], [tf.float32.as_datatype_enum] * 2, False,
               "f2", "Other")
    return {"one": _node_lines(one), "two": _node_lines(two),
            "versions": one.versions.producer == gd.versions.producer}


def case_fuse_op_input_not_listed(tf):
    gd = _fusable_graph(tf)
    return {"x": tf.contrib.framework.fuse_op(gd, ["a"], ["out"], [1], False, "f", "Op")}


def case_fuse_op_string_inputs(tf):
    gd = _fusable_graph(tf)
    return {"x": tf.contrib.framework.fuse_op(gd, "a", ["out"], [1], False, "f", "Op")}


def case_fuse_op_output_with_two_inputs(tf):
    gd = _fusable_graph(tf)
    return {"x": tf.contrib.framework.fuse_op(gd, ["a", "a2"], ["c"], [1], False, "f", "Op")}


class _Series(object):
    """A stand-in for contrib.learn's (removed) DataFrame Series."""

    def required_base_features(self):
        return {"x": "FixedLenFeature([2], float32)"}

    def build(self, cache):
        return cache["x"]

    def __repr__(self):
        return "Series()"


def case_dataframe_column(tf):
    import numpy as np
    col = tf.contrib.slim.DataFrameColumn("dfc", _Series())
    sp = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
    r4 = tf.constant(np.arange(16.0, dtype=np.float32).reshape(2, 2, 2, 2))
    to_dnn = col._to_dnn_input_layer
    return {
        "name": col.name, "key": col.key, "repr": repr(col), "config": repr(col.config),
        "equal": col == tf.contrib.slim.DataFrameColumn("dfc", col.series),
        "ordered": tf.contrib.slim.DataFrameColumn("a", None) < col,
        "int": to_dnn(tf.constant([[1, 2], [3, 4]])),
        "float64": to_dnn(tf.constant([[1.5, 2.0]], tf.float64)),
        "dtypes": [to_dnn(tf.constant([[1.5]], tf.float64)).dtype.name,
                   to_dnn(tf.constant([[1]], tf.int64)).dtype.name],
        "vector": col._to_dense_tensor(tf.constant([1.0, 2.0])),
        "rank4": to_dnn(r4), "rank4_3": to_dnn(r4, output_rank=3),
        "rank4_dense": col._to_dense_tensor(r4),
        "sparse_same": [to_dnn(sp) is sp, col._to_dense_tensor(sp) is sp],
    }


def case_dataframe_column_unhashable(tf):
    col = tf.contrib.slim.DataFrameColumn("dfc", _Series())
    cache = {"x": tf.constant([[1.0, 2.0]])}
    col.insert_transformed_feature(cache)
    return {"x": cache[col]}


def _tower_model_fn(tf, optimizer):
    def model_fn(features, labels, mode, params):
        logits = tf.layers.dense(features["x"], 2, name="dense",
                                 kernel_initializer=tf.constant_initializer(params["w"]))
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = optimizer().minimize(loss, global_step=tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                          predictions={"logits": logits})
    return model_fn


def _tower_inputs(tf):
    import numpy as np
    x = np.array([[1.0, 2.0], [2.0, 1.0], [0.5, 0.1], [0.3, 0.9]], np.float32)
    return {"x": tf.constant(x)}, tf.constant([0, 1, 1, 0])


def case_replicate_model_fn_one_device(tf):
    ce = tf.contrib.estimator
    used = [ce.TowerOptimizer.has_been_used()]
    fn = ce.replicate_model_fn(_tower_model_fn(
        tf, lambda: ce.TowerOptimizer(tf.train.AdamOptimizer(0.1))))
    features, labels = _tower_inputs(tf)
    spec = fn(features, labels, tf.estimator.ModeKeys.TRAIN, params={"w": 0.1})
    used.append(ce.TowerOptimizer.has_been_used())

    def run(sess):
        before = sess.run(spec.loss)
        for _ in range(3):
            sess.run(spec.train_op)
        kernel = [v for v in tf.global_variables() if v.op.name == "dense/kernel"][0]
        return {"before": before, "after": sess.run(spec.loss), "kernel": sess.run(kernel),
                "logits": sess.run(spec.predictions["logits"]),
                "loss_name": spec.loss.op.name, "used": used}
    return run


def case_replicate_model_fn_plain_optimizer_and_fn(tf):
    ce = tf.contrib.estimator
    fn = ce.replicate_model_fn(_tower_model_fn(
        tf, lambda: tf.train.GradientDescentOptimizer(0.5)),
        loss_reduction=tf.losses.Reduction.MEAN, devices=["/cpu:0"])
    features, labels = _tower_inputs(tf)
    spec = fn(features, labels, tf.estimator.ModeKeys.TRAIN, params={"w": 0.2})

    def run(sess):
        sess.run(spec.train_op)
        return {"loss": sess.run(spec.loss), "step": sess.run(tf.train.get_global_step())}
    return run


def case_tower_optimizer_forwards(tf):
    ce = tf.contrib.estimator
    v = tf.get_variable("v", initializer=2.0)
    made = []

    def optimizer_fn():
        made.append(1)
        return tf.train.MomentumOptimizer(0.1, 0.9, name="Mom")
    opt = ce.TowerOptimizer(optimizer_fn)
    lazy = len(made)
    op = opt.minimize(v * v)
    return {"lazy": lazy, "made": len(made), "name": opt.get_name(),
            "slots": opt.get_slot_names(), "slot": opt.get_slot(v, "momentum").op.name,
            "variables": [x.op.name for x in opt.variables()], "op": op.name,
            "collection": ce.TowerOptimizer.COLLECTION_FOR_GRAPH_STATES,
            "is_optimizer": isinstance(opt, tf.train.Optimizer), "step": op,
            "used": ce.TowerOptimizer.has_been_used()}


def case_replicate_model_fn_none_reduction(tf):
    ce = tf.contrib.estimator
    return {"x": ce.replicate_model_fn(lambda features, labels, mode: None,
                                       loss_reduction=tf.losses.Reduction.NONE)}


def case_split_dependency(tf):
    import atexit
    import os
    import shutil
    import tempfile
    a = tf.get_variable("a", initializer=tf.constant([1.0, 2.0]))
    b = tf.get_variable("b", initializer=tf.constant(7, tf.int64))
    consumed = []

    def fill(buf):
        buf["first"] = a * 2.0
        buf["second"] = b + 1

    def consume(buf):
        consumed.append(sorted(buf))
        return tf.group(a.assign(buf["first"] / 2.0), b.assign(buf["second"] - 1))
    deps = tf.contrib.checkpoint.split_dependency(["first", "second"], [tf.float32, tf.int64],
                                                  fill, consume, "/cpu:0")
    root = tf.train.Checkpoint(x=deps["first"], y=deps["second"])
    zero = tf.group(a.assign([0.0, 0.0]), b.assign(0))
    folder = tempfile.mkdtemp(prefix="leftovers_split_")
    atexit.register(shutil.rmtree, folder, True)  # read after the case returns

    def run(sess):
        path = root.save(os.path.join(folder, "ck"), session=sess)
        keys = sorted(n for n, _ in tf.train.list_variables(path))
        saved = [tf.train.load_variable(path, "x/.ATTRIBUTES/VARIABLE_VALUE"),
                 tf.train.load_variable(path, "y/.ATTRIBUTES/VARIABLE_VALUE")]
        sess.run(zero)
        root.restore(path).run_restore_ops(sess)
        return {"keys": keys, "saved_x": saved[0], "saved_y": saved[1], "a": sess.run(a),
                "b": sess.run(b), "consumed": consumed, "kinds": sorted(deps)}
    return run
