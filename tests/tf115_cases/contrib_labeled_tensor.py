"""tf.contrib.labeled_tensor cases (TF 1.15 style, Python 3.7): each op's values and its
output's axes (names, sizes, tick labels), and the errors of misuse, against TF 1.15.5's
record."""
import numpy as np


def _axes(t):
    """A LabeledTensor's (or Axes') axes as plain text: name=size(labels)."""
    axes = t.axes if hasattr(t, "axes") else t
    return "|".join("%s=%s%s" % (a.name, a.size, "" if a.labels is None else list(a.labels))
                    for a in axes.values())


def _grid(*shape):
    return (np.arange(np.prod(shape)) * 0.5 - 1.0).reshape(shape).astype(np.float32)


def _lt(tf, shape, axes):
    return tf.contrib.labeled_tensor.LabeledTensor(tf.constant(_grid(*shape)), axes)


def _out(**lts):
    """Fetches of each LabeledTensor's tensor, and its axes as text."""
    out = {}
    for key, t in lts.items():
        out[key] = t.tensor
        out[key + "_axes"] = _axes(t)
    return out


def case_core(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (2, 3), ["a", ("b", ["p", "q", "r"])])
    y = _lt(tf, (3, 4), [lt.Axis("b", ["p", "q", "r"]), ("c", 4)])
    a0, b0, broadcast = lt.align(x, y)
    with lt.axis_order_scope(["c", "b", "a"]):
        imposed = lt.impose_axis_order(x)
        lt.check_axis_order(imposed)
        scoped = lt.add(lt.transpose(y), lt.transpose(x))
    axis = lt.Axis("b", ["p", "q", "r"])
    return dict(_out(identity=lt.identity(x), transposed=lt.transpose(x),
                     sliced=lt.slice(x, {"a": 1, "b": slice(0, 2)}), item=x[0:1, 2],
                     expanded=lt.expand_dims(x, ["z", "a", ("w", "only"), "b"]), a0=a0, b0=b0,
                     summed=x + y, diff=1.0 - x, scaled=x * 2.0 / 4.0, powed=abs(x) ** 2.0,
                     neg=-x, imposed=imposed, scoped=scoped,
                     converted=lt.convert_to_labeled_tensor(3.0)),
                broadcast=_axes(broadcast), axis=[axis.name, axis.size, axis.index("q"), len(axis)],
                as_axis=_axes(lt.Axes([lt.as_axis(("k", 5)), ("u", None)])),
                removed=_axes(broadcast.remove("b")), equal=bool(axis == lt.Axis("b", list("pqr"))))


_POSITIVE = np.array([[0.2, 0.5, 0.7], [0.9, 0.3, 0.6]], np.float32)
_UNARY = ("abs", "neg", "sign", "reciprocal", "square", "round", "sqrt", "rsqrt", "exp", "log",
          "ceil", "floor", "cos", "sin", "tan", "acos", "asin", "atan", "lgamma", "digamma",
          "erf", "erfc", "tanh", "sigmoid")


def case_unary_ops(tf):
    lt = tf.contrib.labeled_tensor
    x = lt.LabeledTensor(tf.constant(_POSITIVE), ["a", ("b", [1, 2, 3])])
    out = {n: getattr(lt, n)(x).tensor for n in _UNARY}
    out["logical_not"] = lt.logical_not(x > 0.5).tensor
    out["inverted"] = (~(x > 0.5)).tensor
    out["axes"] = _axes(lt.sqrt(x, name="root"))
    out["name"] = lt.exp(x, name="e").tensor.op.name
    return out


_BINARY = ("add", "sub", "mul", "div", "mod", "pow", "equal", "greater", "greater_equal",
           "not_equal", "less", "less_equal", "maximum", "minimum", "squared_difference",
           "igamma", "igammac", "zeta")


def case_binary_ops(tf):
    lt = tf.contrib.labeled_tensor
    a = lt.LabeledTensor(tf.constant(np.array([1.5, 2.5, 3.0], np.float32)), ["x"])
    b = lt.LabeledTensor(tf.constant(np.array([[0.5], [1.0]], np.float32)), ["y", ("z", [7])])
    out = {n: getattr(lt, n)(a, b).tensor for n in _BINARY}
    out["axes"] = _axes(lt.add(a, b))
    n = lt.LabeledTensor(tf.constant(np.array([1.0, 2.0], np.float32)), ["y"])
    out["polygamma"] = lt.polygamma(n, a).tensor
    ints = lt.LabeledTensor(tf.constant(np.array([7, -7, 8], np.int32)), ["x"])
    out["int_div"] = lt.div(ints, 2).tensor
    out["int_mod"] = (ints % 3).tensor
    p, q = a > 2.0, a < 2.8
    out.update(logical_and=lt.logical_and(p, q).tensor, logical_or=(p | q).tensor,
               logical_xor=(p ^ q).tensor, le=(a <= 2.5).tensor, ge=(2.5 <= a).tensor,
               rsub=(1.0 - a).tensor, rdiv=(3.0 / a).tensor, rpow=(2.0 ** a).tensor)
    return out


def case_shape_ops(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (2, 3, 4), [("a", ["u", "v"]), ("b", ["p", "q", "r"]), "c"])
    other = _lt(tf, (2, 1, 4), [("a", ["u", "v"]), ("b", ["s"]), "c"])
    unlabeled = _lt(tf, (2, 2, 4), [("a", ["u", "v"]), "b", "c"])
    parts = lt.unpack(x, "b")
    coder = lt.ReshapeCoder(["b", "c"], ["bc"])
    encoded = coder.encode(x)
    return _out(select_scalar=lt.select(x, {"a": "v", "b": slice("q", "r")}),
                select_list=lt.select(x, {"b": ["r", "p"]}),
                select_all=lt.select(x, {"b": slice(None, "q")}),
                concat=lt.concat([x, other], "b"), concat_unlabeled=lt.concat(
                    [lt.slice(x, {"b": slice(0, 2)}), unlabeled], "b"),
                pack=lt.pack(parts, ("b", ["r0", "r1", "r2"]), axis_position=2),
                unpacked=parts[1], unpacked_first=lt.unpack(x)[0],
                reshape=lt.reshape(x, ["b", "c"], [("bc", 12)]),
                reshape_unknown=lt.reshape(x, ["a", "b"], ["ab"]),
                renamed=lt.rename_axis(x, "b", "beta"),
                squeeze=lt.squeeze(other), squeeze_named=lt.squeeze(other, ["b"]),
                squeeze_none=lt.squeeze(x), tile=lt.tile(x, {"c": 2}),
                pad=lt.pad(x, {"a": (["t"], ["w", "y"]), "c": (1, 0)}),
                pad_reflect=lt.pad(x, {"c": (1, 2)}, mode="REFLECT"),
                constant=lt.constant([[1, 2], [3, 4]], dtype=tf.float32, axes=["m", ("n", 2)]),
                constant_sized=lt.constant(2.5, axes=[("m", 2), ("n", ["i", "j", "k"])]),
                zeros=lt.zeros_like(x), ones=lt.ones_like(x, dtype=tf.int32),
                cast=lt.cast(x, tf.int64),
                finite=lt.verify_tensor_all_finite(x, "not finite"),
                masked=lt.boolean_mask(x, lt.LabeledTensor(
                    tf.constant([False, True]), [("a", ["u", "v"])])),
                where=lt.where(x > 0.0, x, lt.zeros_like(x)),
                encoded=encoded, decoded=coder.decode(encoded),
                cropped=lt.random_crop(lt.ones_like(x), {"c": 2}, seed=3))


def case_matmul_and_reductions(tf):
    lt = tf.contrib.labeled_tensor
    m = _lt(tf, (2, 3), ["i", ("j", ["p", "q", "r"])])
    n = _lt(tf, (4, 3), ["k", ("j", ["p", "q", "r"])])
    v = _lt(tf, (3,), [("j", ["p", "q", "r"])])
    w = _lt(tf, (2,), ["i"])
    with lt.axis_order_scope(["k", "i", "j"]):
        ordered = lt.matmul(m, n)
    x = _lt(tf, (2, 3, 4), ["a", ("b", ["p", "q", "r"]), "c"])
    out = _out(mm=lt.matmul(m, n), mv=lt.matmul(m, v), vm=lt.matmul(w, m), vv=lt.matmul(v, v),
               ordered=ordered, sum_all=lt.reduce_sum(x), sum_b=lt.reduce_sum(x, "b"),
               mean_kept=lt.reduce_mean(x, [("b", "all"), "c"]),
               max_kept_none=lt.reduce_max(x, ("a", None)), min=lt.reduce_min(x, ["a", "c"]),
               prod=lt.reduce_prod(x, "a"), logsumexp=lt.reduce_logsumexp(x, "c"),
               all=lt.reduce_all(x > -2.0, "c"), any=lt.reduce_any(x > 4.0, ["a"]))
    return out


def case_functional_and_nn(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (3, 4), ["batch", ("class", ["a", "b", "c", "d"])])
    labels = lt.LabeledTensor(tf.constant(np.eye(3, 4, dtype=np.float32)),
                              ["batch", ("class", ["a", "b", "c", "d"])])
    mapped = lt.map_fn(lambda row: lt.reduce_sum(row * row, "class"), x)
    mapped_rows = lt.map_fn(lambda row: lt.select(row, {"class": ["d", "a"]}), x)
    strings = lt.LabeledTensor(tf.constant(["ab", "cd"]), ["s"])
    mapped_strings = lt.map_fn(lambda s: lt.LabeledTensor(tf.strings.length(s.tensor), []),
                               strings)
    folded = lt.foldl(lambda acc, row: acc + row, x,
                      lt.zeros_like(lt.slice(x, {"batch": 0})))
    nn = lt.nn
    out = _out(mapped=mapped, mapped_rows=mapped_rows, mapped_strings=mapped_strings,
               folded=folded, relu=nn.relu(x), relu6=nn.relu6(x * 10.0),
               elu=nn.elu(x), softplus=nn.softplus(x), softmax=nn.softmax(x),
               log_softmax=nn.log_softmax(x),
               sigmoid_xent=nn.sigmoid_cross_entropy_with_logits(x, labels))
    return out


def _example(tf, values, name):
    feature = tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Example(features=tf.train.Features(
        feature={name: feature})).SerializeToString()


def case_parsing_and_placeholder(tf):
    lt = tf.contrib.labeled_tensor
    features = {"v": lt.FixedLenFeature([("x", ["a", "b"]), ("y", 1)], tf.float32),
                "d": lt.FixedLenFeature([("k", 2)], tf.float32, default_value=[7.0, 8.0])}
    serialized = lt.LabeledTensor(tf.constant([_example(tf, [1.0, 2.0], "v"),
                                               _example(tf, [3.0, 4.0], "v")]), ["batch"])
    parsed = lt.parse_example(serialized, features)
    single = lt.parse_single_example(_example(tf, [5.0, 6.0], "v"), features)
    fed = lt.placeholder(tf.float32, ["batch", ("x", ["a", "b"])], name="inputs")
    doubled = fed * 2.0
    feature = features["v"]

    def run(sess):
        out = sess.run({"parsed_v": parsed["v"].tensor, "parsed_d": parsed["d"].tensor,
                        "single_v": single["v"].tensor, "single_d": single["d"].tensor,
                        "doubled": doubled.tensor},
                       {fed: np.array([[1.0, 2.0]], np.float32)})
        out.update(parsed_axes=_axes(parsed["v"]), single_axes=_axes(single["d"]),
                   fed_axes=_axes(fed), fed_name=fed.tensor.op.name,
                   feature=[_axes(lt.Axes(feature.axes)), feature.dtype.name,
                            str(feature.default_value)])
        return out
    return run


def case_batching(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (3,), [("c", ["r", "g", "b"])])
    many = _lt(tf, (4, 3), ["batch", ("c", ["r", "g", "b"])])
    batched = lt.batch([x], 2)
    smaller = lt.batch([many], 2, enqueue_many=True, allow_smaller_final_batch=True)
    shuffled = lt.shuffle_batch([x, lt.identity(x)], 5, capacity=10, min_after_dequeue=2,
                                seed=1)
    return {"batched": _axes(batched[0]), "smaller": _axes(smaller[0]),
            "shuffled": [_axes(t) for t in shuffled],
            "queue_runners": len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS))}


def case_error_align_without_transpose(tf):
    lt = tf.contrib.labeled_tensor
    lt.add(_lt(tf, (2, 3), ["a", "b"]), _lt(tf, (3, 2), ["b", "a"]))


def case_error_no_axis_order(tf):
    tf.contrib.labeled_tensor.impose_axis_order(_lt(tf, (2,), ["a"]))


def case_error_scope_order_mismatch(tf):
    lt = tf.contrib.labeled_tensor
    with lt.axis_order_scope(["b", "a"]):
        lt.check_axis_order(_lt(tf, (2, 3), ["a", "b"]))


def case_error_typecheck(tf):
    tf.contrib.labeled_tensor.Axis(1, 2)


def case_typecheck_takes_a_string_as_a_collection(tf):
    return _out(transposed=tf.contrib.labeled_tensor.transpose(_lt(tf, (2,), ["a"]), "a"))


def case_error_typecheck_op(tf):
    tf.contrib.labeled_tensor.transpose(_lt(tf, (2,), ["a"]), 3)


def case_error_unlabeled_conversion(tf):
    tf.contrib.labeled_tensor.sqrt(tf.constant([1.0, 2.0]))


def case_error_size_mismatch(tf):
    tf.contrib.labeled_tensor.LabeledTensor(tf.constant(_grid(2)), [("a", 3)])


def case_error_duplicate_labels(tf):
    tf.contrib.labeled_tensor.Axis("a", ["x", "x"])


def case_error_duplicate_names(tf):
    tf.contrib.labeled_tensor.Axes([("a", 1), ("a", 2)])


def case_error_mismatched_axis(tf):
    lt = tf.contrib.labeled_tensor
    lt.add(_lt(tf, (2,), [("a", ["x", "y"])]), _lt(tf, (2,), [("a", ["x", "z"])]))


def case_error_select_missing_label(tf):
    lt = tf.contrib.labeled_tensor
    lt.select(_lt(tf, (2,), [("a", ["x", "y"])]), {"a": "z"})


def case_error_select_two_lists(tf):
    lt = tf.contrib.labeled_tensor
    lt.select(_lt(tf, (2, 2), [("a", ["x", "y"]), ("b", ["u", "v"])]),
              {"a": ["x"], "b": ["u"]})


def case_error_select_unlabeled(tf):
    tf.contrib.labeled_tensor.select(_lt(tf, (2,), ["a"]), {"a": 0})


def case_error_reshape_not_a_slice(tf):
    lt = tf.contrib.labeled_tensor
    lt.reshape(_lt(tf, (2, 3, 4), ["a", "b", "c"]), ["a", "c"], ["ac"])


def case_error_matmul_rank(tf):
    lt = tf.contrib.labeled_tensor
    lt.matmul(_lt(tf, (2, 3, 4), ["a", "b", "c"]), _lt(tf, (4,), ["c"]))


def case_error_matmul_no_shared_axis(tf):
    lt = tf.contrib.labeled_tensor
    lt.matmul(_lt(tf, (2,), ["a"]), _lt(tf, (2,), ["b"]))


def case_error_squeeze_big_axis(tf):
    tf.contrib.labeled_tensor.squeeze(_lt(tf, (2,), ["a"]), ["a"])


def case_error_tile_labeled(tf):
    tf.contrib.labeled_tensor.tile(_lt(tf, (2,), [("a", ["x", "y"])]), {"a": 2})


def case_error_decode_before_encode(tf):
    lt = tf.contrib.labeled_tensor
    lt.ReshapeCoder(["a"], ["b"]).decode(_lt(tf, (2,), ["b"]))


def case_error_where_axes(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (2,), ["a"])
    lt.where(x > 0.0, x, _lt(tf, (2,), ["b"]))


def case_error_batch_enqueue_many_without_batch_axis(tf):
    tf.contrib.labeled_tensor.batch([_lt(tf, (2,), ["a"])], 2, enqueue_many=True)


def case_error_boolean_mask_2d(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (2, 2), ["a", "b"])
    lt.boolean_mask(x, x > 0.0)


def case_error_unknown_feature_size(tf):
    lt = tf.contrib.labeled_tensor
    lt.parse_single_example(tf.constant(""), {"v": lt.FixedLenFeature([("x", None)], tf.float32)})


def case_error_crelu_doubles_the_axis(tf):
    tf.contrib.labeled_tensor.nn.crelu(_lt(tf, (3, 4), ["batch", "class"]))


def case_error_l2_loss_drops_the_axes(tf):
    tf.contrib.labeled_tensor.nn.l2_loss(_lt(tf, (3, 4), ["batch", "class"]))


def case_error_softmax_xent_drops_the_class_axis(tf):
    lt = tf.contrib.labeled_tensor
    x = _lt(tf, (3, 4), ["batch", "class"])
    lt.nn.softmax_cross_entropy_with_logits(x, lt.ones_like(x))
