"""TF 1.15 cases for tf.contrib.framework: arg_scope, the variable helpers and their
collections, checkpoint restoring functions, the tensor helpers."""
import os
import tempfile

import numpy as np


def case_arg_scope_and_add_arg_scope(tf):
    framework = tf.contrib.framework

    @framework.add_arg_scope
    def scaled(x, factor=1.0, offset=0.0):
        return x * factor + offset

    x = tf.constant([1.0, 2.0])
    with framework.arg_scope([scaled], factor=3.0) as outer:
        a = scaled(x)
        with framework.arg_scope([scaled], offset=1.0):
            b = scaled(x)
            c = scaled(x, factor=0.5)
            current = sorted(framework.current_arg_scope())
    with framework.arg_scope(outer):
        d = scaled(x)
    return {"a": a, "b": b, "c": c, "d": d, "scopes": len(current),
            "has": framework.has_arg_scope(scaled),
            "args": sorted(framework.arg_scoped_arguments(scaled))}


def case_arg_scope_rejects_undecorated(tf):
    with tf.contrib.framework.arg_scope([tf.nn.relu], name="x"):
        pass
    return {}


def case_variables_and_collections(tf):
    framework = tf.contrib.framework
    with tf.variable_scope("block"):
        weights = framework.model_variable("weights", [2, 3],
                                           initializer=tf.constant_initializer(0.5),
                                           regularizer=tf.contrib.layers.l2_regularizer(0.1))
        plain = framework.variable("plain", [3], initializer=tf.zeros_initializer(),
                                   collections=["extra"])
        local = framework.local_variable([1.0, 2.0], name="counter")
        glob = framework.global_variable(3.0, name="g")
        framework.add_model_variable(glob)
    with tf.variable_scope("other"):
        framework.model_variable("biases", [3], trainable=False)
    step = framework.get_or_create_global_step()
    found = {
        "all": [v.op.name for v in framework.get_variables()],
        "block": [v.op.name for v in framework.get_variables("block")],
        "suffix": [v.op.name for v in framework.get_variables_by_suffix("biases")],
        "by_name": [v.op.name for v in framework.get_variables_by_name("weights")],
        "model": [v.op.name for v in framework.get_model_variables()],
        "trainable": [v.op.name for v in framework.get_trainable_variables()],
        "local": [v.op.name for v in framework.get_local_variables()],
        "restore": [v.op.name for v in framework.get_variables_to_restore(
            exclude=["other", "global_step"])],
        "restore_include": [v.op.name for v in framework.get_variables_to_restore(
            include=["block/weights", "other"])],
        "filter": [v.op.name for v in framework.filter_variables(
            framework.get_variables(), include_patterns=["block"], exclude_patterns=["plain"])],
        "unique": framework.get_unique_variable("block/weights").op.name,
        "full_name": framework.get_variable_full_name(weights),
        "extra": [v.op.name for v in tf.get_collection("extra")],
        "global_step": framework.get_global_step().op.name,
        "asserted": framework.assert_or_get_global_step(None, step).op.name,
    }
    found.update(weights=weights, local=local, glob=glob)
    return found


def case_assign_from_values_and_checkpoint(tf):
    framework = tf.contrib.framework
    directory = tempfile.mkdtemp()
    path = os.path.join(directory, "model.ckpt")
    with tf.Graph().as_default():
        a = tf.Variable([[1.0, 2.0]], name="net/a")
        b = tf.Variable([3.0], name="net/b")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, path)
    with tf.variable_scope("net"):
        a2 = framework.model_variable("a", [1, 2], initializer=tf.zeros_initializer())
        b2 = framework.model_variable("b", [1], initializer=tf.zeros_initializer())
    c = framework.variable("c", [2], initializer=tf.zeros_initializer())
    assign_op, feed = framework.assign_from_checkpoint(path, {"net/a": a2})
    restore_fn = framework.assign_from_checkpoint_fn(path, framework.get_variables("net"))
    values_fn = framework.assign_from_values_fn({"c": np.array([7.0, 8.0], np.float32)})
    reader = framework.load_checkpoint(path)

    def run(sess):
        sess.run(assign_op, feed)
        first = sess.run(a2)
        restore_fn(sess)
        values_fn(sess)
        return {"first": first, "a": sess.run(a2), "b": sess.run(b2), "c": sess.run(c),
                "listed": sorted(name for name, _ in framework.list_variables(path)),
                "loaded": framework.load_variable(path, "net/b"),
                "reader": reader.get_tensor("net/a"),
                "has": reader.has_tensor("net/b")}
    return run


def case_assign_from_checkpoint_missing_variable(tf):
    framework = tf.contrib.framework
    directory = tempfile.mkdtemp()
    path = os.path.join(directory, "model.ckpt")
    with tf.Graph().as_default():
        tf.Variable([1.0], name="only")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, path)
    missing = framework.variable("absent", [1])
    framework.assign_from_checkpoint(path, [missing])
    return {}


def case_tensor_helpers(tf):
    framework = tf.contrib.framework
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    unknown = tf.placeholder_with_default(x, [None, 2])
    preds = tf.constant([[1], [0]])
    labels = tf.constant([1, 1])
    p, l = framework.remove_squeezable_dimensions(preds, labels)
    v = tf.Variable([5.0, 6.0], name="zeroed")
    return {
        "sum_n": framework.reduce_sum_n([x, tf.constant([1.0, 1.0])]),
        "shape": framework.with_shape([2, 2], x),
        "shape_dynamic": framework.with_shape([2, 2], unknown),
        "same": framework.with_same_shape(x, unknown),
        "squeezed": p, "labels": l,
        "int": framework.assert_scalar_int(tf.constant(3)),
        "sorted": framework.sort(tf.constant([3, 1, 2])),
        "argsort": framework.argsort(tf.constant([3, 1, 2])),
        "cond": framework.smart_cond(True, lambda: tf.constant(1), lambda: tf.constant(2)),
        "is_tensor": [framework.is_tensor(x), framework.is_tensor(1.0)],
        "nest": framework.nest.flatten({"b": [1, 2], "a": 3}),
        "py_func": framework.py_func(lambda a, scale=1.0: (a * scale).astype(np.float32),
                                     args=(x,), kwargs={"scale": 2.0},
                                     output_types=tf.float32, output_shapes=[2, 2]),
        "placeholders": [t.name for t in framework.get_placeholders(tf.get_default_graph())],
        "prepend": framework.prepend_name_scope("a/b", "top"),
        "strip": framework.strip_name_scope("top/a/b", "top"),
        "zeroed": v,
    }


def case_with_shape_mismatch(tf):
    tf.contrib.framework.with_shape([3, 2], tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return {}


def case_assert_scalar_int_rejects_float(tf):
    tf.contrib.framework.assert_scalar_int(tf.constant(1.0))
    return {}
