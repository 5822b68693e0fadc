"""The ensemble walked in TensorFlow ops, over the dense arrays of ensemble.arrays().

Every example goes down every tree at once (`[batch, trees]` node ids); the sum over trees is a
running sum in tree order, as the kernels added tree after tree, so training from cached
logits sees the same float32 values tf.estimator's did.
"""
import tensorflow as tf

from estimator_compat.canned.boosted_trees.ensemble import BUCKETIZED, CATEGORICAL


def feature_matrix(features):
    """The per-feature [batch, dims] tensors side by side, and each feature's first column."""
    widths = tf.stack([tf.shape(f)[1] for f in features])
    offsets = tf.concat([tf.cumsum(widths, exclusive=True), [0]], axis=0)
    return tf.concat(features, axis=1), offsets


def _gather(array, trees, nodes):
    return tf.gather_nd(array, tf.stack([trees, nodes], axis=-1))


def descend(arrays, matrix, offsets, nodes, on_split=None):
    """Moves `nodes` ([batch, trees] node ids, one per tree) down to leaves. `on_split(trees,
    nodes, children, is_split)` sees each level (for explanations)."""
    trees = tf.broadcast_to(tf.range(tf.shape(nodes)[1])[None, :], tf.shape(nodes))

    def step(nodes):
        kind = _gather(arrays["kind"], trees, nodes)
        column = tf.gather(offsets, _gather(arrays["feature"], trees, nodes)) + \
            _gather(arrays["dimension"], trees, nodes)
        x = tf.gather(matrix, column, batch_dims=1)
        threshold = _gather(arrays["threshold"], trees, nodes)
        go_left = tf.where(tf.equal(kind, CATEGORICAL), tf.equal(x, threshold),
                           x <= threshold)
        children = tf.where(go_left, _gather(arrays["left"], trees, nodes),
                            _gather(arrays["right"], trees, nodes))
        is_split = tf.logical_or(tf.equal(kind, BUCKETIZED), tf.equal(kind, CATEGORICAL))
        return kind, children, is_split

    def body(nodes, active, *acc):
        _, children, is_split = step(nodes)
        new = tf.where(is_split, children, nodes)
        if on_split is not None:
            acc = on_split(trees, nodes, new, is_split, acc)
        return (new, tf.reduce_any(is_split)) + tuple(acc)

    initial = (nodes, tf.constant(True)) + (on_split(None, None, None, None, None)
                                            if on_split else ())
    out = tf.while_loop(lambda nodes, active, *acc: active, body, initial,
                        maximum_iterations=64)
    return (out[0],) + tuple(out[2:]) if on_split else out[0]


def _leaf_values(arrays, nodes):
    trees = tf.broadcast_to(tf.range(tf.shape(nodes)[1])[None, :], tf.shape(nodes))
    return _gather(arrays["value"], trees, nodes) * arrays["weight"][None, :, None]


def _running_sum(per_tree):
    """[batch, trees, logits] summed over trees in order, from 0."""
    padded = tf.concat([tf.zeros_like(per_tree[:, :1]), per_tree], axis=1)
    return tf.cumsum(padded, axis=1)[:, -1]


def predict(arrays, features, logits_dimension):
    """[batch, logits] of the whole ensemble (BoostedTreesPredict)."""
    matrix, offsets = feature_matrix(features)
    batch, trees = tf.shape(matrix)[0], tf.shape(arrays["kind"])[0]
    leaves = descend(arrays, matrix, offsets, tf.zeros([batch, trees], tf.int32))
    values = _leaf_values(arrays, leaves)
    values = tf.ensure_shape(values, [None, None, logits_dimension])
    return tf.reshape(_running_sum(values), [batch, logits_dimension])


def training_predict(arrays, features, cached_trees, cached_nodes, logits_dimension):
    """(logits added since the cached (tree, node) of each example, its new tree and node
    ids): BoostedTreesTrainingPredict. A cached node of -1 means none (start at tree 0)."""
    matrix, offsets = feature_matrix(features)
    batch, trees = tf.shape(matrix)[0], tf.shape(arrays["kind"])[0]

    def walk():
        has_node = cached_nodes >= 0
        start_node = tf.where(has_node, cached_nodes, 0)
        cached_pair = tf.stack([cached_trees, start_node], axis=-1)
        start_node = tf.where(has_node, tf.gather_nd(arrays["pruned_to"], cached_pair),
                              start_node)
        change = tf.gather_nd(arrays["pruned_change"], cached_pair)
        old_value = tf.gather_nd(arrays["value"], tf.stack([cached_trees, start_node], -1))
        first = tf.where(has_node[:, None], change - old_value, tf.zeros_like(change))
        tree_ids = tf.range(trees)[None, :]
        is_cached_tree = tf.equal(tree_ids, cached_trees[:, None])
        leaves = descend(arrays, matrix, offsets, tf.where(is_cached_tree, start_node[:, None], 0))
        values = _gather(arrays["value"], tf.broadcast_to(tree_ids, tf.shape(leaves)), leaves)
        values = tf.where(is_cached_tree[:, :, None], first[:, None, :] + values, values)
        per_tree = values * arrays["weight"][None, :, None]
        per_tree = tf.where((tree_ids >= cached_trees[:, None])[:, :, None], per_tree, 0.0)
        per_tree = tf.ensure_shape(per_tree, [None, None, logits_dimension])
        return (tf.reshape(_running_sum(per_tree), [batch, logits_dimension]),
                tf.fill([batch], trees - 1), leaves[:, trees - 1])

    def empty():  # no tree yet: the first layer splits node 0 of the tree it creates
        return tf.zeros([batch, logits_dimension]), cached_trees, tf.zeros_like(cached_nodes)
    return tf.cond(tf.equal(trees, 0), empty, walk)


def explanation_paths(arrays, features):
    """Per example and tree, the feature ids split on along its path and the weighted value
    of each node reached ([batch, trees, depth], -1 / 0 past the leaf), and the bias (the
    first tree's root value): what directional feature contributions are computed from."""
    matrix, offsets = feature_matrix(features)
    batch, trees = tf.shape(matrix)[0], tf.shape(arrays["kind"])[0]

    def record(tree_ids, nodes, children, is_split, acc):
        if tree_ids is None:
            empty_i = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
            empty_f = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            return (tf.constant(0), empty_i, empty_f)
        depth, ids, values = acc
        feature = tf.where(is_split, _gather(arrays["feature"], tree_ids, nodes), -1)
        value = _gather(arrays["value"], tree_ids, children)[..., 0] * arrays["weight"][None, :]
        return (depth + 1, ids.write(depth, feature),
                values.write(depth, tf.where(is_split, value, 0.0)))

    _, _, ids, values = descend(arrays, matrix, offsets, tf.zeros([batch, trees], tf.int32),
                                on_split=record)
    ids = tf.transpose(ids.stack(), [1, 2, 0])
    values = tf.transpose(values.stack(), [1, 2, 0])
    bias = tf.cond(trees > 0, lambda: arrays["value"][0, 0, 0] * arrays["weight"][0],
                   lambda: tf.constant(0.0))
    return ids, values, tf.fill([batch], bias)
