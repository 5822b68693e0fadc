"""tf.contrib.model_pruning cases (TF 1.15 style, Python 3.7): masked layers and cells with
fixed weights, the mask / threshold variables and collections, mask updates over several
global steps (the polynomial sparsity schedule, threshold decay, block pruning, per-weight
sparsity, the begin / end / frequency gating), the summaries' tags, and a pruned inference
graph (strip_pruning_vars_fn, graph_def_from_checkpoint)."""
import os
import tempfile

import numpy as np

from tf115_cases.fixed_values import fixed as _fixed, inputs as _inputs


def _names(items):
    return [getattr(x, "name", str(x)) for x in items]


def _pruning_collections(tf):
    mp = tf.contrib.model_pruning
    return {"masks": _names(mp.get_masks()), "thresholds": _names(mp.get_thresholds()),
            "masked_weights": _names(mp.get_masked_weights()),
            "weights": _names(mp.get_weights())}


def _tags(tf, summary_bytes):
    return sorted(v.tag for v in tf.Summary.FromString(summary_bytes).value)


def case_masked_layers(tf):
    mp = tf.contrib.model_pruning
    x = tf.constant(_inputs(2, 5, 5, 3))
    conv = mp.masked_conv2d(x, 4, [3, 3], stride=2,
                            weights_initializer=tf.constant_initializer(_fixed([3, 3, 3, 4], 0)),
                            biases_initializer=tf.constant_initializer(0.1))
    conv2 = mp.masked_convolution(conv, 2, 1, padding="VALID", activation_fn=None,
                                  weights_initializer=tf.constant_initializer(
                                      _fixed([1, 1, 4, 2], 1)),
                                  normalizer_fn=tf.nn.l2_normalize, scope="second")
    flat = tf.reshape(conv2, [2, -1])
    fc = mp.masked_fully_connected(flat, 3, weights_initializer=tf.constant_initializer(
        _fixed([18, 3], 2)), outputs_collections="outs", variables_collections=["extra"],
        weights_regularizer=lambda w: tf.reduce_sum(tf.abs(w)))
    fc2 = mp.masked_fully_connected(fc, 2, activation_fn=tf.tanh, biases_initializer=None,
                                    weights_initializer=tf.constant_initializer(
                                        _fixed([3, 2], 3)))
    plain = {"names": [t.name for t in (conv, conv2, fc, fc2)],
             "outs": _names(tf.get_collection("outs")),
             "extra": _names(tf.get_collection("extra"))}
    plain.update(_pruning_collections(tf))
    fetches = {"conv": conv, "conv2": conv2, "fc": fc, "fc2": fc2,
               "sparsity": mp.get_weight_sparsity()}
    return lambda sess: dict(sess.run(fetches), **plain)


def case_masked_layers_reuse_and_errors(tf):
    mp = tf.contrib.model_pruning
    x = tf.constant(_inputs(2, 4))
    a = mp.masked_fully_connected(x, 3, scope="fc", weights_initializer=tf.ones_initializer())
    b = mp.masked_fully_connected(x, 3, scope="fc", reuse=True)
    errors = []
    for bad in (lambda: mp.masked_fully_connected(x, 2.0),
                lambda: mp.masked_convolution(x, 2, 3),
                lambda: mp.masked_conv2d(tf.zeros([1, 3, 3, 1]), 2, 3, data_format="NCW")):
        try:
            bad()
            errors.append(None)
        except (ValueError, TypeError) as error:
            errors.append(type(error).__name__)
    plain = dict(_pruning_collections(tf), errors=errors)
    return lambda sess: dict(sess.run({"a": a, "b": b}), **plain)


def _weights(tf, name, shape, i):
    return tf.get_variable(name, initializer=tf.constant(_fixed(shape, i)))


def _by_index(items):
    """{"0": item, ...}: arrays of several shapes, compared one by one."""
    return {str(i): item for i, item in enumerate(items)}


def _steps(tf, p, global_step, steps, extra=None):
    """run(sess): for each step, set the global step, run the conditional update, record the
    masks, thresholds, sparsity and the last update step."""
    mp = tf.contrib.model_pruning
    update = p.conditional_mask_update_op()
    p.add_pruning_summaries()
    summary = tf.summary.merge_all()
    state = {"masks": _by_index(mp.get_masks()), "thresholds": mp.get_thresholds(),
             "weight_sparsity": mp.get_weight_sparsity(), "sparsity": p._sparsity,
             "last": p._last_update_step}
    state.update(extra or {})
    names = _pruning_collections(tf)

    def run(sess):
        out = {}
        for step in steps:
            sess.run(tf.assign(global_step, step))
            sess.run(update)
            out[str(step)] = sess.run(state)
        out["tags"] = _tags(tf, sess.run(summary))
        out.update(names)
        return out
    return run


def case_pruning_schedule(tf):
    mp = tf.contrib.model_pruning
    global_step = tf.train.get_or_create_global_step()
    with tf.variable_scope("layer1"):
        w1 = _weights(tf, "weights", [4, 5], 0)
        m1 = mp.apply_mask(w1, tf.get_variable_scope())
    w2 = _weights(tf, "w2", [6], 1)
    m2 = mp.apply_mask(w2, "layer2")
    with tf.variable_scope(tf.get_variable_scope(), reuse=True):
        mp.apply_mask(w2, "layer2")  # a second use of the mask adds nothing to collections
    hparams = mp.get_pruning_hparams().parse(
        "name=cifar10_pruning,begin_pruning_step=2,end_pruning_step=9,target_sparsity=0.8,"
        "sparsity_function_begin_step=2,sparsity_function_end_step=8,pruning_frequency=2,"
        "threshold_decay=0.25,sparsity_function_exponent=2.0,initial_sparsity=0.1")
    p = mp.Pruning(hparams, global_step=global_step)
    return _steps(tf, p, global_step, range(0, 12),
                  {"masked": _by_index([m1, m2])})


def case_pruning_block_and_weight_maps(tf):
    mp = tf.contrib.model_pruning
    global_step = tf.train.get_or_create_global_step()
    for scope, shape, i in (("dense1", [6, 8], 0), ("dense2", [5, 7], 1), ("conv", [1, 1, 6, 4], 2),
                            ("dense3", [4, 4], 3), ("bias", [5], 4)):
        with tf.variable_scope(scope):
            mp.apply_mask(_weights(tf, "weights", shape, i), tf.get_variable_scope())
    hparams = mp.get_pruning_hparams().parse(
        "block_height=2,block_width=2,block_pooling_function=MAX,target_sparsity=0.5,"
        "sparsity_function_end_step=4,pruning_frequency=1,"
        "weight_sparsity_map=[dense3/weights:0.25],block_dims_map=[dense2:3x-1,conv:1x2]")
    p = mp.Pruning(hparams)
    return _steps(tf, p, global_step, [1, 2, 4])


def case_pruning_block_avg_and_tpu_pooling(tf):
    mp = tf.contrib.model_pruning
    global_step = tf.Variable(0, name="my_step", dtype=tf.int64)
    with tf.variable_scope("dense"):
        mp.apply_mask(_weights(tf, "weights", [6, 9], 0), tf.get_variable_scope())
    with tf.variable_scope("dense_b"):
        mp.apply_mask(_weights(tf, "weights", [5, 4], 1), tf.get_variable_scope())
    hparams = mp.get_pruning_hparams().parse(
        "name=tpu,block_height=2,block_width=3,use_tpu=true,target_sparsity=0.6,"
        "sparsity_function_end_step=2,pruning_frequency=1,nbins=10")
    p = mp.Pruning(hparams, global_step=global_step)
    return _steps(tf, p, global_step, [1, 2])


def case_pruning_external_sparsity_and_mask_update_op(tf):
    mp = tf.contrib.model_pruning
    global_step = tf.train.get_or_create_global_step()
    with tf.variable_scope("fc"):
        mp.apply_mask(_weights(tf, "weights", [3, 4], 0), tf.get_variable_scope())
    sparsity = tf.Variable(0.5, name="ConstantSparsity")
    p = mp.Pruning(global_step=global_step, sparsity=sparsity)
    update = p.mask_update_op()
    p.add_pruning_summaries()
    summary = tf.summary.merge_all()

    def run(sess):
        sess.run(tf.assign(global_step, 7))
        sess.run(update)
        return {"mask": sess.run(_by_index(mp.get_masks())),
                "last": sess.run(p._last_update_step),
                "tags": _tags(tf, sess.run(summary)), "update": update.name,
                "twice": _second_call(p)}
    return run


def _second_call(p):
    try:
        p._get_mask_assign_ops()
    except ValueError as error:
        return type(error).__name__
    return None


def case_pruning_hparams(tf):
    mp = tf.contrib.model_pruning
    values = {"defaults": sorted(mp.get_pruning_hparams().values().items()),
              "parsed": sorted(mp.get_pruning_hparams().parse(
                  "weight_sparsity_map=[a:0.5,b/c:0.2],end_pruning_step=50").values().items())}
    return lambda sess: values


def case_pruning_rejects_bad_spec(tf):
    mp = tf.contrib.model_pruning
    tf.train.get_or_create_global_step()
    errors = []
    for spec in ("begin_pruning_step=-1", "begin_pruning_step=5,end_pruning_step=3",
                 "sparsity_function_begin_step=100", "threshold_decay=1.0",
                 "initial_sparsity=1.0", "target_sparsity=-0.1",
                 "weight_sparsity_map=[a:1.0]", "block_dims_map=[a:2x2x2]"):
        try:
            mp.Pruning(mp.get_pruning_hparams().parse(spec))
            errors.append(None)
        except ValueError as error:
            errors.append(str(error)[:40])
    return {"errors": errors}


def case_masked_lstm_cells(tf):
    mp = tf.contrib.model_pruning
    global_step = tf.train.get_or_create_global_step()
    x = tf.constant(_inputs(2, 3, 4))
    out1, st1 = tf.nn.dynamic_rnn(mp.MaskedBasicLSTMCell(3, forget_bias=0.5), x,
                                  dtype=tf.float32, scope="basic")
    cell = mp.MaskedLSTMCell(3, use_peepholes=True, cell_clip=0.5)
    out2, st2 = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, scope="full")
    p = mp.Pruning(mp.get_pruning_hparams().parse("target_sparsity=0.5,pruning_frequency=1,"
                                                  "sparsity_function_end_step=1"))
    update = p.conditional_mask_update_op()
    names = _pruning_collections(tf)
    fetches = {"out1": out1, "st1": st1, "out2": out2, "st2": st2}

    def run(sess):
        sess.run([tf.assign(v, _fixed(v.shape.as_list(), i))
                  for i, v in enumerate(tf.global_variables())
                  if not v.op.name.endswith("/mask") and v.dtype.base_dtype == tf.float32])
        before = sess.run(fetches)
        sess.run(tf.assign(global_step, 3))
        sess.run(update)
        after = sess.run(fetches)
        return dict(names, before=before, after=after,
                    masks=sess.run(_by_index(mp.get_masks())))
    return run


def case_strip_pruning_vars(tf):
    mp = tf.contrib.model_pruning
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    h = mp.masked_fully_connected(x, 5, weights_initializer=tf.constant_initializer(
        _fixed([4, 5], 0)), scope="hidden")
    logits = mp.masked_fully_connected(h, 2, activation_fn=None, scope="logits",
                                       weights_initializer=tf.constant_initializer(
                                           _fixed([5, 2], 1)))
    out = tf.nn.softmax(logits, name="out")
    masks = mp.get_masks()
    saver = tf.train.Saver()
    feed = _inputs(3, 4)

    def run(sess):
        sess.run([tf.assign(m, (_fixed(m.shape.as_list(), 5) > 0).astype(np.float32))
                  for m in masks])
        want = sess.run(out, {x: feed})
        frozen = tf.graph_util.convert_variables_to_constants(
            sess, sess.graph.as_graph_def(), ["out"])
        stripped = mp.strip_pruning_vars_fn(frozen, ["out"])
        directory = tempfile.mkdtemp()
        saver.save(sess, os.path.join(directory, "model.ckpt"))
        with tf.Graph().as_default():
            from_ckpt = mp.graph_def_from_checkpoint(directory, ["out"])
        got = []
        for graph_def in (stripped, from_ckpt):
            with tf.Graph().as_default() as g:
                tf.import_graph_def(graph_def, name="")
                with tf.Session(graph=g) as s:
                    got.append(s.run("out:0", {"x:0": feed}))
        try:
            mp.graph_def_from_checkpoint(tempfile.mkdtemp(), ["out"])
            missing = None
        except ValueError as error:
            missing = type(error).__name__
        return {"want": want, "stripped": got[0], "from_ckpt": got[1], "missing": missing,
                "stripped_nodes": sorted((n.name, n.op) for n in stripped.node
                                         if "masked_weight" in n.name or n.op == "Const"),
                "no_masks_left": [n.name for n in stripped.node if n.name.endswith("mask")],
                "ckpt_has_masked": sorted(n.name for n in from_ckpt.node
                                          if "masked_weight" in n.name)}
    return run


def case_train_loop_updates_masks(tf):
    """model_pruning.train: slim's loop, the mask update run after each step; TF 1.15's then
    unpacks slim's single loss as a pair: a TypeError once training is done."""
    mp = tf.contrib.model_pruning
    x = tf.constant(_inputs(16, 6))
    y = tf.constant(np.arange(16) % 2)
    logits = mp.masked_fully_connected(x, 2, activation_fn=None, scope="fc",
                                       weights_initializer=tf.constant_initializer(
                                           _fixed([6, 2], 0)))
    loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
    tf.train.get_or_create_global_step()
    train_op = tf.contrib.slim.learning.create_train_op(
        loss, tf.train.GradientDescentOptimizer(0.1))
    p = mp.Pruning(mp.get_pruning_hparams().parse(
        "target_sparsity=0.5,pruning_frequency=2,sparsity_function_end_step=3"))
    update = p.conditional_mask_update_op()

    def run(sess):
        directory = tempfile.mkdtemp()
        try:
            mp.train(train_op, directory, update, number_of_steps=5,
                     save_summaries_secs=10000, save_interval_secs=10000)
            error = None
        except TypeError as e:
            error = type(e).__name__
        reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(directory))
        return {"error": error, "mask": reader.get_tensor("fc/mask"),
                "threshold": reader.get_tensor("fc/threshold"),
                "last": reader.get_tensor("model_pruning/last_mask_update_step"),
                "weights": reader.get_tensor("fc/weights")}
    return run
