"""Weighted quantile sketches for numeric columns, as tf.estimator's QuantileAccumulator made them.

TensorFlow 2.21 has no BoostedTrees kernels, so the sketch runs here in numpy, in float32 as
the kernels computed it (values, weights and ranks are float32; error bounds are doubles), so
that the same data give the same bucket boundaries, hence the same trees. A summary is an
`[n, 4]` float32 array of (value, weight, min_rank, max_rank) rows sorted by value. A batch is
summarised through a stream sized for it; summaries of several batches are merged in a stream
sized for 2**40 elements, and its final summary compressed to `num_quantiles` boundaries.
"""
import math

import numpy as np

F32 = np.float32
RESOURCE_MAX_ELEMENTS = 1 << 40  # the accumulator resource's max_elements default


def quantile_specs(eps, max_elements):
    """(levels, block size) of a stream: the smallest level count whose capacity holds
    `max_elements` at approximation error eps."""
    eps = float(F32(eps))
    levels, block = 1, 2
    while (1 << levels) * block < max_elements:
        block = int(math.ceil(levels / eps)) + 1
        levels += 1
    return levels, max(block, 2)


def _from_sorted_buffer(values, weights):
    """A summary of deduplicated sorted values: ranks are cumulative weights (float32)."""
    cumulative = np.cumsum(weights, dtype=F32)
    mins = np.concatenate([[F32(0)], cumulative[:-1]]).astype(F32)
    return np.stack([values, weights, mins, cumulative], axis=1).astype(F32)


def _buffer_summary(values, weights):
    """Sorts a buffer, merges equal values (weights summed in order) and builds a summary."""
    order = np.argsort(values, kind="stable")
    values, weights = values[order], weights[order]
    starts = np.flatnonzero(np.concatenate([[True], values[1:] != values[:-1]]))
    summed = np.add.reduceat(weights, starts).astype(F32) if len(values) else weights
    return _from_sorted_buffer(values[starts], summed)


def compress(summary, size_hint, min_eps=0.0):
    """Keeps about `size_hint` entries (always the first and last), adding at most
    max(1 / size_hint, min_eps) to the approximation error."""
    size_hint = max(int(size_hint), 2)
    n = len(summary)
    if n <= size_hint:
        return summary
    eps_delta = float(summary[-1, 3]) * max(1.0 / size_hint, float(min_eps))
    prev_max = (summary[:, 3] - summary[:, 1]).astype(F32).tolist()
    next_min = (summary[:, 2] + summary[:, 1]).astype(F32)
    keep, last, read, accumulator = [0], 1, 0, 0
    f32 = np.float32
    while read + 1 != n:
        following = read + 1
        low = next_min[read]
        while following != n and accumulator < n and \
                float(f32(prev_max[following]) - low) <= eps_delta:
            accumulator += size_hint
            following += 1
        read = read + 1 if read == following - 1 else following - 1
        keep.append(read)
        last = read
        accumulator -= n
    if last + 1 != n:
        keep.append(n - 1)
    return summary[keep]


def merge(base, other):
    """Merges two summaries keeping rank bounds (the max error of either)."""
    if not len(other):
        return base
    if not len(base):
        return other
    out = []
    i = j = 0
    next_min1 = next_min2 = F32(0)
    n1, n2 = len(base), len(other)
    while i < n1 and j < n2:
        a, b = base[i], other[j]
        if a[0] < b[0]:
            out.append((a[0], a[1], a[2] + next_min2, a[3] + (b[3] - b[1])))
            next_min1 = a[2] + a[1]
            i += 1
        elif b[0] < a[0]:
            out.append((b[0], b[1], b[2] + next_min1, b[3] + (a[3] - a[1])))
            next_min2 = b[2] + b[1]
            j += 1
        else:
            out.append((a[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]))
            next_min1, next_min2 = a[2] + a[1], b[2] + b[1]
            i += 1
            j += 1
    for a in base[i:]:
        out.append((a[0], a[1], a[2] + next_min2, a[3] + other[-1, 3]))
    for b in other[j:]:
        out.append((b[0], b[1], b[2] + next_min1, b[3] + base[-1, 3]))
    return np.array(out, dtype=F32).reshape(-1, 4)


def approximation_error(summary):
    if not len(summary):
        return 0.0
    gaps = np.maximum((summary[1:, 3] - summary[1:, 2]) - summary[1:, 1],
                      (summary[1:, 3] - summary[1:, 1]) - (summary[:-1, 2] + summary[:-1, 1]))
    max_gap = max(F32(0), gaps.max()) if len(gaps) else F32(0)
    return float(max_gap) / float(summary[-1, 3])


def boundaries(summary, num_boundaries):
    """At most `num_boundaries` bucket boundaries from a final summary: a soft compression,
    then the boundaries whose removal leaves the smallest rank gap dropped one at a time
    (TensorFlow 2.8's kernel), then duplicates."""
    if not len(summary):
        return np.zeros([0], F32)
    eps = float(F32(approximation_error(summary) + 1.0 / num_boundaries))
    compressed = compress(summary, num_boundaries, eps)
    keep = list(range(len(compressed)))
    prev_max = compressed[:, 3] - compressed[:, 1]
    next_min = compressed[:, 2] + compressed[:, 1]
    while len(keep) > num_boundaries:  # drop the boundary whose removal leaves the least gap
        kept = np.array(keep)
        gaps = prev_max[kept[2:]] - next_min[kept[:-2]]
        smallest = int(np.argmin(gaps))
        if not gaps[smallest] < summary[-1, 3]:
            break
        del keep[smallest + 1]
    values = compressed[keep, 0]
    return values[np.concatenate([[True], values[1:] != values[:-1]])].astype(F32)


class Stream:
    """A multi-level summary of a stream of weighted values (or of summaries)."""

    def __init__(self, eps, max_elements):
        self.eps = float(F32(eps))  # the kernels took epsilon as a float32
        self.levels_max, self.block = quantile_specs(eps, max_elements)
        self.buffer_size = min(self.block * 2, max_elements)
        self.levels = []

    def push_values(self, values, weights):
        """Pushes entries in order (weights <= 0 skipped); a full buffer becomes a summary."""
        kept = weights > 0
        values, weights = values[kept].astype(F32), weights[kept].astype(F32)
        for start in range(0, len(values), self.buffer_size):
            chunk = slice(start, start + self.buffer_size)
            self._propagate(compress(_buffer_summary(values[chunk], weights[chunk]),
                                     self.block, self.eps))

    def push_summary(self, summary):
        self._propagate(compress(np.asarray(summary, F32).reshape(-1, 4), self.block, self.eps))

    def _propagate(self, local):
        if not len(local):
            return
        level = 0
        while True:
            if len(self.levels) <= level:
                self.levels.append(np.zeros([0, 4], F32))
            current = self.levels[level]
            local = merge(local, current)
            if not len(current) or len(local) <= self.block + 1:
                self.levels[level] = local
                return
            local = compress(local, self.block, self.eps)
            self.levels[level] = np.zeros([0, 4], F32)
            level += 1

    def final_summary(self):
        final = np.zeros([0, 4], F32)
        for summary in self.levels:
            final = merge(final, summary)
        self.levels = []
        return final


def batch_summary(values, weights, eps):
    """The summary of one batch of one feature (MakeQuantileSummaries): a stream sized for it."""
    values = np.asarray(values, F32).reshape(-1)
    weights = np.broadcast_to(np.asarray(weights, F32).reshape(-1), values.shape)
    stream = Stream(eps, len(values) + 1)
    stream.push_values(values, weights)
    return stream.final_summary()


class Accumulator:
    """Per-feature streams across batches until flushed into boundaries."""

    def __init__(self, eps, num_streams):
        self.eps, self.num_streams = eps, num_streams
        self.reset()

    def reset(self):
        self.streams = [Stream(self.eps, RESOURCE_MAX_ELEMENTS) for _ in range(self.num_streams)]

    def add(self, summaries):
        for stream, summary in zip(self.streams, summaries):
            stream.push_summary(summary)

    def flush(self, num_quantiles):
        out = [boundaries(stream.final_summary(), num_quantiles) for stream in self.streams]
        self.reset()
        return out
