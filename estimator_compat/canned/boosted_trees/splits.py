"""The best split of each node of the layer being grown, from its gradient / hessian stats.

In numpy float32, as TensorFlow's split kernels computed it (cumulative sums bucket by bucket,
the first candidate kept on ties, `gain - best >= 1e-15` to replace it), so the same stats
choose the same splits. The last bucket of each feature's stats holds its missing values.
"""
import numpy as np

F32 = np.float32
TOLERANCE = F32(1e-15)
LOWEST = np.finfo(np.float32).min
INEQUALITY_DEFAULT_LEFT, INEQUALITY_DEFAULT_RIGHT, EQUALITY_DEFAULT_RIGHT = 0, 1, 3


def weights_and_gains(g, h, l1, l2):
    """(leaf weights, gains) of gradient sums g [..., L] and hessian sums h [..., L or L*L]."""
    logits = g.shape[-1]
    if logits == 1:
        g, h = g[..., 0].astype(F32), h[..., 0].astype(F32)
        l1, l2 = F32(l1), F32(l2)
        zero = np.zeros_like(g)
        if l1 > 0:
            shrunk = np.where(g > l1, g - l1, np.where(g < -l1, g + l1, zero))
        else:
            shrunk = g
        with np.errstate(divide="ignore", invalid="ignore"):
            weight = np.where(h + l2 <= TOLERANCE, zero, -shrunk / (h + l2)).astype(F32)
        weight = np.where((l1 > 0) & (np.abs(g) <= l1), zero, weight)
        gain = (-shrunk * weight).astype(F32)
        return weight[..., None], gain
    return _full_hessian(g, h, l2)


def _full_hessian(g, h, l2):
    """Multi-class: w = -(H + l2 I)^-1 g, gain = -g.w; H read column-major and solved by QR
    with column pivoting (a basic solution where H is singular), as Eigen did."""
    logits = g.shape[-1]
    if h.shape[-1] == logits:  # a diagonal hessian
        h = np.einsum("...i,ij->...ij", h, np.eye(logits, dtype=F32))
    else:
        h = np.swapaxes(h.reshape(h.shape[:-1] + (logits, logits)), -1, -2)
    matrix = (h + F32(l2) * np.eye(logits, dtype=F32)).astype(np.float64)
    flat_m, flat_g = matrix.reshape(-1, logits, logits), g.reshape(-1, logits).astype(np.float64)
    weight = np.stack([-_pivoted_qr_solve(m, v) for m, v in zip(flat_m, flat_g)])
    weight = weight.astype(F32).reshape(g.shape)
    gain = (-(g.astype(F32) * weight).sum(-1)).astype(F32)
    return weight, gain


def _pivoted_qr_solve(a, b):
    """x minimizing |a x - b| with Householder QR and column pivoting; columns beyond the
    numerical rank (float32 epsilon times size, relative to the largest pivot) get 0."""
    n = a.shape[0]
    r, qtb, perm = a.copy(), b.copy(), np.arange(n)
    for k in range(n):
        j = k + int(np.argmax(np.linalg.norm(r[k:, k:], axis=0)))
        r[:, [k, j]], perm[[k, j]] = r[:, [j, k]], perm[[j, k]]
        v = r[k:, k].copy()
        norm = np.linalg.norm(v)
        if norm == 0:
            continue
        v[0] += np.copysign(norm, v[0])
        v /= np.linalg.norm(v)
        r[k:, k:] -= 2.0 * np.outer(v, v @ r[k:, k:])
        qtb[k:] -= 2.0 * v * (v @ qtb[k:])
    diagonal = np.abs(np.diag(r))
    rank = int(np.sum(diagonal > np.finfo(np.float32).eps * n * diagonal.max())) \
        if diagonal.max() > 0 else 0
    x = np.zeros(n)
    if rank:
        x[perm[:rank]] = np.linalg.solve(np.triu(r[:rank, :rank]), qtb[:rank])
    return x


def _sequential_best(gains):
    """Index of the candidate TensorFlow's scan keeps: the first maximum, unless an earlier
    candidate is within the 1e-15 tolerance of it (then the scan itself decides)."""
    best = int(np.argmax(gains))
    earlier = gains[:best]
    if best == 0 or F32(gains[best] - earlier.max()) >= TOLERANCE:
        return best
    current, index = LOWEST, -1
    for i, gain in enumerate(gains):
        if F32(gain - current) >= TOLERANCE:
            current, index = gain, i
    return index


def _inequality_candidates(stats, l1, l2, logits):
    """[dims * buckets * 2] candidates (dimension-major, then bucket, default left before
    default right): gains, leaf weights and the split description."""
    dims, buckets = stats.shape[0], stats.shape[1] - 1
    cumulative = np.cumsum(stats, axis=1, dtype=F32)  # sequential, as the kernel summed
    total = cumulative[:, -1:, :]
    below = cumulative[:, :buckets, :]
    missing = stats[:, buckets:, :]
    left_dl = (below + missing).astype(F32)
    lefts = np.stack([left_dl, below], axis=2)  # [dims, buckets, 2, stats]
    rights = (total[:, :, None, :] - lefts).astype(F32)
    wl, gl = weights_and_gains(lefts[..., :logits], lefts[..., logits:], l1, l2)
    wr, gr = weights_and_gains(rights[..., :logits], rights[..., logits:], l1, l2)
    gains = (gl + gr).astype(F32).reshape(-1)
    dim, bucket, side = np.unravel_index(np.arange(gains.size), (dims, buckets, 2))
    kinds = np.where(side == 0, INEQUALITY_DEFAULT_LEFT, INEQUALITY_DEFAULT_RIGHT)
    return gains, wl.reshape(-1, logits), wr.reshape(-1, logits), dim, bucket, kinds


def _equality_candidates(stats, total, l1, l2, logits):
    dims, buckets = stats.shape[0], stats.shape[1] - 1
    lefts = stats[:, :buckets, :]
    rights = (total[None, None, :] - lefts).astype(F32)
    wl, gl = weights_and_gains(lefts[..., :logits], lefts[..., logits:], l1, l2)
    wr, gr = weights_and_gains(rights[..., :logits], rights[..., logits:], l1, l2)
    gains = (gl + gr).astype(F32).reshape(-1)
    dim, bucket = np.unravel_index(np.arange(gains.size), (dims, buckets))
    return (gains, wl.reshape(-1, logits), wr.reshape(-1, logits), dim, bucket,
            np.full(gains.size, EQUALITY_DEFAULT_RIGHT))


def best_splits(stats, node_range, feature_ids, split_types, l1, l2, tree_complexity,
                min_node_weight, logits):
    """{node_id: split dict} of one group (BoostedTreesCalculateBestFeatureSplitV2); `stats`
    holds each feature's [nodes, dims, buckets + 1, logits + hessians]."""
    out = {}
    stats = [np.asarray(s, F32) for s in stats]
    for node in range(int(node_range[0]), int(node_range[1])):
        first = stats[0][node, 0]  # [buckets + 1, stats]: totals from the group's first feature
        total = np.cumsum(first, axis=0, dtype=F32)[-1]
        hess = total[logits:]
        if F32(np.sqrt(F32((hess * hess).sum(dtype=F32)))) < F32(min_node_weight):
            continue
        _, parent_gain = weights_and_gains(total[None, :logits], total[None, logits:], l1, l2)
        best, best_gain = None, LOWEST
        for f, (feature_id, split_type) in enumerate(zip(feature_ids, split_types)):
            node_stats = stats[f][node]
            if split_type == "inequality":
                cands = _inequality_candidates(node_stats, l1, l2, logits)
            else:
                cands = _equality_candidates(node_stats, total, l1, l2, logits)
            gains = cands[0]
            i = _sequential_best(gains)
            if i < 0 or not gains[i] > best_gain:
                continue
            best_gain = gains[i]
            best = dict(feature_id=int(feature_id), dimension_id=int(cands[3][i]),
                        threshold=int(cands[4][i]), split_type=int(cands[5][i]),
                        left=cands[1][i], right=cands[2][i])
        if best is None:
            continue
        best["gain"] = F32(F32(best_gain - parent_gain[0]) - F32(tree_complexity))
        out[node] = best
    return out


def best_per_node(groups):
    """Merges the groups' {node: split} as the ensemble update did: a larger gain (by >= 1e-15)
    wins; equal gains go to the lower feature id."""
    chosen = {}
    for splits in groups:
        for node, split in splits.items():
            best = chosen.get(node)
            if best is not None and abs(F32(split["gain"] - best["gain"])) < TOLERANCE:
                if split["feature_id"] < best["feature_id"]:
                    chosen[node] = split
            elif best is None or F32(split["gain"] - best["gain"]) >= TOLERANCE:
                chosen[node] = split
    return dict(sorted(chosen.items()))
