"""`tf.contrib.losses.metric_learning`: embedding losses on TensorFlow ops.

- `triplet_semihard_loss` (Schroff et al. 2015, FaceNet): per anchor-positive pair the nearest
  negative farther than the positive (else the farthest negative), hinge at `margin`.
- `lifted_struct_loss` (Song et al. 2016): a smooth max over every negative of both ends.
- `contrastive_loss` (Hadsell et al. 2006), `npairs_loss` and `npairs_loss_multilabel` (Sohn
  2016); `pairwise_distance`.
`cluster_loss` is declined (TF 1.15's needed scikit-learn's metrics and a facility-location
search; see legacy/contrib/missing.py).
"""
import tensorflow as tf


def pairwise_distance(feature, squared=False):
    """[n, n] Euclidean (or squared) distances between the rows of `feature`, 0 on the diagonal."""
    feature = tf.convert_to_tensor(feature)
    norms = tf.reduce_sum(tf.square(feature), axis=1, keepdims=True)
    squared_d = norms + tf.transpose(norms) - 2.0 * tf.matmul(feature, feature, transpose_b=True)
    squared_d = tf.maximum(squared_d, 0.0)
    nonpositive = tf.less_equal(squared_d, 0.0)
    if squared:
        distances = squared_d
    else:
        # a tiny shift keeps sqrt's gradient finite at 0; those entries are zeroed after
        distances = tf.sqrt(squared_d + tf.cast(nonpositive, feature.dtype) * 1e-16)
        distances = distances * tf.cast(tf.logical_not(nonpositive), feature.dtype)
    off_diagonal = tf.ones_like(distances) - tf.linalg.diag(tf.ones([tf.shape(feature)[0]],
                                                                     feature.dtype))
    return distances * off_diagonal


def _masked_max(data, mask, axis=1):
    """Per-row maximum of `data` where `mask` is 1 (the row minimum where none is)."""
    lowest = tf.reduce_min(data, axis, keepdims=True)
    return tf.reduce_max((data - lowest) * mask, axis, keepdims=True) + lowest


def _masked_min(data, mask, axis=1):
    """Per-row minimum of `data` where `mask` is 1 (the row maximum where none is)."""
    highest = tf.reduce_max(data, axis, keepdims=True)
    return tf.reduce_min((data - highest) * mask, axis, keepdims=True) + highest


def _same_label(labels):
    labels = tf.reshape(tf.convert_to_tensor(labels), [-1, 1])
    return tf.equal(labels, tf.transpose(labels))


def triplet_semihard_loss(labels, embeddings, margin=1.0):
    """Mean semi-hard triplet hinge loss over the anchor-positive pairs (squared distances)."""
    embeddings = tf.convert_to_tensor(embeddings)
    dist = pairwise_distance(embeddings, squared=True)
    same = _same_label(labels)
    different = tf.cast(tf.logical_not(same), embeddings.dtype)
    n = tf.shape(embeddings)[0]
    # row (a * n + p) of the tiled matrices: anchor a's distances, against pair (a, p)'s
    dist_tiled = tf.tile(dist, [n, 1])
    pair_dist = tf.reshape(tf.transpose(dist), [-1, 1])
    farther = tf.cast(tf.logical_and(tf.tile(tf.logical_not(same), [n, 1]),
                                     dist_tiled > pair_dist), embeddings.dtype)
    has_farther = tf.transpose(tf.reshape(tf.reduce_sum(farther, 1) > 0.0, [n, n]))
    nearest_farther = tf.transpose(tf.reshape(_masked_min(dist_tiled, farther), [n, n]))
    farthest = tf.tile(_masked_max(dist, different), [1, n])
    negatives = tf.where(has_farther, nearest_farther, farthest)
    losses = margin + dist - negatives
    positives = tf.cast(same, embeddings.dtype) - tf.linalg.diag(tf.ones([n], embeddings.dtype))
    return tf.math.truediv(tf.reduce_sum(tf.maximum(losses * positives, 0.0)),
                           tf.reduce_sum(positives), name="triplet_semihard_loss")


def lifted_struct_loss(labels, embeddings, margin=1.0):
    """Lifted structured loss: each positive pair against a log-sum-exp of both ends'
    negatives' margins (Euclidean distances)."""
    embeddings = tf.convert_to_tensor(embeddings)
    dist = pairwise_distance(embeddings)
    same = _same_label(labels)
    n = tf.shape(embeddings)[0]
    gap = margin - dist
    negative = tf.cast(tf.logical_not(same), embeddings.dtype)
    row_max = _masked_max(gap, negative)
    pair_max = tf.maximum(row_max, tf.transpose(row_max))
    # sum over the negatives of row a, for pair (a, b), shifted by the pair's maximum
    shifted = tf.exp(tf.tile(gap, [n, 1]) - tf.reshape(tf.transpose(pair_max), [-1, 1]))
    per_row = tf.reshape(tf.reduce_sum(shifted * tf.tile(negative, [n, 1]), 1), [n, n])
    losses = pair_max + tf.math.log(per_row + tf.transpose(per_row)) + dist
    positives = tf.cast(same, embeddings.dtype) - tf.linalg.diag(tf.ones([n], embeddings.dtype))
    num_pairs = tf.reduce_sum(positives) / 2.0
    return tf.math.truediv(
        0.25 * tf.reduce_sum(tf.square(tf.maximum(losses * positives, 0.0))), num_pairs,
        name="liftedstruct_loss")


def contrastive_loss(labels, embeddings_anchor, embeddings_positive, margin=1.0):
    """Mean of d^2 for similar pairs (label 1) and max(margin - d, 0)^2 for dissimilar ones."""
    anchor = tf.convert_to_tensor(embeddings_anchor)
    positive = tf.convert_to_tensor(embeddings_positive)
    labels = tf.cast(labels, anchor.dtype)
    distances = tf.sqrt(tf.reduce_sum(tf.square(anchor - positive), 1))
    return tf.reduce_mean(labels * tf.square(distances)
                          + (1.0 - labels) * tf.square(tf.maximum(margin - distances, 0.0)),
                          name="contrastive_loss")


def _npairs(adjacency, anchor, positive, reg_lambda, print_losses):
    reg = 0.25 * reg_lambda * (tf.reduce_mean(tf.reduce_sum(tf.square(anchor), 1))
                               + tf.reduce_mean(tf.reduce_sum(tf.square(positive), 1)))
    similarity = tf.matmul(anchor, positive, transpose_a=False, transpose_b=True)
    targets = adjacency / tf.reduce_sum(adjacency, 1, keepdims=True)
    xent = tf.reduce_mean(tf.compat.v1.nn.softmax_cross_entropy_with_logits_v2(
        logits=similarity, labels=tf.stop_gradient(targets)), name="xentropy")
    if print_losses:
        xent = tf.compat.v1.Print(xent, ["cross entropy:", xent, "l2loss:", reg])
    return reg + xent


def npairs_loss(labels, embeddings_anchor, embeddings_positive, reg_lambda=0.002,
                print_losses=False):
    """N-pairs loss: softmax over anchor-positive similarities, targets spread over the
    positives sharing the anchor's label, plus an L2 penalty on the embeddings."""
    anchor = tf.convert_to_tensor(embeddings_anchor)
    positive = tf.convert_to_tensor(embeddings_positive)
    adjacency = tf.cast(_same_label(labels), anchor.dtype)
    return _npairs(adjacency, anchor, positive, reg_lambda, print_losses)


def npairs_loss_multilabel(sparse_labels, embeddings_anchor, embeddings_positive,
                           reg_lambda=0.002, print_losses=False):
    """N-pairs loss with a set of labels per example (a list of one 1-D SparseTensor of class
    ids per example): examples are positives when their label sets intersect."""
    if not isinstance(sparse_labels, (list, tuple)) or not all(
            isinstance(s, tf.SparseTensor) for s in sparse_labels):
        raise TypeError("sparse_labels must be a list of 1-D tf.SparseTensor, one per example")
    anchor = tf.convert_to_tensor(embeddings_anchor)
    positive = tf.convert_to_tensor(embeddings_positive)
    rows = [tf.reshape(tf.sparse.to_dense(tf.sparse.reorder(s), default_value=-1), [1, -1])
            for s in sparse_labels]
    width = tf.reduce_max(tf.stack([tf.shape(r)[1] for r in rows]))
    ids = tf.concat([tf.pad(r, [[0, 0], [0, width - tf.shape(r)[1]]], constant_values=-1)
                     for r in rows], 0)
    valid = ids >= 0
    shared = tf.logical_and(tf.equal(ids[:, None, :, None], ids[None, :, None, :]),
                            tf.logical_and(valid[:, None, :, None], valid[None, :, None, :]))
    adjacency = tf.cast(tf.reduce_any(shared, axis=[2, 3]), anchor.dtype)
    return _npairs(adjacency, anchor, positive, reg_lambda, print_losses)


FUNCTIONS = dict(pairwise_distance=pairwise_distance, contrastive_loss=contrastive_loss,
                 triplet_semihard_loss=triplet_semihard_loss,
                 lifted_struct_loss=lifted_struct_loss, npairs_loss=npairs_loss,
                 npairs_loss_multilabel=npairs_loss_multilabel)
