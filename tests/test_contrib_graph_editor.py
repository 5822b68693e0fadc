"""tf.contrib.graph_editor against TF 1.15.5 (tests/tf115_cases/contrib_graph_editor.py): the
ops / tensors each selection and walk returns, subgraph views and their remapping, rerouting
and swapping, control edges, detach / connect / bypass, the Transformer with custom handlers
copying into another graph, graph_replace on an imported graph, a gradient-checkpointing
rewrite (its gradients equal to the plain ones), the edited graphs' nodes and inputs, the
values they compute, and the errors misuse raises."""
from tf115_cases import harness

MODULE = "contrib_graph_editor"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_import_paths_and_submodules():
    import estimator_compat
    estimator_compat.install()
    import tensorflow.contrib.graph_editor as ge
    from tensorflow.contrib.graph_editor import select, subgraph, transform, util
    from tensorflow.contrib.graph_editor.reroute import swap_ts
    from tensorflow.contrib.graph_editor.edit import bypass
    assert ge.select is select and ge.sgv is subgraph.make_view is ge.make_view
    assert ge.reroute.swap_ts is swap_ts is ge.swap_ts and ge.edit.bypass is bypass
    assert ge.ph is util.make_placeholder_from_dtype_and_shape
    assert transform.Transformer is ge.Transformer and util.ListView and util.flatten_tree
    assert not hasattr(ge, "ListView") and not hasattr(ge, "concatenate_unique")


def test_control_flow_copies_into_another_graph_and_replaces():
    """TensorFlow 2's tf.cond / tf.while_loop are ops calling functions of the graph's library
    (TF 1.15's were Switch / Merge / Enter ops): a copy into another graph brings the functions
    along, and graph_replace through a loop recomputes it (TF 1.15's graph_replace failed on a
    v1 while loop: "more than one LoopCond node")."""
    import threading

    from estimator_compat.legacy import graph_mode, tf1_view
    tf = tf1_view.build()
    ge = tf.contrib.graph_editor
    got = []

    def work():
        graph_mode.tf1_thread()
        with tf.Graph().as_default() as graph:
            x = tf.placeholder(tf.float32, [], name="x")
            y = tf.cond(x > 1.0, lambda: x * 2.0, lambda: x - 1.0)
            _, z = tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc * y), [0, y])
            out = z + 1.0
            replaced = ge.graph_replace(out, {x: tf.constant(3.0)})
            with tf.Session() as sess:
                got.append(sess.run([out, replaced], {x: 0.5}))
        other = tf.Graph()
        _, info = ge.copy(ge.sgv(graph.get_operations()), other, "copied")
        with tf.Session(graph=other) as sess:
            got.append(sess.run(info.transformed(out), {info.transformed(x): 3.0}))
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert got == [[1.0625, 1297.0], 1297.0]  # (x - 1) ** 4 + 1 at 0.5, (2x) ** 4 + 1 at 3
