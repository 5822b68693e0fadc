"""The tree ensemble's growth, on the TreeEnsemble proto, as TensorFlow's ensemble resource did it.

One layer at a time: each node of the last layer gets its best split (or none), children are
appended in node order with the parent's value plus learning_rate times their weights; a tree
reaching max_depth is finalized (post-pruned if asked) and an empty tree opened. Bias
centering puts the prior into the first tree's root. Values are float32 as the kernels kept
them, so the proto's bytes match tf.estimator's for the same splits. `arrays()` lays the
ensemble out as dense tensors for the traversal ops (traversal.py).
"""
import logging

import numpy as np

from estimator_compat.canned.boosted_trees import proto, splits as splits_lib

F32 = np.float32
NO_PRUNING, PRE_PRUNING, POST_PRUNING = 0, 1, 2
PRUNING_MODES = {"none": NO_PRUNING, "pre": PRE_PRUNING, "post": POST_PRUNING}
MIN_DELTA_FOR_CENTER_BIAS = F32(0.01)
LEAF, BUCKETIZED, CATEGORICAL = 0, 1, 2
logger = logging.getLogger("tensorflow")


def parse(serialized):
    ensemble = proto.TreeEnsemble()
    ensemble.ParseFromString(bytes(serialized))
    return ensemble


def _leaf_values(leaf):
    return list(leaf.vector.value) if leaf.HasField("vector") else [leaf.scalar]


def node_value(ensemble, tree, node):
    """A leaf's value; a split node's value before it was split ([] when it had none)."""
    n = ensemble.trees[tree].nodes[node]
    if n.WhichOneof("node") == "leaf":
        return _leaf_values(n.leaf)
    if n.metadata.HasField("original_leaf"):
        return _leaf_values(n.metadata.original_leaf)
    return []


def _set_leaf(leaf, values, logits):
    leaf.SetInParent()
    if logits == 1:
        leaf.scalar = float(F32(values[0]))
    else:
        leaf.vector.SetInParent()
        leaf.vector.value.extend([float(F32(v)) for v in values])


def add_tree(ensemble, logits, values=None):
    tree = ensemble.trees.add()
    _set_leaf(tree.nodes.add().leaf, values if values is not None else [0.0] * logits, logits)
    ensemble.tree_weights.append(1.0)
    ensemble.tree_metadata.add()
    return len(ensemble.trees) - 1


def _add_children(ensemble, tree_id, node_id, split, logits):
    tree = ensemble.trees[tree_id]
    node = tree.nodes[node_id]
    left_id, right_id = len(tree.nodes), len(tree.nodes) + 1
    left, right = tree.nodes.add(), tree.nodes.add()
    node = tree.nodes[node_id]
    has_value = node.HasField("leaf") and (
        (logits == 1 and node.leaf.scalar != 0) or node.leaf.HasField("vector"))
    if node_id != 0 or has_value:
        node.metadata.original_leaf.SetInParent()
        node.metadata.original_leaf.CopyFrom(node.leaf)
    node.metadata.SetInParent()
    node.metadata.gain = float(split["gain"])
    if logits == 1:
        prev = F32(node.metadata.original_leaf.scalar)
        _set_leaf(left.leaf, [prev + split["left"][0]], 1)
        _set_leaf(right.leaf, [prev + split["right"][0]], 1)
    else:
        prev = [F32(v) for v in node.metadata.original_leaf.vector.value] if has_value \
            else [F32(0)] * logits
        _set_leaf(left.leaf, [p + c for p, c in zip(prev, split["left"])], logits)
        _set_leaf(right.leaf, [p + c for p, c in zip(prev, split["right"])], logits)
    if split["split_type"] == splits_lib.EQUALITY_DEFAULT_RIGHT:
        s = node.categorical_split
        s.value = split["threshold"]
    else:
        s = node.bucketized_split
        s.threshold = split["threshold"]
        s.default_direction = int(split["split_type"] == splits_lib.INEQUALITY_DEFAULT_RIGHT)
    s.SetInParent()
    s.feature_id, s.dimension_id = split["feature_id"], split["dimension_id"]
    s.left_id, s.right_id = left_id, right_id


def _update_growing_metadata(ensemble):
    meta = ensemble.growing_metadata
    meta.SetInParent()
    meta.num_layers_attempted += 1
    n = len(ensemble.trees)
    if n <= 0 or ((n == 1 or ensemble.tree_metadata[n - 2].is_finalized)
                  and len(ensemble.trees[n - 1].nodes) == 1):
        meta.num_trees_attempted += 1


def grow_layer(ensemble, node_splits, learning_rate, max_depth, pruning_mode, logits):
    """Adds the layer of `node_splits` ({node id: split}, splits.best_per_node) to the last
    tree (BoostedTreesUpdateEnsembleV2)."""
    lr = F32(learning_rate)
    current = len(ensemble.trees) - 1
    _update_growing_metadata(ensemble)
    if current < 0:
        current = add_tree(ensemble, logits)
    if not node_splits:
        logger.warning("Not growing tree ensemble as no good splits were found.")
        return
    meta = ensemble.tree_metadata[current]
    layers = meta.num_layers_grown + 1
    start = len(ensemble.trees[current].nodes)
    grown = False
    for node_id, split in sorted(node_splits.items()):
        if pruning_mode == PRE_PRUNING and split["gain"] < 0:
            continue
        scaled = dict(split, left=[F32(lr * F32(c)) for c in split["left"]],
                      right=[F32(lr * F32(c)) for c in split["right"]])
        _add_children(ensemble, current, node_id, scaled, logits)
        grown = True
    end = len(ensemble.trees[current].nodes)
    if not grown:
        return
    meta.num_layers_grown = layers
    if layers >= max_depth:
        start, end = 0, 1
        meta.is_finalized = True
        if pruning_mode == POST_PRUNING:
            post_prune(ensemble, current, logits)
        add_tree(ensemble, logits)
    ensemble.growing_metadata.last_layer_node_start = start
    ensemble.growing_metadata.last_layer_node_end = end


def center_bias(ensemble, mean_gradients, mean_hessians, l1, l2):
    """Moves the first tree's root by one Newton step; True while it still moves by more than
    1% (BoostedTreesCenterBias)."""
    weights, _ = splits_lib.weights_and_gains(np.asarray(mean_gradients, F32).reshape(1, 1),
                                              np.asarray(mean_hessians, F32).reshape(1, 1),
                                              l1, l2)
    step = F32(weights[0, 0])
    if not len(ensemble.trees):
        add_tree(ensemble, 1, [step])
        return True
    current = F32(node_value(ensemble, 0, 0)[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        keep_going = bool(abs(F32(step / current)) > MIN_DELTA_FOR_CENTER_BIAS)
    ensemble.trees[0].nodes[0].leaf.scalar = float(F32(current + step))
    return keep_going


def _split_of(node):
    kind = node.WhichOneof("node")
    return getattr(node, kind) if kind in ("bucketized_split", "categorical_split") else None


def post_prune(ensemble, tree_id, logits):
    """Collapses, bottom-up, splits of negative gain whose children are leaves, recording for
    every old node id where it went and how its cached value changes."""
    tree = ensemble.trees[tree_id]
    count = len(tree.nodes)
    parents = list(range(count))
    changes = [[] for _ in range(count)]
    deleted = []

    def visit(node_id):
        node = tree.nodes[node_id]
        split = _split_of(node)
        if split is None:
            return
        visit(split.left_id)
        visit(split.right_id)
        left, right = split.left_id, split.right_id
        if node.metadata.gain < 0 and _split_of(tree.nodes[left]) is None and \
                _split_of(tree.nodes[right]) is None:
            deleted.extend([left, right])
            had_original = node.metadata.HasField("original_leaf")
            node.leaf.CopyFrom(node.metadata.original_leaf)
            node.leaf.SetInParent()
            parents[left] = parents[right] = node_id
            left_values = node_value(ensemble, tree_id, left)
            right_values = node_value(ensemble, tree_id, right)
            parent_values = node_value(ensemble, tree_id, node_id) if had_original else \
                [0.0] * len(left_values)
            changes[left] = [F32(F32(p) - F32(v)) for p, v in zip(parent_values, left_values)]
            changes[right] = [F32(F32(p) - F32(v)) for p, v in zip(parent_values, right_values)]
            node.ClearField("metadata")
    visit(0)
    if not deleted:
        return
    deleted = set(deleted)
    old_to_new, new_index = {}, 0
    meta = ensemble.tree_metadata[tree_id].post_pruned_nodes_meta
    for i in range(count):
        entry = meta.add()
        if i in deleted:
            total, node = [F32(0)] * logits, i
            while parents[node] != node:
                total = [F32(t + c) for t, c in zip(total, changes[node])]
                node = parents[node]
            entry.new_node_id = old_to_new.get(node, 0)
            entry.logit_change.extend([float(t) for t in total])
        else:
            old_to_new[i] = new_index
            new_index += 1
            entry.new_node_id = old_to_new[i]
            entry.logit_change.extend([0.0] * logits)
    kept = []
    for i, node in enumerate(tree.nodes):
        if i in deleted:
            continue
        split = _split_of(node)
        if split is not None:
            split.left_id, split.right_id = old_to_new[split.left_id], old_to_new[split.right_id]
        kept.append(node.SerializeToString())
    del tree.nodes[:]
    for serialized in kept:
        tree.nodes.add().ParseFromString(serialized)


def states(ensemble):
    """[num_trees, num_finalized_trees, num_attempted_layers, last layer start, end]
    (BoostedTreesGetEnsembleStates: the range of an empty ensemble is [0, 1))."""
    trees = len(ensemble.trees)
    finalized = trees if trees <= 0 or ensemble.tree_metadata[trees - 1].is_finalized \
        else trees - 1
    meta = ensemble.growing_metadata
    return np.array([trees, finalized, meta.num_layers_attempted, meta.last_layer_node_start,
                     max(1, meta.last_layer_node_end)], np.int64)


def arrays(ensemble, logits):
    """Dense [trees, nodes] tensors of the ensemble for traversal: node kind (-1 absent),
    feature id, dimension, threshold (or category), children, values [..., logits] (a split
    node's value before it split, 0 where it had none), tree weights, and the post-pruning
    remap [trees, old nodes] with its value changes."""
    trees = len(ensemble.trees)
    width = max([len(t.nodes) for t in ensemble.trees] + [1])
    pruned_width = max([len(m.post_pruned_nodes_meta) for m in ensemble.tree_metadata] +
                       [width])
    out = {name: np.full([trees, width], fill, np.int32) for name, fill in
           (("kind", -1), ("feature", 0), ("dimension", 0), ("threshold", 0), ("left", 0),
            ("right", 0))}
    out["value"] = np.zeros([trees, width, logits], F32)
    out["weight"] = np.asarray(ensemble.tree_weights, F32).reshape([trees])
    out["pruned_to"] = np.tile(np.arange(pruned_width, dtype=np.int32), [trees, 1])
    out["pruned_change"] = np.zeros([trees, pruned_width, logits], F32)
    for t, tree in enumerate(ensemble.trees):
        for n, node in enumerate(tree.nodes):
            split = _split_of(node)
            value = node_value(ensemble, t, n)
            out["value"][t, n, :len(value)] = value[:logits]
            if split is None:
                out["kind"][t, n] = LEAF
                continue
            out["kind"][t, n] = CATEGORICAL if node.HasField("categorical_split") else BUCKETIZED
            out["threshold"][t, n] = split.value if node.HasField("categorical_split") \
                else split.threshold
            out["feature"][t, n], out["dimension"][t, n] = split.feature_id, split.dimension_id
            out["left"][t, n], out["right"][t, n] = split.left_id, split.right_id
        meta = ensemble.tree_metadata[t]
        if meta.is_finalized and len(meta.post_pruned_nodes_meta):
            for n, entry in enumerate(meta.post_pruned_nodes_meta):
                out["pruned_to"][t, n] = entry.new_node_id
                out["pruned_change"][t, n, :len(entry.logit_change)] = entry.logit_change
    return out
