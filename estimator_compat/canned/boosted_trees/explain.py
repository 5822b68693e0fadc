"""Model understanding for boosted trees: gain-based feature importances and directional
feature contributions (DFCs), computed as tf.estimator did from the ensemble proto and each
example's path."""
import collections

import numpy as np
import tensorflow as tf

from estimator_compat.canned.boosted_trees import ensemble as ensemble_lib, state, traversal

F32 = np.float32
DEBUG_KEYS = ("_dfc_feature_ids", "_dfc_values", "_dfc_bias")


def sum_by_name_and_sort(names, values):
    """{column name: summed value}, ordered by absolute value, largest first."""
    summed = {}
    for name, value in zip(names, values):
        summed[name] = summed.setdefault(name, 0) + value
    return collections.OrderedDict(sorted(summed.items(), key=lambda kv: abs(kv[1]),
                                          reverse=True))


def feature_importances(model_dir, layout, normalize):
    """Gains of the splits on each feature, weighted by tree weight, summed per column."""
    latest = tf.train.latest_checkpoint(model_dir)
    if latest is None:
        raise ValueError(f"Couldn't find a checkpoint in {model_dir}: you should only call "
                         "this method after training.")
    reader = tf.train.load_checkpoint(latest)
    serialized = reader.get_tensor(state.SERIALIZED_KEY) \
        if reader.has_tensor(state.SERIALIZED_KEY) else b""
    if not serialized:
        raise ValueError("Found empty serialized string for TreeEnsemble. You should only "
                         "call this method after training.")
    ensemble = ensemble_lib.parse(serialized)
    per_tree = np.zeros([len(ensemble.trees), layout.num_features])
    for t, tree in enumerate(ensemble.trees):
        for node in tree.nodes:
            split = ensemble_lib._split_of(node)
            if split is not None:
                per_tree[t, split.feature_id] += node.metadata.gain
    importances = np.sum(per_tree * np.asarray(ensemble.tree_weights).reshape(-1, 1), axis=0)
    if normalize:
        if np.any(importances < 0):
            raise ValueError("feature_importances must be non-negative (a split of negative "
                             "gain: train with pruning_mode='pre' or 'post').")
        total = np.sum(importances)
        if not total > 0:
            raise ValueError("Trees are all empty or contain only a root node: there is "
                             "nothing to normalize.")
        importances = importances / total
    return sum_by_name_and_sort(layout.names, importances)


def debug_predictions(arrays, bucketized):
    ids, values, bias = traversal.explanation_paths(arrays, bucketized)
    return dict(zip(DEBUG_KEYS, (ids, values, bias)))


def directional_contributions(prediction, names, classification):
    """(bias, OrderedDict of DFCs) of one example, from its path (tf.estimator's formulas:
    the change in prediction at each split, credited to the split's feature)."""
    ids, values = prediction.pop(DEBUG_KEYS[0]), prediction.pop(DEBUG_KEYS[1])
    tree_logit = F32(prediction.pop(DEBUG_KEYS[2]))
    path, features, past = [tree_logit], [], F32(0)
    for t in range(ids.shape[0]):
        split_root = ids[t, 0] >= 0
        for d in range(ids.shape[1]):
            if ids[t, d] < 0:
                break
            features.append(int(ids[t, d]))
            tree_logit = F32(values[t, d])
            path.append(F32(tree_logit + past))
        if t == 0 or split_root:
            past = F32(past + tree_logit)
    logits = np.array([float(v) for v in path])
    predictions = 1 / (1 + np.exp(-logits)) if classification else logits
    contribs = np.bincount(np.asarray(features, np.int64), weights=predictions[1:] -
                           predictions[:-1], minlength=len(names))
    return predictions[0], sum_by_name_and_sort(names, contribs)
