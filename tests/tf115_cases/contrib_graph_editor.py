"""tf.contrib.graph_editor cases (TF 1.15 style, Python 3.7): what the selections and walks
return (op / tensor names; walks sorted, their order within a wave being set order in TF 1.15
too), the edited graph's nodes and inputs, and the values the edited graph computes, against
TF 1.15.5's record. The programs users write: gradient checkpointing (walks, filter_ts,
copy_with_input_replacements, reroute_ts, add_control_inputs, then tf.gradients), surgery on an
imported graph (graph_replace, swap_inputs, detach_outputs, bypass), and a Transformer with
custom handlers copying into another graph."""
import numpy as np
from tf115_cases.recorded_errors import error_type

X = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
W = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0) / 7.0


def _names(items):
    return [item.name for item in items]


def _sorted(items):
    return sorted(_names(items))


def _nodes(graph, prefix=""):
    """'name<-input,input,^control' for each node of the graph (under `prefix`; op types are
    left out: TF 2's tf.add makes AddV2 where TF 1.15's made Add)."""
    return ["%s<-%s" % (n.name, ",".join(n.input))
            for n in graph.as_graph_def().node if n.name.startswith(prefix)]


def _errors(calls):
    return [error_type(call) for call in calls]


def _mlp(tf):
    """x -> layer1/(matmul, relu) -> layer2/(square, mean) -> loss, with a side branch."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    w = tf.constant(W, name="w")
    with tf.name_scope("layer1"):
        h = tf.matmul(x, w, name="matmul")
        a = tf.nn.relu(h, name="relu")
    with tf.name_scope("layer2"):
        s = tf.square(a, name="square")
        loss = tf.reduce_mean(s, name="mean")
    side = tf.identity(h, name="side")
    return x, w, h, a, s, loss, side


def case_select_and_walks(tf):
    ge = tf.contrib.graph_editor
    x, w, h, a, s, loss, side = _mlp(tf)
    g = tf.get_default_graph()
    ops = g.get_operations()
    co = ge.ControlOutputs(g)
    with tf.control_dependencies([side.op]):
        tail = tf.identity(loss, name="tail")
    co.update()
    sgv = ge.sgv_scope("layer1", g)
    remapped = sgv.remap_inputs([1, 0]).remap_outputs([0, 0])
    ops_, ts_ = ge.select_ops_and_ts("^layer2/", "(?#ts)^layer1/.*:0$", graph=g)
    return _fed({
        "select_ops": _names(ge.select_ops("^layer1/", side.op, x, graph=g)),
        "select_ops_filter": _names(ge.select_ops("^layer", graph=g,
                                                  positive_filter=lambda op: op.type != "Relu")),
        "select_ops_repeats": _names(ge.select_ops([h.op, h.op], [h.op, a.op])),
        "select_ts": _names(ge.select_ts("^layer2/", x, side.op, graph=g)),
        "select_ops_and_ts": [_names(ops_), _names(ts_)],
        "filter_ops_from_regex": _names(ge.filter_ops_from_regex(g, "mat|mean")),
        "filter_ts_from_regex": _names(ge.filter_ts_from_regex([a.op, s.op], "relu")),
        "filter_ts": _names(ge.filter_ts(ops, lambda t: t.dtype == tf.float32)),
        "filter_ops": _names(ge.filter_ops(ops, True)),
        "name_scope_ops": _names(ge.get_name_scope_ops(g, "layer2/")),
        "ops_ios": _names(ge.get_ops_ios([h.op], control_ios=co)),
        "boundary": [_names(part) for part in ge.compute_boundary_ts([h.op, a.op, s.op])],
        "within": _names(ge.get_within_boundary_ops(g, [a.op], [h.op, loss.op])),
        "within_exclusive": _names(ge.get_within_boundary_ops(g, [a.op], [h.op, loss.op],
                                                              inclusive=False)),
        "forward": _sorted(ge.get_forward_walk_ops([x.op])),
        "forward_ts_stop": _sorted(ge.get_forward_walk_ops(
            [x], inclusive=False, stop_at_ts=[a])),
        "forward_control": _sorted(ge.get_forward_walk_ops([side.op], control_outputs=co)),
        "backward": _sorted(ge.get_backward_walk_ops([loss.op], inclusive=False,
                                                     stop_at_ts=[h])),
        "backward_control": _sorted(ge.get_backward_walk_ops(tail, control_inputs=True)),
        "backward_within": _sorted(ge.get_backward_walk_ops(
            [loss], within_ops_fn=lambda op: not op.name.startswith("layer1"))),
        "intersection": _sorted(ge.get_walks_intersection_ops([x], [loss])),
        "union": _sorted(ge.get_walks_union_ops([s.op], [h.op], forward_inclusive=False)),
        "generating": _names(ge.get_generating_ops([a, h])),
        "consuming": _names(ge.get_consuming_ops([h, a])),
        "control_outputs": _names(co.get(side.op)),
        "regex": [ge.can_be_regex("a"), ge.can_be_regex(1), ge.make_regex("b.").pattern],
        "placeholder_names": [ge.placeholder_name(a), ge.placeholder_name(a, scope=""),
                              ge.placeholder_name(a, scope="new"), ge.placeholder_name(),
                              ge.placeholder_name(scope="s", prefix="p")],
        "sgv": [_names(sgv.ops), _names(sgv.inputs), _names(sgv.outputs),
                _names(remapped.inputs), _names(remapped.outputs), bool(ge.sgv())],
        "sgv_passthrough": [_names(ge.sgv(h.op, side).passthroughs),
                            _names(ge.sgv(h.op, a).passthroughs)],
        "sgv_consumers": _names(ge.sgv(h.op).consumers()),
        "remove_unused": _names(ge.sgv(h.op, a.op, side.op).remap_outputs([1])
                                .remap_inputs([]).remove_unused_ops().ops),
        "to_consumers": _names(ge.sgv(h.op).remap_outputs_to_consumers().outputs),
        "make_unique": _names(ge.sgv(h.op).remap_outputs([0, 0]).remap_outputs_make_unique()
                              .outputs),
        "util_trees": [str(ge.util.flatten_tree({"a": [1, (2, 3)]})),
                       str(ge.util.transform_tree([1, (2, [3])], lambda v: v * 10))],
        "scope_helpers": [ge.util.scope_finalize("a/b"), ge.util.scope_dirname("a/b/c"),
                          ge.util.scope_basename("a/b/c")],
        "list_of_op": len(ge.make_list_of_op(g)) == len(g.get_operations()),
        "list_of_t": _names(ge.make_list_of_t([h, a.op], ignore_ops=True)),
        "tensors": _names(ge.get_tensors(g)),
        "find_corresponding": [ge.util.find_corresponding_elem(a, g).name,
                               _names(ge.util.find_corresponding([h, a.op], g))],
    }, {"loss": loss}, {x: X})


def case_misuse_errors(tf):
    ge = tf.contrib.graph_editor
    x, w, h, a, s, loss, side = _mlp(tf)
    g = tf.get_default_graph()
    i = tf.constant([1, 2], name="ints")
    other = tf.Graph()
    with other.as_default():
        foreign = tf.constant(1.0, name="foreign")
    try:  # TF 1.15 raised AttributeError here (its message named a missing `self.name`)
        ge.sgv(h.op).input_index(s)
        input_index = "none"
    except AttributeError:
        input_index = "AttributeError"
    return _fed({"input_index": input_index, "errors": _errors([
        lambda: ge.get_within_boundary_ops(g, [a.op], [a.op]),
        lambda: ge.reroute_ts([a], [i]),
        lambda: ge.reroute_ts([a, h], [s]),
        lambda: ge.remove_control_inputs(a.op, [h.op]),
        lambda: ge.add_control_inputs(a, [h.op]),
        lambda: ge.select_ops("^layer"),
        lambda: ge.select_ops(h.op, graph=g, bad=1),
        lambda: ge.make_regex(3),
        lambda: ge.make_list_of_op([h.op, foreign.op]),
        lambda: ge.make_list_of_op(g, allow_graph=False),
        lambda: ge.make_list_of_t([h.op]),
        lambda: ge.sgv(h.op).remap_inputs([0, 0]),
        lambda: ge.sgv(h.op).remap_outputs([5]),
        lambda: ge.sgv(h.op).find_op_by_name("nope"),
        lambda: ge.sgv(h.op, graph=other),
        lambda: ge.graph_replace(side, {s: tf.zeros_like(s)}),
        lambda: ge.check_cios(control_ios=3),
        lambda: ge.copy(ge.sgv(h.op), dst_graph=3),
        lambda: ge.copy_op_handler(None, h.op, True),
    ])})


def case_reroute_and_control_inputs(tf):
    ge = tf.contrib.graph_editor
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([10.0, 20.0], name="b")
    c = tf.constant([100.0, 200.0], name="c")
    plus = tf.add(a, b, name="plus")
    times = tf.multiply(b, c, name="times")
    neg = tf.negative(a, name="neg")
    v = tf.Variable([0.0, 0.0], name="v")
    bump = tf.assign_add(v, [1.0, 1.0], name="bump")
    with tf.control_dependencies([bump]):
        reading = tf.identity(v, name="reading")
    counts = [ge.swap_ts([a], [b]),  # plus: b + a, times: a * c, neg: -b
              ge.reroute_ts([c], [a], can_modify=[plus.op]),  # plus: b + c
              ge.reroute_ts(c, b, cannot_modify=[plus.op])]  # times: a * c (b unused)
    ge.add_control_inputs(neg.op, [bump.op])
    ge.remove_control_inputs(reading.op, [bump.op])
    ge.add_control_inputs(reading.op, bump.op)
    return _fed({"counts": counts, "nodes": _nodes(tf.get_default_graph())},
                {"plus": plus, "times": times, "neg": neg, "reading": reading})


def case_subgraph_swap_and_edit(tf):
    ge = tf.contrib.graph_editor
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([3.0, 5.0], name="b")
    c = tf.constant([7.0, 11.0], name="c")
    with tf.name_scope("f"):
        f_out = tf.add(a, b, name="add")
        f_sq = tf.square(f_out, name="sq")
    with tf.name_scope("g"):
        g_out = tf.subtract(c, b, name="sub")
        g_sq = tf.sqrt(g_out, name="sqrt")
    use_f = tf.identity(f_sq, name="use_f")
    use_g = tf.identity(g_sq, name="use_g")
    graph = tf.get_default_graph()
    f, g = ge.sgv_scope("f", graph), ge.sgv_scope("g", graph)
    f_inputs, g_inputs = _names(f.inputs), _names(g.inputs)
    ge.swap_outputs(f, g)  # use_f reads g's, use_g reads f's
    ge.swap_inputs(f, g)
    after = [_names(f.inputs), _names(g.inputs)]
    ge.reroute_ios(ge.sgv(g_out.op), ge.sgv(f_out.op))  # f/add's consumers and inputs -> g/sub's
    ge.connect(ge.sgv(c.op), ge.sgv(g_sq.op))
    return _fed({"inputs_before": [f_inputs, g_inputs], "inputs_after": after,
                 "nodes": _nodes(graph)},
                {"use_f": use_f, "use_g": use_g, "f_sq": f_sq, "g_sq": g_sq})


def case_imported_graph_surgery(tf):
    ge = tf.contrib.graph_editor
    source = tf.Graph()
    with source.as_default():
        x = tf.placeholder(tf.float32, [2, 3], name="x")
        h = tf.matmul(x, tf.constant(W, name="w"), name="h")
        y = tf.tanh(h, name="y")
        tf.reduce_sum(y, name="total")
    graph = tf.get_default_graph()
    tf.import_graph_def(source.as_graph_def(), name="imp")
    x_, h_, y_, total_ = [graph.get_tensor_by_name("imp/%s:0" % n)
                          for n in ("x", "h", "y", "total")]
    new_x = tf.constant(X * 2.0, name="new_x")
    replaced = ge.graph_replace(total_, {x_: new_x})
    replaced_many = ge.graph_replace({"y": y_, "pair": [total_, new_x]}, {h_: tf.ones([2, 4])},
                                     dst_scope="again")
    doubled = tf.multiply(h_, 2.0, name="doubled")
    tf.identity(doubled, name="after_doubled")
    bypassed, bypass_inputs = ge.bypass(ge.sgv(y_.op))  # total reads h directly
    detached, outputs = ge.detach_outputs(ge.sgv(doubled.op))
    return _fed({
        "replaced_name": replaced.name,
        "replaced_many": {"y": replaced_many["y"].name,
                          "pair": _names(replaced_many["pair"])},
        "bypass": [_names(bypassed.ops), _names(bypass_inputs)],
        "detached": [_names(detached.outputs), _names(outputs)],
        "nodes": _nodes(graph),
    }, {"replaced": replaced, "replaced_y": replaced_many["y"], "total_after_bypass": total_},
        {x_: X})


def _fed(plain, fetches=None, feed=None):
    """A case's run(sess): the values already known, and `fetches` run with `feed`."""
    def run(sess):
        out = dict(plain)
        if fetches:
            out.update(sess.run(fetches, feed))
        return out
    return run


def case_gradient_checkpointing(tf):
    """memory_saving_gradients' recipe: recompute the forward ops between checkpoints in the
    backward pass (copies fed from stopped checkpoints), gradients equal to the plain ones."""
    ge = tf.contrib.graph_editor
    x = tf.constant(X, name="x")
    w1 = tf.Variable(W, name="w1")
    w2 = tf.Variable(W.T[:, :3] / 3.0, name="w2")
    with tf.name_scope("fwd"):
        h1 = tf.tanh(tf.matmul(x, w1), name="h1")
        h2 = tf.sigmoid(tf.matmul(h1, w2), name="h2")
        loss = tf.reduce_sum(tf.square(h2), name="loss")
    plain = tf.gradients(loss, [w1, w2])

    xs = [w1.value(), w2.value()]
    fwd_ops = ge.get_forward_walk_ops([t.op for t in xs], inclusive=True)
    bwd_ops = ge.get_backward_walk_ops([loss.op], inclusive=True)
    fwd_ops = [op for op in fwd_ops if op in bwd_ops]
    ts_all = ge.filter_ts(fwd_ops, True)
    ts_all = [t for t in ts_all if "/read" not in t.name and t.dtype == tf.float32]
    checkpoints = [h1]
    stopped = [tf.stop_gradient(t, name="stop") for t in checkpoints]
    exclusive = ge.get_backward_walk_ops([loss.op], inclusive=False, stop_at_ts=checkpoints)
    to_copy = ge.get_backward_walk_ops([loss.op], stop_at_ts=checkpoints, within_ops=fwd_ops)
    to_copy = [op for op in to_copy if op in fwd_ops]
    copied_sgv, info = ge.copy_with_input_replacements(ge.sgv(to_copy),
                                                       dict(zip(checkpoints, stopped)))
    copied_ops = info._transformed_ops.values()
    copied_loss = info._transformed_ts[loss]
    ge.add_control_inputs(sorted(copied_ops, key=lambda op: op.name)[0], [h1.op])
    grads_h = tf.gradients(copied_loss, stopped + [w2])
    grads_w1 = tf.gradients(checkpoints, [w1], grad_ys=grads_h[:1])
    moved = tf.identity(h2, name="moved")
    rerouted = ge.reroute_ts([info.transformed(h2)],
                             [h2], can_modify=[moved.op])
    return _fed({
        "forward": sorted(op.name for op in fwd_ops),
        "ts": sorted(t.name for t in ts_all),
        "to_copy": sorted(op.name for op in to_copy),
        "exclusive": sorted(op.name for op in exclusive),
        "copied": sorted(op.name for op in copied_ops),
        "copied_loss": copied_loss.name,
        "original_of_copy": info.original(copied_loss).name,
        "sgv": [sorted(_names(copied_sgv.inputs)), sorted(_names(copied_sgv.outputs))],
        "rerouted": rerouted, "moved_input": moved.op.inputs[0].name,
        "copied_control_inputs": sorted(
            [op.name, _names(op.control_inputs)] for op in copied_ops if op.control_inputs),
    }, {"plain_w1": plain[0], "plain_w2": plain[1], "checkpointed_w1": grads_w1[0],
        "checkpointed_w2": grads_h[1]})


def case_transformer_custom_handlers(tf):
    """A Transformer with a user op handler (copying shapes, renaming through nodedef_fn),
    keep_t_if_possible for the inputs, copying a scope into a second graph, then reading the
    maps both ways and running the copy in its own session."""
    ge = tf.contrib.graph_editor
    a = tf.placeholder(tf.float32, [2], name="a")
    hidden = tf.constant([3.0, 4.0], name="hidden")
    with tf.name_scope("block"):
        s = tf.add(a, hidden, name="s")
        p = tf.multiply(s, s, name="p")
        q = tf.reduce_sum(p, name="q")
    tf.add_to_collection("block/mine", p)
    tf.add_to_collection(tf.GraphKeys.LOSSES, q)
    block = ge.sgv_scope("block", tf.get_default_graph())

    def rename(node_def):
        node_def.name = node_def.name + "_c"
        return node_def

    def op_handler(info, op, new_inputs):
        return ge.copy_op_handler(info, op, new_inputs, copy_shape=True, nodedef_fn=rename)

    transformer = ge.Transformer()
    transformer.transform_op_handler = op_handler
    transformer.transform_external_input_handler = ge.keep_t_if_possible_handler
    other = tf.Graph()
    copied, info = transformer(block, other, "dst", src_scope="block")
    same, same_info = ge.Transformer()(block, tf.get_default_graph(), "dup")
    second, _ = ge.copy(block, dst_scope="dup")
    reused, _ = ge.copy(block, dst_scope="dup", reuse_dst_scope=True)
    plain_copy, plain_info = ge.copy(block, other)
    with other.as_default():
        feeds = [other.get_tensor_by_name(n) for n in ("dst/geph__a_0:0", "dst/geph__hidden_0:0")]
        with tf.Session(graph=other) as sess:
            copied_value = sess.run(info.transformed(q), {feeds[0]: [1.0, 2.0],
                                                          feeds[1]: [3.0, 4.0]})
    return _fed({
        "nodes_other": _nodes(other),
        "copied": [_names(copied.ops), _names(copied.inputs), _names(copied.outputs)],
        "transformed": _names(info.transformed([s, p.op])),
        "transformed_dict": {k: v.name for k, v in info.transformed({"q": q}).items()},
        "missing": [info.transformed(a), info.transformed(a, missing_fn=lambda t: t).name],
        "original": info.original(info.transformed(p)).name,
        "original_missing": info.original(a),
        "collections_other": [_names(other.get_collection("dst/mine")),
                              _names(other.get_collection(tf.GraphKeys.LOSSES)),
                              _names(other.get_collection("block/mine"))],
        "outside_src_scope": _errors([lambda: ge.copy(block, tf.Graph(), src_scope="zz")]),
        "same_graph": [_names(same.ops), _names(same.inputs), _names(same_info.transformed([p]))],
        "again": [_names(second.ops), _names(reused.ops)],
        "plain_copy": [_names(plain_copy.inputs), _names(plain_info.transformed([q]))],
        "copied_value": copied_value,
        "collections_here": [_names(tf.get_collection("dup/block/mine")),
                             _names(tf.get_collection("block/mine"))],
        "shape": info.transformed(p).shape.as_list(),
    }, {"same_q": same_info.transformed(q)},
        {tf.get_default_graph().get_tensor_by_name("dup/geph__a_0:0"): [1.0, 2.0],
         tf.get_default_graph().get_tensor_by_name("dup/geph__hidden_0:0"): [3.0, 5.0]})


def case_detach_and_control_edges(tf):
    ge = tf.contrib.graph_editor
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.constant([3.0, 4.0], name="b")
    first = tf.identity(a, name="first")
    with tf.control_dependencies([first]):
        mid = tf.add(a, b, name="mid")
    with tf.control_dependencies([mid]):
        last = tf.multiply(mid, 3.0, name="last")
        other = tf.identity(b, name="other")
    graph = tf.get_default_graph()
    co = ge.ControlOutputs(graph)
    view, inputs, outputs = ge.detach(ge.sgv(mid.op), control_ios=co)
    kept = tf.identity(a, name="kept")
    with tf.control_dependencies([kept]):
        tail = tf.identity(b, name="tail")
    ge.detach_control_inputs(ge.sgv(tail.op))
    ge.detach_control_outputs(ge.sgv(kept.op), ge.ControlOutputs(graph))
    d_view, d_inputs = ge.detach_inputs(ge.sgv(other.op), control_inputs=True)
    ge.connect(ge.sgv(b.op), ge.sgv(d_view.ops), disconnect_first=False)
    return _fed({
        "detached": [_names(view.inputs), _names(inputs), _names(outputs)],
        "placeholders": [[t.name, t.shape.as_list() if t.shape.dims is not None else None]
                         for t in inputs + outputs],
        "nodes": _nodes(graph),
        "ph": [ge.ph(tf.float32, [3]).name, ge.ph(tf.int32, scope="s").name,
               ge.make_placeholder_from_tensor(b, scope="z").name],
    }, {"last": last, "other": other, "mid": mid},
        {inputs[0]: [5.0, 6.0], inputs[1]: [7.0, 8.0], outputs[0]: [1.0, 1.0]})


def case_copy_v1_while_loop_into_another_graph(tf):
    """A TF1 while loop (imported: TensorFlow 2 builds functional loops) copied whole into
    another graph: its cycle (NextIteration -> Merge) is copied on a stand-in and rewired."""
    import os
    from google.protobuf import text_format
    ge = tf.contrib.graph_editor
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "tf115_cases", "contrib_graph_editor_v1_while.pbtxt")
    with open(path) as f:
        graph_def = text_format.Parse(f.read(), tf.GraphDef())
    tf.import_graph_def(graph_def, name="imp")
    graph = tf.get_default_graph()
    other = tf.Graph()
    copied, info = ge.copy(ge.sgv(graph.get_operations()), other, "copied")
    x_, out_ = info.transformed([graph.get_tensor_by_name("imp/x:0"),
                                 graph.get_tensor_by_name("imp/out:0")])
    with tf.Session(graph=other) as sess:
        value = sess.run(out_, {x_: 2.0})
    return _fed({"nodes_other": _nodes(other), "copied_value": value,
                 "outputs": _names(copied.outputs), "inputs": _names(copied.inputs)},
                {"here": graph.get_tensor_by_name("imp/out:0")},
                {graph.get_tensor_by_name("imp/x:0"): 3.0})
